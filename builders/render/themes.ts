// The owner's look (docs/site.md#themes): six themes, each a light and a dark palette, and the WCAG
// contrast arithmetic that checks them. The one source of every colour the site draws with: the pages'
// stylesheet (builders/build/pages/theme-css.ts), the cards (builders/build/cards.ts) and whatever else is drawn in
// the owner's theme read their colours here, through `lookOf` and `palette`.
//
// Each palette starts from its theme's published colours (`source`); where a published colour misses
// WCAG 2.2 AA against its background (Nord's frost blue and Solarized's blue on their light backgrounds,
// Dracula's comment grey), it is moved along its own hue until it passes, and the comment says so.
// test/themes.test.ts checks every pair below for all twelve palettes.
import { ConfigError } from '../lib/errors.ts';
import { DARK, LIGHT, type ChartTheme } from './charts/theme.ts';

export const THEME_NAMES = ['default', 'nord', 'solarized', 'gruvbox', 'dracula', 'high-contrast'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];
export const SCHEMES = ['light', 'dark'] as const;
export type Scheme = (typeof SCHEMES)[number];

/**
 * Every colour of one variant of a theme, `#rrggbb`: the charts' (background, border, text, muted, grid,
 * up and down, heatmap levels) and the page's besides.
 */
export interface Palette extends ChartTheme {
  /** A raised surface on the background: code, table headers, the toggle. */
  surface: string;
  /** Links and marks (focus rings, the current page, the pressed toggle); the owner's accent replaces it. */
  accent: string;
  /** The demo notice's background and border, and the highlight of a linked-to element (:target). */
  notice: string;
  noticeBorder: string;
  target: string;
}

export interface Theme {
  name: ThemeName;
  /** Where its colours are published. */
  source: string;
  light: Palette;
  dark: Palette;
}

/**
 * GitHub's Primer colours: the site's look before themes, unchanged. Its chart colours are the page
 * script's own defaults (builders/render/charts/theme.ts), so they are declared there and only there.
 */
const DEFAULT: Theme = {
  name: 'default',
  source: 'https://primer.style/foundations/primitives/color',
  light: {
    ...LIGHT,
    surface: '#f6f8fa',
    accent: '#0b57d0',
    notice: '#fff8c5',
    noticeBorder: '#d4a72c',
    target: '#fff8c5',
  },
  dark: {
    ...DARK,
    surface: '#151b23',
    accent: '#4493f8',
    notice: '#2e2a1a',
    noticeBorder: '#9e6a03',
    target: '#2d2608',
  },
};

/**
 * Nord: Polar Night #2e3440 #3b4252 #434c5e #4c566a, Snow Storm #d8dee9 #e5e9f0 #eceff4, Frost #8fbcbb
 * #88c0d0 #81a1c1 #5e81ac, Aurora #bf616a #d08770 #ebcb8b #a3be8c #b48ead. On Snow Storm only Polar Night
 * reaches 4.5:1, so the light variant's blue, green and red are Frost #5e81ac and Aurora darkened along
 * their hues; on Polar Night, Aurora red is lightened for text.
 */
const NORD: Theme = {
  name: 'nord',
  source: 'https://www.nordtheme.com/docs/colors-and-palettes',
  light: {
    background: '#eceff4',
    surface: '#e5e9f0',
    border: '#c2cad8',
    text: '#2e3440',
    muted: '#4c566a',
    accent: '#3e6391',
    up: '#4a6b2f',
    down: '#a3434d',
    grid: '#c2cad8',
    notice: '#f3e6c6',
    noticeBorder: '#c7a255',
    target: '#f3e6c6',
    levels: ['#d8dee9', '#b7d0e3', '#88c0d0', '#5e81ac', '#3e6391'],
  },
  dark: {
    background: '#2e3440',
    surface: '#3b4252',
    border: '#4c566a',
    text: '#eceff4',
    muted: '#d8dee9',
    accent: '#88c0d0',
    up: '#a3be8c',
    down: '#e39aa1',
    grid: '#4c566a',
    notice: '#3b4252',
    noticeBorder: '#ebcb8b',
    target: '#3b4252',
    levels: ['#3b4252', '#4c627a', '#5e81ac', '#81a1c1', '#88c0d0'],
  },
};

