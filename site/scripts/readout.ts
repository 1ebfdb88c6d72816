// The charts' readouts on the home page: the value and time under the pointer or the keyboard focus on the
// market chart, the date and count of a day on the heatmap. Listeners sit on the figure, so a chart the
// preview script redraws keeps its readout. Only attributes and escaped text are set (no inline style; the
// text's dates in span.nowrap, builders/render/html.ts), so the page's Content-Security-Policy needs nothing more.
import { escapeHtml, keepPhrasesWhole } from '../../builders/render/html.ts';
import { formatFixed, formatTime } from '../../builders/render/format.ts';
import { MARKET_CHART, SPARKLINE } from '../../builders/render/charts/sparkline.ts';

interface Series {
  times: number[];
  values: number[];
  low: number;
  high: number;
  decimals: number;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function seriesOf(svg: SVGSVGElement): Series | null {
  const raw = svg.dataset.series;
  if (!raw) return null;
  const times: number[] = [];
  const values: number[] = [];
  for (const pair of raw.split(' ')) {
    const [t, v] = pair.split(',').map(Number);
    if (!Number.isFinite(t) || !Number.isFinite(v)) return null;
    times.push(t!);
    values.push(v!);
  }
  const low = Number(svg.dataset.low);
  const high = Number(svg.dataset.high);
  const decimals = Number(svg.dataset.decimals);
  if (times.length < 2 || !Number.isFinite(low) || !Number.isFinite(high) || !Number.isInteger(decimals)) return null;
  return { times, values, low, high, decimals };
}

/** The plot's x (0..1 of the width) and y (CSS pixels) of point i: the same scale as sparklinePath. */
function position(s: Series, i: number): { fx: number; y: number } {
  const { width, height, pad } = SPARKLINE;
  const first = s.times[0]!;
  const span = Math.max(s.times[s.times.length - 1]! - first, 1);
  const range = s.high - s.low;
  const x = pad + ((s.times[i]! - first) / span) * (width - 2 * pad);
  const y = range > 0 ? pad + ((s.high - s.values[i]!) / range) * (height - 2 * pad) : height / 2;
  return { fx: x / width, y: MARKET_CHART.plotTop + y };
}

function nearest(s: Series, fx: number): number {
  const { width, pad } = SPARKLINE;
  const first = s.times[0]!;
  const span = Math.max(s.times[s.times.length - 1]! - first, 1);
  const t = first + ((fx * width - pad) / (width - 2 * pad)) * span;
  let best = 0;
  for (let i = 1; i < s.times.length; i++) if (Math.abs(s.times[i]! - t) < Math.abs(s.times[best]! - t)) best = i;
  return best;
}

function marketChart(figure: HTMLElement): void {
  const state = { index: -1 };
  const parts = () => {
    const svg = figure.querySelector<SVGSVGElement>('svg.sparkline');
    const readout = figure.querySelector<HTMLElement>('[data-readout]');
    const series = svg ? seriesOf(svg) : null;
    return svg && readout && series ? { svg, readout, series } : null;
  };
  const show = (index: number) => {
    const p = parts();
    if (!p) return;
    const i = Math.min(Math.max(index, 0), p.series.times.length - 1);
    state.index = i;
    const { fx, y } = position(p.series, i);
    const cursor = p.svg.querySelector('.chart-cursor');
    const line = cursor?.querySelector('line');
    const dot = cursor?.querySelector('circle');
    if (cursor && line && dot) {
      const x = `${(fx * 100).toFixed(2)}%`;
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
      dot.setAttribute('cx', x);
      dot.setAttribute('cy', y.toFixed(1));
      cursor.setAttribute('visibility', 'visible');
    }
    // A reader's own pointing is always live (the page script quiets the readout between ticks: live-feed.ts).
    p.readout.setAttribute('aria-live', 'polite');
    p.readout.innerHTML = keepPhrasesWhole(
      escapeHtml(`${formatFixed(p.series.values[i]!, p.series.decimals)} USD at ${formatTime(p.series.times[i]!)}`),
    );
  };
  const hide = () => parts()?.svg.querySelector('.chart-cursor')?.setAttribute('visibility', 'hidden');
  const at = (event: PointerEvent) => {
    const p = parts();
    if (!p || !(event.target instanceof Element) || !p.svg.contains(event.target)) return;
    // The time axis spans the chart's area, not the price labels' gutter beside it (builders/render/charts/sparkline.ts).
    const box = (p.svg.querySelector('svg.chart-area') ?? p.svg).getBoundingClientRect();
    if (box.width > 0) show(nearest(p.series, (event.clientX - box.left) / box.width));
  };
  figure.addEventListener('pointermove', at);
  // A tap moves no pointer: it reads out where it lands, as a tap on a day of the heatmap does.
  figure.addEventListener('pointerdown', at);
  // A finger leaves as soon as it lifts: the tapped point stays marked until the next tap elsewhere.
  figure.addEventListener('pointerleave', (event) => {
    if (event.pointerType !== 'touch') hide();
  });
  figure.addEventListener('focusin', () => {
    const p = parts();
    if (p && document.activeElement === p.svg) show(state.index >= 0 ? state.index : p.series.times.length - 1);
  });
  figure.addEventListener('focusout', hide);
  figure.addEventListener('keydown', (event) => {
    const p = parts();
    if (!p || event.target !== p.svg) return;
    const last = p.series.times.length - 1;
    const step: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, PageUp: -24, PageDown: 24 };
    let next: number | null = null;
    if (event.key in step) next = (state.index >= 0 ? state.index : last) + step[event.key]!;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    if (next === null) return;
    event.preventDefault();
    show(next);
  });
}

