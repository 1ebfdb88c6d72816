// The contribution streak (docs/data-rules.md#contribution-streak): pure, (calendar payload, rest days) →
// streak payload. Derived from the calendar of the same instant and nothing else: its dates are the
// calendar's own labels, in the calendar's zone, so no clock and no zone arithmetic are needed here.
import { WEEKDAYS } from '../../lib/config.ts';
import type { GitHubContributions, GitHubStreak, GitHubStreakRun } from '../../contract/payload-types.ts';

export type { GitHubStreak, GitHubStreakRun } from '../../contract/payload-types.ts';

/**
 * The weekday of a calendar date (YYYY-MM-DD), named as `restDays` names it (builders/lib/config.ts WEEKDAYS,
 * Monday first): a date, not an instant, so read in UTC where it is one day. getUTCDay counts from Sunday.
 */
export function weekdayOf(date: string): string {
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

/** No active date: the value of `current` when the streak is broken, and of both when nothing is active. */
export const ZERO_RUN: Readonly<GitHubStreakRun> = Object.freeze({
  days: 0,
  startDate: null,
  endDate: null,
  reachesWindowStart: false,
});

/**
 * docs/data-rules.md#contribution-streak. A date is active when its count is at least 1. A run is a maximal
 * sequence of window dates that starts and ends on an active date and in which every non-rest date is
 * active; an inactive rest date inside it neither breaks it nor counts, an active rest date counts.
 * `current` is the run of the most recent active date d when every non-rest date strictly between d and
 * `endDate` is active (today, not yet over, never breaks it); `longest` the run with the most days, the
 * most recent on a tie.
 */
export function buildStreak(calendar: GitHubContributions, restDays: readonly string[]): GitHubStreak {
  const rest = new Set(restDays);
  const runs: GitHubStreakRun[] = [];
  let open: GitHubStreakRun | undefined;
  /** An inactive non-rest date was seen: no later run reaches the window's start. */
  let broken = false;
  /** Since the last active date, an inactive non-rest date other than today was seen. */
  let brokenSinceLast = false;
  let activeDays = 0;
  const last = calendar.days.length - 1;
  for (const [i, { date, count }] of calendar.days.entries()) {
    if (count >= 1) {
      activeDays += 1;
      brokenSinceLast = false;
      if (open === undefined) {
        open = { days: 1, startDate: date, endDate: date, reachesWindowStart: !broken };
        runs.push(open);
      } else {
        open.days += 1;
        open.endDate = date;
      }
    } else if (!rest.has(weekdayOf(date))) {
      broken = true;
      open = undefined;
      if (i !== last) brokenSinceLast = true;
    }
  }
  const latest = runs.at(-1);
  const current = latest === undefined || brokenSinceLast ? ZERO_RUN : latest;
  // The most days; `>=` lets a later run of equal length take the place (the most recent on a tie).
  const longest = runs.reduce<GitHubStreakRun | undefined>(
    (best, run) => (best && best.days > run.days ? best : run),
    undefined,
  );
  return {
    username: calendar.username,
    timeZone: calendar.timeZone,
    startDate: calendar.startDate,
    endDate: calendar.endDate,
    nextRefreshAt: calendar.nextRefreshAt,
    restDays: [...restDays] as GitHubStreak['restDays'],
    activeDays,
    current: { ...current },
    longest: { ...(longest ?? ZERO_RUN) },
  };
}