/**
 * Solarized: base03 #002b36, base02 #073642, base01 #586e75, base00 #657b83, base0 #839496, base1
 * #93a1a1, base2 #eee8d5, base3 #fdf6e3, and the accents yellow #b58900, orange #cb4b16, red #dc322f,
 * magenta #d33682, violet #6c71c4, blue #268bd2, cyan #2aa198, green #859900. Its body tones (base00 on
 * base3, base0 on base03) sit near 4:1, so text takes the next darker or lighter base; blue, green and red
 * are darkened (light) or lightened (dark) along their hues to reach 4.5:1.
 */
const SOLARIZED: Theme = {
  name: 'solarized',
  source: 'https://ethanschoonover.com/solarized/',
  light: {
    background: '#fdf6e3',
    surface: '#eee8d5',
    border: '#d3cbb7',
    text: '#073642',
    muted: '#4d6169',
    accent: '#1a6597',
    up: '#5c6a00',
    down: '#b02624',
    grid: '#d3cbb7',
    notice: '#f5e6b8',
    noticeBorder: '#b58900',
    target: '#f5e6b8',
    levels: ['#eee8d5', '#c9d38a', '#a3b33f', '#7a8c00', '#5c6a00'],
  },
  dark: {
    background: '#002b36',
    surface: '#073642',
    border: '#28505a',
    text: '#eee8d5',
    muted: '#93a1a1',
    accent: '#5fb0ea',
    up: '#a6bd00',
    down: '#e87a78',
    grid: '#28505a',
    notice: '#073642',
    noticeBorder: '#b58900',
    target: '#073642',
    levels: ['#073642', '#3d5a00', '#5e7a00', '#859900', '#a6bd00'],
  },
};

/**
 * Gruvbox: dark bg #282828 fg #ebdbb2 gray #a89984, bright red #fb4934 green #b8bb26 yellow #fabd2f blue
 * #83a598 aqua #8ec07c; light bg #fbf1c7 fg #3c3836 fg3 #665c54, faded red #9d0006 green #79740e blue
 * #076678 aqua #427b58. Its published colours pass as they are.
 */
const GRUVBOX: Theme = {
  name: 'gruvbox',
  source: 'https://github.com/morhetz/gruvbox',
  light: {
    background: '#fbf1c7',
    surface: '#f2e5bc',
    border: '#d5c4a1',
    text: '#3c3836',
    muted: '#665c54',
    accent: '#076678',
    up: '#6c670c',
    down: '#9d0006',
    grid: '#d5c4a1',
    notice: '#f2e5bc',
    noticeBorder: '#b57614',
    target: '#ebdbb2',
    levels: ['#ebdbb2', '#c5c77a', '#98971a', '#79740e', '#5a570a'],
  },
  dark: {
    background: '#282828',
    surface: '#32302f',
    border: '#504945',
    text: '#ebdbb2',
    muted: '#a89984',
    accent: '#83a598',
    up: '#b8bb26',
    down: '#fc6c5b',
    grid: '#504945',
    notice: '#32302f',
    noticeBorder: '#d79921',
    target: '#332f2c',
    levels: ['#3c3836', '#5a5a14', '#79740e', '#98971a', '#b8bb26'],
  },
};

/**
 * Dracula: bg #282a36, current line #44475a, fg #f8f8f2, comment #6272a4, cyan #8be9fd, green #50fa7b,
 * orange #ffb86c, pink #ff79c6, purple #bd93f9, red #ff5555, yellow #f1fa8c. Light is Dracula's own
 * Alucard: bg #fffbeb, fg #1f1f1f, comment #6c664b, purple #644ac9, red #cb3a2a, green #14710a, cyan
 * #036a96. The comment grey (#6272a4, 3:1 on its background) is lightened for secondary text.
 */
