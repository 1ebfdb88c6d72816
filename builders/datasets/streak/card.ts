// The contribution streak's card: the current and the longest run with their dates, the zone, the rest
// days, the source and the as-of time.
import type { GitHubStreak, GitHubStreakRun } from './rule.ts';
import { formatInstant } from '../../render/format.ts';
import type { ChartTheme } from '../../render/charts/theme.ts';
import {
  frame,
  LINE,
  PAD,
  SIMULATED,
  SIMULATED_CALENDAR_SOURCE,
  SMALL_FONT_SIZE,
  SMALL_LINE,
  text,
  TITLE_FONT_SIZE,
} from '../../render/card.ts';
import { ellipsize, wrapText } from '../../render/text-width.ts';
import { REACHES_WINDOW_START, restDaysText, runDates, runDays } from './view.ts';

export function streakCard(streak: GitHubStreak, theme: ChartTheme, builtMs: number, simulated: boolean): string {
  const width = 495;
  const asOf = formatInstant(new Date(builtMs).toISOString());
  // A demo's label has a line of its own under the title, which a long username would otherwise run into.
  const top = simulated ? LINE : 0;
  const column = (x: number, label: string, run: GitHubStreakRun) =>
    text(x, top + 62, label) +
    text(x, top + 90, runDays(run), `font-size="22" font-weight="600" fill="${theme.text}"`) +
    text(x, top + 110, runDates(run)) +
    (run.reachesWindowStart ? text(x, top + 126, "reaches the window's start", 'font-size="11"') : '');
  const said = (label: string, run: GitHubStreakRun) =>
    `${label} ${runDays(run)}${run.startDate === null ? '' : ` (${runDates(run)})`}${run.reachesWindowStart ? `, ${REACHES_WINDOW_START}` : ''}`;
  const title = `${streak.username}: GitHub contribution streak`;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}${said('Current streak', streak.current)}; ${said('longest', streak.longest)}; ` +
    `days in ${streak.timeZone} from ${streak.startDate} to ${streak.endDate}, ${restDaysText(streak)}. ` +
    `Source: ${simulated ? SIMULATED_CALENDAR_SOURCE : "GitHub's public contribution calendar"}. As of ${asOf}.`;
  // Laid out by estimated widths (builders/render/text-width.ts): a long zone or many rest days wrap inside the card.
  const footer = wrapText(
    `Days in ${streak.timeZone}, ${streak.startDate} to ${streak.endDate} · ${restDaysText(streak)} · Source: ${simulated ? SIMULATED_CALENDAR_SOURCE : 'GitHub public calendar'} · as of ${asOf}`,
    width - 2 * PAD,
    SMALL_FONT_SIZE,
    ' · ',
  );
  const footerTop = top + 150;
  const height = footerTop + (footer.length - 1) * SMALL_LINE + 12;
  const body =
    text(
      PAD,
      30,
      ellipsize(`${streak.username} · GitHub contribution streak`, width - 2 * PAD, TITLE_FONT_SIZE, true),
      `font-size="${TITLE_FONT_SIZE}" font-weight="600" fill="${theme.text}"`,
    ) +
    (simulated ? text(PAD, 48, SIMULATED, `fill="${theme.down}"`) : '') +
    column(PAD, 'Current streak', streak.current) +
    column(width / 2, 'Longest streak', streak.longest) +
    footer.map((line, i) => text(PAD, footerTop + i * SMALL_LINE, line, 'font-size="11"')).join('');
  return frame({ width, height, title, desc, theme, body });
}
