// Error lines on stderr: one line each (builders/lib/text/one-line.ts), never a stack, and throttled so that an outage
// under load cannot flood the log.

/** Longest error line the gateway prints (builders/lib/text/one-line.ts cuts longer ones). */
export const MAX_ERROR_LINE = 1000;

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
