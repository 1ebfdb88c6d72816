// The market chart: the seven-day series as an inline SVG line with a UTC day axis and its low and high
// marked, no chart library. Pure and browser-safe: the build draws it on the home page and on the cards
// (cards.ts), the page script redraws it from the API.
//
// It is drawn so that it can stretch to any width without distorting its text: the outer <svg> has no
// viewBox (its units are CSS pixels, its height fixed), the plot inside is a nested <svg> whose viewBox
// stretches with preserveAspectRatio="none", and everything placed along the time axis (labels, dots)
// sits in the outer one at a percentage of the width.
//
// The price axis's labels sit in a gutter at the right that the series never enters: everything along the
// time axis is drawn in a nested <svg class="chart-area"> as wide as the chart less the gutter (a number on
// a card, whose width is known; `calc(100% - <gutter>px)` on the page, which stretches), and the labels
// right-aligned at the outer edge. The gutter is as wide as the widest label at the page's font size, plus
// a margin: a label is a formatted number, and no character of one is wider than a digit (0.64 em, the
// upper bound builders/render/text-width.ts takes; not imported, to keep the page script small).
import type { MarketPoint } from '../../domain/market.ts';
import { escapeHtml } from '../html.ts';
import { formatDayLabel, formatFixed } from '../format.ts';
import { LIGHT, type ChartTheme } from './theme.ts';
import { CONSTANTS } from '../../contract/service.ts';
import { chartLabelHtml } from './label.ts';

/** The plot's own coordinates (stretched to the chart's width) and its padding inside them. */
export const SPARKLINE = { width: 1000, height: 140, pad: 4 } as const;
/** The chart in CSS pixels: room above the plot for the high label, below it for the low label and the day axis. */
export const MARKET_CHART = { height: 194, plotTop: 22, axisBaseline: 191 } as const;
/** The largest font size the chart's texts are drawn at (the page's stylesheet sets 12 px; cards use 11). */
const LABEL_FONT_SIZE = 12;
/** Between the plot's right edge and the widest price label. */
const GUTTER_MARGIN = 8;

/** The gutter's width in CSS pixels for these price labels (formatted numbers). */
export function priceGutter(labels: readonly string[]): number {
  return Math.ceil(Math.max(0, ...labels.map((l) => l.length)) * 0.64 * LABEL_FONT_SIZE) + GUTTER_MARGIN;
}

/** The most points a chart draws: a week of hourly candles and the ticker point are 170. */
export const MAX_DRAWN_POINTS = 400;

/**
 * The points a chart draws: those of the seven-day window that ends at the latest point, ascending, at
 * most MAX_DRAWN_POINTS (the latest ones). The build never publishes more, but the page script draws
 * whatever an answer or a feed brings: points from 1970 to 9999, or thousands of them, are drawn in the
 * size of a real week, every axis spanning at most the window (one grid line a day, eight at most).
 */
export function drawnPoints(points: readonly MarketPoint[]): readonly MarketPoint[] {
  let end = -Infinity;
  let ascending = true;
  for (let i = 0; i < points.length; i++) {
    const time = points[i]!.time;
    if (time > end) end = time;
    if (i > 0 && time < points[i - 1]!.time) ascending = false;
  }
  const start = end - CONSTANTS.marketWindowSeconds;
  if (ascending && points.length <= MAX_DRAWN_POINTS && (points.length === 0 || points[0]!.time >= start))
    return points; // a real week, drawn as it is
  const kept = points.filter((p) => p.time >= start);
  if (!ascending) kept.sort((a, b) => a.time - b.time);
  return kept.length > MAX_DRAWN_POINTS ? kept.slice(-MAX_DRAWN_POINTS) : kept;
}

const round = (n: number) => Math.round(n * 10) / 10;
const percent = (fraction: number) => `${Math.round(fraction * 10000) / 100}%`;

/** SVG path coordinates of the series, scaled into the plot (time on x, value on y). */
export function sparklinePath(points: readonly MarketPoint[], low: number, high: number): string {
  return plotPoints(points, low, high)
    .map(({ x, y }, i) => `${i === 0 ? 'M' : 'L'}${round(x)} ${round(y)}`)
    .join(' ');
}

