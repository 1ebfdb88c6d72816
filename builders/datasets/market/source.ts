// Where the market preview comes from (docs/upstreams.md#coinbase-exchange): Coinbase Exchange's ticker and
// hourly candles of MARKET_PRODUCT, connected once per program. The build fetches both once; the gateway
// reads the ticker for every request and reuses the candle history for a few minutes (live.ts).
import { datasetVariables, type Config } from '../../lib/config.ts';
import { buildMarketData, marketWindow, type MarketData } from '../../domain/market.ts';
import { coinbaseClient, type MarketClient } from '../../upstreams/coinbase.ts';
import type { HttpOptions } from '../../upstreams/http.ts';
import type { DatasetSource, DatasetUpstream } from '../dataset.ts';
import { marketJson, marketRoute } from './live.ts';

export interface MarketSource extends MarketClient {
  /** MARKET_SOURCE_NAME: the payload's `source`. */
  sourceName: string;
  /** MARKET_PRODUCT: the payload's `product`. */
  product: string;
}

/** MARKET_API_URL: the market's own variable, Coinbase Exchange's REST origin (a fake's in the tests and the demo). */
const API_URL = 'MARKET_API_URL';
export const DEFAULT_API_URL = 'https://api.exchange.coinbase.com';

/** The market's client as configured. */
export function marketSource(config: Config, product: string, http: HttpOptions): MarketSource {
  return {
    ...coinbaseClient(datasetVariables(config).origin(API_URL, DEFAULT_API_URL), product, http),
    sourceName: config.marketSourceName,
    product,
  };
}

/** Ticker and candles fetched together; the candle fetch can be swapped for a cached one (the gateway's). */
export async function fetchMarketData(
  market: MarketSource,
  nowMs: number,
  candles: MarketClient['candles'] = market.candles,
): Promise<MarketData> {
  const { startSeconds, endSeconds } = marketWindow(nowMs);
  const [ticker, rows] = await Promise.all([market.ticker(), candles(startSeconds, endSeconds)]);
  return buildMarketData(ticker, rows, nowMs, market.sourceName, market.product);
}

export function marketUpstream(product: string): DatasetUpstream<MarketData> {
  return {
    variables: [API_URL],
    originVariable: API_URL,
    connect(config, http): DatasetSource<MarketData> {
      const source = marketSource(config, product, http);
      return {
        fetch: (nowMs) => fetchMarketData(source, nowMs),
        live: ({ shared, now, check }) => marketRoute(source, check, now, shared).data,
        json: marketJson,
      };
    },
  };
}
