// Field truth for the HTML calendar (docs/upstreams.md): GitHub's default view ends on its UTC today and starts on a
// Sunday about a year back, by a rule not known from outside (one year, or 52 whole weeks). The window is 365
// Toronto dates. This sweeps every hour of a winter week, a summer week and a year-end week under both rules and
// checks that the default view plus the year views the client asks for cover the window, in at most three requests.
import { describe, expect, it } from 'vitest';
import { calendarWindow } from '../builders/domain/calendar.ts';
import { calendarYearsMissing, fillMissingDays, yearViewUrl } from '../builders/upstreams/github-html.ts';
import { datesOf, defaultViewRange, yearViewRange, type DateRange, type DefaultViewRule } from './fakes/data.ts';

const HOUR = 3_600_000;
const RULES: DefaultViewRule[] = ['one-year', 'fifty-two-weeks'];
const WEEKS: Array<[name: string, firstHourUtc: string]> = [
  // Sunday 2026-01-04 00:00 UTC is Saturday 19:00 EST: the week holds every weekday in both zones.
  ['winter (EST)', '2026-01-04T00:00:00Z'],
  ['summer (EDT)', '2026-07-05T00:00:00Z'],
  // Across New Year in both zones, and the UTC year turning five hours before Toronto's.
  ['year end', '2026-12-27T00:00:00Z'],
];

const daysIn = (range: DateRange) => datesOf(range).map((date) => ({ date, count: 0, level: 0 }));

/** What the client would gather at `nowMs` from a GitHub that answers by `rule`: the days and the request count. */
function gather(nowMs: number, rule: DefaultViewRule) {
  const window = calendarWindow(nowMs, 'America/Toronto');
  const first = daysIn(defaultViewRange(nowMs, rule));
  const years = calendarYearsMissing(window.dates, first);
  const extra = years.flatMap((year) => {
    const range = yearViewRange(`${year}-01-01`, nowMs);
    return range ? daysIn(range) : [];
  });
  return { window, first, years, days: fillMissingDays(first, extra) };
}

describe('the default view as the fake plays it', () => {
  it('holds 365 to 373 days from a Sunday through the UTC today, under either rule', () => {
    for (let t = Date.parse('2026-01-04T00:00:00Z'); t < Date.parse('2026-01-18T00:00:00Z'); t += HOUR) {
      for (const rule of RULES) {
        const range = defaultViewRange(t, rule);
        const dates = datesOf(range);
        expect(new Date(`${range.from}T00:00:00Z`).getUTCDay()).toBe(0);
        expect(range.to).toBe(new Date(t).toISOString().slice(0, 10));
        expect(dates.length).toBeGreaterThanOrEqual(365);
        expect(dates.length).toBeLessThanOrEqual(373);
      }
    }
  });

  it('under the 52-week rule, a UTC Sunday leaves exactly 365 days', () => {
    expect(datesOf(defaultViewRange(Date.parse('2026-11-29T01:30:00Z'), 'fifty-two-weeks'))).toHaveLength(365);
  });

  it('the year view is the whole calendar year of `from`, cut at the UTC today', () => {
    const now = Date.parse('2026-11-29T01:30:00Z');
    expect(yearViewRange('2018-12-01', now)).toEqual({ from: '2018-01-01', to: '2018-12-31' });
    expect(yearViewRange('2026-03-01', now)).toEqual({ from: '2026-01-01', to: '2026-11-29' });
    expect(yearViewRange('2027-01-01', now)).toBeUndefined();
  });
});

describe.each(WEEKS)('every hour of the %s week', (_name, firstHour) => {
  const start = Date.parse(firstHour);
  const hours = Array.from({ length: 7 * 24 }, (_, i) => start + i * HOUR);

  it.each(RULES)('under the %s rule, the default view plus year views cover the window in ≤ 3 requests', (rule) => {
    for (const nowMs of hours) {
      const { window, days, years } = gather(nowMs, rule);
      const have = new Set(days.map((d) => d.date));
      const missing = window.dates.filter((date) => !have.has(date));
      expect(missing, new Date(nowMs).toISOString()).toEqual([]);
      expect(1 + years.length).toBeLessThanOrEqual(3);
    }
  });
});

describe('when the default view is not enough', () => {
  it('a Saturday evening in Toronto (UTC Sunday) under the 52-week rule lacks the first date; one year view fills it', () => {
    for (const instant of ['2026-11-29T01:30:00Z', '2026-07-05T01:30:00Z']) {
      const nowMs = Date.parse(instant);
      const window = calendarWindow(nowMs, 'America/Toronto');
      const first = daysIn(defaultViewRange(nowMs, 'fifty-two-weeks'));
      expect(calendarYearsMissing(window.dates, first), instant).toEqual([Number(window.startDate.slice(0, 4))]);
      expect(first.some((d) => d.date === window.startDate)).toBe(false);
      const { days } = gather(nowMs, 'fifty-two-weeks');
      expect(days.some((d) => d.date === window.startDate)).toBe(true);
    }
  });

  it('the same hour under the one-year rule needs no year view', () => {
    const nowMs = Date.parse('2026-11-29T01:30:00Z');
    expect(gather(nowMs, 'one-year').years).toEqual([]);
  });

  it('a window dated 200 days back spanning two calendar years asks for the older year only', () => {
    const githubNow = Date.parse('2026-11-29T01:30:00Z');
    const window = calendarWindow(githubNow - 200 * 86_400_000, 'America/Toronto');
    expect(window.startDate.slice(0, 4)).not.toBe(window.endDate.slice(0, 4));
    const first = daysIn(defaultViewRange(githubNow, 'fifty-two-weeks'));
    expect(calendarYearsMissing(window.dates, first)).toEqual([2025]);
  });

  it('fills only dates the default view lacks: a date both hold keeps the default view value', () => {
    const days = [{ date: '2026-01-02', count: 5, level: 2 }];
    const extra = [
      { date: '2026-01-01', count: 1, level: 1 },
      { date: '2026-01-02', count: 6, level: 3 },
    ];
    expect(fillMissingDays(days, extra)).toEqual([
      { date: '2026-01-02', count: 5, level: 2 },
      { date: '2026-01-01', count: 1, level: 1 },
    ]);
  });

  it('asks the year view for the whole calendar year', () => {
    expect(yearViewUrl('https://github.com/users/octocat/contributions', 2025)).toBe(
      'https://github.com/users/octocat/contributions?from=2025-01-01&to=2025-12-31',
    );
  });
});
