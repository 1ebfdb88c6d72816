// Pure arithmetic and formatting of the benchmark: medians, percentiles, ratios and the printed table.
// Kept free of I/O so that the figures the report quotes are computed by tested functions.

/** The median of a list of numbers; NaN for an empty list (a figure that was not measured). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The smallest and largest of a list; NaN for an empty list. A loop, not Math.min(...values): spreading
 * a long run's samples (a load test gathers hundreds of thousands) into arguments overflows the stack.
 */
export function extremes(values: readonly number[]): { min: number; max: number } {
  if (values.length === 0) return { min: Number.NaN, max: Number.NaN };
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/**
 * The p-th percentile (0 < p <= 100) of an ascending list, nearest-rank method: the smallest value
 * such that at least p % of the samples are less than or equal to it.
 */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sortedAscending[rank - 1]!;
}

/** value / peer, or NaN when either side was not measured or the peer is zero. */
export function ratio(value: number, peer: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(peer) || peer === 0) return Number.NaN;
  return value / peer;
}

export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a';
  return `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`;
}

/** A number for humans: thousands separated, `digits` decimals, `n/a` when not measured. */
export function formatNumber(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}

/** One printed line of the report: what is measured, the gateway's figure, the peer's, and their ratio. */
export interface TableRow {
  group: string;
  measure: string;
  value: string;
  peer: string;
  ratio: string;
}

export const TABLE_HEADER: TableRow = {
  group: 'group',
  measure: 'measure',
  value: 'gateway',
  peer: 'peer',
  ratio: 'ratio',
};

/** Aligns the rows in columns; numbers (value, peer, ratio) are right-aligned. */
export function formatTable(rows: readonly TableRow[]): string {
  const all = [TABLE_HEADER, ...rows];
  const keys = ['group', 'measure', 'value', 'peer', 'ratio'] as const;
  const widths = keys.map((k) => Math.max(...all.map((r) => r[k].length)));
  const line = (r: TableRow) =>
    keys
      .map((k, i) => (i < 2 ? r[k].padEnd(widths[i]!) : r[k].padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(TABLE_HEADER), rule, ...rows.map(line)].join('\n');
}

/**
 * The order in which the targets run in round `round`: rotated by one each round, so that no target
 * always runs first (warm caches, a quiet machine) or last (a tired one).
 */
export function roundOrder<T>(targets: readonly T[], round: number): T[] {
  if (targets.length === 0) return [];
  const shift = round % targets.length;
  return [...targets.slice(shift), ...targets.slice(0, shift)];
}
