// Coinbase Exchange public REST: the configured product's ticker and hourly candles (docs/upstreams.md).
import { UpstreamError } from '../lib/errors.ts';
import { DECIMAL, RFC3339, type Candle, type Ticker } from '../domain/market.ts';
import { upstreamClient, type HttpOptions } from './http.ts';

/** Real answers are about 100 bytes (ticker) and 20 KB (300 candles); 1 MiB leaves room without trusting. */
export const MAX_MARKET_ANSWER_BYTES = 1024 * 1024;

export interface MarketClient {
  ticker(): Promise<Ticker>;
  candles(startSeconds: number, endSeconds: number): Promise<Candle[]>;
}

/** `productId` is a checked `<BASE>-USD` id (builders/lib/config.ts): letters, digits and one hyphen, safe in a path. */
export function coinbaseClient(baseUrl: string, productId: string, http: HttpOptions): MarketClient {
  const product = `${baseUrl}/products/${productId}`;
  const get = upstreamClient('coinbase', http);
  // Prepared once: the gateway fetches the ticker on every market request.
  const tickerUrl = `${product}/ticker`;
  const answer = { as: 'json', maxBytes: MAX_MARKET_ANSWER_BYTES } as const;
  return {
    async ticker() {
      return parseTicker(await get(tickerUrl, answer));
    },
    async candles(startSeconds, endSeconds) {
      const query = new URLSearchParams({
        granularity: '3600',
        start: new Date(startSeconds * 1000).toISOString(),
        end: new Date(endSeconds * 1000).toISOString(),
      });
      return parseCandles(await get(`${product}/candles?${query}`, answer));
    },
  };
}

/** Ticker prices are decimal strings; `trade_id` may be a number or a string and is not used. */
export function parseTicker(body: unknown): Ticker {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UpstreamError('coinbase', 'ticker answer is not an object');
  }
  const { price, time } = body as { price?: unknown; time?: unknown };
  const priceText = typeof price === 'number' ? String(price) : price;
  if (typeof priceText !== 'string' || !DECIMAL.test(priceText)) {
    throw new UpstreamError('coinbase', `ticker price ${JSON.stringify(price)} is not a decimal`);
  }
  if (typeof time !== 'string' || !RFC3339.test(time) || !Number.isFinite(Date.parse(time))) {
    throw new UpstreamError('coinbase', `ticker time ${JSON.stringify(time)} is not an RFC 3339 date-time`);
  }
  return { price: Number(priceText), time, timeMs: Date.parse(time) };
}

/**
 * The most rows one candles answer may hold: the provider sends at most 300 per request (docs/upstreams.md),
 * and the seven-day window at granularity 3600 holds 169 hours plus a row or two just outside it.
 */
export const MAX_CANDLE_ROWS = 300;
const GRANULARITY_SECONDS = 3600;

/**
 * Rows are [time, low, high, open, close, volume] as JSON numbers, newest first (not relied upon). Asked
 * for granularity 3600, every row starts on the hour; a row that does not, or more rows than the answer
 * can hold, is not an hourly candle answer.
 */
export function parseCandles(body: unknown): Candle[] {
  if (!Array.isArray(body)) throw new UpstreamError('coinbase', 'candles answer is not an array');
  if (body.length > MAX_CANDLE_ROWS) {
    throw new UpstreamError('coinbase', `candles answer has ${body.length} rows; at most ${MAX_CANDLE_ROWS} fit`);
  }
  return body.map((row: unknown, index) => {
    if (
      !Array.isArray(row) ||
      row.length < 5 ||
      !row.slice(0, 5).every((v) => typeof v === 'number' && Number.isFinite(v))
    ) {
      throw new UpstreamError('coinbase', `candle row ${index} is not [time, low, high, open, close, volume]`);
    }
    const [time, , , , close] = row as number[];
    if (!Number.isInteger(time)) throw new UpstreamError('coinbase', `candle row ${index} has a non-integer time`);
    if (time! % GRANULARITY_SECONDS !== 0)
      throw new UpstreamError('coinbase', `candle row ${index} starts at ${time}, not on the hour`);
    return { time: time!, close: close! };
  });
}
