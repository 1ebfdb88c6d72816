// The colours of highlighted code (docs/site.md#code-blocks), derived from each palette's own colours, so
// that every theme, and an owner's accent, colours its code without a table per theme. Each is moved
// along its lightness, hue and saturation kept, until it reaches 4.5:1 against the code block's
// background (the palette's surface: site/styles/site.css draws `pre` on --card).
import { contrastRatio, MIN_TEXT_CONTRAST, type Palette } from './themes.ts';

/** The token roles site/styles/site.css maps highlight.js's classes to (any other class is drawn as text). */
export const CODE_TOKENS = ['keyword', 'string', 'number', 'comment', 'title', 'type', 'meta'] as const;
export type CodeToken = (typeof CODE_TOKENS)[number];
export type CodeColours = Readonly<Record<CodeToken, string>>;

/** The palette colour each role starts from: its reds, greens, blues and yellows, and two blends of them. */
const SOURCES: Readonly<Record<CodeToken, (p: Palette) => string>> = {
  keyword: (p) => p.down,
  string: (p) => p.up,
  number: (p) => p.accent,
  comment: (p) => p.muted,
  title: (p) => mix(p.accent, p.down),
  type: (p) => p.noticeBorder,
  meta: (p) => mix(p.accent, p.up),
};

/** The code block's background in `palette`: what every token colour is measured against. */
export const codeBackground = (palette: Palette): string => palette.surface;

/** Each token role's colour in `palette`, every one at least 4.5:1 against codeBackground(palette). */
export function codeColours(palette: Palette): CodeColours {
  const background = codeBackground(palette);
  const colours = {} as Record<CodeToken, string>;
  for (const token of CODE_TOKENS) colours[token] = readableOn(SOURCES[token](palette), background);
  return colours;
}

/**
 * `colour`, or the nearest colour of its hue and saturation with at least `min` contrast against
 * `background`: darker on a light background, lighter on a dark one, in steps of 1% lightness. At the end
 * of that road is black or white, which reach 4.5:1 on any background that is light or dark enough to
 * carry text at all.
 */
export function readableOn(colour: string, background: string, min: number = MIN_TEXT_CONTRAST): string {
  if (contrastRatio(colour, background) >= min) return colour;
  const darker = contrastRatio('#000000', background) >= contrastRatio('#ffffff', background);
  const [h, s, l] = toHsl(colour);
  let candidate = colour;
  for (let step = 1; step <= 100; step++) {
    const lightness = darker ? Math.max(0, l - step / 100) : Math.min(1, l + step / 100);
    candidate = fromHsl(h, s, lightness);
    if (contrastRatio(candidate, background) >= min) return candidate;
  }
  return candidate;
}

/** The midpoint of two `#rrggbb` colours, channel by channel. */
export function mix(a: string, b: string): string {
  const [x, y] = [channels(a), channels(b)];
  return hex(x.map((v, i) => (v + y[i]!) / 2) as Rgb);
}

type Rgb = [number, number, number];

const channels = (colour: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16)) as Rgb;

const hex = (rgb: Rgb): string =>
  `#${rgb
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

function toHsl(colour: string): [h: number, s: number, l: number] {
  const [r, g, b] = channels(colour).map((v) => v / 255) as Rgb;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

function fromHsl(h: number, s: number, l: number): string {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const sector = Math.floor(h / 60) % 6;
  const [r, g, b]: Rgb = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ][sector] as Rgb;
  return hex([(r + m) * 255, (g + m) * 255, (b + m) * 255]);
}
