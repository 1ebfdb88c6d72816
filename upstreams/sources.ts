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
import { userAgent } from './http.ts';
import { calendarWindow } from '../domain/calendar.ts';

export interface ContributionSource {
  upstream: UpstreamName;
  /** GITHUB_ACCOUNT: whose calendar it is. */
  account: string;
  days(nowMs: number): Promise<ContributionDay[]>;
}

export interface MarketSource extends MarketClient {
  /** MARKET_SOURCE_NAME: the payload's `source`. */
  sourceName: string;
}

export interface Sources {
  market: MarketSource;
  contributions: ContributionSource;
}

export function createSources(config: Config): Sources {
  const http = { userAgent: userAgent(config.siteUrl), timeoutMs: config.upstreamTimeoutMs };
  const market = coinbaseClient(config.marketApiUrl, http);
  let contributions: Omit<ContributionSource, 'account'>;
  if (config.githubToken) {
    const fetchDays = githubGraphqlClient(config.githubApiUrl, config.githubToken, config.githubAccount, http);
    contributions = { upstream: 'github-graphql', days: (nowMs) => fetchDays(calendarWindow(nowMs)) };
  } else {
    const fetchDays = githubHtmlClient(config.githubWebUrl, config.githubAccount, http);
    contributions = { upstream: 'github-html', days: (nowMs) => fetchDays(calendarWindow(nowMs).dates) };
  }
  return {
    market: { ...market, sourceName: config.marketSourceName },
    contributions: { ...contributions, account: config.githubAccount },
  };
}

/** Ticker and candles fetched together; the candle fetch can be swapped for a cached one (the gateway's). */
export async function fetchMarketData(
  sources: Sources,
  nowMs: number,
  candles: MarketClient['candles'] = sources.market.candles,
): Promise<MarketData> {
  const { startSeconds, endSeconds } = marketWindow(nowMs);
  const [ticker, rows] = await Promise.all([sources.market.ticker(), candles(startSeconds, endSeconds)]);
  return buildMarketData(ticker, rows, nowMs, sources.market.sourceName);
}

export async function fetchContributions(sources: Sources, nowMs: number): Promise<GitHubContributions> {
  const days = await sources.contributions.days(nowMs);
  return buildContributions(sources.contributions.upstream, sources.contributions.account, days, nowMs);
}
