// The home page's live price (docs/site.md#live-ticks): the market figure names the feed the build baked
// in (`data-live-feed`, `data-live-product`); this module subscribes to the product's `ticker` and
// `heartbeat` channels and moves the price, the 7-day change, low, high and the chart's last point on
// every tick the rule of domain/live-tick.ts accepts. Until the first tick, and whenever the feed is gone,
// the snapshot and its age stay as they are. One socket at most; reopened after a close, a refusal or
// 30 s of silence with a backoff from about 1 s doubling to 60 s, with jitter; closed after the page has
// been hidden for a minute and reopened when it is seen again. Nothing is thrown or logged.
//
// Calm for assistive technology: the visible figures may change on every tick, but the chart's readout,
// the figure's one live region, changes at most once a minute. Nothing moves by animation.
import { applyTick, backoffMs, liveTick, SILENCE_MS, subscribeMessage, type LiveTick } from '../../domain/live-tick.ts';
import type { MarketData } from '../../domain/market.ts';
import { formatFixed, formatInstantSeconds, formatPercent, htmlDateTime } from '../../render/format.ts';
import type { HomeView, LiveView } from '../../render/dataset-view.ts';
import { showFreshness } from './staleness.ts';

/** A page hidden this long lets go of its socket. */
const HIDDEN_MS = 60_000;
/** The readout (an aria-live region) is told of a new price at most this often. */
const LIVE_REGION_MS = 60_000;

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
  let attempt = 0;
  let reconnectTimer: number | undefined;
  let silenceTimer: number | undefined;
  let hiddenTimer: number | undefined;
  let asleep = false;
  let regionChangedAt = -Infinity;
  let regionTimer: number | undefined;

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
    const rows = body.querySelector('.chart-data tbody');
    if (rows) rows.innerHTML = marketTableRows(market, decimals);
    figure.dataset.live = 'true';
    tellLiveRegion(market);
  };

  /** The readout, unless a reader is pointing at a point, says the last point: at most once a minute. */
  const tellLiveRegion = (market: MarketData) => {
    const wait = regionChangedAt + LIVE_REGION_MS - performance.now();
    if (wait > 0) {
      if (regionTimer === undefined)
        regionTimer = window.setTimeout(() => {
          regionTimer = undefined;
          if (snapshot && last) tellLiveRegion(applyTick(snapshot, last));
        }, wait);
      return;
    }
    const readout = figure.querySelector<HTMLElement>('[data-readout]');
    if (!readout || !readout.textContent?.startsWith('Last point')) return;
    const html = lastPointHtml(market, decimals);
    if (readout.innerHTML === html) return;
    readout.innerHTML = html;
    regionChangedAt = performance.now();
  };

  const onMessage = (data: unknown) => {
    armSilence();
    attempt = 0; // the feed answers: the next reconnection starts from the shortest wait again
    if (typeof data !== 'string') return;
    const base = snapshot;
    if (!base) return;
    const result = liveTick(base, last, data);
    if (!result.accepted) return;
    last = result.tick;
    // A snapshot past its validity stops saying so once the price is live again.
    if (figure.dataset.stale) showFreshness(figure, null);
    draw(result.moved);
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
    reconnectTimer = window.setTimeout(open, backoffMs(attempt));
    attempt++;
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
      attempt = 0;
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
    if (last) draw(applyTick(payload, last));
  });

  // A page opened in a background tab is hidden from the start.
  if (document.visibilityState === 'hidden') hiddenTimer = window.setTimeout(sleep, HIDDEN_MS);
  open();
}