const DRACULA: Theme = {
  name: 'dracula',
  source: 'https://draculatheme.com/spec',
  light: {
    background: '#fffbeb',
    surface: '#f5efd6',
    border: '#d9d2b4',
    text: '#1f1f1f',
    muted: '#6c664b',
    accent: '#644ac9',
    up: '#14710a',
    down: '#c33828',
    grid: '#d9d2b4',
    notice: '#f7ecc0',
    noticeBorder: '#846e15',
    target: '#f7ecc0',
    levels: ['#efe8cf', '#c8b8f0', '#9c84e6', '#7c5fd8', '#644ac9'],
  },
  dark: {
    background: '#282a36',
    surface: '#343746',
    border: '#44475a',
    text: '#f8f8f2',
    muted: '#a8b2d8',
    accent: '#bd93f9',
    up: '#50fa7b',
    down: '#ff7979',
    grid: '#44475a',
    notice: '#343746',
    noticeBorder: '#f1fa8c',
    target: '#383a4a',
    levels: ['#343746', '#4d3d74', '#7a5cb5', '#9d78d8', '#bd93f9'],
  },
};

/**
 * High contrast, from Windows' contrast themes: light is "Desert" (background #fffaef, hyperlink #1c5e75)
 * with black text, dark is "High Contrast Black" (white on black, #ffff00 links); every text past 7:1
 * (WCAG AAA).
 */
const HIGH_CONTRAST: Theme = {
  name: 'high-contrast',
  source: 'https://learn.microsoft.com/windows/apps/design/accessibility/high-contrast-themes',
  light: {
    background: '#fffaef',
    surface: '#f5efe1',
    border: '#000000',
    text: '#000000',
    muted: '#1f1f1f',
    accent: '#1c5e75',
    up: '#005a00',
    down: '#9f0000',
    grid: '#6b6b6b',
    notice: '#fffaef',
    noticeBorder: '#000000',
    target: '#fff0b3',
    levels: ['#e6e6e6', '#8fd18f', '#3a9a3a', '#1f6e1f', '#003c00'],
  },
  dark: {
    background: '#000000',
    surface: '#121212',
    border: '#ffffff',
    text: '#ffffff',
    muted: '#e6e6e6',
    accent: '#ffff00',
    up: '#3ff23f',
    down: '#ff8080',
    grid: '#8a8a8a',
    notice: '#000000',
    noticeBorder: '#ffffff',
    target: '#2b2b00',
    levels: ['#262626', '#0f4f0f', '#1f8f1f', '#2fcf2f', '#3ff23f'],
  },
};

export const THEMES: Readonly<Record<ThemeName, Theme>> = {
  default: DEFAULT,
  nord: NORD,
  solarized: SOLARIZED,
  gruvbox: GRUVBOX,
  dracula: DRACULA,
  'high-contrast': HIGH_CONTRAST,
};

/** The owner's choice (site.json `theme` and `accent`), resolved: both palettes, the accent applied. */
export interface Look {
  theme: ThemeName;
  light: Palette;
  dark: Palette;
}

/** WCAG 2.2 AA: text 4.5:1; large text (24 px, or 18.66 px bold) and graphics 3:1. */
export const MIN_TEXT_CONTRAST = 4.5;
export const MIN_GRAPHICS_CONTRAST = 3;

const HEX = /^#[0-9a-f]{6}$/i;

