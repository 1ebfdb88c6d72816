// The live tick rule of docs/upstreams.md#the-live-feed on hand-made feed messages: which are accepted, and
// what an accepted tick makes of the build's snapshot (the same rule as the build's ticker point).
import { describe, expect, it } from 'vitest';
import { buildMarketData, type Candle } from '../builders/domain/market.ts';
import {
  applyTick,
  backoffMs,
  judgeMessage,
  liveTick,
  Reconnection,
  snapshotCandles,
  type LiveTick,
} from '../builders/domain/live-tick.ts';

const HOUR = 3600;
const NOW = Date.parse('2026-11-22T14:05:00Z');
const lastHour = Math.floor(NOW / 1000 / HOUR) * HOUR;
const candles: Candle[] = [
  { time: lastHour - 2 * HOUR, close: 0.02 },
  { time: lastHour - HOUR, close: 0.03 },
  { time: lastHour, close: 0.025 },
];
const TICKER_TIME = '2026-11-22T14:03:07.512345Z';
/** The client's clock when the ticks below arrive, and the snapshot's asOf as the first tick's floor. */
const CLOCK = { nowMs: Date.parse('2026-11-22T14:12:00Z'), notBeforeMs: Date.parse(TICKER_TIME) };
const snapshot = buildMarketData(
  { price: 0.024, time: TICKER_TIME, timeMs: Date.parse(TICKER_TIME) },
  candles,
  NOW,
  'Coinbase Exchange',
  'MON-USD',
);

const tick = (fields: Record<string, unknown>) =>
  JSON.stringify({
    type: 'ticker',
    sequence: 90,
    product_id: 'MON-USD',
    price: '0.04',
    open_24h: '0.02',
    volume_24h: '1000',
    low_24h: '0.01',
    high_24h: '0.05',
    side: 'buy',
    time: '2026-11-22T14:10:00.250000Z',
    trade_id: 20,
    last_size: '1',
    ...fields,
  });
const accepted = (message: string, last: LiveTick | null = null, clock = CLOCK): LiveTick => {
  const verdict = judgeMessage(message, 'MON-USD', last, clock);
  if (!verdict.accepted) throw new Error(`refused: ${verdict.reason}`);
  return verdict.tick;
};

