// The home page's portfolio preview: the market and calendar figures' inner HTML. Shared by the build
// (drawn from the snapshots) and the page script (redrawn from the API). When a snapshot is missing
// the figure says "unavailable" and draws nothing: no placeholder series, no zero-filled calendar.
import type { GitHubContributions } from '../domain/contributions.ts';
import type { MarketData } from '../domain/market.ts';
import {
  formatCount,
  formatDays,
  formatFixed,
  formatInstant,
  formatPercent,
  formatTime,
  htmlDateTime,
  monthName,
  valueDecimals,
} from './format.ts';
import { renderHeatmap, renderHeatmapLegend } from './charts/heatmap.ts';
import { renderSparkline } from './charts/sparkline.ts';
import { escapeHtml } from './html.ts';

export { isContributions, isMarketData, isStreak } from '../domain/payload-shape.ts';

const stat = (term: string, value: string, raw: string | number, extra = '') =>
  `<div class="stat"><dt>${term}</dt><dd><data value="${escapeHtml(raw)}"${extra}>${value}</data></dd></div>`;

/** The one sentence a screen reader hears for the market chart, and the figure's summary. */
export function marketSummary(market: MarketData, decimals: number): string {
  return (
    `${market.product} over ${formatDays(market.windowSeconds / 86_400)}: ${market.points.length} points from ` +
    `${formatFixed(market.points[0]!.value, decimals)} to ${formatFixed(market.value, decimals)} ${market.currency}, ` +
    `low ${formatFixed(market.low, decimals)}, high ${formatFixed(market.high, decimals)}`
  );
}

/** Per UTC day: the last close, the lowest and the highest point: the chart's text alternative. */
export function dailyRows(market: MarketData): Array<{ day: string; close: number; low: number; high: number }> {
  const rows = new Map<string, { day: string; close: number; low: number; high: number }>();
  for (const p of market.points) {
    const day = new Date(p.time * 1000).toISOString().slice(0, 10);
    const row = rows.get(day);
    if (!row) rows.set(day, { day, close: p.value, low: p.value, high: p.value });
    else {
      row.close = p.value;
      row.low = Math.min(row.low, p.value);
      row.high = Math.max(row.high, p.value);
    }
  }
  return [...rows.values()];
}

/** The decimals every figure of the market is printed with: enough for its smallest step (valueDecimals). */
export function marketDecimals(market: MarketData): number {
  return valueDecimals([market.value, market.low, market.high, ...market.points.map((p) => p.value)]);
}

/** The chart of the market figure; the page script draws it again for each live tick (site/scripts/live-feed.ts). */
export function marketSparkline(market: MarketData, decimals: number): string {
  return renderSparkline({
    points: market.points,
    low: market.low,
    high: market.high,
    changePercent: market.changePercent,
    label: marketSummary(market, decimals),
    decimals,
    interactive: true,
  });
}

/** The rows of the chart's table (its text alternative), one per UTC day. */
export function marketTableRows(market: MarketData, decimals: number): string {
  const usd = (n: number) => escapeHtml(formatFixed(n, decimals));
  return dailyRows(market)
    .map(
      (r) =>
        `<tr><th scope="row">${escapeHtml(r.day)}</th><td>${usd(r.close)}</td><td>${usd(r.low)}</td><td>${usd(r.high)}</td></tr>`,
    )
    .join('');
}

/** The readout's resting text: the chart's last point. */
export function lastPointHtml(market: MarketData, decimals: number): string {
  const last = market.points[market.points.length - 1]!;
  return `Last point: <strong>${escapeHtml(formatFixed(last.value, decimals))} ${escapeHtml(market.currency)}</strong> at ${escapeHtml(formatTime(last.time))}`;
}

export function marketBodyHtml(market: MarketData | null): string {
  if (market === null) {
    return '<p class="unavailable" data-unavailable="market"><strong>Market data unavailable.</strong> The market source gave no usable data when this page was built, so there is nothing to draw.</p>';
  }
  const decimals = marketDecimals(market);
  const usd = (n: number) => escapeHtml(formatFixed(n, decimals));
  const trend = market.changePercent >= 0 ? 'up' : 'down';
  const table =
    `<details class="chart-data"><summary>The chart as a table (UTC days)</summary>` +
    `<table><thead><tr><th scope="col">Day</th><th scope="col">Last close</th><th scope="col">Low</th><th scope="col">High</th></tr></thead><tbody>` +
    marketTableRows(market, decimals) +
    `</tbody></table></details>`;
  return (
    `<div class="chart" data-chart="market">` +
    marketSparkline(market, decimals) +
    `<p class="chart-readout" data-readout aria-live="polite">${lastPointHtml(market, decimals)}</p>` +
    `</div>` +
    '<dl class="stats">' +
    stat('Value', `${usd(market.value)} ${escapeHtml(market.currency)}`, market.value, ' data-field="value"') +
    stat(
      '7-day change',
      escapeHtml(formatPercent(market.changePercent)),
      market.changePercent,
      ` data-field="changePercent" class="change-${trend}"`,
    ) +
    stat('Low', usd(market.low), market.low, ' data-field="low"') +
    stat('High', usd(market.high), market.high, ' data-field="high"') +
    `<div class="stat stat-wide"><dt>As of</dt><dd><time datetime="${escapeHtml(htmlDateTime(market.asOf))}" data-field="asOf">${escapeHtml(formatInstant(market.asOf))}</time></dd></div>` +
    '</dl>' +
    table
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
    `<div class="chart" data-chart="contributions">` +
    renderHeatmap(calendar.days, label, { className: 'heatmap heatmap-wide' }) +
    renderHeatmap(calendar.days, label, { className: 'heatmap heatmap-narrow', bands: 2 }) +
    renderHeatmapLegend() +
    `<p class="chart-readout" data-readout aria-live="polite" hidden>Point at or tap a day, or focus the calendar and use the arrow keys, to read its count.</p>` +
    `</div>` +
    `<p class="heatmap-summary"><strong data-field="totalContributions">${escapeHtml(total)}</strong> contributions by ` +
    `<strong>${escapeHtml(calendar.username)}</strong> from <time datetime="${escapeHtml(calendar.startDate)}">${escapeHtml(calendar.startDate)}</time> ` +
    `to <time datetime="${escapeHtml(calendar.endDate)}">${escapeHtml(calendar.endDate)}</time> (${escapeHtml(calendar.timeZone)}).</p>` +
    table
  );
}
