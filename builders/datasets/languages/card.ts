// The languages' card: the eight largest and "Other" as one stacked bar, and a legend that prints each
// share as text. A language's colour is GitHub's, which need not meet 3:1 against the card's background
// (WCAG 2.2's for graphics): every segment and swatch carries an outline in the theme's text colour, which
// does. Every upstream string is escaped by the frame's text helper; nothing is loaded.
import type { ChartTheme } from '../../render/charts/theme.ts';
import { formatInstant } from '../../render/format.ts';
import { frame, PAD, SIMULATED, SMALL_FONT_SIZE, SMALL_LINE, text, TITLE_FONT_SIZE } from '../../render/card.ts';
import { ellipsize, wrapText } from '../../render/text-width.ts';
import { escapeHtml } from '../../render/html.ts';
import {
  barSegments,
  legendEntries,
  percentText,
  repositoriesText,
  type GitHubLanguages,
  type LegendEntry,
} from './view.ts';

/** Where a demo's languages come from, named wherever a real card names GitHub. */
export const SIMULATED_LANGUAGES_SOURCE = 'simulated repositories (npm run demo), not GitHub';

const WIDTH = 495;
const BAR_HEIGHT = 12;
const ROW = 20;

/**
 * The fill of an entry (GitHub's colour, else the theme's muted one) and its outline in the theme's text
 * colour, which meets 3:1 against the card's background in every theme (builders/render/themes.ts holds each theme's
 * text to 4.5:1): a faint colour (JavaScript's yellow on white) stays visible, and every segment reads alike.
 */
export function paint(entry: LegendEntry, theme: ChartTheme): string {
  return `fill="${escapeHtml(entry.color ?? theme.muted)}" stroke="${theme.text}" stroke-width="1"`;
}

function source(payload: GitHubLanguages, simulated: boolean): string {
  return simulated
    ? SIMULATED_LANGUAGES_SOURCE
    : `GitHub, ${repositoriesText(payload.repositories)} of ${payload.username}`;
}

export function languagesCard(payload: GitHubLanguages, theme: ChartTheme, simulated: boolean): string {
  const asOf = formatInstant(payload.asOf);
  const top = simulated ? 64 : 48;
  const entries = legendEntries(payload);
  const inner = WIDTH - 2 * PAD;
  let body = '';
  let bottom = top;
  if (entries.length === 0) {
    body = text(PAD, top + 14, 'No language bytes yet.');
    bottom = top + 24;
  } else {
    // The segments inside a 0.5 px inset, so that an outline is never cut by the bar's edge.
    const scale = (inner - 1) / 1000;
    body += barSegments(entries, payload.totalBytes)
      .map(
        ({ x, width }, i) =>
          `<rect x="${(PAD + 0.5 + x * scale).toFixed(2)}" y="${top}" width="${(width * scale).toFixed(2)}" height="${BAR_HEIGHT}" ${paint(entries[i]!, theme)}/>`,
      )
      .join('');
    const columns = 2;
    const column = inner / columns;
    const legendTop = top + BAR_HEIGHT + 22;
    body += entries
      .map((e, i) => {
        const x = PAD + (i % columns) * column;
        const y = legendTop + Math.floor(i / columns) * ROW;
        const share = percentText(e.percent);
        return (
          `<circle cx="${x + 5}" cy="${y - 4}" r="5" ${paint(e, theme)}/>` +
          text(x + 14, y, ellipsize(e.name, column - 80, 12), `fill="${theme.text}"`) +
          text(x + column - 12, y, share, `text-anchor="end" font-weight="600" fill="${theme.text}"`)
        );
      })
      .join('');
    bottom = legendTop + (Math.ceil(entries.length / columns) - 1) * ROW + 8;
  }
  const foot = wrapText(`Source: ${source(payload, simulated)} · as of ${asOf}`, inner, SMALL_FONT_SIZE, ' · ');
  const footTop = bottom + 16;
  const height = footTop + (foot.length - 1) * SMALL_LINE + 12;
  const title = `${payload.username}: languages on GitHub`;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}` +
    (entries.length === 0
      ? 'No language bytes yet. '
      : `${entries.map((e) => `${e.name} ${percentText(e.percent)}`).join(', ')}. `) +
    `Source: ${source(payload, simulated)}. As of ${asOf}.`;
  const head =
    text(
      PAD,
      30,
      ellipsize(`${payload.username} · Languages`, inner, TITLE_FONT_SIZE, true),
      `font-size="${TITLE_FONT_SIZE}" font-weight="600" fill="${theme.text}"`,
    ) + (simulated ? text(PAD, 48, SIMULATED, `fill="${theme.down}"`) : '');
  const footer = foot.map((line, i) => text(PAD, footTop + i * SMALL_LINE, line, 'font-size="11"')).join('');
  return frame({ width: WIDTH, height, title, desc, theme, body: head + body + footer });
}
