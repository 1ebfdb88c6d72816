// The streak as a picture in a terminal (builders/render/dataset-view.ts): the current and the longest run with
// their dates, and what the window holds. Pure: payload and terminal in, lines out.
import type { GitHubStreak, GitHubStreakRun } from './rule.ts';
import type { TerminalPicture } from '../../render/dataset-view.ts';
import { headline, INDENT, type Terminal } from '../../render/terminal.ts';
import { REACHES_WINDOW_START, restDaysText, runDates, runDays } from './view.ts';

/** The current and longest run, their dates, and what the window holds. */
export function renderStreak(term: Terminal, streak: GitHubStreak): string[] {
  const run = (label: string, r: GitHubStreakRun) =>
    `${INDENT}${label.padEnd(9)}${term.style('bold', runDays(r).padEnd(10))}${term.style('dim', runDates(r))}` +
    (r.reachesWindowStart ? term.style('dim', ` (${REACHES_WINDOW_START})`) : '');
  return [
    ...headline(
      term,
      `${term.style('bold', streak.username)}  contribution streak ${term.style('dim', `${streak.startDate} to ${streak.endDate} (${streak.timeZone})`)}`,
    ),
    '',
    run('Current', streak.current),
    run('Longest', streak.longest),
    '',
    `${INDENT}${term.style('dim', `${streak.activeDays} active days in the window, ${restDaysText(streak)}`)}`,
  ];
}

export const picture: TerminalPicture<GitHubStreak> = (term, streak) => renderStreak(term, streak);
