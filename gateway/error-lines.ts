// Error lines on stderr: one line each, never a stack, and throttled so that an outage under load
// cannot flood the log.
import { redactCredentials } from '../core/errors.ts';
import { INVISIBLE_FORMATTING } from '../core/unicode.ts';

/**
 * Collapses a message to one line of bounded length. Line breaks become spaces; every other C0 and C1
 * control (ESC sequences that retitle or recolour a terminal, BEL, NUL) is dropped, since the text may
 * quote an upstream or a request; so are the invisible bidi characters (core/unicode.ts). Credentials
 * the text echoes (core/errors.ts) are redacted.
 */
export function oneLine(text: string): string {
  return (
    redactCredentials(text)
      // Whole whitespace runs, each matched once (a /\s*\n+\s*/ pattern backtracks quadratically on spaces).
      .replace(/\s+/g, (run) => (/[\r\n\u2028\u2029]/.test(run) ? ' ' : run))
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === '\t' ? ' ' : ''))
      .replace(INVISIBLE_FORMATTING, '')
      .slice(0, 1000)
  );
}

/**
 * Each kind of line (its text with numbers masked: timestamps in upstream URLs, counts) is printed at
 * most once a second; the lines held back are counted and the count rides on the next one printed,
 * so an outage under load cannot flood stderr.
 */
export function throttledLines(write: (line: string) => void, now: () => number): (line: string) => void {
  const kinds = new Map<string, { printedAt: number; held: number }>();
  return (line) => {
    const t = now();
    const shape = line.replace(/\d+/g, '#');
    const kind = kinds.get(shape);
    if (kind !== undefined && t - kind.printedAt < 1000) {
      kind.held++;
      return;
    }
    if (kinds.size >= 100 && kind === undefined) kinds.clear();
    write(kind !== undefined && kind.held > 0 ? `${line} (and ${kind.held} like it since the last one)` : line);
    kinds.set(shape, { printedAt: t, held: 0 });
  };
}
