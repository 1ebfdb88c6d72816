// Pure GitHubContributions builder: (calendar days from either GitHub source, now) → payload (docs/data-rules.md).
import { UpstreamError, type UpstreamName } from '../lib/errors.ts';
import { CONSTANTS } from '../contract/service.ts';
import { calendarWindow, githubToday } from './calendar.ts';
import type { GitHubContributionDay, GitHubContributions } from '../contract/payload-types.ts';

// The payload's types come from its schema (builders/contract/payload-types.ts, generated from schemas/).
export type { GitHubContributions } from '../contract/payload-types.ts';
/** One calendar day, as either GitHub source reads it and as the payload publishes it. */
export type ContributionDay = GitHubContributionDay;

/**
 * Picks the 365 dates of the window in `timeZone` out of what GitHub returned. GitHub's date labels are used as they
 * are: they are UTC days and no API setting changes that, so the zone only chooses which labels to publish.
 */
export function buildContributions(
  upstream: UpstreamName,
  username: string,
  upstreamDays: readonly ContributionDay[],
  nowMs: number,
  timeZone: string,
): GitHubContributions {
  const byDate = new Map<string, ContributionDay>();
  for (const day of upstreamDays) {
    if (!Number.isInteger(day.count) || day.count < 0)
      throw new UpstreamError(upstream, `${day.date} has count ${day.count}`);
    if (!Number.isInteger(day.level) || day.level < 0 || day.level > 4) {
      throw new UpstreamError(upstream, `${day.date} has level ${day.level}`);
    }
    const seen = byDate.get(day.date);
    if (seen && (seen.count !== day.count || seen.level !== day.level)) {
      throw new UpstreamError(upstream, `${day.date} appears twice with different values`);
    }
    byDate.set(day.date, { date: day.date, count: day.count, level: day.level });
  }
  const window = calendarWindow(nowMs, timeZone);
  // East of UTC the window's last date can lie after GitHub's own today: GitHub labels every
  // contribution with its UTC date, and no instant of a UTC date that has not begun has passed, so
  // such a day has no contributions yet. It is the one day that is known without asking
  // (docs/data-rules.md); every other date must come from the upstream.
  const utcToday = githubToday(nowMs);
  for (const date of window.dates)
    if (date > utcToday && !byDate.has(date)) byDate.set(date, { date, count: 0, level: 0 });
  const missing = window.dates.filter((date) => !byDate.has(date));
  if (missing.length > 0) {
    // Nothing else is filled in: a calendar with invented zeros would be a fabricated answer.
    throw new UpstreamError(
      upstream,
      `${missing.length} of ${CONSTANTS.contributionDays} dates missing (first ${missing[0]}) for ${window.startDate}..${window.endDate}`,
    );
  }
  const days = window.dates.map((date) => byDate.get(date)!);
  return {
    username,
    totalContributions: days.reduce((sum, d) => sum + d.count, 0),
    startDate: window.startDate,
    endDate: window.endDate,
    days,
    // The schema's `const` is the configured zone (builders/contract/schemas.ts); the generated type names the default.
    timeZone: timeZone as GitHubContributions['timeZone'],
    nextRefreshAt: window.nextRefreshAt,
  };
}
