// Hostile upstream answers (issue #12): the calendar parser on crafted pages, the gateway answering other
// routes while such a page is refused, and a build that ends. That the parser's work is linear in the page
// is measured in CPU time, by `npm run bench` (test/timing/calendar-parser.test.ts).
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../builders/lib/errors.ts';
import { MAX_CANDLE_ROWS, parseCandles } from '../builders/upstreams/coinbase.ts';
import { parseCalendarHtml } from '../builders/upstreams/github-html.ts';
import { FAILURE_MEMORY_MS } from '../gateway/core/routes/kept-route.ts';
import { denseCells, sharedTooltipPage } from './fakes/hostile-pages.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, makeDist, startTestGateway, type DistFixture } from './helpers/gateway.ts';
import { upstreamEnv } from './helpers/run.ts';
import { runBuild } from './helpers/site-dist.ts';

const MB = 1024 * 1024;

describe('the calendar parser on a hostile page', () => {
  it('reads the count of a tooltip shared by many cells once, and the same count for each', () => {
    const days = parseCalendarHtml(sharedTooltipPage(MB, 500));
    expect(days).toHaveLength(500);
    expect(days.every((d) => d.count === 3 && d.level === 1)).toBe(true);
  });
});

describe('a 1 MB page of one tooltip shared by 500 cells', () => {
  let fake: FakeUpstreams;
  let fixture: DistFixture;
  beforeAll(async () => {
    fake = await startFakeUpstreams();
    // Its 500 days end in June: the window of any date here lacks days, so the page is refused.
    fake.github.page = sharedTooltipPage(MB, 500, '2026-06-01');
    fixture = await makeDist({ 'robots.txt': 'User-agent: *\n' });
  });
  afterAll(async () => {
    await fake.close();
    await rm(fixture.base, { recursive: true, force: true });
  });

  it('the gateway keeps answering other routes, and refuses the page once per FAILURE_MEMORY_MS', async () => {
    let clock = Date.parse('2026-11-22T17:00:00Z');
    const gw = await startTestGateway(fake.url, fixture.dist, {}, { now: () => clock });
    try {
      const mixed = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          get(gw.url, i % 2 ? '/api/v1/github-contributions' : '/robots.txt').then((r) => [i % 2, r.status]),
        ),
      );
      for (const [calendar, status] of mixed) expect(status).toBe(calendar ? 502 : 200);
      // One refresh for the 20 calendar requests: the default view, and the year views it sends for the
      // dates the page lacks (each the same hostile page).
      const perRefresh = fake.calls.html;
      expect(perRefresh).toBeGreaterThanOrEqual(1);
      expect(perRefresh).toBeLessThanOrEqual(3);
      clock += FAILURE_MEMORY_MS - 1;
      expect((await get(gw.url, '/api/github-contributions')).status).toBe(502);
      expect(fake.calls.html).toBe(perRefresh);
      clock += 1;
      expect((await get(gw.url, '/api/github-contributions')).status).toBe(502);
      expect(fake.calls.html).toBe(2 * perRefresh);
    } finally {
      await gw.close();
    }
  });

  it('the build refuses it, and a page of as many cells as it can hold, and ends (exit 1, no snapshot)', async () => {
    fake.github.page = sharedTooltipPage(MB, denseCells(MB), '2026-06-01');
    const out = await mkdtemp(join(tmpdir(), 'dist-'));
    try {
      // In-process, bounded by the test's timeout: the old parser took minutes on this page.
      const result = await runBuild(out, {
        ...upstreamEnv(fake.url),
        UPSTREAM_TIMEOUT_MS: '10000',
        SOURCE_DATE_EPOCH: '1795798800',
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/github-html/);
      await expect(stat(join(out, 'api/v1/github-contributions'))).rejects.toThrow();
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});

describe('candle answers hold hourly rows only', () => {
  const HOUR = 1_763_820_000; // 2025-11-22T14:00:00Z, on the hour
  const row = (time: number) => [time, 0.0299, 0.0302, 0.03, 0.0301, 5210.3];

  it('a row that does not start on the hour makes the answer unusable', () => {
    expect(() => parseCandles([row(HOUR), row(HOUR - 3600 + 60)])).toThrow(UpstreamError);
    expect(() => parseCandles([row(HOUR + 1)])).toThrow(/not on the hour/);
  });

  it('more rows than one answer can hold make it unusable (a 1 MB answer of per-minute rows)', () => {
    const perMinute = Array.from({ length: 20_000 }, (_, i) => row(HOUR - i * 60));
    expect(JSON.stringify(perMinute).length).toBeGreaterThan(900_000);
    expect(() => parseCandles(perMinute)).toThrow(UpstreamError);
    const hourly = Array.from({ length: MAX_CANDLE_ROWS + 1 }, (_, i) => row(HOUR - i * 3600));
    expect(() => parseCandles(hourly)).toThrow(/rows/);
    expect(parseCandles(hourly.slice(0, 170))).toHaveLength(170);
  });
});

describe('a ticker time in the far future (2999, 9999): the market is unusable, nothing drawn from it', () => {
  const CLOCK = Date.parse('2026-11-23T15:00:00Z');
  let fake: FakeUpstreams;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => CLOCK });
  });
  afterAll(() => fake.close());

  it.each(['2999-12-31T23:59:59.000000Z', '9999-12-31T23:59:59.999999Z'])(
    '%s: the build exits 1 naming coinbase, no market snapshot, the calendar written, index.html under 1 MB',
    async (tickerTime) => {
      fake.market.tickerTime = tickerTime;
      const out = await mkdtemp(join(tmpdir(), 'dist-'));
      try {
        const result = await runBuild(out, {
          ...upstreamEnv(fake.url),
          UPSTREAM_TIMEOUT_MS: '10000',
          SOURCE_DATE_EPOCH: String(CLOCK / 1000),
        });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toMatch(/coinbase.*later than now plus 5 minutes/);
        await expect(stat(join(out, 'api/v1/mon-price'))).rejects.toThrow();
        expect((await stat(join(out, 'api/v1/github-contributions'))).size).toBeGreaterThan(0);
        expect((await stat(join(out, 'index.html'))).size).toBeLessThan(MB);
        expect((await stat(join(out, 'cards/mon-price.svg'))).size).toBeLessThan(MB);
      } finally {
        delete fake.market.tickerTime;
        await rm(out, { recursive: true, force: true });
      }
    },
    30_000,
  );

  it('the gateway answers the market route 502, and 200 again once the time is now', async () => {
    const fixture = await makeDist({ 'robots.txt': 'User-agent: *\n' });
    const gw = await startTestGateway(fake.url, fixture.dist, {}, { now: () => CLOCK });
    try {
      fake.market.tickerTime = '2999-12-31T23:59:59.000000Z';
      expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(502);
      fake.market.tickerTime = new Date(CLOCK - 1000).toISOString();
      expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(200);
    } finally {
      delete fake.market.tickerTime;
      await gw.close();
      await rm(fixture.base, { recursive: true, force: true });
    }
  });
});
