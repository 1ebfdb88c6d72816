// The market's live reading (the gateway's per-request route, builders/datasets/market/source.ts): the ticker is fetched for every request (no cache of any kind), the candle
// history is reused for at most five minutes and fetched once for all requests that need it meanwhile.
// The provider is someone else's: concurrent requests share ticker fetches (builders/upstreams/fresh-flight.ts: at most one
// in flight, each answer from a fetch begun after its request arrived), and after it answers 429 with a
// Retry-After it is not asked again before then: requests meanwhile get the 502 problem at once.
import { UpstreamError } from '../../lib/errors.ts';
import type { Candle, MarketData, MarketPoint } from '../../domain/market.ts';
import { CONSTANTS } from '../../contract/service.ts';
import { freshFlight } from '../../upstreams/fresh-flight.ts';
import { singleFlight } from '../../upstreams/single-flight.ts';
import { fetchMarketData, type MarketSource } from './source.ts';

export interface MarketRoute {
  /**
   * The MarketData of this instant, passed by `check` (its schema); rejects when the upstream gave no
   * usable data (with an UpstreamError whose retryAfterMs says when to ask again, while the provider
   * asked for quiet).
   */
  data(): Promise<MarketData>;
}

interface CandleHistory {
  rows: Candle[];
  fetchedAtMs: number;
}

export function marketRoute(
  source: MarketSource,
  check: (payload: MarketData) => void,
  now: () => number,
  /** Whether requests share a fetch in flight (GatewayDeps.sharedFetches); the history is shared either way. */
  shared = true,
): MarketRoute {
  const reuseMs = CONSTANTS.candleReuseSeconds * 1000;
  let history: CandleHistory | undefined;
  const flight = singleFlight<CandleHistory>(shared);
  const live: MarketSource = { ...source, ticker: freshFlight(source.ticker, shared) };
  /** Until when the provider asked not to be called (its 429's Retry-After), on the route's clock. */
  let quietUntilMs = 0;

  const candles = (startSeconds: number, endSeconds: number, nowMs: number): Promise<CandleHistory> => {
    if (history !== undefined && nowMs - history.fetchedAtMs < reuseMs && nowMs >= history.fetchedAtMs)
      return Promise.resolve(history);
    return (
      flight.pending ??
      flight.start(() =>
        source.candles(startSeconds, endSeconds).then((rows) => {
          // Age counts from when the fetch began: the rows cannot be newer than that.
          history = { rows, fetchedAtMs: nowMs };
          return history;
        }),
      )
    );
  };

  const data = async (): Promise<MarketData> => {
    const nowMs = now();
    if (nowMs < quietUntilMs) {
      throw new UpstreamError('coinbase', 'rate limited: the provider asked not to be called before its Retry-After', {
        status: 429,
        retryAfterMs: quietUntilMs - nowMs,
      });
    }
    let used: CandleHistory | undefined;
    try {
      const data = await fetchMarketData(live, nowMs, async (start, end) => {
        used = await candles(start, end, nowMs);
        return used.rows;
      });
      check(data);
      return data;
    } catch (error) {
      // History that made an unusable answer is not reused: the next request fetches it again.
      if (used !== undefined && history === used) history = undefined;
      if (error instanceof UpstreamError && error.status === 429 && error.retryAfterMs !== undefined)
        quietUntilMs = Math.max(quietUntilMs, now() + error.retryAfterMs);
      throw error;
    }
  };

  return { data };
}

/**
 * MarketData as JSON, byte for byte what JSON.stringify writes, with the text of the points kept while
 * they stay the same: the candle history is reused for five minutes, so about 170 of its points are the
 * same in every answer meanwhile, and writing their numbers was most of the route's own CPU per request
 * (more than building and validating the payload). Only the points after the kept ones (the ticker's)
 * are written per request.
 */
export function marketJson(): (payload: MarketData) => string {
  /** The points whose text is kept (copies: the payload's own objects are the caller's). */
  let kept: MarketPoint[] = [];
  /** Their JSON, comma-separated, without brackets. */
  let keptText = '';
  const samePrefix = (points: readonly MarketPoint[]) => {
    if (kept.length === 0 || kept.length > points.length) return false;
    for (let i = 0; i < kept.length; i++)
      if (points[i]!.time !== kept[i]!.time || points[i]!.value !== kept[i]!.value) return false;
    return true;
  };
  const point = (p: MarketPoint) => `{"time":${JSON.stringify(p.time)},"value":${JSON.stringify(p.value)}}`;
  return (payload) => {
    const points = payload.points;
    if (!samePrefix(points)) {
      // All but the last point: the last is the ticker's when it is newer than the last candle.
      kept = points.slice(0, -1).map(({ time, value }) => ({ time, value }));
      keptText = kept.map(point).join(',');
    }
    let pointsText = keptText;
    for (let i = kept.length; i < points.length; i++) pointsText += (i === 0 ? '' : ',') + point(points[i]!);
    let out = '{';
    for (const [key, value] of Object.entries(payload)) {
      if (value === undefined) continue; // JSON.stringify leaves such a member out
      out += `${out === '{' ? '' : ','}${JSON.stringify(key)}:${key === 'points' ? `[${pointsText}]` : JSON.stringify(value)}`;
    }
    return `${out}}`;
  };
}
