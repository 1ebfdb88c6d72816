// The contribution calendar (docs/data-rules.md#contribution-calendar): one GitHub account's public daily
// counts over the rolling 365-day window that ends today in CALENDAR_TIME_ZONE, kept until the next
// midnight there. Everything the service says and does about it is declared here.
import type { Config } from '../../lib/config.ts';
import { DEFAULT_TIME_ZONE } from '../../lib/service-defaults.ts';
import { CACHE_CONTROL, CONSTANTS, dataPaths, type DataResource } from '../../contract/service.ts';
import type { GitHubContributions } from '../../domain/contributions.ts';
import { calendarReuse } from '../../domain/reuse.ts';
import { formatDays } from '../../render/format.ts';
import { escapeHtml } from '../../render/html.ts';
import { githubProfileUrl } from '../../contract/pages.ts';
import { view } from './view.ts';
import { picture } from './picture.ts';
import { shortened, type Dataset } from '../dataset.ts';
import { contributionsCard } from './card.ts';
import { contributionsUpstream } from './source.ts';

/** The calendar's Cache-Control in words (docs/api.md#response-headers): until the next midnight in its zone. */
export function untilMidnightCaching(timeZone: string): string {
  return `\`Cache-Control: ${CACHE_CONTROL.data('until-midnight')}\`, where \`<seconds>\` is the whole seconds until the next midnight in ${timeZone} (the instant in \`nextRefreshAt\`); or \`${CACHE_CONTROL.perClient}\` when the answer carries per-client quota headers.`;
}

export function contributionsResource(timeZone: string): DataResource {
  return {
    id: 'contributions',
    title: 'Contribution calendar',
    summary: `Rolling 365-day public contribution calendar of one GitHub account, in ${timeZone}.`,
    schema: 'GitHubContributions',
    ...dataPaths('github-contributions', 'GithubContributions'),
    cache: 'until-midnight',
    problem: {
      detail: 'The contribution source gave no usable answer for the current calendar window.',
      error: 'Contribution data is unavailable.',
    },
    toolText: `Returns the public daily contribution counts of one fixed GitHub account over a rolling ${CONSTANTS.contributionDays}-day window in ${timeZone}, with the total and the next refresh time (the calendar is kept until the next midnight there).`,
    card: 'github-contributions',
    // The calendar's first, as the cards were first published.
    cardOrder: 1,
    timeZone,
    schemaWords: { [DEFAULT_TIME_ZONE]: timeZone },
    phrase: 'a GitHub contribution calendar',
    command: {
      name: 'contributions',
      summary: 'The contribution calendar: total, window and a seven-row heatmap of the year.',
      readsSimulated: true,
      json: [
        { name: 'username', type: 'string', description: 'the GitHub account' },
        { name: 'totalContributions', type: 'integer', description: 'sum over the 365 days' },
        { name: 'startDate', type: 'string', description: 'first day of the window (YYYY-MM-DD)' },
        { name: 'endDate', type: 'string', description: `last day: today in ${timeZone}` },
        { name: 'days', type: '{date, count, level}[]', description: '365 entries, oldest first; level 0 to 4' },
        { name: 'timeZone, nextRefreshAt', type: 'string, string', description: 'the rest of GitHubContributions' },
      ],
    },
  };
}

export function contributionsDataset(timeZone: string): Dataset<GitHubContributions> {
  const resource = contributionsResource(timeZone);
  return {
    resource,
    origin: { upstream: contributionsUpstream(timeZone) },
    reuse: {
      check: (payload, nowMs, config) => calendarReuse(payload, nowMs, { username: config.githubAccount, timeZone }),
      // The calendar's zone as the payload names it: the check found it is the configured one.
      age: (payload, age) => `at most ${age} old (it ends today, ${payload.endDate} in ${payload.timeZone})`,
    },
    card: (payload, theme, ctx) => contributionsCard(payload, theme, ctx.nowMs, ctx.simulated),
    view,
    picture,
    home: {
      title: () => `${escapeHtml(resource.title)}: the last ${formatDays(CONSTANTS.contributionDays)}`,
      after: (ctx) =>
        `<p class="disclaimer">Public contributions of <a href="${escapeHtml(githubProfileUrl(ctx.config.githubAccount))}">${escapeHtml(ctx.config.githubAccount)}</a> on GitHub, days as GitHub labels them; completeness depends on what the public source provides.</p>`,
    },
    example: (payload) => shortened(payload, 'days'),
    prose: (config: Config) => ({
      short: 'GitHub contribution calendar',
      openapi: `the public contribution calendar of GitHub account \`${config.githubAccount}\` over a rolling ${CONSTANTS.contributionDays}-day window in ${timeZone}`,
      llms: `the GitHub contribution calendar of \`${config.githubAccount}\``,
      developers: `a **contribution calendar** (the public daily contribution counts of GitHub account \`${config.githubAccount}\` over a rolling ${CONSTANTS.contributionDays}-day window in ${timeZone})`,
      caching: `${untilMidnightCaching(timeZone)} The server keeps one rolling-year answer in memory until that midnight.`,
      cachingNote: ' The calendar reports what the public source provides; completeness is not promised.',
      liveNoun: 'calendar',
      mcpRule: `the calendar is kept until the next midnight in ${timeZone}`,
      staticName: 'the calendar',
    }),
  };
}
