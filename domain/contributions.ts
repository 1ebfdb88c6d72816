// Pure GitHubContributions builder: (calendar days from either GitHub source, now) → payload (docs/data-rules.md).
import { UpstreamError, type UpstreamName } from '../lib/errors.ts';
import { CONSTANTS } from '../contract/service.ts';
import { calendarWindow } from './calendar.ts';

export interface ContributionDay {
  date: string;
  count: number;
  level: number;
}

export interface GitHubContributions {
  username: string;
  totalContributions: number;
  startDate: string;
  endDate: string;
  days: ContributionDay[];
  timeZone: typeof CONSTANTS.timeZone;
  nextRefreshAt: string;
}

/**
 * Picks the 365 Toronto-window dates out of what GitHub returned. GitHub's date labels are used as they
 * are: they are UTC days and no API setting changes that, so the zone only chooses which labels to publish.
 */
export function buildContributions(
  upstream: UpstreamName,
  username: string,
  upstreamDays: readonly ContributionDay[],
  nowMs: number,
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
  const window = calendarWindow(nowMs);
  const missing = window.dates.filter((date) => !byDate.has(date));
  if (missing.length > 0) {
    // Nothing is filled in: a calendar with invented zeros would be a fabricated answer.
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
    timeZone: CONSTANTS.timeZone,
    nextRefreshAt: window.nextRefreshAt,
  };
}
