// The contribution year as a picture in a terminal (builders/render/dataset-view.ts): a seven-row heatmap, one
// column per week. The level of a cell is carried by its character (· ░ ▒ ▓ █), so the picture still reads
// without colour (NO_COLOR, a pipe, a printout); on a colour terminal the same characters are also shaded
// green. Pure: payload and terminal in, lines out.
import type { GitHubContributions } from '../../domain/contributions.ts';
import type { TerminalPicture } from '../../render/dataset-view.ts';
import { formatCount, monthName, weekday } from '../../render/format.ts';
import { headline, INDENT, type Terminal } from '../../render/terminal.ts';

/** Heatmap levels 0 to 4. */
export const LEVEL_CHARS = ['·', '░', '▒', '▓', '█'] as const;
/** 256-colour greens for levels 1 to 4 (level 0 is dim): util.styleText names only the 16 basic colours. */
const LEVEL_COLORS = [null, 22, 28, 34, 46] as const;

function cell(term: Terminal, level: number): string {
  const char = LEVEL_CHARS[level]!;
  if (!term.color) return char;
  const color = LEVEL_COLORS[level];
  return color === null || color === undefined ? term.style('dim', char) : `\u001b[38;5;${color}m${char}\u001b[39m`;
}

/** `simulated`: the site says its data is simulated (a demo), so the calendar is not GitHub's. */
export function renderContributions(term: Terminal, calendar: GitHubContributions, simulated = false): string[] {
  const offset = calendar.days.length ? weekday(calendar.days[0]!.date) : 0;
  const weeks = Math.ceil((offset + calendar.days.length) / 7);
  const labelWidth = 4;
  // One column per week; a terminal too narrow for the year shows its latest weeks and says so.
  const room = Math.max(4, term.width - INDENT.length - labelWidth);
  const shown = Math.min(weeks, room);
  const firstWeek = weeks - shown;
  const grid: string[][] = Array.from({ length: 7 }, () => new Array<string>(shown).fill(' '));
  const months = new Array<string>(shown).fill(' ');
  let lastLabel = -4;
  calendar.days.forEach((day, i) => {
    const week = Math.floor((offset + i) / 7) - firstWeek;
    if (week < 0) return;
    const level = Math.min(Math.max(Math.trunc(day.level), 0), 4);
    grid[(offset + i) % 7]![week] = cell(term, level);
    if (day.date.endsWith('-01') && week - lastLabel >= 4 && week + 3 <= shown) {
      const name = monthName(day.date);
      for (let k = 0; k < name.length; k++) months[week + k] = name[k]!;
      lastLabel = week;
    }
  });
  const weekdays = ['', 'Mon', '', 'Wed', '', 'Fri', ''];
  const shownFrom = calendar.days.find((_, i) => Math.floor((offset + i) / 7) >= firstWeek)?.date ?? calendar.startDate;
  const legend = `Less ${LEVEL_CHARS.map((_, level) => cell(term, level)).join(' ')} More`;
  const lines = [
    ...headline(
      term,
      `${term.style('bold', calendar.username)}  ${term.style('bold', formatCount(calendar.totalContributions))} contributions ${term.style('dim', `${calendar.startDate} to ${calendar.endDate} (${calendar.timeZone})`)}`,
    ),
    '',
    INDENT + ' '.repeat(labelWidth) + term.style('dim', months.join('')),
    ...grid.map((row, r) => INDENT + term.style('dim', weekdays[r]!.padEnd(labelWidth)) + row.join('')),
    '',
    INDENT + ' '.repeat(labelWidth) + legend,
  ];
  if (firstWeek > 0)
    lines.push(
      ...term.wrapIndented(
        term.style('dim', `Showing ${shownFrom} to ${calendar.endDate}: widen the terminal to see all ${weeks} weeks.`),
        INDENT,
      ),
    );
  // A demo's calendar comes from a simulated provider: the notice above says so, and no line claims GitHub.
  if (!simulated)
    lines.push(...term.wrapIndented(term.style('dim', "Source: GitHub's public contribution calendar."), INDENT));
  return lines.map((l) => (term.visibleLength(l) === 0 ? '' : l));
}

export const picture: TerminalPicture<GitHubContributions> = renderContributions;
