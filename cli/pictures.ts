// The datasets as pictures in a terminal: the MON-USD week as a sparkline of block characters fitted
// to the width, the contribution year as a seven-row heatmap, the streak as its two runs. Pure: payload and terminal in, lines out.
// The level of a cell is carried by its character (· ░ ▒ ▓ █), so the picture still reads without colour
// (NO_COLOR, a pipe, a printout); on a colour terminal the same characters are also shaded green.
import type { GitHubContributions } from '../domain/contributions.ts';
import type { MarketData } from '../domain/market.ts';
import type { GitHubStreak, GitHubStreakRun } from '../domain/streak.ts';
import { REACHES_WINDOW_START, restDaysText, runDates, runDays } from '../render/streak.ts';
import {
  formatCount,
  formatDayLabel,
  formatFixed,
  formatInstant,
  formatPercent,
  monthName,
  valueDecimals,
  weekday,
} from '../render/format.ts';
import { style, visibleLength, wrapIndented, type Terminal } from './terminal.ts';

export const BLOCKS = '▁▂▃▄▅▆▇█';
/** Heatmap levels 0 to 4. */
export const LEVEL_CHARS = ['·', '░', '▒', '▓', '█'] as const;
/** 256-colour greens for levels 1 to 4 (level 0 is dim). */
const LEVEL_COLORS = [null, 22, 28, 34, 46] as const;
const NO_ADVICE = 'Illustration only: not a trading recommendation or financial advice.';

const INDENT = '  ';

/**
 * The series resampled to `columns` buckets (each the mean of the points whose time falls in it, a gap
 * carrying the previous bucket on), each drawn as one of eight blocks between the low and the high.
 */
export function sparkline(
  points: ReadonlyArray<{ time: number; value: number }>,
  columns: number,
  low: number,
  high: number,
): string {
  const first = points[0]!.time;
  const span = Math.max(points[points.length - 1]!.time - first, 1);
  const sums = new Array<number>(columns).fill(0);
  const counts = new Array<number>(columns).fill(0);
  for (const p of points) {
    const i = Math.min(columns - 1, Math.floor(((p.time - first) / span) * columns));
    sums[i]! += p.value;
    counts[i]! += 1;
  }
  const range = high - low;
  let previous = points[0]!.value;
  let line = '';
  for (let i = 0; i < columns; i++) {
    const value = counts[i] ? sums[i]! / counts[i]! : previous;
    previous = value;
    const level = range > 0 ? Math.round(((value - low) / range) * (BLOCKS.length - 1)) : 3;
    line += BLOCKS[Math.min(Math.max(level, 0), BLOCKS.length - 1)];
  }
  return line;
}

export function renderPrice(term: Terminal, market: MarketData): string[] {
  const decimals = valueDecimals([market.value, market.low, market.high, ...market.points.map((p) => p.value)]);
  const usd = (n: number) => formatFixed(n, decimals);
  const trend = market.changePercent >= 0 ? 'green' : 'red';
  const columns = Math.max(10, term.width - INDENT.length * 2);
  const first = market.points[0]!.time;
  const last = market.points[market.points.length - 1]!.time;
  const from = formatDayLabel(first);
  const to = formatDayLabel(last);
  const axis = from + ' '.repeat(Math.max(1, columns - from.length - to.length)) + to;
  return [
    ...headline(
      term,
      `${style(term, 'bold', market.product)}  ${style(term, 'bold', `${usd(market.value)} ${market.currency}`)}  ${style(term, trend, formatPercent(market.changePercent))} ${style(term, 'dim', 'over 7 days')}`,
    ),
    '',
    INDENT + style(term, trend, sparkline(market.points, columns, market.low, market.high)),
    INDENT + style(term, 'dim', axis),
    '',
    ...table2(term, [
      ['Low', `${usd(market.low)} ${market.currency}`],
      ['High', `${usd(market.high)} ${market.currency}`],
      ['As of', formatInstant(market.asOf)],
      ['Source', `${market.source}, ${market.points.length} hourly points`],
    ]),
    '',
    ...wrapIndented(style(term, 'dim', NO_ADVICE), term.width, ''),
  ];
}

/** The first line as it is when it fits (its double spaces align the figures), wrapped when it does not. */
function headline(term: Terminal, text: string): string[] {
  return visibleLength(text) <= term.width ? [text] : wrapIndented(text, term.width, '');
}

function table2(term: Terminal, rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${INDENT}${style(term, 'dim', k.padEnd(width))}  ${v}`);
}

function cell(term: Terminal, level: number): string {
  const char = LEVEL_CHARS[level]!;
  if (!term.color) return char;
  const color = LEVEL_COLORS[level];
  return color === null || color === undefined ? style(term, 'dim', char) : `\u001b[38;5;${color}m${char}\u001b[39m`;
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
      `${style(term, 'bold', calendar.username)}  ${style(term, 'bold', formatCount(calendar.totalContributions))} contributions ${style(term, 'dim', `${calendar.startDate} to ${calendar.endDate} (${calendar.timeZone})`)}`,
    ),
    '',
    INDENT + ' '.repeat(labelWidth) + style(term, 'dim', months.join('')),
    ...grid.map((row, r) => INDENT + style(term, 'dim', weekdays[r]!.padEnd(labelWidth)) + row.join('')),
    '',
    INDENT + ' '.repeat(labelWidth) + legend,
  ];
  if (firstWeek > 0)
    lines.push(
      ...wrapIndented(
        style(
          term,
          'dim',
          `Showing ${shownFrom} to ${calendar.endDate}: widen the terminal to see all ${weeks} weeks.`,
        ),
        term.width,
        INDENT,
      ),
    );
  // A demo's calendar comes from a simulated provider: the notice above says so, and no line claims GitHub.
  if (!simulated)
    lines.push(
      ...wrapIndented(style(term, 'dim', "Source: GitHub's public contribution calendar."), term.width, INDENT),
    );
  return lines.map((l) => (visibleLength(l) === 0 ? '' : l));
}

/** Each data command's picture, by command name (its dataset's module names the command: datasets/). */
export const PICTURES: Readonly<Record<string, (term: Terminal, payload: unknown, simulated: boolean) => string[]>> = {
  price: (term, payload) => renderPrice(term, payload as MarketData),
  contributions: (term, payload, simulated) => renderContributions(term, payload as GitHubContributions, simulated),
  streak: (term, payload) => renderStreak(term, payload as GitHubStreak),
};

/** The current and longest run, their dates, and what the window holds. */
export function renderStreak(term: Terminal, streak: GitHubStreak): string[] {
  const run = (label: string, r: GitHubStreakRun) =>
    `${INDENT}${label.padEnd(9)}${style(term, 'bold', runDays(r).padEnd(10))}${style(term, 'dim', runDates(r))}` +
    (r.reachesWindowStart ? style(term, 'dim', ` (${REACHES_WINDOW_START})`) : '');
  return [
    ...headline(
      term,
      `${style(term, 'bold', streak.username)}  contribution streak ${style(term, 'dim', `${streak.startDate} to ${streak.endDate} (${streak.timeZone})`)}`,
    ),
    '',
    run('Current', streak.current),
    run('Longest', streak.longest),
    '',
    `${INDENT}${style(term, 'dim', `${streak.activeDays} active days in the window, ${restDaysText(streak)}`)}`,
  ];
}
