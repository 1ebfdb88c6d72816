// The live market preview: the ticker is fetched for every request (no cache of any kind), the candle
// history is reused for at most five minutes and fetched once for all requests that need it meanwhile.
// The provider is someone else's: concurrent requests share ticker fetches (fresh-flight.ts: at most one
// in flight, each answer from a fetch begun after its request arrived), and after it answers 429 with a
// Retry-After it is not asked again before then: requests meanwhile get the 502 problem at once.
import { UpstreamError } from '../../../lib/errors.ts';
import type { Candle, MarketData } from '../../../domain/market.ts';
import { CONSTANTS, type DataResource } from '../../../contract/service.ts';
import type { Validator } from '../../../contract/schemas.ts';
import { fetchMarketData, type MarketSource } from '../../../upstreams/sources.ts';
import { freshFlight } from './fresh-flight.ts';
import { singleFlight } from './single-flight.ts';

export interface MarketRoute {
  /**
   * The MarketData of this instant, checked against its schema; rejects when the upstream gave no
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
  resource: DataResource,
  validator: Validator,
  now: () => number,
): MarketRoute {
  const reuseMs = CONSTANTS.candleReuseSeconds * 1000;
  let history: CandleHistory | undefined;
  const flight = singleFlight<CandleHistory>();
  const live: MarketSource = { ...source, ticker: freshFlight(source.ticker) };
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
      validator.validate(resource.schema, data);
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
