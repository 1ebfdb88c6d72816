// The home page's portfolio preview: the market and calendar figures' inner HTML. Shared by the build
// (drawn from the snapshots) and the page script (redrawn from the API). When a snapshot is missing
// the figure says "unavailable" and draws nothing: no placeholder series, no zero-filled calendar.
import type { GitHubContributions } from '../../core/contributions.ts';
import type { MarketData } from '../../core/market.ts';
import { formatCount, formatDays, formatInstant, formatPercent, formatValue } from './charts/format.ts';
import { renderHeatmap, renderHeatmapLegend } from './charts/heatmap.ts';
import { renderSparkline } from './charts/sparkline.ts';
import { escapeHtml } from './html.ts';

const stat = (term: string, value: string, raw: string | number, extra = '') =>
  `<div class="stat"><dt>${term}</dt><dd><data value="${escapeHtml(raw)}"${extra}>${value}</data></dd></div>`;

export function marketBodyHtml(market: MarketData | null): string {
  if (market === null) {
    return '<p class="unavailable" data-unavailable="market"><strong>Market data unavailable.</strong> The market source gave no usable data when this page was built, so there is nothing to draw.</p>';
  }
  const label = `${market.product} over ${formatDays(market.windowSeconds / 86_400)}: ${market.points.length} points from ${formatValue(market.points[0]!.value)} to ${formatValue(market.value)} ${market.currency}`;
  const trend = market.changePercent >= 0 ? 'up' : 'down';
  return (
    renderSparkline({
      points: market.points,
      low: market.low,
      high: market.high,
      changePercent: market.changePercent,
      label,
    }) +
    '<dl class="stats">' +
    stat(
      'Value',
      `${escapeHtml(formatValue(market.value))} ${escapeHtml(market.currency)}`,
      market.value,
      ' data-field="value"',
    ) +
    stat(
      '7-day change',
      escapeHtml(formatPercent(market.changePercent)),
      market.changePercent,
      ` data-field="changePercent" class="change-${trend}"`,
    ) +
    stat('Low', escapeHtml(formatValue(market.low)), market.low, ' data-field="low"') +
    stat('High', escapeHtml(formatValue(market.high)), market.high, ' data-field="high"') +
    `<div class="stat"><dt>As of</dt><dd><time datetime="${escapeHtml(market.asOf)}" data-field="asOf">${escapeHtml(formatInstant(market.asOf))}</time></dd></div>` +
    '</dl>'
  );
}

export function contributionsBodyHtml(calendar: GitHubContributions | null): string {
  if (calendar === null) {
    return '<p class="unavailable" data-unavailable="contributions"><strong>Contribution data unavailable.</strong> The contribution source gave no usable data when this page was built, so there is nothing to draw.</p>';
  }
  const total = formatCount(calendar.totalContributions);
  const label = `${total} contributions by ${calendar.username} from ${calendar.startDate} to ${calendar.endDate}`;
  return (
    `<div class="heatmap-scroll">${renderHeatmap(calendar.days, label)}</div>` +
    renderHeatmapLegend() +
    `<p class="heatmap-summary"><strong data-field="totalContributions">${escapeHtml(total)}</strong> contributions by ` +
    `<strong>${escapeHtml(calendar.username)}</strong> from <time datetime="${escapeHtml(calendar.startDate)}">${escapeHtml(calendar.startDate)}</time> ` +
    `to <time datetime="${escapeHtml(calendar.endDate)}">${escapeHtml(calendar.endDate)}</time> (${escapeHtml(calendar.timeZone)}).</p>`
  );
}

/** Shape checks the page script runs on an API answer before drawing it: draw nothing rather than nonsense. */
export function isMarketData(value: unknown): value is MarketData {
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

export function isContributions(value: unknown): value is GitHubContributions {
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
