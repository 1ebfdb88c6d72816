// The market preview (docs/data-rules.md#market-preview): a Coinbase Exchange product quoted in USD
// (MARKET_PRODUCT), seven days of hourly closes plus the live ticker, computed for every request and
// never stored. Everything the service says and does about it is declared here.
import { liveFeedUrl, type Config } from '../../lib/config.ts';
import { markdownText } from '../../lib/text/markdown-text.ts';
import { DEFAULT_MARKET_PRODUCT } from '../../lib/service-defaults.ts';
import { CACHE_CONTROL, CONSTANTS, dataPaths, productNames, type DataResource } from '../../contract/service.ts';
import type { MarketData } from '../../domain/market.ts';
import { marketReuse } from '../../domain/reuse.ts';
import { formatDays } from '../../render/format.ts';
import { escapeHtml } from '../../render/html.ts';
import { view } from './view.ts';
import { picture } from './picture.ts';
import { shortened, type Dataset } from '../dataset.ts';
import { marketCard } from './card.ts';
import { marketUpstream } from './source.ts';

/** The market preview's window in whole days (seven), for running text. */
export const MARKET_WINDOW_DAYS = CONSTANTS.marketWindowSeconds / 86_400;

export const NO_ADVICE =
  'A preview of public market data for illustration only. It is not a trading recommendation or financial advice.';

/** Its routes, operationIds and card are named after the product (docs/api.md#endpoints). */
export function marketResource(product: string): DataResource {
  const { slug, name } = productNames(product);
  return {
    id: 'market',
    title: 'Market preview',
    summary: `${product}: seven days of hourly closes plus the live ticker, in USD. Not financial advice.`,
    schema: 'MarketData',
    ...dataPaths(`${slug}-price`, `${name}Price`),
    cache: 'per-request',
    problem: {
      detail: 'The market-data provider gave no usable answer to this request.',
      error: 'Market data is unavailable.',
    },
    toolText: `Returns the ${product} market preview: the latest ticker price (fetched live on every call), seven days of hourly closes, the change over the window, low, high and the provider timestamp, in ${CONSTANTS.currency}. It is not financial advice or a trading recommendation.`,
    card: `${slug}-price`,
    cardOrder: 2,
    schemaWords: { [DEFAULT_MARKET_PRODUCT]: product },
    phrase: `a ${product} market preview (not financial advice)`,
    command: {
      name: 'price',
      summary: `${product} now: value, 7-day change, low and high, as-of time, and a sparkline of the week. Not financial advice.`,
      readsSimulated: false,
      watch: { product },
      json: [
        { name: 'product', type: 'string', description: JSON.stringify(product) },
        { name: 'value', type: 'number', description: 'latest value in USD' },
        { name: 'changePercent', type: 'number', description: 'change from the first point of the window, unrounded' },
        { name: 'low', type: 'number', description: 'lowest value of the window' },
        { name: 'high', type: 'number', description: 'highest value of the window' },
        { name: 'asOf', type: 'string', description: "the provider's time of the latest value (ISO 8601)" },
        { name: 'points', type: '{time, value}[]', description: 'hourly closes, oldest first; time in Unix seconds' },
        {
          name: 'currency, source, windowSeconds',
          type: 'string, string, integer',
          description: 'the rest of MarketData',
        },
      ],
    },
  };
}

export function marketDataset(product: string): Dataset<MarketData> {
  const resource = marketResource(product);
  return {
    resource,
    origin: { upstream: marketUpstream(product) },
    reuse: {
      check: (payload, nowMs, config) => marketReuse(payload, nowMs, { source: config.marketSourceName, product }),
      age: (payload, age) => `${age} old (as of ${payload.asOf})`,
    },
    card: (payload, theme, ctx) => marketCard(payload, theme, ctx.simulated),
    view,
    picture,
    home: {
      title: () => `${escapeHtml(resource.title)}: ${escapeHtml(product)}, last ${formatDays(MARKET_WINDOW_DAYS)}`,
      // The feed the page script subscribes to (docs/site.md#live-ticks), baked in at build time; none
      // without a snapshot to move or with MARKET_WS_URL=off.
      attributes: (ctx, payload) => {
        const feed = liveFeedUrl(ctx.config);
        if (payload === null || feed === null) return '';
        return ` data-live-feed="${escapeHtml(feed)}" data-live-product="${escapeHtml(product)}"${ctx.simulated ? ' data-live-simulated="true"' : ''}`;
      },
      after: (ctx, payload) =>
        `<p class="disclaimer">Source: ${escapeHtml(payload?.source ?? ctx.config.marketSourceName)}, values in ${CONSTANTS.currency}. ${NO_ADVICE}</p>`,
    },
    example: (payload) => shortened(payload, 'points'),
    prose: (config: Config) => ({
      short: `${product} market preview`,
      openapi: `a ${product} market preview (source: ${markdownText(config.marketSourceName)}; not a trading recommendation or financial advice)`,
      llms: `a ${product} market preview (not financial advice)`,
      developers: `a **market preview** of \`${product}\` (the latest ticker plus ${formatDays(MARKET_WINDOW_DAYS)} of hourly closes, in ${CONSTANTS.currency}, from ${markdownText(config.marketSourceName)})`,
      callout: `> **No financial advice.** ${NO_ADVICE}`,
      caching: `\`Cache-Control: ${CACHE_CONTROL.data(resource.cache)}\`, always. The ticker is fetched on every request; candle history may be reused in memory for up to ${CONSTANTS.candleReuseSeconds / 60} minutes.`,
      liveNoun: 'ticker',
      mcpRule: 'the market ticker is fetched on every call',
      liveWork: 'the live ticker',
      staticName: 'the market preview',
    }),
  };
}