function heatmap(figure: HTMLElement): void {
  let active: SVGRectElement | null = null;
  const readout = () => figure.querySelector<HTMLElement>('[data-readout]');
  const show = (rect: SVGRectElement) => {
    const out = readout();
    const { date, count } = rect.dataset;
    if (!out || !date || count === undefined) return;
    active?.classList.remove('is-active');
    active = rect;
    rect.classList.add('is-active');
    const n = Number(count);
    const day = WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] ?? '';
    out.textContent = `${day} ${date}: ${n === 0 ? 'no' : n.toLocaleString('en-US')} ${n === 1 ? 'contribution' : 'contributions'}`;
  };
  /** The drawing on screen: the wide or the narrow one, whichever the stylesheet shows. */
  const visibleCells = (): SVGRectElement[] => {
    for (const svg of Array.from(figure.querySelectorAll<SVGSVGElement>('svg.heatmap')))
      if (svg.getBoundingClientRect().width > 0)
        return Array.from(svg.querySelectorAll<SVGRectElement>('rect[data-date]'));
    return [];
  };
  figure.addEventListener('pointermove', (event) => {
    if (event.target instanceof SVGRectElement && event.target.dataset.date) show(event.target);
  });
  figure.addEventListener('pointerdown', (event) => {
    if (event.target instanceof SVGRectElement && event.target.dataset.date) show(event.target);
  });
  figure.addEventListener('focusin', (event) => {
    if (!(event.target instanceof SVGSVGElement) || !event.target.classList.contains('heatmap')) return;
    const cells = visibleCells();
    const same = active && cells.find((c) => c.dataset.date === active!.dataset.date);
    const cell = same ?? cells[cells.length - 1];
    if (cell) show(cell);
  });
  figure.addEventListener('keydown', (event) => {
    if (!(event.target instanceof SVGSVGElement) || !event.target.classList.contains('heatmap')) return;
    const cells = visibleCells();
    const step: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };
    const at = active ? cells.findIndex((c) => c.dataset.date === active!.dataset.date) : cells.length - 1;
    let next: number | null = null;
    if (event.key in step) next = (at < 0 ? cells.length - 1 : at) + step[event.key]!;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = cells.length - 1;
    if (next === null) return;
    event.preventDefault();
    const cell = cells[Math.min(Math.max(next, 0), cells.length - 1)];
    if (cell) show(cell);
  });
}

/** Makes the charts of a (re)drawn figure focusable and shows the readout, which needs this script. */
export function prepareCharts(figure: HTMLElement): void {
  for (const svg of Array.from(figure.querySelectorAll<SVGSVGElement>('svg.sparkline, svg.heatmap'))) {
    svg.setAttribute('tabindex', '0');
  }
  figure.querySelector<HTMLElement>('[data-readout]')?.removeAttribute('hidden');
}

export function startReadouts(): void {
  // Any figure may hold a chart, now or after a redraw: the listeners read what is there when they fire.
  for (const figure of Array.from(document.querySelectorAll<HTMLElement>('[data-preview]'))) {
    prepareCharts(figure);
    marketChart(figure);
    heatmap(figure);
  }
}
