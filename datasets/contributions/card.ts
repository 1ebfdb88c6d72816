// The contribution calendar's card: the year's heatmap, its total and window, zone, source and as-of time.
import type { GitHubContributions } from '../../domain/contributions.ts';
import { formatCount, formatInstant } from '../../render/format.ts';
import { heatmapLayout, heatmapLegendSvg, renderHeatmap } from '../../render/charts/heatmap.ts';
import type { ChartTheme } from '../../render/charts/theme.ts';
import { frame, PAD, SIMULATED, SIMULATED_CALENDAR_SOURCE, text } from '../../render/card.ts';

export function contributionsCard(
  calendar: GitHubContributions,
  theme: ChartTheme,
  builtMs: number,
  simulated: boolean,
): string {
  const layout = heatmapLayout(calendar.days);
  const width = layout.width + 2 * PAD;
  const gridTop = 58;
  const footer = gridTop + layout.height + 22;
  const height = footer + 14;
  const total = formatCount(calendar.totalContributions);
  const asOf = formatInstant(new Date(builtMs).toISOString());
  const title = `${calendar.username}: GitHub contributions in the last year`;
  const range = `${total} contributions from ${calendar.startDate} to ${calendar.endDate}`;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}${range} (${calendar.timeZone}), one square per day, darker for more. ` +
    `Source: ${simulated ? SIMULATED_CALENDAR_SOURCE : "GitHub's public contribution calendar"}. As of ${asOf}.`;
  const body =
    text(
      PAD,
      30,
      `${calendar.username} · GitHub contributions`,
      `font-size="15" font-weight="600" fill="${theme.text}"`,
    ) +
    text(PAD, 48, `${simulated ? `${SIMULATED} · ` : ''}${range}`, simulated ? `fill="${theme.down}"` : '') +
    renderHeatmap(calendar.days, range, { theme, detail: false, box: { x: PAD, y: gridTop } }) +
    text(
      PAD,
      footer,
      `Source: ${simulated ? SIMULATED_CALENDAR_SOURCE : 'GitHub public calendar'}, days in ${calendar.timeZone} · as of ${asOf}`,
      'font-size="11"',
    ) +
    `<g font-size="11">${heatmapLegendSvg(width - PAD, footer, theme)}</g>`;
  return frame({ width, height, title, desc, theme, body });
}
