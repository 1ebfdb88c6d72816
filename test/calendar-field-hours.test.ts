// The public HTML calendar at the hours and dates of the field: GitHub's default view ends on its UTC
// today and starts by a rule nobody outside GitHub knows, so on some hours and dates the window needs a
// year view too (docs/upstreams.md). Run in-process at the sources the build and the gateway share, on
// the fakes' clock; test/build.test.ts runs the build program itself.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createValidator } from '../builders/contract/schemas.ts';
import { calendarWindow } from '../builders/domain/calendar.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import { contributionOn, type DefaultViewRule } from './fakes/data.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { sourcesOf } from './helpers/sources.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, upstreamEnv } from './helpers/run.ts';

const validator = createValidator();
// Monday 2026-11-23 15:00 UTC, 10:00 in Toronto, unless a test sets the clock.
const CLOCK = Date.parse('2026-11-23T15:00:00Z');
let clock = CLOCK;
let fake: FakeUpstreams;

beforeAll(async () => {
  fake = await startFakeUpstreams({ now: () => clock });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  clock = CLOCK;
  fake.github = { mode: 'ok' };
  fake.resetCalls();
});

const sources = (env: Record<string, string> = {}) =>
  sourcesOf(loadConfig({ ...upstreamEnv(fake.url), UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS, ...env }));

describe('the HTML calendar at the hours and dates of the field', () => {
  const DAY = 86_400_000;
  // [what, the upstreams' clock, how GitHub's default view starts, how many days before that the build is dated]
  const cases: Array<[string, string, DefaultViewRule, number]> = [
    ['a Saturday evening in EST (UTC already Sunday)', '2026-11-29T01:30:00Z', 'fifty-two-weeks', 0],
    ['a Saturday evening in EDT (UTC already Sunday)', '2026-07-05T01:30:00Z', 'fifty-two-weeks', 0],
    ['New Year: 23:30 on Dec 31 in Toronto, Jan 1 in UTC', '2027-01-01T04:30:00Z', 'fifty-two-weeks', 0],
    ['New Year: 00:30 on Jan 1 in Toronto', '2027-01-01T05:30:00Z', 'one-year', 0],
    ['a build dated 3 days back', '2026-11-29T01:30:00Z', 'fifty-two-weeks', 3],
    ['a build dated 10 days back', '2026-11-29T01:30:00Z', 'one-year', 10],
    [
      'a build dated 200 days back, its window across two calendar years',
      '2026-11-29T01:30:00Z',
      'fifty-two-weeks',
      200,
    ],
  ];

  it.each(cases)(
    '%s: the exact 365-day calendar, in at most three requests',
    async (_what, instant, rule, daysBack) => {
      clock = Date.parse(instant);
      fake.github.defaultView = rule;
      const buildMs = clock - daysBack * DAY;
      // Up to three calendar requests in a row, within the one ample deadline.
      const calendar = (await sources().get('contributions')!.fetch(buildMs)) as GitHubContributions;
      validator.validate('GitHubContributions', calendar);
      const window = calendarWindow(buildMs, 'America/Toronto');
      const expected = window.dates.map(contributionOn);
      expect(calendar).toMatchObject({ startDate: window.startDate, endDate: window.endDate, days: expected });
      expect(calendar.totalContributions).toBe(expected.reduce((sum, d) => sum + d.count, 0));
      expect(fake.calls.html).toBeGreaterThanOrEqual(1);
      expect(fake.calls.html).toBeLessThanOrEqual(3);
    },
  );

  it('asks only the default view when it holds the whole window', async () => {
    await sources().get('contributions')!.fetch(clock);
    expect(fake.requests.filter((r) => r.url.startsWith('/users/')).map((r) => r.url)).toEqual([
      '/users/octocat/contributions',
    ]);
  });

  it('asks the year view of the missing dates when the default view lacks them', async () => {
    clock = Date.parse('2026-11-29T01:30:00Z');
    fake.github.defaultView = 'fifty-two-weeks';
    await sources().get('contributions')!.fetch(clock);
    expect(fake.requests.filter((r) => r.url.startsWith('/users/')).map((r) => r.url)).toEqual([
      '/users/octocat/contributions',
      '/users/octocat/contributions?from=2025-01-01&to=2025-12-31',
    ]);
  });

  it('a date missing from both views is still an upstream failure, nothing filled in', async () => {
    clock = Date.parse('2026-11-29T01:30:00Z');
    fake.github = { mode: 'missing-day', missingDate: '2025-11-29', defaultView: 'fifty-two-weeks' };
    await expect(sources().get('contributions')!.fetch(clock)).rejects.toThrow(
      /^github-html: .*1 of 365 dates missing \(first 2025-11-29\)/,
    );
    expect(fake.calls.html).toBe(2);
  });
});
