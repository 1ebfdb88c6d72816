// The card of a dataset this build could not publish (docs/api.md#published-paths): no number, no chart,
// the word "unavailable", when the build tried, and when its data were last available if the build
// knows. It states no snapshot time and no "as of": there are no data to date. Published in place of the data card so that a profile README embedding it shows this rather
// than a broken-image icon; the frame (builders/render/card.ts) gives it the same size rules, <title> and <desc>.
import type { ChartTheme } from './charts/theme.ts';
import { formatInstant } from './format.ts';
import { FONT_SIZE, frame, PAD, SIMULATED, SMALL_LINE, text } from './card.ts';

export interface UnavailableCard {
  /** The dataset's title ("Market preview") and what it pictures ("MON-USD"), shown as the card's heading. */
  title: string;
  /** The build's time: when the source last gave nothing usable. */
  builtMs: number;
  /** When its data were last available (the `asOf` of its last published snapshot), when the build knows it. */
  lastAvailableMs?: number;
  simulated: boolean;
}

const instant = (ms: number) => formatInstant(new Date(ms).toISOString());

export function unavailableCard(card: UnavailableCard, theme: ChartTheme): string {
  const width = 495;
  const lines = [
    `${card.simulated ? `${SIMULATED} · ` : ''}Unavailable: its source gave no usable data`,
    `Tried by the build of ${instant(card.builtMs)}`,
    card.lastAvailableMs === undefined
      ? 'No earlier data known to this build'
      : `Last available: ${instant(card.lastAvailableMs)}`,
  ];
  const height = 48 + lines.length * SMALL_LINE + PAD;
  const title = `${card.title}: unavailable`;
  const desc =
    `${card.simulated ? `${SIMULATED}. ` : ''}${card.title} is unavailable: the build of ${instant(card.builtMs)} got ` +
    `no usable data from its source, so this card shows no value. ` +
    (card.lastAvailableMs === undefined
      ? 'No earlier data are known to this build.'
      : `Its data were last available at ${instant(card.lastAvailableMs)}.`);
  const body =
    text(PAD, 30, card.title, `font-size="15" font-weight="600" fill="${theme.text}"`) +
    text(width - PAD, 30, 'unavailable', `text-anchor="end" font-size="${FONT_SIZE}" fill="${theme.down}"`) +
    lines.map((line, i) => text(PAD, 52 + i * SMALL_LINE, line, 'font-size="11"')).join('');
  return frame({ width, height, title, desc, theme, body });
}
