// How wide a line of text is drawn, estimated without a browser: the cards are laid out at build time,
// in the reader's system sans-serif (cards.ts names no font file). Each character's advance is taken
// from the widest of the common system sans-serif fonts (Segoe UI, Helvetica, Noto Sans, Arial and
// DejaVu Sans, where Linux falls back), rounded up, so that a line that fits here fits when drawn.
// Measured in Chromium with DejaVu Sans, the widest: no text of the market card is wider than its estimate.

const NARROW = new Set([..."iIjl.,:;'|!()[]{}ftr-"]);
const WIDE = new Set([...'mwMW%@&—−']);

/** The advance of one character at a font size of 1, in em. */
function advance(c: string): number {
  if (c === ' ') return 0.33;
  if (NARROW.has(c)) return 0.4;
  if (WIDE.has(c)) return 0.92;
  if (/[0-9]/.test(c)) return 0.64;
  if (/[A-Z]/.test(c)) return 0.77;
  if (/[a-z]/.test(c)) return 0.62;
  return 0.7;
}

/**
 * The estimated width of `text` in pixels at `fontSize`; bold text runs up to 15 % wider (DejaVu Sans
 * Bold's capitals, measured in Chromium: a title of 39 W and M ran past a 10 % estimate).
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const c of text) em += advance(c);
  return em * fontSize * (bold ? 1.15 : 1);
}

/**
 * `text` broken into lines no wider than `maxWidth`: greedily, at `separator` first (a card's " · " keeps
 * "as of <time>" whole), then at spaces inside a part that is wider on its own. A single word wider than
 * the line stays whole on its own line rather than being cut.
 */
export function wrapText(text: string, maxWidth: number, fontSize: number, separator = ' '): string[] {
  const fits = (line: string) => textWidth(line, fontSize) <= maxWidth;
  const lines: string[] = [];
  for (const part of text.split(separator)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && fits(`${last}${separator}${part}`))
      lines[lines.length - 1] = `${last}${separator}${part}`;
    else if (fits(part) || separator === ' ') lines.push(part);
    else lines.push(...wrapText(part, maxWidth, fontSize, ' '));
  }
  return lines;
}

/**
 * `text` as it fits in `maxWidth`: whole when it does, else cut at a character and ended with "…". The
 * card keeps the whole text in its <title> and <desc>, so nothing is lost to a reader that asks.
 */
export function ellipsize(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 0 && textWidth(`${chars.join('').trimEnd()}…`, fontSize, bold) > maxWidth) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}
