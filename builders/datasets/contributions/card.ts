// The contribution calendar's card: the year's heatmap, its total and window, zone, source and as-of time.
import type { GitHubContributions } from '../../domain/contributions.ts';
import { formatCount, formatInstant } from '../../render/format.ts';
import { HEATMAP, heatmapLayout, heatmapLegendSvg, renderHeatmap } from '../../render/charts/heatmap.ts';
import { ellipsize, textWidth, wrapText } from '../../render/text-width.ts';
import type { ChartTheme } from '../../render/charts/theme.ts';
import {
  FONT_SIZE,
  frame,
  GAP,
  LINE,
  PAD,
  SIMULATED,
  SIMULATED_CALENDAR_SOURCE,
  SMALL_FONT_SIZE,
  SMALL_LINE,
  text,
  TITLE_FONT_SIZE,
} from '../../render/card.ts';

export function contributionsCard(
  calendar: GitHubContributions,
  theme: ChartTheme,
  builtMs: number,
  simulated: boolean,
): string {
  const layout = heatmapLayout(calendar.days);
  const width = layout.width + 2 * PAD;
  const total = formatCount(calendar.totalContributions);
  const asOf = formatInstant(new Date(builtMs).toISOString());
  const title = `${calendar.username}: GitHub contributions in the last year`;
  const range = `${total} contributions from ${calendar.startDate} to ${calendar.endDate}`;
  // Laid out by estimated widths (builders/render/text-width.ts): a long username is shortened (the whole title is
  // the card's <title>), the demo's label and a long zone wrap, the footer's lines end before the legend.
  const subtitle = wrapText(`${simulated ? `${SIMULATED} · ` : ''}${range}`, width - 2 * PAD, FONT_SIZE, ' · ');
  const legendWidth = 28 + 5 * (HEATMAP.cell + 3) + 4 + textWidth('Less', SMALL_FONT_SIZE);
  const source = wrapText(
    `Source: ${simulated ? SIMULATED_CALENDAR_SOURCE : 'GitHub public calendar'}, days in ${calendar.timeZone} · as of ${asOf}`,
    width - 2 * PAD - legendWidth - GAP,
    SMALL_FONT_SIZE,
    ' · ',
  );
  const gridTop = 58 + (subtitle.length - 1) * LINE;
  const footer = gridTop + layout.height + 22;
  const height = footer + (source.length - 1) * SMALL_LINE + 14;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}${range} (${calendar.timeZone}), one square per day, darker for more. ` +
    `Source: ${simulated ? SIMULATED_CALENDAR_SOURCE : "GitHub's public contribution calendar"}. As of ${asOf}.`;
  const body =
    text(
      PAD,
      30,
      ellipsize(`${calendar.username} · GitHub contributions`, width - 2 * PAD, TITLE_FONT_SIZE, true),
      `font-size="${TITLE_FONT_SIZE}" font-weight="600" fill="${theme.text}"`,
    ) +
    subtitle.map((line, i) => text(PAD, 48 + i * LINE, line, simulated ? `fill="${theme.down}"` : '')).join('') +
    renderHeatmap(calendar.days, range, { theme, detail: false, box: { x: PAD, y: gridTop } }) +
    source.map((line, i) => text(PAD, footer + i * SMALL_LINE, line, 'font-size="11"')).join('') +
    `<g font-size="11">${heatmapLegendSvg(width - PAD, footer, theme)}</g>`;
  return frame({ width, height, title, desc, theme, body });
}
