// The contribution heatmap: an inline SVG grid of the 365 days, one column per week (Sunday first,
// as GitHub draws it), no chart library. Pure and browser-safe, like the sparkline.
import type { ContributionDay } from '../../../core/contributions.ts';
import { escapeHtml } from '../html.ts';

export const HEATMAP = { cell: 11, gap: 2, left: 30, top: 18 } as const;
/** GitHub's light palette for levels 0 to 4. */
export const LEVEL_COLORS = ['#ebedf0', '#9be9a8', '#40c463', '#30a14e', '#216e39'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAY_LABELS: Array<[number, string]> = [
  [1, 'Mon'],
  [3, 'Wed'],
  [5, 'Fri'],
];

/** Day of the week of a calendar date, 0 = Sunday. The date is a label, so no time zone applies. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function renderHeatmap(days: readonly ContributionDay[], label: string): string {
  const { cell, gap, left, top } = HEATMAP;
  const step = cell + gap;
  const offset = days.length ? weekday(days[0]!.date) : 0;
  const weeks = Math.ceil((offset + days.length) / 7);
  const width = left + weeks * step;
  const height = top + 7 * step;
  const parts: string[] = [];
  let lastLabelColumn = -3;
  days.forEach((day, i) => {
    const column = Math.floor((offset + i) / 7);
    const row = (offset + i) % 7;
    const x = left + column * step;
    const y = top + row * step;
    // A month label sits above the column where the month begins, unless it would overlap the last one.
    if (day.date.endsWith('-01') && column - lastLabelColumn >= 3) {
      const month = MONTHS[Number(day.date.slice(5, 7)) - 1] ?? '';
      parts.push(`<text x="${x}" y="${top - 6}" class="heatmap-label">${month}</text>`);
      lastLabelColumn = column;
    }
    const level = Math.min(Math.max(Math.trunc(day.level), 0), 4);
    const noun = day.count === 1 ? 'contribution' : 'contributions';
    parts.push(
      `<rect x="${x}" y="${y}" width="${cell}" height="${cell}" rx="2" fill="${LEVEL_COLORS[level]}" ` +
        `data-date="${escapeHtml(day.date)}" data-count="${day.count}" data-level="${level}">` +
        `<title>${escapeHtml(day.date)}: ${day.count} ${noun}</title></rect>`,
    );
  });
  const weekdayLabels = WEEKDAY_LABELS.map(
    ([row, name]) => `<text x="0" y="${top + row * step + cell - 1}" class="heatmap-label">${name}</text>`,
  ).join('');
  return (
    `<svg class="heatmap" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}" ` +
    `data-days="${days.length}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(label)}</title>` +
    `${weekdayLabels}${parts.join('')}</svg>`
  );
}

/** The "Less … More" key under the grid. */
export function renderHeatmapLegend(): string {
  const swatches = LEVEL_COLORS.map(
    (color) =>
      `<svg class="swatch" width="11" height="11" viewBox="0 0 11 11" aria-hidden="true"><rect width="11" height="11" rx="2" fill="${color}"/></svg>`,
  ).join('');
  return `<p class="heatmap-legend"><span>Less</span>${swatches}<span>More</span></p>`;
}
