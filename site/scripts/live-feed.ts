// The home page's live price (docs/site.md#live-ticks): the market figure names the feed the build baked
// in (`data-live-feed`, `data-live-product`); this module subscribes to the product's `ticker` and
// `heartbeat` channels and moves the price, the 7-day change, low, high and the chart's last point on
// tick the rule of builders/domain/live-tick.ts accepts (judged by the reader's clock). Until the first tick, and
// whenever the feed is gone, the snapshot and its age stay as they are. One socket at most; reopened after
// a close, a refusal or 30 s of silence with a backoff from about 1 s doubling to 60 s, with jitter, that
// starts over only after an accepted tick or 30 s open (builders/domain/live-tick.ts Reconnection); closed after the
// page has been hidden for a minute and reopened when it is seen again. Nothing is thrown or logged.
//
// Calm under a flood: at most 4 redraws a second, of the latest accepted tick (builders/lib/latest-wins.ts), and a
// redraw replaces only the table rows that changed (the last day's, as a rule).
//
// Calm for assistive technology: the visible figures and the readout's "Last point" move with the ticks,
// but the readout, the figure's one live region, is live (aria-live="polite") for a tick at most once a
// minute: between, a tick's change is written with aria-live="off". A reader pointing at the chart makes
// it live again (readout.ts). Nothing moves by animation.
import {
  applyTick,
  liveTick,
  Reconnection,
  SILENCE_MS,
  subscribeMessage,
  type LiveTick,
} from '../../builders/domain/live-tick.ts';
import { latestWins } from '../../builders/lib/latest-wins.ts';
import type { MarketData } from '../../builders/domain/market.ts';
import { formatFixed, formatInstantSeconds, formatPercent, htmlDateTime } from '../../builders/render/format.ts';
import type { HomeView, LiveView } from '../../builders/render/dataset-view.ts';
import { showFreshness } from './staleness.ts';

/** A page hidden this long lets go of its socket. */
const HIDDEN_MS = 60_000;
/** The readout (an aria-live region) is told of a new price at most this often. */
const LIVE_REGION_MS = 60_000;
/** At most 4 redraws a second (docs/upstreams.md#the-live-feed). */
const REDRAW_MS = 250;

/** The snapshot the page was built with, read back from the figure (the chart's series and the figures). */
function builtSnapshot(
  figure: HTMLElement,
  product: string,
  isMarketData: (v: unknown) => v is MarketData,
): MarketData | null {
  const svg = figure.querySelector<SVGSVGElement>('svg.sparkline');
  const number = (field: string) => Number(figure.querySelector(`data[data-field="${field}"]`)?.getAttribute('value'));
  const asOf = figure.querySelector('time[data-field="asOf"]')?.getAttribute('datetime');
  const points = (svg?.dataset.series ?? '').split(' ').map((pair) => {
    const [time, value] = pair.split(',').map(Number);
    return { time: time!, value: value! };
  });
  const candidate = {
    product,
    currency: 'USD',
    source: '',
    windowSeconds: 604_800,
    points,
    value: number('value'),
    changePercent: number('changePercent'),
    low: number('low'),
    high: number('high'),
    asOf,
  };
  return isMarketData(candidate) ? candidate : null;
}

/**
 * Replaces the rows of `body` whose HTML changed (a tick changes the last day's, or adds a day), rather
 * than the whole table on every redraw.
 */
function replaceChangedRows(body: HTMLTableSectionElement, rows: readonly string[]): void {
  const drawn = Array.from(body.rows);
  rows.forEach((html, i) => {
    const row = drawn[i];
    if (row === undefined) body.insertAdjacentHTML('beforeend', html);
    else if (row.outerHTML !== html) row.outerHTML = html;
  });
  for (const extra of drawn.slice(rows.length)) extra.remove();
}

/**
 * Subscribes a figure that names a feed to it, redrawing the parts its view declares live (the market's:
 * datasets/<id>/view.ts, reached by the figure's dataset id in preview.ts, so no dataset is named here).
 */
