// The rolling 365-day window and its refresh boundary, in the calendar's zone (CALENDAR_TIME_ZONE, default
// America/Toronto; docs/data-rules.md).
// luxon carries the zone rules, so daylight-saving days (23 or 25 hours) and leap days need no special cases.
import { DateTime } from 'luxon';
import { CONSTANTS } from '../contract/service.ts';

export interface CalendarWindow {
  /** First date, inclusive: today - 364 days. */
  startDate: string;
  /** Last date, inclusive: today in the calendar's zone. */
  endDate: string;
  /** Every date of the window, ascending. */
  dates: string[];
  /** The next midnight in the calendar's zone, ISO 8601 with its offset. */
  nextRefreshAt: string;
  /** The same instant in Unix milliseconds. */
  nextRefreshAtMs: number;
}

/** The window that ends on today's date in `timeZone` (an IANA zone, checked where the configuration is read). */
export function calendarWindow(nowMs: number, timeZone: string): CalendarWindow {
  const today = DateTime.fromMillis(nowMs, { zone: timeZone }).startOf('day');
  // Calendar dates carry no zone: stepping them as UTC days is exact and far cheaper than luxon per day.
  const lastUtc = Date.UTC(today.year, today.month - 1, today.day);
  const dates: string[] = [];
  for (let i = CONSTANTS.contributionDays - 1; i >= 0; i--) {
    dates.push(new Date(lastUtc - i * 86_400_000).toISOString().slice(0, 10));
  }
  const next = today.plus({ days: 1 });
  return {
    startDate: dates[0]!,
    endDate: dates[dates.length - 1]!,
    dates,
    nextRefreshAt: next.toISO()!,
    nextRefreshAtMs: next.toMillis(),
  };
}

/** The next midnight in `timeZone` after `nowMs`, in Unix milliseconds (a calendar's refresh boundary). */
export function nextMidnightMs(nowMs: number, timeZone: string): number {
  return DateTime.fromMillis(nowMs, { zone: timeZone }).startOf('day').plus({ days: 1 }).toMillis();
}

/**
 * The s-maxage of a calendar response, docs/data-rules.md: "the whole seconds from the response time to that
 * instant (at least 1)", where the instant is the calendar's `nextRefreshAt`.
 */
export function secondsUntil(instantMs: number, nowMs: number): number {
  return Math.max(1, Math.floor((instantMs - nowMs) / 1000));
}

/**
 * GitHub's own today: the UTC date of `nowMs`. GitHub labels every contribution with its UTC date, so no
 * date after this one can hold a contribution yet (docs/data-rules.md, missing dates).
 */
export function githubToday(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}
