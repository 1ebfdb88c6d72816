// The rolling 365-day window in America/Toronto (docs/data-rules.md): ordinary days, both 2026
// daylight-saving changes, either side of Toronto midnight, and a leap day inside the window.
import { describe, expect, it } from 'vitest';
import { buildContributions, type ContributionDay } from '../builders/domain/contributions.ts';
import { UpstreamError } from '../builders/lib/errors.ts';
import { calendarWindow, secondsUntil } from '../builders/domain/calendar.ts';
import { createValidator } from '../builders/contract/schemas.ts';

const validator = createValidator();

function everyDate(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

describe('calendarWindow', () => {
  it('on an ordinary day: 365 ascending dates ending today, refresh at the next midnight with its offset', () => {
    const w = calendarWindow(Date.parse('2026-11-22T14:00:00Z'), 'America/Toronto'); // 09:00 in Toronto (EST, -05:00)
    expect(w.endDate).toBe('2026-11-22');
    expect(w.startDate).toBe('2025-11-23');
    expect(w.dates).toHaveLength(365);
    expect(w.dates).toEqual(everyDate('2025-11-23', '2026-11-22'));
    expect(w.nextRefreshAt).toBe('2026-11-23T00:00:00.000-05:00');
    expect(secondsUntil(w.nextRefreshAtMs, Date.parse('2026-11-22T14:00:00Z'))).toBe(15 * 3600);
  });

  it('just before Toronto midnight the UTC date has already turned, the Toronto one has not', () => {
    const now = Date.parse('2026-11-23T04:59:59.500Z'); // 23:59:59.5 on the 22nd in Toronto
    const w = calendarWindow(now, 'America/Toronto');
    expect(w.endDate).toBe('2026-11-22');
    expect(w.nextRefreshAt).toBe('2026-11-23T00:00:00.000-05:00');
    expect(secondsUntil(w.nextRefreshAtMs, now)).toBe(1); // at least 1, never 0
  });

  it('just after Toronto midnight the window moves by one day', () => {
    const w = calendarWindow(Date.parse('2026-11-23T05:00:00.001Z'), 'America/Toronto');
    expect(w.endDate).toBe('2026-11-23');
    expect(w.startDate).toBe('2025-11-24');
    expect(w.nextRefreshAt).toBe('2026-11-24T00:00:00.000-05:00');
  });

  it('on the spring-forward day (2026-03-08, 23 hours) the refresh is at EDT midnight', () => {
    const now = Date.parse('2026-03-08T12:00:00Z'); // 08:00 EDT
    const w = calendarWindow(now, 'America/Toronto');
    expect(w.endDate).toBe('2026-03-08');
    expect(w.nextRefreshAt).toBe('2026-03-09T00:00:00.000-04:00');
    expect(secondsUntil(w.nextRefreshAtMs, now)).toBe(16 * 3600);
    // midnight that started the day was still EST
    expect(calendarWindow(Date.parse('2026-03-08T04:59:59Z'), 'America/Toronto').endDate).toBe('2026-03-07');
    expect(calendarWindow(Date.parse('2026-03-08T05:00:00Z'), 'America/Toronto').endDate).toBe('2026-03-08');
  });

  it('on the fall-back day (2026-11-01, 25 hours) the refresh is at EST midnight', () => {
    const now = Date.parse('2026-11-01T04:30:00Z'); // 00:30 EDT
    const w = calendarWindow(now, 'America/Toronto');
    expect(w.endDate).toBe('2026-11-01');
    expect(w.nextRefreshAt).toBe('2026-11-02T00:00:00.000-05:00');
    expect(secondsUntil(w.nextRefreshAtMs, now)).toBe(24.5 * 3600);
    expect(w.dates).toHaveLength(365);
    expect(new Set(w.dates).size).toBe(365);
  });

  it('with 2028-02-29 inside the window: still 365 dates, the leap day included once', () => {
    const w = calendarWindow(Date.parse('2028-06-01T16:00:00Z'), 'America/Toronto');
    expect(w.endDate).toBe('2028-06-01');
    expect(w.startDate).toBe('2027-06-03');
    expect(w.dates.filter((d) => d === '2028-02-29')).toHaveLength(1);
    expect(w.dates).toEqual(everyDate('2027-06-03', '2028-06-01'));
  });
});

describe('buildContributions', () => {
  const now = Date.parse('2026-11-22T14:00:00Z');
  const upstream = (from: string, to: string): ContributionDay[] =>
    everyDate(from, to).map((date, i) => ({ date, count: i % 5, level: i % 5 }));

  it('publishes exactly the 365 window dates, totals their counts, and ignores days outside', () => {
    const days = upstream('2025-11-16', '2026-11-23'); // whole weeks plus the UTC tomorrow
    const payload = buildContributions('github-graphql', 'octocat', days, now, 'America/Toronto');
    expect(payload.days).toHaveLength(365);
    expect(payload.days[0]!.date).toBe('2025-11-23');
    expect(payload.days.at(-1)!.date).toBe('2026-11-22');
    const expected = days
      .filter((d) => d.date >= '2025-11-23' && d.date <= '2026-11-22')
      .reduce((s, d) => s + d.count, 0);
    expect(payload.totalContributions).toBe(expected);
    expect(payload.timeZone).toBe('America/Toronto');
    expect(payload.username).toBe('octocat');
    validator.validate('GitHubContributions', payload);
  });

  it('uses GitHub date labels as they are, never shifted between zones', () => {
    const days = upstream('2025-11-16', '2026-11-22');
    const payload = buildContributions('github-html', 'octocat', days, now, 'America/Toronto');
    const byDate = new Map(days.map((d) => [d.date, d]));
    for (const day of payload.days) expect(day).toEqual(byDate.get(day.date));
  });

  it('a missing date is an unusable upstream, nothing is filled in', () => {
    const days = upstream('2025-11-16', '2026-11-22').filter((d) => d.date !== '2026-06-01');
    expect(() => buildContributions('github-html', 'octocat', days, now, 'America/Toronto')).toThrow(
      /missing \(first 2026-06-01\)/,
    );
  });

  it('a calendar that ends before today (Toronto) is unusable', () => {
    expect(() =>
      buildContributions('github-html', 'octocat', upstream('2025-11-16', '2026-11-21'), now, 'America/Toronto'),
    ).toThrow(UpstreamError);
  });

  it.each([
    ['a negative count', { count: -1, level: 0 }],
    ['a fractional count', { count: 1.5, level: 1 }],
    ['level 5', { count: 3, level: 5 }],
  ])('rejects %s', (_name, bad) => {
    const days = upstream('2025-11-16', '2026-11-22');
    days[100] = { ...days[100]!, ...bad };
    expect(() => buildContributions('github-html', 'octocat', days, now, 'America/Toronto')).toThrow(UpstreamError);
  });

  it('rejects a date given twice with different values', () => {
    const days = upstream('2025-11-16', '2026-11-22');
    days.push({ ...days[200]!, count: days[200]!.count + 1 });
    expect(() => buildContributions('github-graphql', 'octocat', days, now, 'America/Toronto')).toThrow(/twice/);
  });
});
