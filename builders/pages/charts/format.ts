// Number and time formats of the preview, shared by the build and the browser script.

/** A USD value at full precision: MON trades at a few cents, so rounding to two places would erase its moves. */
export function formatValue(value: number): string {
  const plain = String(value);
  if (!/e/i.test(plain)) return plain;
  return value.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
}

/** A display-only percentage with its sign; the payload keeps the unrounded number. */
export function formatPercent(value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '\u2212' : '';
  return `${sign}${Math.abs(value).toFixed(2)} %`;
}

/** "2026-11-22 14:03 UTC": unambiguous and independent of the reader's locale. */
export function formatInstant(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const SMALL_NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** "seven days", "365 days": a count of days in running text, small numbers spelled out. */
export function formatDays(days: number): string {
  return `${SMALL_NUMBERS[days] ?? formatCount(days)} ${days === 1 ? 'day' : 'days'}`;
}
