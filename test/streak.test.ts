// The contribution streak (docs/data-rules.md#contribution-streak): the rule swept on hand-made calendars,
// then the fakes' seeded calendar at fixed instants in three zones, on both sides of midnight and in both
// daylight-saving seasons, with and without rest days: the build's snapshot, the gateway's route, its
// alias and its MCP tool all equal what the rule gives from that instant's calendar payload.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../builders/build/build.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import { calendarWindow } from '../builders/domain/calendar.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import { buildStreak, weekdayOf, ZERO_RUN, type GitHubStreak } from '../builders/datasets/streak/rule.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { ConfigError } from '../builders/lib/errors.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { runDays } from '../builders/datasets/streak/view.ts';
import { textWidth } from '../builders/render/text-width.ts';
import { LIGHT } from '../builders/render/charts/theme.ts';
import { streakCard } from '../builders/datasets/streak/card.ts';
import { runCli } from './helpers/cli-run.ts';
import { startStaticSite } from './helpers/cli-servers.ts';
import { get, makeDist, startTestGateway, type DistFixture } from './helpers/gateway.ts';
import { sharedSite, TEST_SITE_CLOCK } from './helpers/site-dist.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, upstreamEnv } from './helpers/run.ts';

const validator = createValidator();

/** A calendar ending on `endDate` whose counts are `count(date, index)`, valid against its schema. */
function calendar(endDate: string, count: (date: string, i: number) => number): GitHubContributions {
  const end = DateTime.fromISO(endDate, { zone: 'UTC' });
  const days = Array.from({ length: 365 }, (_, i) => {
    const date = end.minus({ days: 364 - i }).toISODate()!;
    const n = count(date, i);
    return { date, count: n, level: n === 0 ? 0 : 1 };
  });
  const payload: GitHubContributions = {
    username: 'octocat',
    totalContributions: days.reduce((s, d) => s + d.count, 0),
    startDate: days[0]!.date,
    endDate,
    days,
    timeZone: 'America/Toronto',
    nextRefreshAt: `${end.plus({ days: 1 }).toISODate()}T00:00:00.000-05:00`,
  };
  validator.validate('GitHubContributions', payload);
  return payload;
}

/** Active on exactly these dates. */
const on =
  (...dates: string[]) =>
  (date: string) =>
    dates.includes(date) ? 1 : 0;
const WEEKEND = ['Saturday', 'Sunday'];
// 2026-11-23 is a Monday; the window is 2025-11-24 (a Monday) to 2026-11-23.
const END = '2026-11-23';
const run = (days: number, startDate: string, endDate: string, reachesWindowStart = false) => ({
  days,
  startDate,
  endDate,
  reachesWindowStart,
});

