// The gateway as a program, the smoke tests of its edges: `.build/gateway.mjs` prints its `listening on`
// line and one access-log line per request, finishes the request in flight on SIGTERM and exits 0; `npm
// start` on a fresh clone builds dist/ (`build --if-stale`) and then serves it. Every route, header and
// failure is proven in-process (test/gateway*.test.ts); the other program cases run in the slow suite
// (test/slow/gateway-process.test.ts).
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import type { FakeUpstreams } from './fakes/upstreams.ts';
import { get, spawnGateway, spawnStart, type DistFixture } from './helpers/gateway.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { upstreamEnv } from './helpers/run.ts';

let fake: FakeUpstreams;
let fixture: DistFixture;

// A spawned gateway runs on the real clock (docs/configuration.md), so the fake answers on it too.
shareUpstreams({ slowMs: 300, now: Date.now }, (shared) => void ({ fake, fixture } = shared));
beforeEach(() => {
  fake.market = { mode: 'ok', tradeIdAsString: false };
  fake.github = { mode: 'ok' };
  fake.resetCalls();
});

const env = (extra: Record<string, string> = {}) => ({
  ...upstreamEnv(fake.url),
  DIST_DIR: fixture.dist,
  // Far above the slow fake's 300 ms: a loaded machine must not make a healthy answer late.
  UPSTREAM_TIMEOUT_MS: '10000',
  ...extra,
});

it('prints one `listening on` line with the actual port, then one JSON access-log line per request', async () => {
  const gw = await spawnGateway(env());
  expect(gw.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(Number(new URL(gw.url).port)).toBeGreaterThan(0);
  await get(gw.url, '/api/v1/github-contributions?token=hunter2&x=1', {
    headers: { 'x-forwarded-for': '203.0.113.50, 198.51.100.60', authorization: 'bearer sekrit' },
  });
  await get(gw.url, '/developers', { method: 'HEAD' });
  await get(gw.url, '/api/nope');
  expect(await gw.stop('SIGTERM')).toBe(0);
  const lines = gw.stdout().trimEnd().split('\n');
  expect(lines.filter((l) => l.startsWith('listening on '))).toEqual([`listening on ${gw.url}`]);
  expect(lines[0]).toBe(`listening on ${gw.url}`);
  const log = lines.slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(log.map((l) => [l.method, l.path, l.status, l.quota])).toEqual([
    ['GET', '/api/v1/github-contributions', 200, 'off'],
    ['HEAD', '/developers', 200, '-'],
    ['GET', '/api/nope', 404, '-'],
  ]);
  for (const l of log) expect(typeof l.durationMs).toBe('number');
  expect(gw.stdout()).not.toMatch(/hunter2|sekrit|203\.0\.113\.50|198\.51\.100\.60/);
});

it('on SIGTERM stops accepting, finishes the request in flight, and exits 0', async () => {
  const gw = await spawnGateway(env());
  fake.market.mode = 'slow'; // answers after 300 ms, within UPSTREAM_TIMEOUT_MS
  const inFlight = get(gw.url, '/api/v1/mon-price');
  // The signal goes once the gateway is waiting on the upstream, however long the request took to get there.
  while (fake.calls.ticker + fake.calls.candles === 0) await new Promise((r) => setTimeout(r, 10));
  gw.child.kill('SIGTERM');
  const answer = await inFlight;
  expect(answer.status).toBe(200);
  expect(await gw.exited).toBe(0);
  await expect(get(gw.url, '/')).rejects.toThrow();
  expect(gw.stderr()).toBe('');
});

it('npm start on a fresh clone builds dist/ first, then serves it, the calendar fetched once and then kept', async () => {
  const dist = join(fixture.base, 'fresh-dist');
  try {
    const gw = await spawnStart(env({ DIST_DIR: dist }));
    expect(gw.stderr()).toMatch(/fresh-dist is missing; building it first/);
    expect(gw.buildStdout).toBe('');
    expect(await readdir(dist)).toContain('index.html');
    const calls = fake.calls.html;
    for (const path of ['/api/github-contributions', '/api/v1/github-contributions'])
      expect((await get(gw.url, path)).status).toBe(200);
    expect(fake.calls.html).toBe(calls + 1);
    expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(200);
    expect(await gw.stop()).toBe(0);
  } finally {
    await rm(dist, { recursive: true, force: true });
  }
});
