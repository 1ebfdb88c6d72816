// How wide a line of text is drawn, estimated without a browser: the cards are laid out at build time,
// in the reader's system sans-serif (cards.ts names no font file). Each character's advance is taken
// from the widest of the common system sans-serif fonts (Segoe UI, Helvetica, Noto Sans, Arial and
// DejaVu Sans, where Linux falls back), rounded up, so that a line that fits here fits when drawn.
// Measured in Chromium with DejaVu Sans, the widest: no text of the market card is wider than its estimate.
//
// Every function here costs time linear in what it reads, and reads no further than what can be drawn:
// a repository's description has no length limit upstream, and a layout that measured the whole text
// once per character it dropped took minutes on 100,000 characters (docs/site.md#how-long-a-text-may-be).

const NARROW = new Set([..."iIjl.,:;'|!()[]{}ftr-"]);
const WIDE = new Set([...'mwMW%@&—−']);
const ELLIPSIS = '…';

/** Characters measured since the program started: what the tests count to prove the cost linear, never a timing. */
let measured = 0;
export const measuredCharacters = (): number => measured;

/** The advance of one character at a font size of 1, in em. */
function advance(c: string): number {
  measured++;
  if (c === ' ') return 0.33;
  if (NARROW.has(c)) return 0.4;
  if (WIDE.has(c)) return 0.92;
  if (/[0-9]/.test(c)) return 0.64;
  if (/[A-Z]/.test(c)) return 0.77;
  if (/[a-z]/.test(c)) return 0.62;
  return 0.7;
}

const ELLIPSIS_ADVANCE = 0.7;
const pixels = (em: number, fontSize: number, bold: boolean) => em * fontSize * (bold ? 1.15 : 1);

/**
 * The estimated width of `text` in pixels at `fontSize`; bold text runs up to 15 % wider (DejaVu Sans
 * Bold's capitals, measured in Chromium: a title of 39 W and M ran past a 10 % estimate).
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  let em = 0;
  for (const c of text) em += advance(c);
  return pixels(em, fontSize, bold);
}

/** Whether `text` fits in `maxWidth`, read only as far as it fits: a long text costs what the line holds. */
function fits(text: string, maxWidth: number, fontSize: number): boolean {
  let em = 0;
  for (const c of text) {
    em += advance(c);
    if (pixels(em, fontSize, false) > maxWidth) return false;
  }
  return true;
}

/**
 * `text` broken into lines no wider than `maxWidth`: greedily, at `separator` first (a card's " · " keeps
 * "as of <time>" whole), then at spaces inside a part that is wider on its own. A single word wider than
 * the line stays whole on its own line rather than being cut. At most `maxLines` lines, each as the whole
 * text would have it: the text after them is never laid out.
 */
export function wrapText(
  text: string,
  maxWidth: number,
  fontSize: number,
  separator = ' ',
  maxLines = Number.POSITIVE_INFINITY,
): string[] {
  const lines: string[] = [];
  wrapInto(lines, text, maxWidth, fontSize, separator, maxLines);
  return lines;
}

/** wrapText's lines of `text` after `lines`' own; false when it stopped at `maxLines` with text left. */
function wrapInto(
  lines: string[],
  text: string,
  maxWidth: number,
  fontSize: number,
  separator: string,
  maxLines: number,
): boolean {
  // The parts of `text` start a line of their own: none joins a line laid out before them.
  const first = lines.length;
  for (const part of text.split(separator)) {
    const last = lines.length > first ? lines[lines.length - 1] : undefined;
    // Only the last line grows, and only by what fits: its test reads at most the line's width.
    if (last !== undefined && fits(`${last}${separator}${part}`, maxWidth, fontSize))
      lines[lines.length - 1] = `${last}${separator}${part}`;
    else if (lines.length >= maxLines) return false;
    else if (separator === ' ' || fits(part, maxWidth, fontSize)) lines.push(part);
    else if (!wrapInto(lines, part, maxWidth, fontSize, ' ', maxLines)) return false;
  }
  return true;
}

/**
 * `text` as it fits in `maxWidth`: whole when it does, else cut at a character and ended with "…". The
 * card keeps the whole text in its <title> and <desc>, so nothing is lost to a reader that asks. One
 * pass that stops where the line is full: the longest prefix, trailing blanks trimmed, that fits with
 * the "…" after it.
 */
export function ellipsize(text: string, maxWidth: number, fontSize: number, bold = false): string {
  let em = 0;
  let end = 0;
  let cut = 0;
  for (const c of text) {
    em += advance(c);
    end += c.length;
    if (pixels(em, fontSize, bold) > maxWidth) return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
    // A prefix ending in a blank is trimmed to the one before it, whose cut is already known.
    if (!/\s/.test(c) && pixels(em + ELLIPSIS_ADVANCE, fontSize, bold) <= maxWidth) cut = end;
  }
  return text;
}

/**
 * At most `max` lines of `text` (its blanks collapsed) in `width`; the last one ends in "…" when the text
 * goes on. A share picture's title and description, a repository card's description.
 */
export function clampLines(text: string, width: number, size: number, max: number, bold = false): string[] {
  const all = wrapText(text.replace(/\s+/g, ' ').trim(), width, size * (bold ? 1.15 : 1), ' ', max + 1);
  if (all.length <= max) return all.map((l) => ellipsize(l, width, size, bold));
  const kept = all.slice(0, max);
  kept[max - 1] = ellipsize(`${kept[max - 1]} ${all[max]}`, width, size, bold);
  if (!kept[max - 1]!.endsWith(ELLIPSIS)) kept[max - 1] = `${kept[max - 1]}${ELLIPSIS}`;
  return kept;
}
