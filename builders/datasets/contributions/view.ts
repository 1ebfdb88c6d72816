// The calendar's figure on the home page, drawn by the build from its snapshot and again by the page script
// from the API (builders/render/dataset-view.ts): the heatmap in two drawings, its legend and readout, the total and
// the months as a table. When the snapshot is missing the figure says "unavailable": no zero-filled calendar.
import type { GitHubContributions } from '../../domain/contributions.ts';
import type { HomeView } from '../../render/dataset-view.ts';
import { formatCount, monthName } from '../../render/format.ts';
import { NARROW_LABEL_SIZE, renderHeatmap, renderHeatmapLegend } from '../../render/charts/heatmap.ts';
import { escapeHtml } from '../../render/html.ts';

/** The members the picture draws, checked before a redraw from an API answer: draw nothing rather than nonsense. */
function isContributions(value: unknown): value is GitHubContributions {
  const v = value as Partial<GitHubContributions> | null;
  return (
    !!v &&
    Array.isArray(v.days) &&
    v.days.length > 0 &&
    v.days.every((d) => d && typeof d.date === 'string' && Number.isInteger(d.count) && Number.isInteger(d.level)) &&
    Number.isInteger(v.totalContributions) &&
    typeof v.username === 'string' &&
    typeof v.startDate === 'string' &&
    typeof v.endDate === 'string' &&
    typeof v.timeZone === 'string'
  );
}

/** Contributions per calendar month of the window: the heatmap's text alternative. */
export function monthlyTotals(
  calendar: GitHubContributions,
): Array<{ month: string; label: string; total: number; days: number }> {
  const months = new Map<string, { month: string; label: string; total: number; days: number }>();
  for (const d of calendar.days) {
    const key = d.date.slice(0, 7);
    const m = months.get(key) ?? { month: key, label: `${monthName(d.date)} ${key.slice(0, 4)}`, total: 0, days: 0 };
    m.total += d.count;
    m.days += d.count > 0 ? 1 : 0;
    months.set(key, m);
  }
  return [...months.values()];
}

export function contributionsBodyHtml(calendar: GitHubContributions | null): string {
  if (calendar === null) {
    return '<p class="unavailable" data-unavailable="contributions"><strong>Contribution data unavailable.</strong> The contribution source gave no usable data when this page was built, so there is nothing to draw.</p>';
  }
  const total = formatCount(calendar.totalContributions);
  const label = `${total} contributions by ${calendar.username} from ${calendar.startDate} to ${calendar.endDate}`;
  const table =
    `<details class="chart-data"><summary>The calendar as a table (months)</summary>` +
    `<table><thead><tr><th scope="col">Month</th><th scope="col">Contributions</th><th scope="col">Active days</th></tr></thead><tbody>` +
    monthlyTotals(calendar)
      .map(
        (m) =>
          `<tr><th scope="row">${escapeHtml(m.label)}</th><td>${escapeHtml(formatCount(m.total))}</td><td>${m.days}</td></tr>`,
      )
      .join('') +
    `</tbody></table></details>`;
  // Two drawings of the same days: one band of weeks on a wide screen, two on a narrow one. The stylesheet
  // shows one (display: none takes the other out of the accessibility tree as well).
  return (
    `<div class="chart" data-chart="heatmap">` +
    renderHeatmap(calendar.days, label, { className: 'heatmap heatmap-wide' }) +
    renderHeatmap(calendar.days, label, {
      className: 'heatmap heatmap-narrow',
      bands: 2,
      labelSize: NARROW_LABEL_SIZE,
    }) +
    renderHeatmapLegend() +
    `<p class="chart-readout" data-readout aria-live="polite" hidden>Point at or tap a day, or focus the calendar and use the arrow keys, to read its count.</p>` +
    `</div>` +
    `<p class="heatmap-summary"><strong data-field="totalContributions">${escapeHtml(total)}</strong> contributions by ` +
    `<strong>${escapeHtml(calendar.username)}</strong> from <time datetime="${escapeHtml(calendar.startDate)}">${escapeHtml(calendar.startDate)}</time> ` +
    `to <time datetime="${escapeHtml(calendar.endDate)}">${escapeHtml(calendar.endDate)}</time> (${escapeHtml(calendar.timeZone)}).</p>` +
    table
  );
}

export const view: HomeView<GitHubContributions> = { accepts: isContributions, body: contributionsBodyHtml };