export function startLiveFeed(figure: HTMLElement, view: HomeView<MarketData> & { live: LiveView<MarketData> }): void {
  const url = figure.dataset.liveFeed;
  const product = figure.dataset.liveProduct;
  if (!url || !product || typeof WebSocket !== 'function') return;
  const isMarketData = view.accepts;
  const {
    decimals: marketDecimals,
    chart: marketSparkline,
    tableRows: marketTableRows,
    lastPoint: lastPointHtml,
  } = view.live;
  let snapshot = builtSnapshot(figure, product, isMarketData);
  let last: LiveTick | null = null;
  let decimals = snapshot ? marketDecimals(snapshot) : 2;
  let socket: WebSocket | null = null;
  const reconnection = new Reconnection();
  let reconnectTimer: number | undefined;
  let silenceTimer: number | undefined;
  let hiddenTimer: number | undefined;
  let asleep = false;
  let regionChangedAt = -Infinity;

  const draw = (market: MarketData) => {
    const body = figure.querySelector<HTMLElement>('[data-preview-body]');
    if (!body) return;
    const set = (field: string, text: string, value: number) => {
      // The stats' <data> elements: the chart's own High and Low labels carry the same data-field.
      const el = body.querySelector(`data[data-field="${field}"]`);
      if (!el) return;
      el.textContent = text;
      el.setAttribute('value', String(value));
    };
    set('value', `${formatFixed(market.value, decimals)} ${market.currency}`, market.value);
    set('changePercent', formatPercent(market.changePercent), market.changePercent);
    body
      .querySelector('data[data-field="changePercent"]')
      ?.setAttribute('class', `change-${market.changePercent >= 0 ? 'up' : 'down'}`);
    set('low', formatFixed(market.low, decimals), market.low);
    set('high', formatFixed(market.high, decimals), market.high);
    const time = body.querySelector('time[data-field="asOf"]');
    if (time) {
      time.setAttribute('datetime', htmlDateTime(market.asOf));
      time.textContent = formatInstantSeconds(market.asOf);
      const label = time.closest('.stat')?.querySelector('dt');
      if (label) label.textContent = figure.dataset.liveSimulated ? 'Live (simulated), as of' : 'Live, as of';
    }
    // The chart and its table are drawn again by the build's own functions, so the text alternative (the
    // chart's label and the table) says what the chart shows; keyboard focus on the chart is kept.
    const svg = body.querySelector('svg.sparkline');
    if (svg) {
      const focused = document.activeElement === svg;
      svg.insertAdjacentHTML('beforebegin', marketSparkline(market, decimals));
      const drawn = svg.previousElementSibling;
      svg.remove();
      drawn?.setAttribute('tabindex', '0');
      if (focused && drawn instanceof SVGElement) drawn.focus({ preventScroll: true });
    }
    const rows = body.querySelector<HTMLTableSectionElement>('.chart-data tbody');
    if (rows) replaceChangedRows(rows, marketTableRows(market, decimals));
    figure.dataset.live = 'true';
    showLastPoint(market);
  };

  /**
   * The readout, unless a reader is pointing at a point, says the last point, on every redraw; the change
   * is live (announced) at most once a minute.
   */
  const showLastPoint = (market: MarketData) => {
    const readout = figure.querySelector<HTMLElement>('[data-readout]');
    if (!readout || !readout.textContent?.startsWith('Last point')) return;
    const html = lastPointHtml(market, decimals);
    if (readout.innerHTML === html) return;
    const tell = performance.now() - regionChangedAt >= LIVE_REGION_MS;
    readout.setAttribute('aria-live', tell ? 'polite' : 'off');
    readout.innerHTML = html;
    if (tell) regionChangedAt = performance.now();
  };
  const redraws = latestWins(REDRAW_MS, draw);

  const onMessage = (data: unknown) => {
    armSilence(); // any message, a heartbeat too, says the socket is alive
    if (typeof data !== 'string') return;
    const base = snapshot;
    if (!base) return;
    const result = liveTick(base, last, data, Date.now());
    if (!result.accepted) return;
    reconnection.accepted(); // the feed works: the next reconnection starts from the shortest wait again
    last = result.tick;
    // A snapshot past its validity stops saying so once the price is live again.
    if (figure.dataset.stale) showFreshness(figure, null);
    redraws.push(result.moved);
  };

  const armSilence = () => {
    window.clearTimeout(silenceTimer);
    silenceTimer = window.setTimeout(() => socket?.close(), SILENCE_MS);
  };

  const open = () => {
    reconnectTimer = undefined;
    if (socket !== null || asleep) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch {
      return; // a URL the browser refuses: nothing to retry
    }
    socket = ws;
    armSilence();
    ws.addEventListener('open', () => {
      reconnection.opened(performance.now());
      ws.send(subscribeMessage(product));
    });
    ws.addEventListener('message', (event: MessageEvent) => onMessage(event.data));
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      window.clearTimeout(silenceTimer);
      if (!asleep) schedule();
    });
  };

  const schedule = () => {
    if (reconnectTimer !== undefined) return;
    reconnectTimer = window.setTimeout(open, reconnection.closed(performance.now()));
  };

  const sleep = () => {
    asleep = true;
    window.clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    window.clearTimeout(silenceTimer);
    const ws = socket;
    socket = null;
    ws?.close();
  };

  document.addEventListener('visibilitychange', () => {
    window.clearTimeout(hiddenTimer);
    if (document.visibilityState === 'hidden') {
      hiddenTimer = window.setTimeout(sleep, HIDDEN_MS);
    } else if (asleep) {
      asleep = false;
      reconnection.reset();
      open();
    }
  });

  // The page script's redraw from the API (preview.ts) draws the payload it fetched: that is the snapshot
  // the ticks move from now on, and the last tick is shown again over it.
  figure.addEventListener('preview:redrawn', (event) => {
    const payload = (event as CustomEvent<unknown>).detail;
    if (!isMarketData(payload) || payload.product !== product) return;
    snapshot = payload;
    decimals = marketDecimals(payload);
    // The body now shows the snapshot just fetched, not a tick: it is live again once a tick is redrawn on it.
    delete figure.dataset.live;
    if (last) redraws.push(applyTick(payload, last));
  });

  // A page opened in a background tab is hidden from the start.
  if (document.visibilityState === 'hidden') hiddenTimer = window.setTimeout(sleep, HIDDEN_MS);
  open();
}
