// Deterministic upstream data for the fakes: a week of market prices (MON-USD by default, any product on its own
// scale: PRICE_LEVELS) and a year of contributions,
// generated from the clock so that every window the code computes finds its data.
import { DateTime } from 'luxon';

/** A small deterministic hash → [0, 1). */
export function unit(seed: string): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return ((h >>> 0) % 1_000_000) / 1_000_000;
}

/**
 * Where each simulated product trades, in USD, so that a fork's pair looks like itself in the demo: MON
 * in cents (where it has traded since its launch at $0.025), BTC in tens of thousands. A product not in
 * the table gets a level from its name by a fixed rule: a power of ten from 0.1 to 1,000 (PRICE_LEVEL_RULE).
 */
export const PRICE_LEVELS: Readonly<Record<string, number>> = {
  MON: 0.03,
  BTC: 60_000,
  ETH: 3_000,
  SOL: 150,
  DOGE: 0.15,
};

/** The level of a base currency missing from PRICE_LEVELS: 10^k for k in -1..3, picked by a hash of its name. */
export function priceLevel(product: string): number {
  const base = product.split('-')[0]!.toUpperCase();
  return PRICE_LEVELS[base] ?? 10 ** (Math.floor(unit(`level:${base}`) * 5) - 1);
}

/**
 * The hourly close of `product` (MON-USD by default) at a candle start time: MON's curve (a few cents,
 * swinging by about a tenth over days, with hourly noise) scaled to the product's level; six decimals
 * below a dollar, two (cents) above, as the provider quotes them.
 */
export function closeAt(hourSeconds: number, product = 'MON-USD'): number {
  const trend = 0.03 + 0.002 * Math.sin(hourSeconds / 86_400);
  const noise = (unit(`close:${hourSeconds}`) - 0.5) * 0.0006;
  const mon = Number((trend + noise).toFixed(6));
  const level = priceLevel(product);
  if (level === PRICE_LEVELS.MON) return mon; // MON's bytes, unchanged
  const value = (mon / PRICE_LEVELS.MON!) * level;
  return Number(value.toFixed(level >= 1 ? 2 : 6));
}

/** Candle rows [time, low, high, open, close, volume] for every hour in [start, end], newest first. */
export function candleRows(
  startSeconds: number,
  endSeconds: number,
  skip: (hour: number) => boolean = () => false,
  product = 'MON-USD',
): number[][] {
  const rows: number[][] = [];
  const first = Math.ceil(startSeconds / 3600) * 3600;
  for (let t = first; t <= endSeconds; t += 3600) {
    if (skip(t)) continue;
    const close = closeAt(t, product);
    const open = closeAt(t - 3600, product);
    rows.push([
      t,
      Math.min(open, close) * 0.998,
      Math.max(open, close) * 1.002,
      open,
      close,
      Number((1000 + unit(`vol:${t}`) * 5000).toFixed(1)),
    ]);
  }
  return rows.reverse();
}

export interface FakeDay {
  date: string;
  count: number;
  level: number;
}

/** Contributions of one date: most days a few, some none, an occasional burst past a thousand. */
export function contributionOn(date: string): FakeDay {
  const u = unit(`day:${date}`);
  const count = u < 0.3 ? 0 : u > 0.995 ? 1204 : Math.floor(u * 12);
  const level = count === 0 ? 0 : count < 3 ? 1 : count < 6 ? 2 : count < 9 ? 3 : 4;
  return { date, count, level };
}

/** Whole Sunday-first weeks covering [from, to] (ISO dates), as GitHub answers. */
export function calendarWeeks(from: string, to: string): FakeDay[][] {
  let day = DateTime.fromISO(from, { zone: 'UTC' });
  day = day.minus({ days: day.weekday % 7 }); // back to Sunday
  const end = DateTime.fromISO(to, { zone: 'UTC' });
  const weeks: FakeDay[][] = [];
  while (day <= end) {
    const week: FakeDay[] = [];
    for (let i = 0; i < 7; i++, day = day.plus({ days: 1 })) week.push(contributionOn(day.toISODate()!));
    weeks.push(week);
  }
  return weeks;
}

/**
 * How GitHub's default calendar view (no query) picks its first date. Its dates are UTC dates ending on the UTC
 * today; captures hold 368 to 370 days from a Sunday, but whether it reaches back one year or exactly 52 whole weeks
 * before the current week is not known (docs/upstreams.md), so the fake can play either.
 */
export type DefaultViewRule = 'one-year' | 'fifty-two-weeks';

export interface DateRange {
  /** First date, inclusive. */
  from: string;
  /** Last date, inclusive. */
  to: string;
}

const sundayOnOrBefore = (day: DateTime) => day.minus({ days: day.weekday % 7 });

/** The dates GitHub's default view holds at `nowMs` under `rule`. */
export function defaultViewRange(nowMs: number, rule: DefaultViewRule): DateRange {
  const todayUtc = DateTime.fromMillis(nowMs, { zone: 'UTC' }).startOf('day');
  const first =
    rule === 'one-year'
      ? sundayOnOrBefore(todayUtc.minus({ years: 1 }))
      : sundayOnOrBefore(todayUtc).minus({ weeks: 52 });
  return { from: first.toISODate()!, to: todayUtc.toISODate()! };
}

/**
 * The dates of GitHub's year view (`?from=YYYY-MM-DD&to=…`): the whole calendar year that holds `from`, with no
 * day after the UTC today. Undefined for a year that has not begun.
 */
export function yearViewRange(from: string, nowMs: number): DateRange | undefined {
  const todayUtc = DateTime.fromMillis(nowMs, { zone: 'UTC' }).toISODate()!;
  const year = from.slice(0, 4);
  const range = { from: `${year}-01-01`, to: `${year}-12-31` < todayUtc ? `${year}-12-31` : todayUtc };
  return range.from <= range.to ? range : undefined;
}

/** Every date of a range, ascending (UTC day arithmetic: no zone can shift a date here). */
export function datesOf(range: DateRange): string[] {
  const dates: string[] = [];
  const last = Date.parse(`${range.to}T00:00:00Z`);
  for (let t = Date.parse(`${range.from}T00:00:00Z`); t <= last; t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}
