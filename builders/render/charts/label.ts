// A chart's text on a page, as HTML: a <div> in a <foreignObject> at the place the SVG <text> would stand,
// on a box of the card's background (the stylesheet's `.chart-label`). Text drawn in an <svg> lies, for a
// checker such as axe (pa11y's runner), on an image whose colours it cannot read, so it cannot judge its
// contrast; an HTML element with its own opaque background it can. The foreignObject keeps the chart's
// coordinates (its percentages, the heatmap's viewBox scale), and its x and y are attributes, not inline
// style, which the pages' Content-Security-Policy forbids. Cards (standalone SVG images) keep <text>.
import { escapeHtml } from '../html.ts';

/**
 * Where the box's top sits above the text's baseline, in em: the stylesheet's `.chart-label` sets
 * line-height 1, 0.12 em of padding above and 0.1 em below, and a sans-serif baseline lies about 0.85 em below
 * the top of a line 1 em high (DejaVu, Arial, Helvetica, Roboto, SF: 0.84 to 0.86).
 */
export const LABEL_BASELINE_EM = 0.97;
/** The box's height in em: the line and its padding, as tall as the glyphs' own boxes and a little more. */
const LABEL_HEIGHT_EM = 1.22;

export interface ChartLabel {
  /** Where the text is anchored (an SVG length: user units or a percentage). */
  x: string | number;
  /** The text's baseline, in user units. */
  baseline: number;
  /** The size the stylesheet draws it at, in user units. */
  size: number;
  anchor?: 'start' | 'middle' | 'end';
  className?: string;
  /** Further attributes of the element, already escaped. */
  attributes?: string;
  text: string;
}

export function chartLabelHtml(label: ChartLabel): string {
  const { x, baseline, size, anchor = 'start', className, attributes = '', text } = label;
  const round = (n: number) => Math.round(n * 10) / 10;
  const classes = ['chart-label', `chart-label-${anchor}`, ...(className ? [className] : [])].join(' ');
  return (
    `<foreignObject x="${x}" y="${round(baseline - LABEL_BASELINE_EM * size)}" width="1" height="${round(LABEL_HEIGHT_EM * size)}" overflow="visible">` +
    `<div xmlns="http://www.w3.org/1999/xhtml" class="${classes}"${attributes}>${escapeHtml(text)}</div></foreignObject>`
  );
}
