// The frame every embeddable SVG card shares (docs/api.md#published-paths): its size, fonts, title and
// description, and a text helper. Rules of an image that others embed: no script, no event attribute, no
// link or font from elsewhere (a proxy such as GitHub's camo would drop them, a browser would block them
// in <img>); a <title> and a <desc>; width, height and viewBox. Each dataset draws its own body
// (datasets/*/card.ts).
import type { ChartTheme } from './charts/theme.ts';
import { escapeHtml } from './html.ts';

/** Far below the 30 KiB a card may weigh (test/cards.test.ts). */
export const CARD_MAX_BYTES = 30 * 1024;

/** System fonts only: a card must not fetch a font. */
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif";
export const PAD = 16;
/** The cards' text sizes (the frame's font-size and the footers') and the distance between their lines. */
export const FONT_SIZE = 12;
/** The cards' titles (bold). */
export const TITLE_FONT_SIZE = 15;
export const SMALL_FONT_SIZE = 11;
export const LINE = 16;
export const SMALL_LINE = 14;
/** The least room between a left-aligned text and a right-aligned figure on the same line. */
export const GAP = 12;

export const SIMULATED = 'SIMULATED DATA (demo), not real';
/** Where a demo's calendar comes from, named wherever a real card names GitHub's (the market's is its `source`). */
export const SIMULATED_CALENDAR_SOURCE = 'simulated calendar (npm run demo), not GitHub';

export interface Frame {
  width: number;
  height: number;
  title: string;
  desc: string;
  theme: ChartTheme;
  body: string;
}

export function frame({ width, height, title, desc, theme, body }: Frame): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `role="img" aria-labelledby="card-title card-desc" font-family="${FONT}" font-size="${FONT_SIZE}" fill="${theme.muted}">` +
    `<title id="card-title">${escapeHtml(title)}</title><desc id="card-desc">${escapeHtml(desc)}</desc>` +
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6" fill="${theme.background}" stroke="${theme.border}"/>` +
    `${body}</svg>\n`
  );
}

export const text = (x: number, y: number, content: string, attrs = '') =>
  `<text x="${x}" y="${y}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(content)}</text>`;
