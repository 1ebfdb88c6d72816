// The shared quota across gateway processes (docs/data-rules.md): two real gateway programs on one private
// redis-server share one bucket over the four data URLs. The window is a year long so that no window
// boundary can fall inside the test on the real clock the programs use.
import { rm } from 'node:fs/promises';
import { parseItem, parseList } from 'structured-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import {
  get,
  makeDist,
  spawnGateway,
  type DistFixture,
  type GatewayProcess,
  type RawResponse,
} from '../helpers/gateway.ts';
import { privateRedis, SKIP_REDIS, type PrivateRedis } from '../helpers/gateway-redis.ts';
import { upstreamEnv } from '../helpers/run.ts';

const DATA = ['/api/v1/mon-price', '/api/mon-price', '/api/v1/github-contributions', '/api/github-contributions'];
const YEAR = 31_536_000;

function quotaOf(r: RawResponse) {
  if (r.headers['ratelimit'] === undefined && r.headers['ratelimit-policy'] === undefined) return undefined;
  const [policy] = parseList(String(r.headers['ratelimit-policy']));
  const [current] = parseList(String(r.headers['ratelimit']));
  return {
    policy: String(policy![0]),
    q: policy![1].get('q'),
    w: policy![1].get('w'),
    name: String(current![0]),
    r: current![1].get('r'),
    t: current![1].get('t') as number,
  };
}

describe.skipIf(SKIP_REDIS)('two gateway processes sharing RATE_LIMIT_REDIS_URL', () => {
  let fake: FakeUpstreams;
  let fixture: DistFixture;
  let redis: PrivateRedis;
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    [fake, fixture, redis] = await Promise.all([startFakeUpstreams(), makeDist(), privateRedis()]);
    const env = {
      ...upstreamEnv(fake.url),
      DIST_DIR: fixture.dist,
      RATE_LIMIT_QUOTA: '6',
      RATE_LIMIT_WINDOW: String(YEAR),
      RATE_LIMIT_REDIS_URL: redis.url,
    };
    [a, b] = await Promise.all([spawnGateway(env), spawnGateway(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
    await fake?.close();
    if (fixture) await rm(fixture.base, { recursive: true, force: true });
  });

  it('share one bucket across all four URLs; switching alias or instance does not reset it; the 429 makes no upstream call', async () => {
    // On a loaded machine a store answer can miss the product's 50 ms budget: that request is served
    // without quota headers (unaccounted, docs/gateway.md), and its count may reach Redis late or not at
    // all. The test times nothing: it reads what each answer says, keeps the accounted ones, and asks
    // again until the bucket is empty. On an idle machine every answer is accounted: 5, 4, 3, 2, 1, 0.
    const seen: Array<NonNullable<ReturnType<typeof quotaOf>>> = [];
    let unaccounted = 0;
    for (let i = 0; seen.at(-1)?.r !== 0; i++) {
      expect(i, 'the bucket of six never emptied').toBeLessThan(20);
      const r = await get((i % 2 ? b : a).url, DATA[i % 4]!);
      const q = quotaOf(r);
      if (q === undefined) {
        expect(r.status).toBe(200);
        unaccounted++;
        continue;
      }
      if (r.status === 429) break; // a late count of an unaccounted request emptied it first
      expect(r.status).toBe(200);
      seen.push(q);
    }
    const remaining = seen.map((q) => q.r as number);
    if (unaccounted === 0) expect(remaining).toEqual([5, 4, 3, 2, 1, 0]);
    // shared, never reset by another alias or instance: strictly falling, from at most 5
    expect(remaining[0]).toBeLessThanOrEqual(5);
    for (let k = 1; k < remaining.length; k++) expect(remaining[k]).toBeLessThan(remaining[k - 1]!);
    for (const q of seen) expect(q).toMatchObject({ policy: 'public-api', name: 'public-api', q: 6, w: YEAR });
    for (const [gw, path] of [
      [a, DATA[3]],
      [b, DATA[0]],
      [a, DATA[1]],
      [b, DATA[2]],
    ] as const) {
      let calls = { ...fake.calls };
      let r = await get(gw.url, path!, { method: path === DATA[1] ? 'HEAD' : 'GET' });
      // an unaccounted answer is served as if there were no quota (upstream calls included): ask again
      for (let retry = 0; quotaOf(r) === undefined && retry < 5; retry++, unaccounted++) {
        calls = { ...fake.calls };
        r = await get(gw.url, path!, { method: path === DATA[1] ? 'HEAD' : 'GET' });
      }
      expect(r.status).toBe(429);
      // the 429 made no upstream call
      expect(fake.calls).toEqual(calls);
      const q = quotaOf(r)!;
      expect(q).toMatchObject({ q: 6, w: YEAR, r: 0 });
      const [retryAfter] = parseItem(r.headers['retry-after']!);
      expect(retryAfter).toBe(q.t);
      expect(q.t).toBeGreaterThan(0);
      expect(q.t).toBeLessThanOrEqual(YEAR);
    }
    // the access logs of both processes say which requests were limited
    await Promise.all([a.stop(), b.stop()]);
    const outcomes = [a, b].flatMap((gw) =>
      gw
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { quota: string }).quota),
    );
    expect(outcomes.filter((o) => o === 'allowed')).toHaveLength(seen.length);
    expect(outcomes.filter((o) => o === 'limited').length).toBeGreaterThanOrEqual(4);
    expect(outcomes.filter((o) => o === 'unavailable')).toHaveLength(unaccounted);
  });
});
