// Terminal text: colour only when wanted, word wrap to a width, aligned columns, plain text for reading.
// Styles and measures are Node's own (util.styleText, util.stripVTControlCharacters); what they do not do
// is here: when colour is wanted (the NO_COLOR rule) and the width clamp. Pure but for those two built-ins:
// the caller (run.ts) decides colour and width from stdout and the environment and passes them in.
import * as util from 'node:util';
import type { StyleName, Terminal } from '../render/terminal.ts';

export type { StyleName, Terminal };
/** What the layout helpers read of a terminal. */
type Screen = Pick<Terminal, 'color' | 'width'>;

/**
 * no-color.org: "when present and not an empty string (regardless of its value), prevents the addition
 * of ANSI color". Colour is also only for a terminal: piped output stays plain.
 */
export function wantsColor(isTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  // FORCE_COLOR (as Node and most CLIs read it): colour through a pipe too, e.g. into `less -R`.
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY === true;
}

/**
 * The widths the CLI draws for. Below 20 nothing reads; above 400 a line is no longer a terminal's, and
 * a width taken at its word (`COLUMNS=99999999`, `COLUMNS=1e9`) made a sparkline of that many cells:
 * 736 MB and nothing printed, or "Invalid string length".
 */
export const WIDTH_RANGE = { min: 20, max: 400 } as const;

/** The terminal's width when stdout is one, else $COLUMNS, else 80; within WIDTH_RANGE. */
export function widthOf(columns: number | undefined, env: Record<string, string | undefined>): number {
  const fromEnv = Number(env.COLUMNS);
  const width = columns && columns > 0 ? columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
  return Math.min(WIDTH_RANGE.max, Math.max(WIDTH_RANGE.min, width));
}

/**
 * A style when colour is on. Colour was already decided (wantsColor), so the stream is not asked again
 * (`validateStream: false`); a Node without styleText (before 20.12) prints plain text rather than fail.
 */
export function style(term: Screen, name: StyleName, text: string): string {
  if (!term.color || text === '' || typeof util.styleText !== 'function') return text;
  return util.styleText(name, text, { validateStream: false });
}

/** Columns a string takes, escapes excluded (wide scripts count as one: good enough for this content). */
export function visibleLength(text: string): number {
  return [...util.stripVTControlCharacters(text)].length;
}

/** The terminal a picture draws for (builders/render/terminal.ts), with this module's style, measure and wrap. */
export function terminal(color: boolean, width: number): Terminal {
  const screen = { color, width };
  return {
    color,
    width,
    style: (name, text) => style(screen, name, text),
    visibleLength,
    wrapIndented: (text, first, rest) => wrapIndented(text, width, first, rest),
  };
}

/**
 * Words to lines of at most `width` columns. A word longer than its line (a URL, which cannot wrap) gets
 * a line of its own, shortened in the middle with an ellipsis (fitWord): every line fits the terminal.
 */
export function wrap(text: string, width: number, firstWidth = width): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  const room = () => (lines.length === 0 ? firstWidth : width);
  let line = '';
  for (const word of words) {
    if (line === '') line = fitWord(word, room());
    else if (visibleLength(line) + 1 + visibleLength(word) <= room()) line += ` ${word}`;
    else {
      lines.push(line);
      line = fitWord(word, room());
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * `word` within `width` columns: as it is when it fits, else its start and its end around "…" (a URL
 * keeps its host and its last path segment). A styled word is left whole: cutting it would cut its escape.
 */
export function fitWord(word: string, width: number): string {
  const chars = [...word];
  if (chars.length <= width || util.stripVTControlCharacters(word) !== word) return word;
  const head = Math.ceil((width - 1) / 2);
  return `${chars.slice(0, head).join('')}\u2026${chars.slice(chars.length - (width - 1 - head)).join('')}`;
}

/** Wraps `text` to the terminal, the first line after `first`, the next ones after `rest` (hanging indent). */
export function wrapIndented(
  text: string,
  width: number,
  first: string,
  rest = ' '.repeat(visibleLength(first)),
): string[] {
  const room = (indent: string) => Math.max(10, width - visibleLength(indent));
  return wrap(text, room(rest), room(first)).map((line, i) => (i === 0 ? first : rest) + line);
}

/**
 * Rows aligned in columns: every column but the last padded to its widest cell, the last wrapped in the
 * room left. When that room is too narrow, the last cell goes on its own indented lines instead.
 */
export function table(rows: string[][], width: number, indent = '  ', gap = '  '): string[] {
  if (rows.length === 0) return [];
  const columns = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: columns - 1 }, (_, c) =>
    Math.max(0, ...rows.map((r) => (c < r.length - 1 ? visibleLength(r[c]!) : 0))),
  );
  const lead = visibleLength(indent) + widths.reduce((sum, w) => sum + w + visibleLength(gap), 0);
  const narrow = width - lead < 24;
  const out: string[] = [];
  for (const row of rows) {
    const cells = row.slice(0, -1).map((cell, c) => cell + ' '.repeat(widths[c]! - visibleLength(cell)));
    const last = row.at(-1) ?? '';
    const head = indent + cells.map((c) => c + gap).join('');
    if (last === '') out.push(head.trimEnd());
    else if (!narrow) out.push(...wrapIndented(last, width, head, ' '.repeat(lead)));
    else {
      out.push(head.trimEnd());
      out.push(...wrapIndented(last, width, indent + '    '));
    }
  }
  return out;
}

/**
 * Plain text laid out as the site writes it (schemas/JsonFeed.schema.json, `content_text`): a line
 * indented by four spaces is code and stays verbatim; any other line is wrapped to the terminal, a list
 * item ("• ", "1. ", nested two spaces in) or a quote ("> ") hanging under its marker. No markup is read.
 */
export function renderText(term: Screen, text: string): string[] {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (out.length && out.at(-1) !== '') out.push('');
    } else if (/^ {4}/.test(line)) {
      out.push(style(term, 'cyan', line.trimEnd()));
    } else {
      const [, indent = '', marker = '', rest = ''] = /^( {0,3})((?:[•>]|\d+\.) )?(.*)$/s.exec(line)!;
      if (marker === '> ')
        out.push(...wrapIndented(style(term, 'italic', rest), term.width, indent + style(term, 'dim', '│ ')));
      else out.push(...wrapIndented(rest, term.width, indent + marker));
    }
  }
  while (out.at(-1) === '') out.pop();
  return out;
}
