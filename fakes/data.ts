// Deterministic upstream data for the fakes: a week of MON-USD prices and a year of contributions,
// generated from the clock so that every window the code computes finds its data.
import { DateTime } from 'luxon';

/** A small deterministic hash → [0, 1). */
export function unit(seed: string): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return ((h >>> 0) % 1_000_000) / 1_000_000;
}

/** The hourly close of MON-USD at a candle start time: a few cents, where MON has traded since its launch at $0.025. */
export function closeAt(hourSeconds: number): number {
  const trend = 0.03 + 0.002 * Math.sin(hourSeconds / 86_400);
  const noise = (unit(`close:${hourSeconds}`) - 0.5) * 0.0006;
  return Number((trend + noise).toFixed(6));
}

/** Candle rows [time, low, high, open, close, volume] for every hour in [start, end], newest first. */
export function candleRows(
  startSeconds: number,
  endSeconds: number,
  skip: (hour: number) => boolean = () => false,
): number[][] {
  const rows: number[][] = [];
  const first = Math.ceil(startSeconds / 3600) * 3600;
  for (let t = first; t <= endSeconds; t += 3600) {
    if (skip(t)) continue;
    const close = closeAt(t);
    const open = closeAt(t - 3600);
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