describe('judgeMessage', () => {
  it('accepts a ticker of the product: its price as a number and its own time', () => {
    expect(accepted(tick({}))).toEqual({
      product: 'MON-USD',
      price: 0.04,
      time: '2026-11-22T14:10:00.250000Z',
      timeMs: Date.parse('2026-11-22T14:10:00.250Z'),
    });
  });

  it.each([
    ['another product', tick({ product_id: 'BTC-USD' }), 'other-product'],
    ['a price of zero', tick({ price: '0' }), 'bad-price'],
    ['a price of 0.000', tick({ price: '0.000' }), 'bad-price'],
    ['a negative price', tick({ price: '-0.04' }), 'bad-price'],
    ['a price "abc"', tick({ price: 'abc' }), 'bad-price'],
    ['a missing price', tick({ price: undefined }), 'bad-price'],
    ['an infinite price', tick({ price: '1e999' }), 'bad-price'],
    ['an unparsable time', tick({ time: 'yesterday' }), 'bad-time'],
    ['an impossible date', tick({ time: '2026-13-45T99:00:00Z' }), 'bad-time'],
    ['a missing time', tick({ time: undefined }), 'bad-time'],
    [
      'a heartbeat',
      JSON.stringify({
        type: 'heartbeat',
        sequence: 90,
        last_trade_id: 20,
        product_id: 'MON-USD',
        time: '2026-11-22T14:10:00Z',
      }),
      'not-a-ticker',
    ],
    ['a subscriptions answer', JSON.stringify({ type: 'subscriptions', channels: [] }), 'not-a-ticker'],
    ['an error message', JSON.stringify({ type: 'error', message: 'Failed to subscribe', price: '1' }), 'not-a-ticker'],
    ['an array', '[1,2]', 'not-a-ticker'],
    ['null', 'null', 'not-a-ticker'],
    ['text that is not JSON', 'not json {', 'not-json'],
  ])('ignores %s', (_name, message, reason) => {
    expect(judgeMessage(message, 'MON-USD', null, CLOCK)).toEqual({ accepted: false, reason });
  });

  it('ignores a tick older than the last accepted one, and accepts one at the same instant or later', () => {
    const last = accepted(tick({ time: '2026-11-22T14:10:00.250000Z' }));
    expect(judgeMessage(tick({ time: '2026-11-22T14:09:59.999Z' }), 'MON-USD', last, CLOCK)).toEqual({
      accepted: false,
      reason: 'older-than-last',
    });
    expect(
      judgeMessage(tick({ time: '2026-11-22T14:10:00.250000Z', price: '0.05' }), 'MON-USD', last, CLOCK).accepted,
    ).toBe(true);
    expect(accepted(tick({ time: '2026-11-22T15:10:01+01:00' }), last).timeMs).toBe(Date.parse('2026-11-22T14:10:01Z'));
  });

  it.each([
    ['a price of 1e-321 (a number)', tick({ price: 1e-321 }), 'bad-price'],
    ['a price below 1e-9', tick({ price: '0.0000000009' }), 'bad-price'],
    ['a price of 33 characters', tick({ price: `0.0${'1'.repeat(30)}` }), 'bad-price'],
    ['a price of 308 digits', tick({ price: '9'.repeat(308) }), 'bad-price'],
    ['a price above 1e12', tick({ price: '1000000000000.5' }), 'bad-price'],
    ['a time in 2999', tick({ time: '2999-12-31T23:59:59Z' }), 'in-the-future'],
    ['a time in 9999', tick({ time: '9999-12-31T23:59:59.999999Z' }), 'in-the-future'],
    [
      'a time 5 min and 1 ms after the clock',
      tick({ time: new Date(CLOCK.nowMs + 300_001).toISOString() }),
      'in-the-future',
    ],
    ['a first tick dated 1970', tick({ time: '1970-01-01T00:00:00Z' }), 'before-snapshot'],
    [
      'a first tick a millisecond before the snapshot',
      tick({ time: new Date(CLOCK.notBeforeMs - 1).toISOString() }),
      'before-snapshot',
    ],
    ['a time with a 10-digit fraction', tick({ time: '2026-11-22T14:10:00.1234567891Z' }), 'bad-time'],
    ['a time with a 1 MB fraction', tick({ time: `2026-11-22T14:10:00.${'5'.repeat(1_000_000)}Z` }), 'bad-time'],
  ])('ignores %s', (_name, message, reason) => {
    expect(judgeMessage(message, 'MON-USD', null, CLOCK)).toEqual({ accepted: false, reason });
  });

  it('accepts the bounds themselves: 1e-9, 1e12, 32 characters, the clock plus 5 min, the snapshot instant', () => {
    for (const price of ['0.000000001', '1000000000000', `0.0${'1'.repeat(29)}`])
      expect(judgeMessage(tick({ price }), 'MON-USD', null, CLOCK).accepted, price).toBe(true);
    for (const ms of [CLOCK.nowMs + 300_000, CLOCK.notBeforeMs])
      expect(judgeMessage(tick({ time: new Date(ms).toISOString() }), 'MON-USD', null, CLOCK).accepted).toBe(true);
  });

  it('accepts a repeated sequence: the feed may repeat it, only the time orders ticks', () => {
    const first = accepted(tick({ sequence: 7, time: '2026-11-22T14:10:00Z' }));
    const second = accepted(tick({ sequence: 7, time: '2026-11-22T14:10:01Z', price: '0.041' }), first);
    expect(second.price).toBe(0.041);
  });

  it('takes an already parsed message too', () => {
    expect(judgeMessage(JSON.parse(tick({})), 'MON-USD', null, CLOCK).accepted).toBe(true);
  });
});

