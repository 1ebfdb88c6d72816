// The upstreams as configured: which clients to use and the I/O shells around the pure payload builders.
// The build and the gateway both fetch through here. The configuration is read once, when the sources are
// created: what the payloads name (the market source, the account) is bound here, so Config stops at the
// programs' edges (builders/build.ts, gateway/server.ts).
import type { Config } from '../lib/config.ts';
import { buildContributions, type ContributionDay, type GitHubContributions } from '../domain/contributions.ts';
import type { UpstreamName } from '../lib/errors.ts';
import { buildMarketData, marketWindow, type MarketData } from '../domain/market.ts';
import { coinbaseClient, type MarketClient } from './coinbase.ts';
import { githubGraphqlClient } from './github-graphql.ts';
import { githubHtmlClient } from './github-html.ts';
import { userAgent, type HttpOptions } from './http.ts';
import { calendarWindow, githubToday } from '../domain/calendar.ts';

export interface ContributionSource {
  upstream: UpstreamName;
  /** GITHUB_ACCOUNT: whose calendar it is. */
  account: string;
  /** CALENDAR_TIME_ZONE: where the window's days end. */
  timeZone: string;
  days(nowMs: number): Promise<ContributionDay[]>;
}

export interface MarketSource extends MarketClient {
  /** MARKET_SOURCE_NAME: the payload's `source`. */
  sourceName: string;
  /** MARKET_PRODUCT: the payload's `product`. */
  product: string;
}

/** The upstreams, each named by its provider (a dataset names the one its data come from, datasets/). */
export interface Sources {
  /** Coinbase Exchange; absent with MARKET_PRODUCT=off: the deployment has no market dataset. */
  coinbase: MarketSource | undefined;
  /** GitHub: its GraphQL API with a token, else the public calendar page. */
  github: ContributionSource;
  /**
   * How this program's requests go out (User-Agent, deadline, lifetime): what a dataset's own
   * upstream (datasets/<id>/source.ts) is connected with. Absent: httpOptions(config), on `fetch`.
   */
  http?: HttpOptions;
}

/** The rules of every upstream request of a program, from its configuration. */
export function httpOptions(config: Config, signal?: AbortSignal): HttpOptions {
  return { userAgent: userAgent(config.siteUrl), timeoutMs: config.upstreamTimeoutMs, signal };
}

/** `signal`: the program's lifetime; once it fires, no request runs on (upstreams/http.ts). */
export function createSources(config: Config, signal?: AbortSignal): Sources {
  const http = httpOptions(config, signal);
  const zone = config.calendarTimeZone;
  let contributions: Omit<ContributionSource, 'account' | 'timeZone'>;
  if (config.githubToken) {
    const fetchDays = githubGraphqlClient(config.githubApiUrl, config.githubToken, config.githubAccount, http);
    contributions = { upstream: 'github-graphql', days: (nowMs) => fetchDays(calendarWindow(nowMs, zone)) };
  } else {
    const fetchDays = githubHtmlClient(config.githubWebUrl, config.githubAccount, http);
    // The page never holds a date after GitHub's UTC today (domain/contributions.ts knows those are empty).
    const asked = (nowMs: number) => {
      const utcToday = githubToday(nowMs);
      return calendarWindow(nowMs, zone).dates.filter((date) => date <= utcToday);
    };
    contributions = { upstream: 'github-html', days: (nowMs) => fetchDays(asked(nowMs)) };
  }
  return {
    coinbase:
      config.marketProduct === null
        ? undefined
        : {
            ...coinbaseClient(config.marketApiUrl, config.marketProduct, http),
            sourceName: config.marketSourceName,
            product: config.marketProduct,
          },
    github: { ...contributions, account: config.githubAccount, timeZone: zone },
    http,
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

export async function fetchContributions(sources: Sources, nowMs: number): Promise<GitHubContributions> {
  const days = await sources.github.days(nowMs);
  const { upstream, account, timeZone } = sources.github;
  return buildContributions(upstream, account, days, nowMs, timeZone);
}

/** A source by its name in Sources: a dataset's module names the one its data come from (datasets/). */
export type SourceName = 'coinbase' | 'github';

/**
 * One payload of this instant from each source, as the build fetches it (the gateway keeps each source's
 * own live route). A source absent from the deployment is never asked: no dataset of it is registered.
 */
export const SOURCE_FETCH: { readonly [K in SourceName]: (sources: Sources, nowMs: number) => Promise<unknown> } = {
  coinbase: (sources, nowMs) => fetchMarketData(sources.coinbase!, nowMs),
  github: fetchContributions,
};
