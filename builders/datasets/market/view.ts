// The market's figure on the home page, drawn by the build from its snapshot and again by the page script
// from the API (builders/render/dataset-view.ts): the sparkline, its readout, the figures and the chart as a table.
// When the snapshot is missing the figure says "unavailable" and draws nothing: no placeholder series.
import type { MarketData } from '../../domain/market.ts';
import type { HomeView } from '../../render/dataset-view.ts';
import {
  formatDays,
  formatFixed,
  formatInstant,
  formatPercent,
  formatTime,
  htmlDateTime,
  valueDecimals,
} from '../../render/format.ts';
import { drawnPoints, renderSparkline } from '../../render/charts/sparkline.ts';
import { escapeHtml, keepPhrasesWhole } from '../../render/html.ts';

/** The members the picture draws, checked before a redraw from an API answer: draw nothing rather than nonsense. */
function isMarketData(value: unknown): value is MarketData {
  const v = value as Partial<MarketData> | null;
  return (
    !!v &&
    Array.isArray(v.points) &&
    v.points.length >= 2 &&
    Number.isInteger(v.windowSeconds) &&
    v.points.every((p) => p && Number.isFinite(p.time) && Number.isFinite(p.value)) &&
    [v.value, v.changePercent, v.low, v.high].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    typeof v.asOf === 'string' &&
    typeof v.product === 'string' &&
    typeof v.currency === 'string'
  );
}

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

/**
 * Per UTC day: the last close, the lowest and the highest point: the chart's text alternative, of the
 * points the chart draws (a week at most, builders/render/charts/sparkline.ts drawnPoints).
 */
export function dailyRows(market: MarketData): Array<{ day: string; close: number; low: number; high: number }> {
  const rows = new Map<string, { day: string; close: number; low: number; high: number }>();
  for (const p of drawnPoints(market.points)) {
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

/** The rows of the chart's table (its text alternative), one `<tr>` per UTC day. */
export function marketTableRows(market: MarketData, decimals: number): string[] {
  const usd = (n: number) => escapeHtml(formatFixed(n, decimals));
  return dailyRows(market).map(
    (r) =>
      `<tr><th scope="row">${escapeHtml(r.day)}</th><td>${usd(r.close)}</td><td>${usd(r.low)}</td><td>${usd(r.high)}</td></tr>`,
  );
}

/** The readout's resting text: the chart's last point. */
export function lastPointHtml(market: MarketData, decimals: number): string {
  const last = market.points[market.points.length - 1]!;
  return `Last point: <strong>${escapeHtml(formatFixed(last.value, decimals))} ${escapeHtml(market.currency)}</strong> at ${keepPhrasesWhole(escapeHtml(formatTime(last.time)))}`;
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
    marketTableRows(market, decimals).join('') +
    `</tbody></table></details>`;
  return (
    `<div class="chart" data-chart="sparkline">` +
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

export const view: HomeView<MarketData> = {
  accepts: isMarketData,
  body: marketBodyHtml,
  // What the page script's live feed draws again on each tick (site/scripts/live-feed.ts).
  live: { decimals: marketDecimals, chart: marketSparkline, tableRows: marketTableRows, lastPoint: lastPointHtml },
};
