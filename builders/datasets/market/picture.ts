// The market as a picture in a terminal (builders/render/dataset-view.ts): the week as a sparkline of block
// characters fitted to the width, the figures beside it, and that it is no advice. Pure: payload and
// terminal in, lines out.
import type { MarketData } from '../../domain/market.ts';
import type { TerminalPicture } from '../../render/dataset-view.ts';
import { formatDayLabel, formatFixed, formatInstant, formatPercent, valueDecimals } from '../../render/format.ts';
import { headline, INDENT, labelled, type Terminal } from '../../render/terminal.ts';

export const BLOCKS = '▁▂▃▄▅▆▇█';
const NO_ADVICE = 'Illustration only: not a trading recommendation or financial advice.';

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
      `${term.style('bold', market.product)}  ${term.style('bold', `${usd(market.value)} ${market.currency}`)}  ${term.style(trend, formatPercent(market.changePercent))} ${term.style('dim', 'over 7 days')}`,
    ),
    '',
    INDENT + term.style(trend, sparkline(market.points, columns, market.low, market.high)),
    INDENT + term.style('dim', axis),
    '',
    ...labelled(term, [
      ['Low', `${usd(market.low)} ${market.currency}`],
      ['High', `${usd(market.high)} ${market.currency}`],
      ['As of', formatInstant(market.asOf)],
      ['Source', `${market.source}, ${market.points.length} hourly points`],
    ]),
    '',
    ...term.wrapIndented(term.style('dim', NO_ADVICE), ''),
  ];
}

export const picture: TerminalPicture<MarketData> = (term, market) => renderPrice(term, market);
