// The contribution heatmap: an inline SVG grid of the 365 days, one column per week (Sunday first,
// as GitHub draws it), no chart library. Pure and browser-safe, like the sparkline: the build draws it on
// the home page and on the cards (cards.ts), the page script redraws it from the API.
//
// The weeks can be laid out in bands: one band of 53 weeks on a wide screen and on the card, two bands
// of 27 and 26 weeks on a phone, so that the whole year shows at a size that can be read and touched.
import type { ContributionDay } from '../../domain/contributions.ts';
import { escapeHtml } from '../html.ts';
import { monthName, weekday } from '../format.ts';
import { textWidth } from '../text-width.ts';
import { chartLabelHtml } from './label.ts';

export { weekday };
import { LIGHT, type ChartTheme } from './theme.ts';

export const HEATMAP = { cell: 11, gap: 2, left: 28, top: 16, bandGap: 10, fontSize: 9 } as const;
/** The labels' size in the phone's two-band heatmap (site/styles: `.heatmap-narrow .heatmap-label`). */
export const NARROW_LABEL_SIZE = 11;
/** GitHub's light palette for levels 0 to 4. */
export const LEVEL_COLORS = LIGHT.levels;
const WEEKDAY_LABELS: Array<[number, string]> = [
  [1, 'Mon'],
  [3, 'Wed'],
  [5, 'Fri'],
];

export interface HeatmapCell {
  x: number;
  y: number;
  day: ContributionDay;
  /** The level clamped to 0..4. */
  level: number;
}

export interface HeatmapLayout {
  width: number;
  height: number;
  cells: HeatmapCell[];
  labels: Array<{ x: number; y: number; text: string }>;
}

/**
 * Where each day, month label and weekday label goes, in SVG units, for `bands` rows of weeks, the labels
 * drawn at `labelSize`.
 */
export function heatmapLayout(
  days: readonly ContributionDay[],
  bands = 1,
  labelSize: number = HEATMAP.fontSize,
): HeatmapLayout {
  const { cell, gap, left, top, bandGap } = HEATMAP;
  const step = cell + gap;
  const offset = days.length ? weekday(days[0]!.date) : 0;
  const weeks = Math.max(1, Math.ceil((offset + days.length) / 7));
  const perBand = Math.ceil(weeks / bands);
  const bandHeight = top + 7 * step - gap + bandGap;
  const cells: HeatmapCell[] = [];
  const labels: HeatmapLayout['labels'] = [];
  let last: { band: number; column: number; bandStart: boolean } = { band: -1, column: -3, bandStart: false };
  days.forEach((day, i) => {
    const week = Math.floor((offset + i) / 7);
    const band = Math.floor(week / perBand);
    const column = week % perBand;
    const row = (offset + i) % 7;
    const x = left + column * step;
    const bandTop = band * bandHeight;
    const label = { x, y: bandTop + top - 5, text: monthName(day.date) };
    // A month label sits above the column where the month begins, unless it would overlap the last one;
    // a band after the first opens with the month of its first column, which gives way to a month that
    // begins right after it.
    if (band !== last.band) {
      if (band > 0 || day.date.endsWith('-01')) {
        labels.push(label);
        last = { band, column, bandStart: !day.date.endsWith('-01') };
      } else last = { band, column: -3, bandStart: false };
    } else if (day.date.endsWith('-01')) {
      if (last.bandStart && column - last.column < 3) labels.pop();
      if (last.bandStart || column - last.column >= 3) {
        labels.push(label);
        last = { band, column, bandStart: false };
      }
    }
    cells.push({ x, y: bandTop + top + row * step, day, level: Math.min(Math.max(Math.trunc(day.level), 0), 4) });
  });
  const width = left + perBand * step - gap;
  // A month that begins in a band's last columns (the year ending on 1 December) would run its label past
  // the picture's edge and be cut ("De"): it ends at the edge instead, still over its own first column.
  for (const label of labels) label.x = Math.min(label.x, width - textWidth(label.text, labelSize));
  for (let band = 0; band < bands; band++)
    for (const [row, name] of WEEKDAY_LABELS)
      labels.push({ x: 0, y: band * bandHeight + top + row * step + cell - 2, text: name });
  return { width, height: bands * bandHeight - bandGap, cells, labels };
}

