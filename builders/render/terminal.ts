// What a terminal picture (datasets/<id>/picture.ts) may ask of the terminal it draws for: its width,
// whether it takes colour, a style, a measure and a word wrap. The CLI supplies them (builders/cli/terminal.ts,
// with Node's util.styleText and util.stripVTControlCharacters); a picture stays pure and browser-safe,
// importing no Node module, so the same shelf rules hold for it as for the page's views.

export type StyleName = 'bold' | 'dim' | 'italic' | 'underline' | 'cyan' | 'green' | 'red' | 'yellow';

export interface Terminal {
  readonly color: boolean;
  /** Columns, within the CLI's clamp (builders/cli/terminal.ts WIDTH_RANGE). */
  readonly width: number;
  /** `text` in a style when colour is on, else as it is. */
  style(name: StyleName, text: string): string;
  /** Columns `text` takes on screen, escapes excluded. */
  visibleLength(text: string): number;
  /** `text` wrapped at word boundaries to the width, the first line after `first`, the next after `rest`. */
  wrapIndented(text: string, first: string, rest?: string): string[];
}

/** The indent of a picture's body under its headline. */
export const INDENT = '  ';

/** A picture's first line as it is when it fits (its double spaces align the figures), wrapped when it does not. */
export function headline(term: Terminal, text: string): string[] {
  return term.visibleLength(text) <= term.width ? [text] : term.wrapIndented(text, '');
}

/** Two columns, the labels dim and padded to the widest. */
export function labelled(term: Terminal, rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${INDENT}${term.style('dim', k.padEnd(width))}  ${v}`);
}
