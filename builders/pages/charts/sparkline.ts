// The market sparkline: an inline SVG polyline of the seven-day series, no chart library.
// Pure and browser-safe: the build draws it from the snapshot, the page script redraws it from the API.
import type { MarketPoint } from '../../../core/market.ts';
import { escapeHtml } from '../html.ts';

export const SPARKLINE = { width: 640, height: 160, pad: 6 } as const;

const round = (n: number) => Math.round(n * 10) / 10;

/** SVG path coordinates of the series, scaled into the viewBox (time on x, value on y). */
export function sparklinePath(points: readonly MarketPoint[], low: number, high: number): string {
  const { width, height, pad } = SPARKLINE;
  const first = points[0]!.time;
  const span = Math.max(points[points.length - 1]!.time - first, 1);
  const range = high - low;
  return points
    .map((p, i) => {
      const x = pad + ((p.time - first) / span) * (width - 2 * pad);
      // A flat series sits in the middle rather than dividing by zero.
      const y = range > 0 ? pad + ((high - p.value) / range) * (height - 2 * pad) : height / 2;
      return `${i === 0 ? 'M' : 'L'}${round(x)} ${round(y)}`;
    })
    .join(' ');
}

export interface SparklineInput {
  points: readonly MarketPoint[];
  low: number;
  high: number;
  changePercent: number;
  label: string;
}

export function renderSparkline({ points, low, high, changePercent, label }: SparklineInput): string {
  const { width, height, pad } = SPARKLINE;
  const line = sparklinePath(points, low, high);
  const lastX = round(width - pad);
  const firstX = pad;
  const trend = changePercent >= 0 ? 'up' : 'down';
  return (
    `<svg class="sparkline sparkline-${trend}" viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" ` +
    `role="img" aria-label="${escapeHtml(label)}" data-points="${points.length}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${escapeHtml(label)}</title>` +
    `<path class="sparkline-area" d="${line} L${lastX} ${height} L${firstX} ${height} Z" stroke="none"/>` +
    `<path class="sparkline-line" d="${line}" fill="none" stroke-width="2" stroke-linejoin="round" vector-effect="non-scaling-stroke"/>` +
    `</svg>`
  );
}