describe('the streak rule', () => {
  it('reads weekdays from the dates themselves', () => {
    expect([END, '2026-11-21', '2026-11-22', '2025-11-24'].map(weekdayOf)).toEqual([
      'Monday',
      'Saturday',
      'Sunday',
      'Monday',
    ]);
  });

  it('today active: the current run ends today', () => {
    const s = buildStreak(calendar(END, on('2026-11-20', '2026-11-21', '2026-11-22', END)), []);
    expect(s.current).toEqual(run(4, '2026-11-20', END));
    expect(s.longest).toEqual(s.current);
    expect(s.activeDays).toBe(4);
    validator.validate('GitHubStreak', s);
  });

  it('today inactive, yesterday active: today, not yet over, keeps the current run', () => {
    const s = buildStreak(calendar(END, on('2026-11-21', '2026-11-22')), []);
    expect(s.current).toEqual(run(2, '2026-11-21', '2026-11-22'));
  });

  it('yesterday inactive: the current run is broken, the longest stays', () => {
    const s = buildStreak(calendar(END, on('2026-11-20', '2026-11-21')), []);
    expect(s.current).toEqual(ZERO_RUN);
    expect(s.longest).toEqual(run(2, '2026-11-20', '2026-11-21'));
  });

  it('an inactive rest day neither breaks nor counts; an active one counts', () => {
    // Friday active, the weekend empty, Monday (today) inactive: the run of Friday is still current.
    const friday = buildStreak(calendar(END, on('2026-11-19', '2026-11-20')), WEEKEND);
    expect(friday.current).toEqual(run(2, '2026-11-19', '2026-11-20'));
    // Without rest days the empty weekend breaks it.
    expect(buildStreak(calendar(END, on('2026-11-19', '2026-11-20')), []).current).toEqual(ZERO_RUN);
    // Across an empty weekend Friday and Monday are one run of two days; an active Sunday makes it three.
    expect(buildStreak(calendar(END, on('2026-11-20', END)), WEEKEND).current).toEqual(run(2, '2026-11-20', END));
    expect(buildStreak(calendar(END, on('2026-11-20', '2026-11-22', END)), WEEKEND).current).toEqual(
      run(3, '2026-11-20', END),
    );
    expect(buildStreak(calendar(END, on('2026-11-20', END)), WEEKEND).restDays).toEqual(WEEKEND);
  });

  it("rest days at the window's edges: a run reaches the window's start across them, and today's end", () => {
    // A window from Saturday 2025-11-22 to Saturday 2026-11-21: both edges are rest days.
    const end = '2026-11-21';
    const weekdays = (date: string) => (WEEKEND.includes(weekdayOf(date)) ? 0 : 1);
    const s = buildStreak(calendar(end, weekdays), WEEKEND);
    expect(s.startDate).toBe('2025-11-22');
    // Every weekday active, every weekend day empty: one run from the first Monday to the last Friday.
    expect(s.current).toEqual(run(260, '2025-11-24', '2026-11-20', true));
    expect(s.longest).toEqual(s.current);
    // Without rest days, each week is its own run of five; the most recent is current? No: today (Saturday)
    // is not over, but Friday was active, so the last week is current, and the longest is the most recent.
    const plain = buildStreak(calendar(end, weekdays), []);
    expect(plain.current).toEqual(run(5, '2026-11-16', '2026-11-20'));
    expect(plain.longest).toEqual(plain.current);
    // An inactive first Monday breaks the reach back to the window's start.
    const gap = buildStreak(
      calendar(end, (d) => (d === '2025-11-24' ? 0 : weekdays(d))),
      WEEKEND,
    );
    expect(gap.current).toEqual(run(259, '2025-11-25', '2026-11-20', false));
  });

  it('a run through the whole window: 365+ days, current and longest', () => {
    const s = buildStreak(
      calendar(END, () => 3),
      [],
    );
    expect(s.current).toEqual(run(365, '2025-11-24', END, true));
    expect(s.longest).toEqual(s.current);
    expect(s.activeDays).toBe(365);
  });

  it('no activity at all: both runs are the zero run', () => {
    const s = buildStreak(
      calendar(END, () => 0),
      WEEKEND,
    );
    expect(s).toMatchObject({ activeDays: 0, current: ZERO_RUN, longest: ZERO_RUN, restDays: WEEKEND });
    validator.validate('GitHubStreak', s);
  });

  it('ties: the most recent of the longest runs', () => {
    const s = buildStreak(calendar(END, on('2026-01-05', '2026-01-06', '2026-03-02', '2026-03-03', '2026-05-01')), []);
    expect(s.longest).toEqual(run(2, '2026-03-02', '2026-03-03'));
    expect(s.current).toEqual(ZERO_RUN);
  });
});

describe('STREAK_REST_DAYS', () => {
  it('takes English names or their three-letter forms, any case, and lists them Monday first', () => {
    expect(loadConfig({ STREAK_REST_DAYS: 'sun, SAT' }).streakRestDays).toEqual(WEEKEND);
    expect(loadConfig({ STREAK_REST_DAYS: 'Wednesday,mon,Wed' }).streakRestDays).toEqual(['Monday', 'Wednesday']);
    expect(loadConfig({}).streakRestDays).toEqual([]);
  });

  it.each(['Caturday', 'Sat;Sun', 'Satu', 'Samedi'])('%s stops the program, naming the variable', (value) => {
    expect(() => loadConfig({ STREAK_REST_DAYS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ STREAK_REST_DAYS: value })).toThrow(/STREAK_REST_DAYS/);
  });
});

