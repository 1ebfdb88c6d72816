// The live tick rule (docs/upstreams.md#the-live-feed): which feed messages are ticks of the configured
// product, and what an accepted tick makes of the build's market snapshot. Pure: the page script
// (site/scripts/live-feed.ts) and the CLI (builders/cli/live/watch.ts) both judge every message with it.
import {
  CLOCK_AHEAD_MS,
  DECIMAL,
  RFC3339,
  withTicker,
  type MarketData,
  type MarketPoint,
  type Ticker,
} from './market.ts';

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

/**
 * A client's reconnection schedule: the wait before each attempt grows by backoffMs, and starts over only
 * after a socket delivered an accepted tick or stayed open SILENCE_MS (30 s). A feed that answers one
 * heartbeat and closes is not a healthy feed: resetting on any message let such a feed draw a reconnection
 * a second. Pure: the caller tells it the clock's readings.
 */
export class Reconnection {
  private attempt = 0;
  private openedAtMs: number | null = null;
  constructor(private readonly random: () => number = Math.random) {}
  /** The socket opened at `nowMs`. */
  opened(nowMs: number): void {
    this.openedAtMs = nowMs;
  }
  /** The socket delivered an accepted tick: the feed works. */
  accepted(): void {
    this.attempt = 0;
  }
  /** Visible again after a page let go of its socket: a new start, not a failure. */
  reset(): void {
    this.attempt = 0;
    this.openedAtMs = null;
  }
  /** The socket closed (or never opened) at `nowMs`: the wait before the next attempt. */
  closed(nowMs: number): number {
    if (this.openedAtMs !== null && nowMs - this.openedAtMs >= SILENCE_MS) this.attempt = 0;
    this.openedAtMs = null;
    return backoffMs(this.attempt++, this.random);
  }
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
export type Ignored =
  | 'not-json'
  | 'not-a-ticker'
  | 'other-product'
  | 'bad-price'
  | 'bad-time'
  | 'older-than-last'
  | 'before-snapshot'
  | 'in-the-future';

/**
 * A price's bounds (docs/upstreams.md#the-live-feed): a decimal string of at most 32 characters whose value
 * lies from 1e-9 to 1e12. `1e-321` passes "above 0" and prints as 0.000000; a 308-digit price prints as
 * 1e+308 and stretches every axis: neither is a price anyone trades at.
 */
export const PRICE_BOUNDS = { maxChars: 32, min: 1e-9, max: 1e12 } as const;

/**
 * What a tick's time is judged against: the client's clock now, and the earliest time a first tick may
 * have (the snapshot's `asOf`: a tick from before the snapshot is not live); later ticks are held to the
 * last accepted tick's time instead.
 */
export interface TickClock {
  nowMs: number;
  notBeforeMs: number;
}

export type Verdict = { accepted: true; tick: LiveTick } | { accepted: false; reason: Ignored };

/**
 * A feed message (its text, or already parsed) judged against the configured product, the last accepted
 * tick and the client's clock. A tick is accepted when it is a `ticker` of the product, its price a decimal
 * string within PRICE_BOUNDS, and its time an RFC 3339 instant not earlier than the last accepted tick's
 * (for the first, the snapshot's `asOf`) and not later than the clock plus 5 minutes (CLOCK_AHEAD_MS, the
 * build's own bound). `subscriptions`, `heartbeat` and `error` messages, and anything else, are not ticks.
 * A repeated `sequence` is no reason to refuse (the feed may repeat it): only the time orders ticks.
 */
export function judgeMessage(message: unknown, product: string, last: LiveTick | null, clock: TickClock): Verdict {
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
  const price =
    typeof priceText === 'string' && priceText.length <= PRICE_BOUNDS.maxChars && DECIMAL.test(priceText)
      ? Number(priceText)
      : NaN;
  if (!(price >= PRICE_BOUNDS.min && price <= PRICE_BOUNDS.max)) return { accepted: false, reason: 'bad-price' };
  const timeMs = typeof m.time === 'string' && RFC3339.test(m.time) ? Date.parse(m.time) : NaN;
  if (!Number.isFinite(timeMs)) return { accepted: false, reason: 'bad-time' };
  if (timeMs > clock.nowMs + CLOCK_AHEAD_MS) return { accepted: false, reason: 'in-the-future' };
  if (last === null && timeMs < clock.notBeforeMs) return { accepted: false, reason: 'before-snapshot' };
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
 * the very rule the build used (builders/domain/market.ts withTicker): value, asOf, change, low, high and the
 * chart's last point.
 */
export function applyTick(snapshot: MarketData, tick: LiveTick): MarketData {
  return { ...snapshot, ...withTicker(snapshotCandles(snapshot), tick) };
}

/**
 * One message against the snapshot, the last accepted tick and the client's clock `nowMs`: ignored, or the
 * tick and the new market. The first tick may not be older than the snapshot's `asOf`.
 */
export function liveTick(
  snapshot: MarketData,
  last: LiveTick | null,
  message: unknown,
  nowMs: number,
): { accepted: false; reason: Ignored } | { accepted: true; tick: LiveTick; moved: MarketData } {
  const verdict = judgeMessage(message, snapshot.product, last, { nowMs, notBeforeMs: Date.parse(snapshot.asOf) });
  return verdict.accepted ? { ...verdict, moved: applyTick(snapshot, verdict.tick) } : verdict;
}