function plotPoints(points: readonly MarketPoint[], low: number, high: number): Array<{ x: number; y: number }> {
  const { width, height, pad } = SPARKLINE;
  const first = points[0]!.time;
  const span = Math.max(points[points.length - 1]!.time - first, 1);
  const range = high - low;
  return points.map((p) => ({
    x: pad + ((p.time - first) / span) * (width - 2 * pad),
    // A flat series sits in the middle rather than dividing by zero.
    y: range > 0 ? pad + ((high - p.value) / range) * (height - 2 * pad) : height / 2,
  }));
}

export interface DayTick {
  /** Fraction of the chart's width, 0 to 1. */
  x: number;
  time: number;
  label: string;
}

/**
 * The UTC midnights inside the series, each with its day label ("Nov 17"). A tick too close to an edge
 * keeps its grid line but loses its label, which would be cut in half there.
 */
export function dayTicks(points: readonly MarketPoint[]): Array<DayTick & { labelled: boolean }> {
  const { width, pad } = SPARKLINE;
  const first = points[0]!.time;
  const last = points[points.length - 1]!.time;
  const span = Math.max(last - first, 1);
  const ticks: Array<DayTick & { labelled: boolean }> = [];
  for (let t = Math.ceil(first / 86_400) * 86_400; t <= last; t += 86_400) {
    const x = (pad + ((t - first) / span) * (width - 2 * pad)) / width;
    ticks.push({ x, time: t, label: formatDayLabel(t), labelled: x >= 0.06 && x <= 0.94 });
  }
  return ticks;
}

export interface SparklineInput {
  points: readonly MarketPoint[];
  low: number;
  high: number;
  changePercent: number;
  label: string;
  /** Decimals of the low and high labels: the same as the figures beside the chart (valueDecimals). */
  decimals: number;
  /** Colours as presentation attributes; the page's stylesheet overrides them by class. */
  theme?: ChartTheme;
  /** Where a card places the chart (its own coordinates); on a page the chart takes its container's width. */
  box?: { x: number; y: number; width: number };
  /** On the page: the series for the readout under the pointer and keyboard focus (site/scripts/readout.ts). */
  interactive?: boolean;
}

