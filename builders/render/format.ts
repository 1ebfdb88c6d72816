// How the service's numbers, dates and times read to a person: on the pages, the cards and in the CLI.
// Pure and dependency-free (the browser script and the bundled cli.mjs both carry it).

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

/** "2026-11-22 14:03:07 UTC": a live tick's time, to the second. */
export function formatInstantSeconds(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const SMALL_NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** "seven days", "365 days": a count of days in running text, small numbers spelled out. */
export function formatDays(days: number): string {
  return `${SMALL_NUMBERS[days] ?? formatCount(days)} ${days === 1 ? 'day' : 'days'}`;
}

/**
 * How many decimals a group of USD values needs so that each is printed exactly (up to 12) and all with
 * the same number of places: value, low and high side by side must line up, and MON's moves sit in the
 * fifth and sixth decimal, so rounding them away would flatten the very thing the chart shows.
 */
export function valueDecimals(values: readonly number[]): number {
  let decimals = 2;
  for (const value of values) {
    const text = formatValue(value);
    const dot = text.indexOf('.');
    if (dot >= 0) decimals = Math.max(decimals, text.length - dot - 1);
  }
  return Math.min(decimals, 12);
}

export function formatFixed(value: number, decimals: number): string {
  return value.toFixed(decimals);
}

const monthAbbreviations = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** What a time that names no instant (NaN, or past Date's ±8.64e15 ms) reads as: never "undefined NaN". */
export const UNKNOWN_TIME = '?';

/** "Nov 17" for a Unix time, in UTC like every time on the page. */
export function formatDayLabel(timeSeconds: number): string {
  const d = new Date(timeSeconds * 1000);
  if (Number.isNaN(d.getTime())) return UNKNOWN_TIME;
  return `${monthAbbreviations[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** "Nov" for an ISO date's month. */
export function monthName(date: string): string {
  return monthAbbreviations[Number(date.slice(5, 7)) - 1] ?? '';
}

/** "2026-11-22 14:00 UTC" for a Unix time. */
export function formatTime(timeSeconds: number): string {
  const d = new Date(timeSeconds * 1000);
  // toISOString throws on an invalid date.
  return Number.isNaN(d.getTime()) ? UNKNOWN_TIME : formatInstant(d.toISOString());
}

/**
 * An ISO date-time as HTML's `datetime` attribute accepts it: HTML's "valid global date and time string"
 * allows one to three digits of fractions of a second, so the provider's microseconds are cut to
 * milliseconds (the text keeps whatever precision the page prints; the payload keeps all of it).
 */
export function htmlDateTime(iso: string): string {
  return iso.replace(/(\.\d{3})\d+/, '$1');
}

/** Day of the week of a calendar date, 0 = Sunday. The date is a label, so no time zone applies. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}
