// The upstreams as configured: which clients to use and the I/O shells around the pure payload builders.
// The build and the gateway both fetch through here.
import type { Config } from './config.ts';
import { buildContributions, type ContributionDay, type GitHubContributions } from './contributions.ts';
import type { UpstreamName } from './errors.ts';
import { buildMarketData, marketWindow, type MarketData } from './market.ts';
import { coinbaseClient, type MarketClient } from './upstream/coinbase.ts';
import { githubGraphqlClient } from './upstream/github-graphql.ts';
import { githubHtmlClient } from './upstream/github-html.ts';
import { userAgent } from './upstream/http.ts';
import { calendarWindow } from './toronto-calendar.ts';

export interface ContributionSource {
  upstream: UpstreamName;
  days(nowMs: number): Promise<ContributionDay[]>;
}

export interface Sources {
  market: MarketClient;
  contributions: ContributionSource;
}

export function createSources(config: Config): Sources {
  const http = { userAgent: userAgent(config.siteUrl), timeoutMs: config.upstreamTimeoutMs };
  const market = coinbaseClient(config.marketApiUrl, http);
  let contributions: ContributionSource;
  if (config.githubToken) {
    const fetchDays = githubGraphqlClient(config.githubApiUrl, config.githubToken, config.githubAccount, http);
    contributions = { upstream: 'github-graphql', days: (nowMs) => fetchDays(calendarWindow(nowMs)) };
  } else {
    const fetchDays = githubHtmlClient(config.githubWebUrl, config.githubAccount, http);
    contributions = { upstream: 'github-html', days: (nowMs) => fetchDays(calendarWindow(nowMs).dates) };
  }
  return { market, contributions };
}

/** Ticker and candles fetched together; the candle fetch can be swapped for a cached one (the gateway's). */
export async function fetchMarketData(
  sources: Sources,
  config: Config,
  nowMs: number,
  candles: MarketClient['candles'] = sources.market.candles,
): Promise<MarketData> {
  const { startSeconds, endSeconds } = marketWindow(nowMs);
  const [ticker, rows] = await Promise.all([sources.market.ticker(), candles(startSeconds, endSeconds)]);
  return buildMarketData(ticker, rows, nowMs, config.marketSourceName);
}

export async function fetchContributions(
  sources: Sources,
  config: Config,
  nowMs: number,
): Promise<GitHubContributions> {
  const days = await sources.contributions.days(nowMs);
  return buildContributions(sources.contributions.upstream, config.githubAccount, days, nowMs);
}
