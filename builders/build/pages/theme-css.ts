// The stylesheet's colours: the owner's theme (builders/render/themes.ts) as CSS custom properties, written ahead of
// site/styles/site.css, which uses only the properties. Only the owner's theme ships.
//
// Which variant shows: the reader's system (prefers-color-scheme) unless the visitor chose one with the
// header's toggle, which the head script (site/scripts/scheme.ts) writes as `data-scheme` on <html> before
// the first paint. Without script there is no attribute, and the page follows the system.
import { CODE_TOKENS, codeColours } from '../../render/code-colours.ts';
import type { Look, Palette } from '../../render/themes.ts';

/** The custom property of each palette colour, as site/styles/site.css names them. */
const PROPERTIES: ReadonlyArray<[name: string, colour: (p: Palette) => string]> = [
  ['--bg', (p) => p.background],
  ['--card', (p) => p.surface],
  ['--line', (p) => p.border],
  ['--fg', (p) => p.text],
  ['--muted', (p) => p.muted],
  ['--accent', (p) => p.accent],
  ['--up', (p) => p.up],
  ['--down', (p) => p.down],
  ['--grid', (p) => p.grid],
  ['--notice-bg', (p) => p.notice],
  ['--notice-line', (p) => p.noticeBorder],
  ['--target', (p) => p.target],
  ...[0, 1, 2, 3, 4].map((level): [string, (p: Palette) => string] => [`--level-${level}`, (p) => p.levels[level]!]),
  // Highlighted code's tokens (site.css maps highlight.js's classes to them).
  ...CODE_TOKENS.map((token): [string, (p: Palette) => string] => [`--code-${token}`, (p) => codeColours(p)[token]]),
];

const properties = (palette: Palette, scheme: 'light' | 'dark') =>
  `${PROPERTIES.map(([name, colour]) => `${name}:${colour(palette)}`).join(';')};color-scheme:${scheme}`;

/** The attribute the head script sets on <html> for a visitor's choice: `light` or `dark` (none: automatic). */
export const SCHEME_ATTRIBUTE = 'data-scheme';

/** The theme's rules, to go before the stylesheet's own. */
export function themeCss(look: Look): string {
  const light = properties(look.light, 'light');
  const dark = properties(look.dark, 'dark');
  return [
    `/* Theme "${look.theme}" (docs/site.md#themes), written by the build. */`,
    `:root{${light}}`,
    `@media (prefers-color-scheme: dark){:root:not([${SCHEME_ATTRIBUTE}='light']){${dark}}}`,
    `:root[${SCHEME_ATTRIBUTE}='dark']{${dark}}`,
    '',
  ].join('\n');
}