export function renderSparkline(input: SparklineInput): string {
  const { low, high, changePercent, label, decimals, theme = LIGHT, box, interactive = false } = input;
  const points = drawnPoints(input.points);
  const { width, height } = SPARKLINE;
  const { plotTop, axisBaseline } = MARKET_CHART;
  const xy = plotPoints(points, low, high);
  const line = sparklinePath(points, low, high);
  const trend = changePercent >= 0 ? 'up' : 'down';
  const color = trend === 'up' ? theme.up : theme.down;
  const ticks = dayTicks(points);
  // On a page the texts are HTML on the card's background (./label.ts), which a contrast checker can
  // judge; a card (placed by `box`) is an image on its own and keeps SVG <text>.
  const text = (
    x: string,
    baseline: number,
    anchor: 'start' | 'middle' | 'end',
    className: string,
    attributes: string,
    content: string,
    dx = 0,
  ) =>
    box
      ? `<text${className ? ` class="${className}"` : ''} x="${x}"${dx ? ` dx="${dx}"` : ''} y="${baseline}" text-anchor="${anchor}"${attributes}>${escapeHtml(content)}</text>`
      : chartLabelHtml({ x, baseline, size: LABEL_FONT_SIZE, anchor, className, attributes, text: content });
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${round(t.x * width)}" y1="0" x2="${round(t.x * width)}" y2="${height}" vector-effect="non-scaling-stroke"/>`,
    )
    .join('');
  // Every other label, counted back from the latest, is "alt": a narrow page leaves those out (the
  // stylesheet's rule for .chart-day-alt), where seven labels beside the price gutter would touch.
  const labelled = ticks.filter((t) => t.labelled);
  const dayLabels = labelled
    .map((t, i) =>
      text(
        percent(t.x),
        axisBaseline,
        'middle',
        `chart-day${(labelled.length - 1 - i) % 2 === 1 ? ' chart-day-alt' : ''}`,
        ` data-time="${t.time}"`,
        t.label,
      ),
    )
    .join('');

  // The first point at the high and the first at the low, each with a dot and its value.
  const marker = (kind: 'high' | 'low', value: number) => {
    const i = points.findIndex((p) => p.value === value);
    // The ticker can set the low or high without being a point (docs/data-rules.md appends it only when newer).
    const at =
      i >= 0 ? xy[i]! : { x: xy[xy.length - 1]!.x, y: kind === 'high' ? SPARKLINE.pad : height - SPARKLINE.pad };
    const fx = at.x / width;
    const cy = plotTop + at.y;
    const anchor = fx < 0.2 ? 'start' : fx > 0.8 ? 'end' : 'middle';
    // Below the low dot by less than a line, so that a day label under it keeps a clear gap (the axis).
    const ty = kind === 'high' ? cy - 8 : cy + 14;
    const wording = `${kind === 'high' ? 'High' : 'Low'} ${formatFixed(value, decimals)}`;
    const dot = `<circle class="chart-${kind}" cx="${percent(fx)}" cy="${round(cy)}" r="3" fill="${color}"/>`;
    const words = text(percent(fx), round(ty), anchor, 'chart-extreme', ` data-field="${kind}"`, wording);
    // On a page the dot comes after its label, whose box (a line high) may reach the low's dot.
    return box ? dot + words : words + dot;
  };

  const series = interactive
    ? ` data-low="${low}" data-high="${high}" data-series="${points.map((p) => `${p.time},${p.value}`).join(' ')}"`
    : '';
  const placement = box
    ? `x="${box.x}" y="${box.y}" width="${box.width}" height="${MARKET_CHART.height}"`
    : `width="100%" height="${MARKET_CHART.height}"`;
  // The price axis: a dashed line at the high, the middle and the low of the plot across the plot, each
  // labelled in the gutter beside it, centred on its line (the line ends before the gutter begins).
  const plotY = (value: number) =>
    plotTop +
    (high > low ? SPARKLINE.pad + ((high - value) / (high - low)) * (height - 2 * SPARKLINE.pad) : height / 2);
  const levels = high > low ? [high, (high + low) / 2, low] : [high];
  const levelLabels = levels.map((value) => formatFixed(value, decimals));
  const gutter = priceGutter(levelLabels);
  const areaWidth = box ? String(box.width - gutter) : `calc(100% - ${gutter}px)`;
  const priceLines = levels
    .map((value) => {
      const y = round(plotY(value));
      return `<line x1="0" y1="${y}" x2="100%" y2="${y}"/>`;
    })
    .join('');
  const priceLabels = levels
    .map((value, i) =>
      // On a page the label's box stands in for the card's halo, 3 pixels in (site.css `.chart-price`).
      text('100%', round(plotY(value) + 4), 'end', '', '', levelLabels[i]!, -3),
    )
    .join('');
  // On a page after the labels: the low's label box (its background) reaches over the axis, above its text.
  const axis = `<line class="chart-axis" x1="0" y1="${plotTop + height + 0.5}" x2="100%" y2="${plotTop + height + 0.5}" stroke="${theme.grid}"/>`;
  const cursor = interactive
    ? `<g class="chart-cursor" visibility="hidden"><line x1="0" y1="${plotTop}" x2="0" y2="${plotTop + height}" stroke="${theme.muted}"/>` +
      `<circle r="4" cx="0" cy="0" fill="${color}"/></g>`
    : '';
  return (
    `<svg class="sparkline sparkline-${trend}" ${placement} role="img" aria-label="${escapeHtml(label)}" ` +
    `data-points="${points.length}" data-decimals="${decimals}"${series} ` +
    `font-size="11" fill="${theme.muted}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${escapeHtml(label)}</title>` +
    `<svg class="chart-area" x="0" y="0" width="${areaWidth}" height="${MARKET_CHART.height}" overflow="visible" data-gutter="${gutter}">` +
    `<g class="chart-grid chart-price-grid" stroke="${theme.grid}" stroke-dasharray="2 3">${priceLines}</g>` +
    `<svg class="sparkline-plot" x="0" y="${plotTop}" width="100%" height="${height}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none">` +
    `<g class="chart-grid" stroke="${theme.grid}" stroke-dasharray="2 3">${grid}</g>` +
    `<path class="sparkline-area" d="${line} L${round(xy[xy.length - 1]!.x)} ${height} L${round(xy[0]!.x)} ${height} Z" fill="${color}" fill-opacity="0.1" stroke="none"/>` +
    `<path class="sparkline-line" d="${line}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round" vector-effect="non-scaling-stroke"/>` +
    `</svg>` +
    (box ? axis : '') +
    dayLabels +
    marker('high', high) +
    marker('low', low) +
    (box ? '' : axis) +
    cursor +
    `</svg>` +
    `<g class="chart-price" paint-order="stroke" stroke="${theme.background}" stroke-width="3" stroke-linejoin="round" data-axis="price">${priceLabels}</g>` +
    `</svg>`
  );
}
