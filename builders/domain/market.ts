// Pure MarketData builder: (ticker, candles, now) → payload, by the rules of docs/data-rules.md.
import { UpstreamError } from '../lib/errors.ts';
import { CONSTANTS } from '../contract/service.ts';
import type { MarketData, MarketPoint } from '../contract/payload-types.ts';

// The payload's types come from its schema (builders/contract/payload-types.ts, generated from schemas/).
export type { MarketData, MarketPoint } from '../contract/payload-types.ts';

/** A ticker after shape checks: price as a number, time as the provider's own string and its instant. */
export interface Ticker {
  price: number;
  time: string;
  timeMs: number;
}

/** A candle row after shape checks: start time in Unix seconds and the close. */
export interface Candle {
  time: number;
  close: number;
}

/**
 * RFC 3339 date-times as Coinbase Exchange writes them (REST ticker and feed alike): microseconds, so a
 * fraction of at most nine digits (nanoseconds) is the most a real clock writes; a longer one is refused
 * rather than printed (a feed's 1 MB fraction never reaches a terminal).
 */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;
/** Its prices are decimal strings. */
export const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * How far ahead of this machine's clock a provider's time may be (docs/data-rules.md#market-preview): clocks
 * disagree by seconds, not by minutes. A ticker or candle later than now plus this is not data of now, and a
 * time in the year 2999 would make every axis drawn from it span centuries.
 */
export const CLOCK_AHEAD_MS = 5 * 60_000;

/** The candle request window: [now - 604800 s, now], in whole seconds. */
export function marketWindow(nowMs: number): { startSeconds: number; endSeconds: number } {
  const endSeconds = Math.floor(nowMs / 1000);
  return { startSeconds: endSeconds - CONSTANTS.marketWindowSeconds, endSeconds };
}

/** `product` is the configured `<BASE>-USD` product; `source` names its provider (MARKET_SOURCE_NAME). */
export function buildMarketData(
  ticker: Ticker,
  candles: readonly Candle[],
  nowMs: number,
  source: string,
  product: string,
): MarketData {
  if (!Number.isFinite(ticker.price) || ticker.price <= 0) {
    throw new UpstreamError('coinbase', `ticker price ${ticker.price} is not a positive number`);
  }
  if (!Number.isFinite(ticker.timeMs))
    throw new UpstreamError('coinbase', `ticker time "${ticker.time}" is not a date-time`);
  if (ticker.timeMs > nowMs + CLOCK_AHEAD_MS)
    throw new UpstreamError('coinbase', `ticker time ${ticker.time} is later than now plus 5 minutes`);
  const { startSeconds, endSeconds } = marketWindow(nowMs);
  const live = withTicker(candlePoints(candles, startSeconds, endSeconds), ticker);
  if (live.points.length < 2) {
    throw new UpstreamError(
      'coinbase',
      `only ${live.points.length} point(s) in the seven-day window; at least 2 are needed`,
    );
  }
  return {
    // The schema's `const` is the configured product (builders/contract/schemas.ts specialises it); the type
    // generated from the committed file names the default.
    product: product as MarketData['product'],
    currency: CONSTANTS.currency,
    source,
    windowSeconds: CONSTANTS.marketWindowSeconds,
    ...live,
  };
}

/**
 * The candles' points within [startSeconds, endSeconds]: one per candle start time, ascending. Kept per
 * candle list for the window it was computed for: the gateway reuses one candle history for minutes and
 * builds a payload from it for every market request, so the same window (it moves once a second) is not
 * sorted again each time. The lists are never changed once parsed, and neither are the points.
 */
export function candlePoints(
  candles: readonly Candle[],
  startSeconds: number,
  endSeconds: number,
): readonly MarketPoint[] {
  const kept = pointsOf.get(candles);
  if (kept !== undefined && kept.startSeconds === startSeconds && kept.endSeconds === endSeconds) return kept.points;
  const byTime = new Map<number, number>();
  for (const candle of candles) {
    if (candle.time > endSeconds + CLOCK_AHEAD_MS / 1000)
      throw new UpstreamError('coinbase', `candle at ${candle.time} is later than now plus 5 minutes`);
    if (candle.time < startSeconds || candle.time > endSeconds) continue; // rows may fall outside [start, end]
    if (!Number.isFinite(candle.close) || candle.close <= 0) {
      throw new UpstreamError('coinbase', `candle at ${candle.time} has close ${candle.close}, not a positive number`);
    }
    if (!byTime.has(candle.time)) byTime.set(candle.time, candle.close); // one point per candle start time
  }
  const points = Object.freeze(
    [...byTime].sort((a, b) => a[0] - b[0]).map(([time, value]) => Object.freeze({ time, value })),
  );
  pointsOf.set(candles, { startSeconds, endSeconds, points });
  return points;
}
const pointsOf = new WeakMap<
  readonly Candle[],
  { startSeconds: number; endSeconds: number; points: readonly MarketPoint[] }
>();

/** The fields a ticker decides, given the candle points: what the build, the gateway and a live tick share. */
export type TickerFields = Pick<MarketData, 'points' | 'value' | 'changePercent' | 'low' | 'high' | 'asOf'>;

/**
 * docs/data-rules.md#market-preview: the ticker point `{floor(time), price}` is appended when it is later
 * than the last candle's; `value` is the price, `asOf` its time, the change is against the first point,
 * low and high cover every point and the price. `candles` are sorted ascending, one per time. A live tick
 * (builders/domain/live-tick.ts) is a ticker like any other.
 */
export function withTicker(candles: readonly MarketPoint[], ticker: Ticker): TickerFields {
  const points = [...candles];
  const tickerSeconds = Math.floor(ticker.timeMs / 1000);
  const last = points[points.length - 1];
  if (last === undefined || tickerSeconds > last.time) points.push({ time: tickerSeconds, value: ticker.price });
  const first = points[0]!.value;
  const values = [...points.map((p) => p.value), ticker.price];
  return {
    points,
    value: ticker.price,
    changePercent: ((ticker.price - first) / first) * 100,
    low: Math.min(...values),
    high: Math.max(...values),
    asOf: ticker.time,
  };
}
