// The market product's card: its chart of the week, value, change, low and high, source and as-of time.
import type { MarketData } from '../../domain/market.ts';
import { formatFixed, formatInstant, formatPercent, valueDecimals } from '../../render/format.ts';
import { MARKET_CHART, renderSparkline } from '../../render/charts/sparkline.ts';
import type { ChartTheme } from '../../render/charts/theme.ts';
import { textWidth, wrapText } from '../../render/text-width.ts';
import { FONT_SIZE, frame, GAP, LINE, PAD, SIMULATED, SMALL_FONT_SIZE, SMALL_LINE, text } from '../../render/card.ts';

export const MARKET_NOTICE = 'Illustration only: not a trading recommendation or financial advice.';

export function marketCard(market: MarketData, theme: ChartTheme, simulated: boolean): string {
  const width = 495;
  const decimals = valueDecimals([market.value, market.low, market.high, ...market.points.map((p) => p.value)]);
  const usd = (n: number) => formatFixed(n, decimals);
  const asOf = formatInstant(market.asOf);
  const change = formatPercent(market.changePercent);
  // Laid out by estimated widths (builders/render/text-width.ts): the subtitle wraps before it reaches the change
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
