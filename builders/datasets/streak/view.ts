// The streak's figure on the home page (drawn by the build, redrawn by the page script: builders/render/dataset-view.ts),
// and how a streak reads wherever it is shown (home page and its script, card, CLI): its days, with "+" when the
// run reaches the window's start and may be longer than the window shows (docs/data-rules.md#contribution-streak).
import type { GitHubStreak, GitHubStreakRun } from './rule.ts';
import type { HomeView } from '../../render/dataset-view.ts';
import { escapeHtml } from '../../render/html.ts';

/** "12 days", "1 day", "261+ days" (the run reaches the window's start), "0 days". */
export function runDays(run: GitHubStreakRun): string {
  return `${run.days}${run.reachesWindowStart ? '+' : ''} ${run.days === 1 && !run.reachesWindowStart ? 'day' : 'days'}`;
}

/** "2026-11-12 to 2026-11-23", "2026-11-23", or "no run" for the zero run. */
export function runDates(run: GitHubStreakRun): string {
  if (run.startDate === null || run.endDate === null) return 'no run';
  return run.startDate === run.endDate ? run.startDate : `${run.startDate} to ${run.endDate}`;
}

/** What a run that reaches the window's start adds, in words. */
export const REACHES_WINDOW_START = "reaches the window's start: it may be longer than the 365 days shown";

/** "rest days Saturday, Sunday" or "no rest days". */
export function restDaysText(streak: GitHubStreak): string {
  return streak.restDays.length ? `rest days ${streak.restDays.join(', ')}` : 'no rest days';
}

/** One run as the home page shows it. */
function runHtml(label: string, run: GitHubStreakRun): string {
  return (
    `<div class="streak-run"><dt>${label}</dt><dd><strong>${escapeHtml(runDays(run))}</strong>` +
    `${run.startDate === null ? '' : ` <span>${escapeHtml(runDates(run))}</span>`}` +
    `${run.reachesWindowStart ? ` <span class="note">(${escapeHtml(REACHES_WINDOW_START)})</span>` : ''}</dd></div>`
  );
}

/** The streak's figure on the home page, drawn by the build and again by the page script. */
function streakBodyHtml(streak: GitHubStreak | null): string {
  if (streak === null)
    return '<p class="unavailable" data-unavailable="streak"><strong>Contribution streak unavailable.</strong> The contribution calendar it is derived from was unavailable when this page was built.</p>';
  return (
    `<dl class="streak">${runHtml('Current streak', streak.current)}${runHtml('Longest streak', streak.longest)}</dl>` +
    `<p class="heatmap-summary"><strong>${streak.activeDays}</strong> active days from <time datetime="${escapeHtml(streak.startDate)}">${escapeHtml(streak.startDate)}</time> ` +
    `to <time datetime="${escapeHtml(streak.endDate)}">${escapeHtml(streak.endDate)}</time> (${escapeHtml(streak.timeZone)}), ${escapeHtml(restDaysText(streak))}.</p>`
  );
}

/** The streak's shape as the figure draws it, checked before a redraw from an API answer (the CLI checks the whole schema). */
function isStreak(value: unknown): value is GitHubStreak {
  const v = value as Partial<GitHubStreak> | null;
  const run = (r: unknown) => {
    const x = r as Partial<GitHubStreakRun> | null;
    return !!x && Number.isInteger(x.days) && typeof x.reachesWindowStart === 'boolean';
  };
  return (
    !!v &&
    typeof v.username === 'string' &&
    typeof v.startDate === 'string' &&
    typeof v.endDate === 'string' &&
    typeof v.timeZone === 'string' &&
    Number.isInteger(v.activeDays) &&
    Array.isArray(v.restDays) &&
    run(v.current) &&
    run(v.longest)
  );
}

export const view: HomeView<GitHubStreak> = { accepts: isStreak, body: streakBodyHtml };
