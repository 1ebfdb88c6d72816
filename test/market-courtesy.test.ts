// The market provider is someone else's (issue #12): concurrent requests share ticker fetches without
// any answer coming from a fetch begun before its request, and a 429 with Retry-After is respected.

import { beforeEach, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from './fakes/upstreams.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { get, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';

const MARKET = '/api/v1/mon-price';
let clock = Date.parse('2026-11-22T17:00:00.000Z');
const now = () => clock;

let fake: FakeUpstreams;
let fixture: DistFixture;
let gw: TestGateway;

shareUpstreams({ now }, (shared) => void ({ fake, fixture } = shared));
beforeEach(async () => {
  clock = Date.parse('2026-11-22T17:00:00.000Z');
  fake.market = { mode: 'ok', tradeIdAsString: false };
  fake.resetCalls();
  gw = await startTestGateway(fake.url, fixture.dist, {}, { now });
  return () => gw.close();
});

const value = (r: { text: string }) => (JSON.parse(r.text) as { value: number }).value;

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('ticker fetches are shared, never reused', () => {
  it('40 concurrent requests while the first ticker fetch runs: every one a 200, two ticker fetches', async () => {
    // The first fetch is held until all 40 requests reached the gateway (a timed delay would let a slow
    // machine spread them over several fetches): the first request's fetch, then one for the other 39.
    let arrived = 0;
    let allArrived!: () => void;
    fake.market.tickerHeld = new Promise<void>((resolve) => (allArrived = resolve));
    const onRequest = () => {
      if (++arrived !== 40) return;
      fake.market.tickerHeld = undefined;
      allArrived();
    };
    gw.server.on('request', onRequest);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => get(gw.url, i % 2 ? MARKET : '/api/mon-price')),
    );
    gw.server.off('request', onRequest);
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
    expect(fake.calls.ticker).toBe(2);
    // The next request after the burst makes its own fetch.
    expect((await get(gw.url, MARKET)).status).toBe(200);
    expect(fake.calls.ticker).toBe(3);
  });

  it('a request that arrives while a fetch runs waits for the next one, begun after it arrived', async () => {
    fake.market.tickerDelayMs = 300;
    fake.market.tickerPrice = '0.041';
    const first = get(gw.url, MARKET);
    await until(() => fake.calls.ticker === 1);
    fake.market.tickerPrice = '0.042';
    const second = get(gw.url, MARKET);
    expect(value(await first)).toBe(0.041);
    expect(value(await second)).toBe(0.042);
    expect(fake.calls.ticker).toBe(2);
  });
});

describe('after the provider answers 429 with Retry-After', () => {
  it('it is not called again before then: the 502 problem at once, with Retry-After', async () => {
    fake.market.tickerMode = 'rate-limited'; // 429, Retry-After: 3600
    const first = await get(gw.url, MARKET);
    expect(first.status).toBe(502);
    const calls = fake.calls.ticker + fake.calls.candles;
    const tickerCalls = fake.calls.ticker;
    clock += 1_000_000; // 1000 s later
    for (const path of [MARKET, '/api/mon-price']) {
      const r = await get(gw.url, path);
      expect(r.status).toBe(502);
      expect(r.headers['content-type']).toBe('application/problem+json');
      expect(r.headers['retry-after']).toBe('2600');
      expect(r.headers['access-control-expose-headers']).toMatch(/Retry-After/i);
    }
    expect(fake.calls.ticker + fake.calls.candles).toBe(calls);
    fake.market.tickerMode = undefined;
    clock += 2_600_000;
    expect((await get(gw.url, MARKET)).status).toBe(200);
    expect(fake.calls.ticker).toBe(tickerCalls + 1);
  });
});

describe('a gateway that closes', () => {
  it('asks the provider nothing more: a retry nobody waits for is dropped with it', async () => {
    // The candles fail at once (404), so the answer is a 502 while the ticker's 429 waits its one-second
    // Retry-After for a second try: a request the answer no longer needs.
    fake.market.candlesMode = 'not-found';
    fake.market.tickerMode = 'rate-limited';
    fake.market.retryAfterSeconds = 1;
    expect((await get(gw.url, MARKET)).status).toBe(502);
    await gw.close();
    const asked = fake.calls.ticker;
    // Past the second try's time (it would come 1 s after the first), and its backoff after that.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.calls.ticker).toBe(asked);
  });
});
