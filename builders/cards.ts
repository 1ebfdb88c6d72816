// The embeddable SVG cards (docs/api.md#published-paths): the contribution calendar and the market product's chart as standalone
// images, light and dark, for a GitHub profile README or any page (`<img>`, `<picture>`). Drawn from this
// build's snapshots by the very functions that draw the home page's charts (charts/), with the colours as
// presentation attributes. Rules of an image that others embed: no script, no event attribute, no link or
// font from elsewhere (a proxy such as GitHub's camo would drop them, a browser would block them in
// <img>); a <title> and a <desc>; width, height and viewBox; each states its as-of time and its source.
// A card whose snapshot is missing is not drawn at all, as the snapshot is not written.
import type { GitHubContributions } from '../domain/contributions.ts';
import type { MarketData } from '../domain/market.ts';
import type { CardRef } from '../contract/service.ts';
import type { Artifact, BuildContext } from './artifact.ts';
import { formatCount, formatFixed, formatInstant, formatPercent, valueDecimals } from '../render/format.ts';
import { heatmapLayout, heatmapLegendSvg, renderHeatmap } from '../render/charts/heatmap.ts';
import { MARKET_CHART, renderSparkline } from '../render/charts/sparkline.ts';
import { THEMES, type ChartTheme } from '../render/charts/theme.ts';
import { escapeHtml } from '../render/html.ts';
import { textWidth, wrapText } from '../render/text-width.ts';

/** Far below the 30 KiB a card may weigh (test/cards.test.ts). */
export const CARD_MAX_BYTES = 30 * 1024;

/** System fonts only: a card must not fetch a font. */
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif";
const PAD = 16;
/** The cards' text sizes (the frame's font-size and the footers') and the distance between their lines. */
const FONT_SIZE = 12;
const SMALL_FONT_SIZE = 11;
const LINE = 16;
const SMALL_LINE = 14;
/** The least room between a left-aligned text and a right-aligned figure on the same line. */
const GAP = 12;

export const MARKET_NOTICE = 'Illustration only: not a trading recommendation or financial advice.';
const SIMULATED = 'SIMULATED DATA (demo), not real';

interface Frame {
  width: number;
  height: number;
  title: string;
  desc: string;
  theme: ChartTheme;
  body: string;
}

function frame({ width, height, title, desc, theme, body }: Frame): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `role="img" aria-labelledby="card-title card-desc" font-family="${FONT}" font-size="${FONT_SIZE}" fill="${theme.muted}">` +
    `<title id="card-title">${escapeHtml(title)}</title><desc id="card-desc">${escapeHtml(desc)}</desc>` +
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6" fill="${theme.background}" stroke="${theme.border}"/>` +
    `${body}</svg>\n`
  );
}

const text = (x: number, y: number, content: string, attrs = '') =>
  `<text x="${x}" y="${y}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(content)}</text>`;

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
    `Source: GitHub's public contribution calendar. As of ${asOf}.`;
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
      `Source: GitHub public calendar, days in ${calendar.timeZone} · as of ${asOf}`,
      'font-size="11"',
    ) +
    `<g font-size="11">${heatmapLegendSvg(width - PAD, footer, theme)}</g>`;
  return frame({ width, height, title, desc, theme, body });
}

export function marketCard(market: MarketData, theme: ChartTheme, simulated: boolean): string {
  const width = 495;
  const decimals = valueDecimals([market.value, market.low, market.high, ...market.points.map((p) => p.value)]);
  const usd = (n: number) => formatFixed(n, decimals);
  const asOf = formatInstant(market.asOf);
  const change = formatPercent(market.changePercent);
  // Laid out by estimated widths (render/text-width.ts): the subtitle wraps before it reaches the change
  // figure beside it (a demo's label made it run into it), and a long source name wraps inside the card.
  const subtitle = wrapText(
    `${simulated ? `${SIMULATED} · ` : ''}last seven days · as of ${asOf}`,
    width - 2 * PAD - textWidth(change, FONT_SIZE) - GAP,
    FONT_SIZE,
    ' · ',
  );
  const source = wrapText(
    `Source: ${market.source}, values in ${market.currency}, times in UTC`,
    width - 2 * PAD,
    SMALL_FONT_SIZE,
  );
  const chartTop = 56 + (subtitle.length - 1) * LINE;
  const footer = chartTop + MARKET_CHART.height + 22;
  const noticeY = footer + (source.length - 1) * SMALL_LINE + 16;
  const height = noticeY + 18;
  const trendColor = market.changePercent >= 0 ? theme.up : theme.down;
  const title = `${market.product}: ${usd(market.value)} ${market.currency}, ${change} over seven days`;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}Hourly closes of ${market.product} over the last seven days, ` +
    `low ${usd(market.low)}, high ${usd(market.high)} ${market.currency}. Source: ${market.source}. As of ${asOf}. ${MARKET_NOTICE}`;
  const body =
    text(PAD, 30, market.product, `font-size="15" font-weight="600" fill="${theme.text}"`) +
    subtitle.map((line, i) => text(PAD, 48 + i * LINE, line, simulated ? `fill="${theme.down}"` : '')).join('') +
    text(
      width - PAD,
      30,
      `${usd(market.value)} ${market.currency}`,
      `text-anchor="end" font-size="15" font-weight="600" fill="${theme.text}"`,
    ) +
    text(width - PAD, 48, change, `text-anchor="end" fill="${trendColor}"`) +
    renderSparkline({
      points: market.points,
      low: market.low,
      high: market.high,
      changePercent: market.changePercent,
      label: title,
      decimals,
      theme,
      box: { x: PAD, y: chartTop, width: width - 2 * PAD },
    }) +
    source.map((line, i) => text(PAD, footer + i * SMALL_LINE, line, 'font-size="11"')).join('') +
    text(PAD, noticeY, MARKET_NOTICE, 'font-size="11"');
  return frame({ width, height, title, desc, theme, body });
}

export function cardBody(
  card: CardRef,
  ctx: Pick<BuildContext, 'market' | 'contributions' | 'nowMs' | 'simulated'>,
): string | null {
  const theme = THEMES[card.scheme];
  if (card.resource === 'market') return ctx.market ? marketCard(ctx.market, theme, ctx.simulated) : null;
  return ctx.contributions ? contributionsCard(ctx.contributions, theme, ctx.nowMs, ctx.simulated) : null;
}

/** The cards whose snapshot this build has. */
export function renderCards(ctx: BuildContext): Artifact[] {
  return ctx.service.cards.flatMap((card) => {
    const body = cardBody(card, ctx);
    return body === null ? [] : [{ file: card.file, body }];
  });
}