/** WCAG 2.2 relative luminance of `#rrggbb` (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance). */
export function relativeLuminance(hex: string): number {
  if (!HEX.test(hex)) throw new Error(`not a #rrggbb colour: ${hex}`);
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2 contrast ratio, (L1 + 0.05) / (L2 + 0.05) with L1 the lighter: 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** A ratio as people write it: 4.48:1 (two decimals, truncated, so a failing ratio never reads as 4.50). */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/**
 * Which colour is drawn on which, in every palette, and the ratio it needs: the page's and the cards' text
 * (body, secondary, links) on each background it may sit on, the rise and fall figures on the page and its
 * raised surfaces. test/themes.test.ts checks all twelve palettes, and the charts' lines as graphics (3:1).
 */
export const CONTRAST_PAIRS: ReadonlyArray<{
  colours: ReadonlyArray<keyof Palette>;
  on: ReadonlyArray<keyof Palette>;
  min: number;
}> = [
  { colours: ['text', 'muted', 'accent'], on: ['background', 'surface', 'notice', 'target'], min: MIN_TEXT_CONTRAST },
  { colours: ['up', 'down'], on: ['background', 'surface'], min: MIN_TEXT_CONTRAST },
];

/** The backgrounds a link is drawn on: where the owner's accent must reach 4.5:1. */
const ACCENT_BACKGROUNDS = CONTRAST_PAIRS[0]!.on as ReadonlyArray<'background' | 'surface' | 'notice' | 'target'>;

/** The accent as site.json may give it: one colour for both variants, or one each. */
export type Accent = string | { light: string; dark: string };

/** What site.json says of the look; both optional. */
export interface LookSettings {
  theme?: unknown;
  accent?: unknown;
}

/**
 * The look site.json asks for, checked (docs/site.md#themes): an unknown theme, an accent that is not
 * `#rrggbb` (or `{"light": …, "dark": …}`), or one under 4.5:1 against a background it colours is a
 * ConfigError naming `file` and the field (the build's exit 2). A single accent must pass on both variants.
 */
export function lookOf(settings: LookSettings, file = 'site/site.json'): Look {
  const { theme = 'default', accent } = settings;
  if (typeof theme !== 'string' || !(THEME_NAMES as readonly string[]).includes(theme))
    throw new ConfigError(
      file,
      `"theme" ${JSON.stringify(typeof theme === 'string' ? theme.slice(0, 40) : theme)} is not a theme; choose one of ${THEME_NAMES.join(', ')}`,
    );
  const chosen = THEMES[theme as ThemeName];
  const accents = accentPair(accent, file);
  const variant = (scheme: Scheme): Palette => {
    const base = chosen[scheme];
    const colour = accents?.[scheme];
    if (colour === undefined) return base;
    for (const on of ACCENT_BACKGROUNDS) {
      const ratio = contrastRatio(colour, base[on]);
      if (ratio < MIN_TEXT_CONTRAST)
        throw new ConfigError(
          file,
          `"accent" ${colour} has ${formatRatio(ratio)} against the ${theme} theme's ${scheme} ${on} ${base[on]}; links need ${MIN_TEXT_CONTRAST}:1${typeof accent === 'string' ? ' (one accent colours both variants: give {"light": …, "dark": …} to choose each)' : ''}`,
        );
    }
    return { ...base, accent: colour };
  };
  return { theme: chosen.name, light: variant('light'), dark: variant('dark') };
}

function accentPair(accent: unknown, file: string): Record<Scheme, string> | undefined {
  if (accent === undefined) return undefined;
  const colour = (value: unknown, field: string): string => {
    if (typeof value !== 'string' || !HEX.test(value))
      throw new ConfigError(
        file,
        `"${field}" ${JSON.stringify(typeof value === 'string' ? value.slice(0, 40) : value)} is not a colour written #rrggbb`,
      );
    return value.toLowerCase();
  };
  if (typeof accent === 'string') {
    const one = colour(accent, 'accent');
    return { light: one, dark: one };
  }
  if (accent === null || typeof accent !== 'object' || Array.isArray(accent))
    throw new ConfigError(file, '"accent" must be "#rrggbb" or {"light": "#rrggbb", "dark": "#rrggbb"}');
  const pair = accent as Record<string, unknown>;
  const extra = Object.keys(pair).filter((k) => k !== 'light' && k !== 'dark');
  if (extra.length > 0)
    throw new ConfigError(
      file,
      `"accent" holds ${JSON.stringify(extra[0]!.slice(0, 40))}; it takes only "light" and "dark"`,
    );
  return { light: colour(pair.light, 'accent.light'), dark: colour(pair.dark, 'accent.dark') };
}

/** The stock look: the default theme, no accent. */
export const DEFAULT_LOOK: Look = lookOf({});
