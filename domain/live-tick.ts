// The live tick rule (docs/upstreams.md#the-live-feed): which feed messages are ticks of the configured
// product, and what an accepted tick makes of the build's market snapshot. Pure: the page script
// (site/scripts/live-feed.ts) and the CLI (cli/live/watch.ts) both judge every message with it.
import { DECIMAL, RFC3339, withTicker, type MarketData, type MarketPoint, type Ticker } from './market.ts';

/** A feed with no message of any kind (heartbeats included) for this long is gone: its socket is closed. */
export const SILENCE_MS = 30_000;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * The wait before reconnection attempt `n` (0 first, after a close, a refusal or silence): about 1 s,
 * doubling to at most 60 s, each within ±25 % so that many readers cut off at once do not return in step.
 */
export function backoffMs(n: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, n), MAX_BACKOFF_MS);
  return Math.min(base * (0.75 + random() * 0.5), MAX_BACKOFF_MS);
}

/** What a client sends within 5 s of opening: the product's ticker and heartbeat channels. */
export function subscribeMessage(product: string): string {
  return JSON.stringify({ type: 'subscribe', product_ids: [product], channels: ['ticker', 'heartbeat'] });
}

/** A tick the rule accepted: the product's price and the provider's own time. */
export interface LiveTick extends Ticker {
  product: string;
}

/** Why a message is not a tick to show; said only to tests and never on the page. */
export type Ignored = 'not-json' | 'not-a-ticker' | 'other-product' | 'bad-price' | 'bad-time' | 'older-than-last';

export type Verdict = { accepted: true; tick: LiveTick } | { accepted: false; reason: Ignored };

/**
 * A feed message (its text, or already parsed) judged against the configured product and the last
 * accepted tick. A tick is accepted when it is a `ticker` of the product, its price is a decimal above 0
 * and its time an RFC 3339 instant not earlier than the last accepted tick's. `subscriptions`,
 * `heartbeat` and `error` messages, and anything else, are not ticks. A repeated `sequence` is no reason
 * to refuse (the feed may repeat it): only the time orders ticks.
 */
export function judgeMessage(message: unknown, product: string, last: LiveTick | null): Verdict {
  let value = message;
  if (typeof message === 'string') {
    try {
      value = JSON.parse(message) as unknown;
    } catch {
      return { accepted: false, reason: 'not-json' };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { accepted: false, reason: 'not-a-ticker' };
  const m = value as { type?: unknown; product_id?: unknown; price?: unknown; time?: unknown };
  if (m.type !== 'ticker') return { accepted: false, reason: 'not-a-ticker' };
  if (m.product_id !== product) return { accepted: false, reason: 'other-product' };
  const priceText = typeof m.price === 'number' ? String(m.price) : m.price;
  const price = typeof priceText === 'string' && DECIMAL.test(priceText) ? Number(priceText) : NaN;
  if (!Number.isFinite(price) || price <= 0) return { accepted: false, reason: 'bad-price' };
  const timeMs = typeof m.time === 'string' && RFC3339.test(m.time) ? Date.parse(m.time) : NaN;
  if (!Number.isFinite(timeMs)) return { accepted: false, reason: 'bad-time' };
  if (last !== null && timeMs < last.timeMs) return { accepted: false, reason: 'older-than-last' };
  return { accepted: true, tick: { product, price, time: m.time as string, timeMs } };
}

/**
 * The snapshot's candle points: its points without the ticker point the build appended (the last point,
 * when it is at the snapshot's own `asOf` second with its `value`). A live tick takes that point's place.
 */
export function snapshotCandles(snapshot: MarketData): MarketPoint[] {
  const points = snapshot.points;
  const last = points[points.length - 1];
  const asOfSeconds = Math.floor(Date.parse(snapshot.asOf) / 1000);
  const tickerPoint = last !== undefined && last.time === asOfSeconds && last.value === snapshot.value;
  return tickerPoint && points.length > 1 ? points.slice(0, -1) : [...points];
}

/**
 * The market as an accepted tick makes it: the snapshot's candles with the tick as the ticker point, by
 * the very rule the build used (domain/market.ts withTicker): value, asOf, change, low, high and the
 * chart's last point.
 */
export function applyTick(snapshot: MarketData, tick: LiveTick): MarketData {
  return { ...snapshot, ...withTicker(snapshotCandles(snapshot), tick) };
}

/** One message against the snapshot and the last accepted tick: ignored, or the tick and the new market. */
export function liveTick(
  snapshot: MarketData,
  last: LiveTick | null,
  message: unknown,
): { accepted: false; reason: Ignored } | { accepted: true; tick: LiveTick; moved: MarketData } {
  const verdict = judgeMessage(message, snapshot.product, last);
  return verdict.accepted ? { ...verdict, moved: applyTick(snapshot, verdict.tick) } : verdict;
}
