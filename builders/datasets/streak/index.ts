// The contribution streak (docs/data-rules.md#contribution-streak): the current and the longest run of
// days with contributions, derived from the contribution calendar of the same instant (its days, its zone,
// its window), never from an upstream call of its own. It is published, cached and unavailable exactly
// when the calendar is. Everything the service says and does about it is declared here.
import type { Config } from '../../lib/config.ts';
import { DEFAULT_TIME_ZONE } from '../../lib/service-defaults.ts';
import { CONSTANTS, dataPaths, type DataResource } from '../../contract/service.ts';
import type { GitHubContributions } from '../../domain/contributions.ts';
import { buildStreak, type GitHubStreak } from './rule.ts';
import { escapeHtml } from '../../render/html.ts';
import { view } from './view.ts';
import { picture } from './picture.ts';
import type { Dataset } from '../dataset.ts';
import { contributionsResource, untilMidnightCaching } from '../contributions/index.ts';
import { streakCard } from './card.ts';

export function streakResource(timeZone: string): DataResource {
  // Its source is the calendar's: when that gives nothing usable, the streak says the same.
  const { problem } = contributionsResource(timeZone);
  return {
    id: 'streak',
    title: 'Contribution streak',
    summary: `Current and longest contribution streaks of one GitHub account, derived from its contribution calendar in ${timeZone}.`,
    schema: 'GitHubStreak',
    ...dataPaths('github-streak', 'GithubStreak'),
    cache: 'until-midnight',
    problem,
    toolText: `Returns the current and longest contribution streaks of one fixed GitHub account, derived from its contribution calendar over the rolling ${CONSTANTS.contributionDays}-day window in ${timeZone} (kept until the next midnight there), with the rest days that neither break nor count in a streak.`,
    card: 'github-streak',
    cardOrder: 3,
    timeZone,
    schemaWords: { [DEFAULT_TIME_ZONE]: timeZone },
    phrase: 'a GitHub contribution streak',
    command: {
      name: 'streak',
      summary: 'The contribution streak: the current and the longest run of days with contributions, with their dates.',
      readsSimulated: true,
      json: [
        { name: 'username', type: 'string', description: 'the GitHub account' },
        {
          name: 'current',
          type: '{days, startDate, endDate, reachesWindowStart}',
          description: 'the run that is still going (0 days when broken)',
        },
        {
          name: 'longest',
          type: '{days, startDate, endDate, reachesWindowStart}',
          description: 'the longest run of the window, the most recent on a tie',
        },
        { name: 'activeDays', type: 'integer', description: 'dates of the window with at least one contribution' },
        { name: 'restDays', type: 'string[]', description: 'weekdays that neither break nor count (STREAK_REST_DAYS)' },
        { name: 'timeZone, startDate, endDate, nextRefreshAt', type: 'string', description: 'as in the calendar' },
      ],
    },
  };
}

export function streakDataset(timeZone: string): Dataset<GitHubStreak> {
  const resource = streakResource(timeZone);
  return {
    resource,
    origin: {
      derivedFrom: contributionsResource(timeZone).id,
      derive: (calendar, config) => buildStreak(calendar as GitHubContributions, config.streakRestDays),
    },
    card: (payload, theme, ctx) => streakCard(payload, theme, ctx.nowMs, ctx.simulated),
    view,
    picture,
    home: {
      title: () => `${escapeHtml(resource.title)}: the last ${CONSTANTS.contributionDays} days`,
      after: () =>
        '<p class="disclaimer">Derived from the contribution calendar above: a run is days with at least one contribution, rest days neither breaking nor counting; today, not yet over, never breaks it.</p>',
    },
    example: (payload) => ({ json: JSON.stringify(payload, null, 2), note: 'A real snapshot from this build.' }),
    prose: (config: Config) => ({
      short: 'GitHub contribution streak',
      openapi: 'the current and longest contribution streaks derived from that calendar',
      llms: 'its contribution streak',
      developers: `a **contribution streak** (the current and longest runs of days with contributions, derived from that calendar${config.streakRestDays.length ? `, ${config.streakRestDays.join(', ')} being rest days` : ''})`,
      caching: `${untilMidnightCaching(timeZone)} The server derives it from the calendar it keeps, until the same midnight.`,
      liveNoun: 'streak',
      mcpRule: 'the streak is derived from that calendar',
      staticName: 'the streak',
    }),
  };
}
