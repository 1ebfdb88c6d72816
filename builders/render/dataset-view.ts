// What the page script and the CLI need of a dataset, declared by the view modules of its folder
// (docs/architecture.md#add-a-dataset): `datasets/<id>/view.ts` exports `view` (its home figure's body and
// the shape check the page script runs before a redraw), `datasets/<id>/picture.ts` exports `picture` (its
// command's drawing in a terminal). Both are reached by the dataset's id alone, so neither program keeps a
// table of datasets; both stay browser-safe and dependency-free (test/layering.test.ts).
import type { Terminal } from './terminal.ts';

export interface HomeView<P> {
  /** The payload's shape as the body draws it (schemas/ stays the full contract, which the CLI checks). */
  accepts(value: unknown): value is P;
  /** The figure's body, HTML, drawn from a payload or saying that there is none. */
  body(payload: P | null): string;
  /** A figure whose value moves with a live feed (`data-live-feed`): the parts the page script redraws per tick. */
  live?: LiveView<P>;
}

/** The parts of a figure the live feed redraws on each tick (site/scripts/live-feed.ts), from the moved payload. */
export interface LiveView<P> {
  /** The decimals every figure of the payload is printed with. */
  decimals(payload: P): number;
  /** The chart, SVG. */
  chart(payload: P, decimals: number): string;
  /** The rows of the chart's table, its text alternative, one `<tr>` each: a tick replaces only those that changed. */
  tableRows(payload: P, decimals: number): string[];
  /** The readout's resting text: the chart's last point. */
  lastPoint(payload: P, decimals: number): string;
}

/** A data command's picture: payload and terminal in, lines out; `simulated` when the site says it is a demo. */
export type TerminalPicture<P> = (term: Terminal, payload: P, simulated: boolean) => string[];

/** A view module's exports. */
export interface ViewModule<P = unknown> {
  view: HomeView<P>;
}
/** A picture module's exports. */
export interface PictureModule<P = unknown> {
  picture: TerminalPicture<P>;
}