export interface HeatmapOptions {
  bands?: number;
  theme?: ChartTheme;
  /** Page markup: every cell carries its date, count and level for the readout and the text alternative. */
  detail?: boolean;
  className?: string;
  /** Where a card places the grid, in its own coordinates. */
  box?: { x: number; y: number };
  /** The size the labels are drawn at, when a stylesheet sets another than the SVG's own (NARROW_LABEL_SIZE). */
  labelSize?: number;
}

export function renderHeatmap(days: readonly ContributionDay[], label: string, options: HeatmapOptions = {}): string {
  const { bands = 1, theme = LIGHT, detail = true, className = 'heatmap', box, labelSize } = options;
  const { cell } = HEATMAP;
  const layout = heatmapLayout(days, bands, labelSize);
  // On a page the labels are HTML on the card's background, which a contrast checker can judge
  // (./label.ts); a card (placed by `box`) is an image on its own and keeps SVG <text>.
  const size = labelSize ?? HEATMAP.fontSize;
  const labels = layout.labels
    .map((l) =>
      box
        ? `<text class="heatmap-label" x="${l.x}" y="${l.y}">${escapeHtml(l.text)}</text>`
        : chartLabelHtml({ x: l.x, baseline: l.y, size, className: 'heatmap-label', text: l.text }),
    )
    .join('');
  let grid: string;
  if (detail) {
    grid = layout.cells
      .map(
        ({ x, y, day, level }) =>
          `<rect x="${x}" y="${y}" width="${cell}" height="${cell}" rx="2" fill="${theme.levels[level]}" ` +
          `data-date="${escapeHtml(day.date)}" data-count="${day.count}" data-level="${level}"/>`,
      )
      .join('');
  } else {
    // A card has no reader for per-day attributes: one group per level keeps it small.
    grid = theme.levels
      .map((color, level) => {
        const rects = layout.cells
          .filter((c) => c.level === level)
          .map(({ x, y }) => `<rect x="${x}" y="${y}" width="${cell}" height="${cell}" rx="2"/>`)
          .join('');
        return rects ? `<g fill="${color}">${rects}</g>` : '';
      })
      .join('');
  }
  const placement = box ? `x="${box.x}" y="${box.y}" width="${layout.width}" height="${layout.height}" ` : '';
  return (
    `<svg class="${escapeHtml(className)}" ${placement}viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-label="${escapeHtml(label)}" ` +
    `data-days="${days.length}" font-size="${HEATMAP.fontSize}" fill="${theme.muted}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(label)}</title>` +
    `${labels}${grid}</svg>`
  );
}

/** The "Less … More" key under the grid, on the page. */
export function renderHeatmapLegend(): string {
  const swatches = LEVEL_COLORS.map(
    (color, level) =>
      `<svg class="swatch" width="11" height="11" viewBox="0 0 11 11" aria-hidden="true"><rect width="11" height="11" rx="2" fill="${color}" data-level="${level}"/></svg>`,
  ).join('');
  return `<p class="heatmap-legend"><span>Less</span>${swatches}<span>More</span></p>`;
}

/** The same key inside an SVG card, ending at `right`. */
export function heatmapLegendSvg(right: number, baseline: number, theme: ChartTheme): string {
  const { cell } = HEATMAP;
  const more = 28;
  let x = right - more - 5 * (cell + 3);
  const parts = [`<text x="${x - 4}" y="${baseline}" text-anchor="end">Less</text>`];
  theme.levels.forEach((color) => {
    parts.push(`<rect x="${x}" y="${baseline - cell + 1}" width="${cell}" height="${cell}" rx="2" fill="${color}"/>`);
    x += cell + 3;
  });
  parts.push(`<text x="${x + 1}" y="${baseline}">More</text>`);
  return parts.join('');
}