describe("the streak of the fakes' calendar", () => {
  let fake: FakeUpstreams;
  let fixture: DistFixture;
  let clock = 0;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => clock });
    fixture = await makeDist();
  });
  afterAll(async () => {
    await fake.close();
    await rm(fixture.base, { recursive: true, force: true });
  });

  /** Local wall-clock times on both sides of midnight, in winter and in summer of the northern hemisphere. */
  const LOCAL = ['2026-01-14T23:30', '2026-01-15T00:30', '2026-07-14T23:30', '2026-07-15T00:30'];
  const ZONES = ['America/Toronto', 'Asia/Kolkata', 'Pacific/Auckland'];
  const cases = ZONES.flatMap((zone) => [[zone, ''] as const, [zone, 'Sat,Sun'] as const]);

  it.each(cases)('%s, rest days %j: the route, its alias and its tool say what the rule gives', async (zone, rest) => {
    const env = { CALENDAR_TIME_ZONE: zone, STREAK_REST_DAYS: rest };
    const restDays = loadConfig(env).streakRestDays;
    clock = DateTime.fromISO(LOCAL[0]!, { zone }).toMillis();
    const gw = await startTestGateway(fake.url, fixture.dist, env, { now: () => clock });
    try {
      for (const local of LOCAL) {
        clock = DateTime.fromISO(local, { zone }).toMillis();
        const cal = JSON.parse(
          (await get(gw.url, '/api/v1/github-contributions')).body.toString(),
        ) as GitHubContributions;
        expect(cal.endDate).toBe(calendarWindow(clock, zone).endDate);
        const expected = buildStreak(cal, restDays);
        const calendarCalls = fake.calls.html;
        const v1 = await get(gw.url, '/api/v1/github-streak');
        const alias = await get(gw.url, '/api/github-streak');
        expect(v1.status).toBe(200);
        expect(JSON.parse(v1.body.toString())).toEqual(expected);
        expect(alias.body.equals(v1.body)).toBe(true);
        // The calendar's cache policy: the same s-maxage, counting to the same midnight.
        const calendarHeaders = (await get(gw.url, '/api/v1/github-contributions')).headers;
        expect(v1.headers['cache-control']).toBe(calendarHeaders['cache-control']);
        const call = await fetch(new URL('/mcp', gw.url), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'getV1GithubStreak', arguments: {} },
          }),
        });
        const result = ((await call.json()) as { result: { structuredContent: GitHubStreak } }).result;
        expect(result.structuredContent).toEqual(expected);
        // No upstream call of its own: the streak reads the calendar the gateway keeps.
        expect(fake.calls.html).toBe(calendarCalls);
      }
      expect(gw.stderr.join('')).toBe('');
    } finally {
      await gw.close();
    }
  });

  it('the build writes the streak of the calendar it wrote, in each zone', async () => {
    for (const zone of ZONES) {
      clock = DateTime.fromISO(LOCAL[3]!, { zone }).toMillis();
      const outDir = await mkdtemp(join(tmpdir(), 'streak-build-'));
      try {
        const config = loadConfig({ ...upstreamEnv(fake.url), CALENDAR_TIME_ZONE: zone, STREAK_REST_DAYS: 'sat,sun' });
        const result = await build(config, { outDir, nowMs: clock, log: () => {}, warn: () => {} });
        expect(result.exitCode).toBe(0);
        const cal = JSON.parse(
          await readFile(join(outDir, 'api/v1/github-contributions'), 'utf8'),
        ) as GitHubContributions;
        const streak = await readFile(join(outDir, 'api/v1/github-streak'), 'utf8');
        expect(JSON.parse(streak)).toEqual(buildStreak(cal, WEEKEND));
        expect(await readFile(join(outDir, 'api/github-streak'), 'utf8')).toBe(streak);
        for (const card of ['cards/github-streak.svg', 'cards/github-streak-dark.svg'])
          expect(await readFile(join(outDir, card), 'utf8')).toMatch(/^<svg [^>]*role="img"/);
        expect(
          JSON.parse(await readFile(join(outDir, 'openapi.json'), 'utf8')).paths['/api/v1/github-streak'].get
            .operationId,
        ).toBe('getV1GithubStreak');
      } finally {
        await rm(outDir, { recursive: true, force: true });
      }
    }
  });

  it('a build whose calendar upstream is down derives the streak from the calendar it republishes', async () => {
    clock = Date.parse('2026-11-23T15:00:00Z');
    const first = await mkdtemp(join(tmpdir(), 'streak-first-'));
    const second = await mkdtemp(join(tmpdir(), 'streak-second-'));
    try {
      const config = loadConfig({
        ...upstreamEnv(fake.url),
        UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
        STREAK_REST_DAYS: 'Sun',
      });
      expect((await build(config, { outDir: first, nowMs: clock, log: () => {}, warn: () => {} })).exitCode).toBe(0);
      // An hour later, GitHub gives nothing: the calendar of 10:00 stands in, and the streak is derived from it.
      clock += 3_600_000;
      fake.github = { mode: 'server-error' };
      const result = await build(config, {
        outDir: second,
        nowMs: clock,
        previousDir: first,
        log: () => {},
        warn: () => {},
      });
      expect(result.reused.map((r) => r.resource)).toEqual(['contributions']);
      expect(result.exitCode).toBe(0);
      const calendarText = await readFile(join(second, 'api/v1/github-contributions'), 'utf8');
      expect(calendarText).toBe(await readFile(join(first, 'api/v1/github-contributions'), 'utf8'));
      const streak = JSON.parse(await readFile(join(second, 'api/v1/github-streak'), 'utf8')) as GitHubStreak;
      expect(streak).toEqual(buildStreak(JSON.parse(calendarText) as GitHubContributions, ['Sunday']));
    } finally {
      fake.github = { mode: 'ok' };
      await rm(first, { recursive: true, force: true });
      await rm(second, { recursive: true, force: true });
    }
  });

  it("shares the calendar's quota bucket, methods and HEAD", async () => {
    clock = Date.parse('2026-11-23T15:00:00Z');
    const gw = await startTestGateway(
      fake.url,
      fixture.dist,
      { RATE_LIMIT_QUOTA: '3' },
      {
        now: () => clock,
        quotaKeyPrefix: `streak-${Math.random()}:`,
      },
    );
    try {
      const get200 = await get(gw.url, '/api/v1/github-streak');
      const head = await get(gw.url, '/api/github-streak', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toHaveLength(0);
      expect(head.headers['content-length']).toBe(String(get200.body.length));
      expect(head.headers.ratelimit).toMatch(/^"public-api";r=1;t=\d+$/);
      // The third request of the window, to the calendar: the same bucket.
      expect((await get(gw.url, '/api/v1/github-contributions')).status).toBe(200);
      const limited = await get(gw.url, '/api/github-streak');
      expect(limited.status).toBe(429);
      expect(JSON.parse(limited.body.toString())).toMatchObject({ code: 'rate_limit_exceeded' });
      const post = await get(gw.url, '/api/v1/github-streak', { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe('GET, HEAD');
    } finally {
      await gw.close();
    }
  });

  it('with the calendar upstream down: no streak in the build, and 502 upstream_unavailable from the gateway', async () => {
    clock = Date.parse('2026-11-23T15:00:00Z');
    fake.github = { mode: 'server-error' };
    const outDir = await mkdtemp(join(tmpdir(), 'streak-down-'));
    const gw = await startTestGateway(fake.url, fixture.dist, {}, { now: () => clock });
    try {
      const warned: string[] = [];
      const config = loadConfig({ ...upstreamEnv(fake.url), UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS });
      const result = await build(config, { outDir, nowMs: clock, log: () => {}, warn: (l) => warned.push(l) });
      expect(result.exitCode).toBe(1);
      expect(existsSync(join(outDir, 'api/v1/github-streak'))).toBe(false);
      // Its cards say "unavailable", with no number (builders/build/cards.ts), like the calendar's.
      const card = await readFile(join(outDir, 'cards/github-streak.svg'), 'utf8');
      expect(card).toContain('unavailable');
      expect(card).not.toMatch(/\bdays?\b.*\d/);
      expect(existsSync(join(outDir, 'api/v1/github-contributions'))).toBe(false);
      // The calendar's line says why; the streak has no upstream of its own to name.
      expect(warned.filter((l) => l.startsWith('build:'))).toHaveLength(1);
      for (const path of ['/api/v1/github-streak', '/api/github-streak']) {
        const r = await get(gw.url, path);
        expect(r.status).toBe(502);
        expect(JSON.parse(r.body.toString())).toMatchObject({ code: 'upstream_unavailable', status: 502 });
      }
    } finally {
      fake.github = { mode: 'ok' };
      await gw.close();
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

describe('the streak wherever it is shown', () => {
  it("writes a run that reaches the window's start with a +", () => {
    expect(runDays(run(365, '2025-11-24', END, true))).toBe('365+ days');
    expect(runDays(run(1, END, END))).toBe('1 day');
    expect(runDays(ZERO_RUN)).toBe('0 days');
  });

  it('keeps every line of its card inside the card, for a long zone and five rest days', () => {
    const restDays = ['Monday', 'Tuesday', 'Wednesday', 'Saturday', 'Sunday'];
    const streak = {
      ...buildStreak(
        calendar(END, () => 1),
        restDays,
      ),
      timeZone: 'America/Argentina/ComodRivadavia',
    } as unknown as GitHubStreak;
    const svg = streakCard(streak, LIGHT, Date.parse('2026-11-23T15:00:00Z'), true);
    const width = Number(/width="(\d+)"/.exec(svg)![1]);
    const lines = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+"([^>]*)>([^<]*)<\/text>/g)];
    expect(lines.length).toBeGreaterThan(6);
    for (const [, x, attrs, content] of lines) {
      const size = Number(/font-size="(\d+)"/.exec(attrs!)?.[1] ?? 12);
      const right = attrs!.includes('text-anchor="end"') ? Number(x) : Number(x) + textWidth(content!, size);
      expect(right, content).toBeLessThanOrEqual(width - 16);
    }
    expect(svg).toContain('Monday, Tuesday, Wednesday, Saturday, Sunday');
  });

  it('cli.mjs streak --json prints the payload; without --json, both runs and their dates', async () => {
    // In process, with the clock of the build (the spawned cli.mjs is proven by test/cli.test.ts and the
    // copied dataset of test/slow/dataset-copy.test.ts, whose streak is this command).
    const site = sharedSite();
    const host = await startStaticSite(site.dir);
    try {
      const payload = await site.read('api/v1/github-streak');
      const json = await runCli(['streak', '--json', '--base-url', host.url], {}, { now: TEST_SITE_CLOCK });
      expect(json.stderr).toBe('');
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(JSON.parse(payload));
      const streak = JSON.parse(payload) as GitHubStreak;
      const picture = await runCli(['streak', '--base-url', host.url], {}, { now: TEST_SITE_CLOCK });
      expect(picture.code).toBe(0);
      expect(picture.stdout).toMatch(new RegExp(`Current +${runDays(streak.current)}`));
      expect(picture.stdout).toMatch(new RegExp(`Longest +${runDays(streak.longest).replace('+', '\\+')}`));
      expect(picture.stdout).toContain(streak.timeZone);
    } finally {
      await host.close();
    }
  });

  it('has a section on the home page and accessible cards, light and dark, stating both runs, the zone and the as-of time', async () => {
    const site = sharedSite();
    const streak = JSON.parse(await site.read('api/v1/github-streak')) as GitHubStreak;
    const home = await site.read('index.html');
    expect(home).toContain('data-preview="streak"');
    expect(home).toContain('data-source="/api/v1/github-streak"');
    for (const file of ['cards/github-streak.svg', 'cards/github-streak-dark.svg']) {
      const svg = await site.read(file);
      expect(svg).toMatch(/role="img" aria-labelledby="card-title card-desc"/);
      const desc = /<desc id="card-desc">([^<]*)<\/desc>/.exec(svg)![1]!;
      expect(desc).toContain(`Current streak ${runDays(streak.current)}`);
      expect(desc).toContain(`longest ${runDays(streak.longest)}`);
      expect(desc).toContain(streak.timeZone);
      expect(desc).toMatch(/As of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    }
  });
});