describe('applyTick', () => {
  it('the snapshot less its own ticker point is its candles', () => {
    expect(snapshot.points).toHaveLength(4);
    expect(snapshotCandles(snapshot)).toEqual(candles.map((c) => ({ time: c.time, value: c.close })));
  });

  it('moves value, asOf, change, low, high and the last point, by the build rule with the tick as the ticker', () => {
    const t = accepted(tick({ price: '0.04', time: '2026-11-22T14:10:00.250000Z' }));
    const live = applyTick(snapshot, t);
    // A build whose clock read the tick's own instant.
    const built = buildMarketData(t, candles, t.timeMs, snapshot.source, snapshot.product);
    expect(live).toEqual(built);
    expect(live.value).toBe(0.04);
    expect(live.asOf).toBe('2026-11-22T14:10:00.250000Z');
    expect(live.changePercent).toBeCloseTo(100, 10);
    expect(live.low).toBe(0.02);
    expect(live.high).toBe(0.04);
    expect(live.points.at(-1)).toEqual({ time: Math.floor(t.timeMs / 1000), value: 0.04 });
    expect(live.points).toHaveLength(4);
  });

  it('a tick below every point becomes the low; the next tick replaces the last point rather than adding one', () => {
    const a = accepted(tick({ price: '0.01', time: '2026-11-22T14:10:00Z' }));
    const b = accepted(tick({ price: '0.03', time: '2026-11-22T14:11:00Z' }), a);
    const afterA = applyTick(snapshot, a);
    expect(afterA.low).toBe(0.01);
    expect(afterA.changePercent).toBeCloseTo(-50, 10);
    const afterB = applyTick(snapshot, b);
    expect(afterB.points).toHaveLength(4);
    expect(afterB.points.at(-1)).toEqual({ time: Math.floor(b.timeMs / 1000), value: 0.03 });
    expect(afterB.low).toBe(0.02);
  });

  it('a tick not later than the last candle changes the value but adds no point (the build rule)', () => {
    // (Held to no snapshot: a live first tick this old is refused, below.)
    const t = accepted(tick({ price: '0.05', time: new Date(lastHour * 1000 - 1000).toISOString() }), null, {
      ...CLOCK,
      notBeforeMs: 0,
    });
    const live = applyTick(snapshot, t);
    expect(live.points).toEqual(candles.map((c) => ({ time: c.time, value: c.close })));
    expect(live.value).toBe(0.05);
    expect(live.high).toBe(0.05);
  });

  it('liveTick: another product leaves nothing to apply; a good tick comes with the new market', () => {
    expect(liveTick(snapshot, null, tick({ product_id: 'ETH-USD' }), CLOCK.nowMs).accepted).toBe(false);
    const result = liveTick(snapshot, null, tick({ price: '0.048' }), CLOCK.nowMs);
    expect(result.accepted && result.moved.value).toBe(0.048);
  });
});

describe('Reconnection', () => {
  it('a feed that answers one message and closes sees at most 8 reconnections in 30 s', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999999]) {
      const r = new Reconnection(random);
      let t = 0;
      let reconnections = 0;
      // Each socket opens at once, delivers a heartbeat (no tick) and closes: the backoff keeps growing.
      for (;;) {
        r.opened(t);
        t += r.closed(t);
        if (t > 30_000) break;
        reconnections++;
      }
      expect(reconnections).toBeLessThanOrEqual(8);
      expect(reconnections).toBeGreaterThanOrEqual(1);
    }
  });

  it('starts over after an accepted tick, or after a socket stayed open 30 s, and not before', () => {
    const low = () => 0;
    const r = new Reconnection(low);
    expect([r.closed(0), r.closed(0), r.closed(0)]).toEqual([750, 1500, 3000]);
    r.opened(10_000);
    expect(r.closed(10_000 + 29_999)).toBe(6000);
    r.opened(50_000);
    expect(r.closed(80_000)).toBe(750);
    r.closed(80_000);
    r.accepted();
    expect(r.closed(90_000)).toBe(750);
  });
});

describe('backoffMs', () => {
  it('starts near 1 s and doubles to at most 60 s, within ±25 %', () => {
    const low = () => 0;
    const high = () => 0.999999;
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, low))).toEqual([
      750, 1500, 3000, 6000, 12000, 24000, 45000, 45000,
    ]);
    expect(backoffMs(0, high)).toBeCloseTo(1250, 0);
    expect(backoffMs(10, high)).toBe(60_000);
  });

  it('within 30 s of refusals, a client makes between 1 and 8 attempts whatever the jitter', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999999]) {
      let t = 0;
      let attempts = 1; // the first, at once
      for (let n = 0; (t += backoffMs(n, random)) <= 30_000; n++) attempts++;
      expect(attempts).toBeGreaterThanOrEqual(1);
      expect(attempts).toBeLessThanOrEqual(8);
    }
  });
});
