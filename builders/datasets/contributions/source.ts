// Where the calendar comes from (docs/upstreams.md#github): with GITHUB_TOKEN, GitHub's GraphQL API;
// without, the public calendar page. Connected once per program; the gateway keeps an answer until the next
// midnight in the calendar's zone, and a Worker shares the day's reading among its isolates (`shared`).
import type { Config } from '../../lib/config.ts';
import type { UpstreamName } from '../../lib/errors.ts';
import { buildContributions, type ContributionDay, type GitHubContributions } from '../../domain/contributions.ts';
import { calendarWindow, githubToday } from '../../domain/calendar.ts';
import { githubGraphqlClient } from '../../upstreams/github-graphql.ts';
import { githubHtmlClient } from '../../upstreams/github-html.ts';
import type { HttpOptions } from '../../upstreams/http.ts';
import type { DatasetSource, DatasetUpstream } from '../dataset.ts';

/** The days of the window ending at `nowMs`, from the configured source, and which source that is. */
export function contributionDays(
  config: Config,
  timeZone: string,
  http: HttpOptions,
): { upstream: UpstreamName; days(nowMs: number): Promise<ContributionDay[]> } {
  if (config.githubToken) {
    const fetchDays = githubGraphqlClient(config.githubApiUrl, config.githubToken, config.githubAccount, http);
    return { upstream: 'github-graphql', days: (nowMs) => fetchDays(calendarWindow(nowMs, timeZone)) };
  }
  const fetchDays = githubHtmlClient(config.githubWebUrl, config.githubAccount, http);
  // The page never holds a date after GitHub's UTC today (builders/domain/contributions.ts knows those are empty).
  const asked = (nowMs: number) => {
    const utcToday = githubToday(nowMs);
    return calendarWindow(nowMs, timeZone).dates.filter((date) => date <= utcToday);
  };
  return { upstream: 'github-html', days: (nowMs) => fetchDays(asked(nowMs)) };
}

export function contributionsUpstream(timeZone: string): DatasetUpstream<GitHubContributions> {
  return {
    connect(config, http): DatasetSource<GitHubContributions> {
      const { upstream, days } = contributionDays(config, timeZone, http);
      const account = config.githubAccount;
      const payload = (reading: unknown, nowMs: number) =>
        buildContributions(upstream, account, reading as ContributionDay[], nowMs, timeZone);
      return {
        fetch: async (nowMs) => payload(await days(nowMs), nowMs),
        keptUntil: (p) => Date.parse(p.nextRefreshAt),
        // A fetch begun before midnight does not serve requests after it.
        answersUntil: (nowMs) => calendarWindow(nowMs, timeZone).nextRefreshAtMs,
        shared: {
          key: (nowMs) => `${calendarWindow(nowMs, timeZone).endDate} ${upstream} ${account}`,
          read: days,
          payload,
        },
      };
    },
  };
}
