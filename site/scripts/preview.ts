// Browser script of the home page: redraws each dataset's figure from the live API when it is reachable.
// The page already shows the build-time snapshot (and reads fine with scripts off), so
// every failure here (offline, 404 on a static host, 502 from the gateway, a malformed answer) just
// keeps what is on the page: nothing is thrown and nothing is written to the console.
import { escapeHtml, keepPhrasesWhole } from '../../builders/render/html.ts';
import type { ViewModule } from '../../builders/render/dataset-view.ts';
import { prepareCharts, startReadouts } from './readout.ts';
import { ageSentence } from '../../builders/render/age.ts';
import { builtFreshness, showFreshness } from './staleness.ts';
import { freshness } from '../../builders/domain/freshness.ts';
import { startLiveFeed } from './live-feed.ts';

async function fetchJson(url: string): Promise<unknown> {
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) return null;
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}

async function refresh<T>(
  figure: HTMLElement,
  accept: (v: unknown) => v is T,
  render: (v: T) => string,
): Promise<void> {
  const source = figure.dataset.source;
  const body = figure.querySelector<HTMLElement>('[data-preview-body]');
  const status = figure.querySelector<HTMLElement>('[data-preview-status]');
  if (!source || !body) return;
  showFreshness(figure, builtFreshness(figure, Date.now()));
  const data = await fetchJson(source);
  if (!accept(data)) return;
  body.innerHTML = keepPhrasesWhole(render(data));
  prepareCharts(figure);
  // The live feed (live-feed.ts) moves its ticks from the payload drawn now.
  figure.dispatchEvent(new CustomEvent('preview:redrawn', { detail: data }));
  // An old file fetched now is still old: it is "refreshed" only while it is valid (builders/domain/freshness.ts).
  if (showFreshness(figure, freshness(data, Date.now()))) return;
  figure.dataset.refreshed = 'true';
  // Fetched now does not mean read now: the sentence says how old the data themselves are.
  const age = ageSentence(data, Date.now());
  // Its dates never break inside (builders/render/html.ts keepPhrasesWhole); its text is the sentence as it is.
  if (status)
    status.innerHTML = keepPhrasesWhole(
      escapeHtml(
        `Refreshed from ${source} at ${new Date().toISOString().slice(11, 19)} UTC.${age === null ? '' : ` ${age}`}`,
      ),
    );
}

/**
 * A figure's redraw, by its `data-preview` (the dataset's id): the view its folder declares
 * (datasets/<id>/view.ts, reached by the id alone, so no table here names the datasets) checks the
 * payload's shape, then draws it with the very function the build drew its body with.
 */
async function redraw(figure: HTMLElement): Promise<void> {
  const { view } = (await import(`../../builders/datasets/${figure.dataset.preview ?? ''}/view.ts`)) as ViewModule;
  // A figure that names a feed (the market's, when MARKET_WS_URL is not off) subscribes to it, and its
  // view says what each tick redraws (live-feed.ts).
  if (figure.dataset.liveFeed && view.live) startLiveFeed(figure, view as Parameters<typeof startLiveFeed>[1]);
  await refresh(figure, view.accepts, (payload) => view.body(payload));
}

function start(): void {
  startReadouts();
  // Swallow anything unexpected too (a figure of no known dataset among them): a preview refresh is never
  // worth an error on the reader's console.
  for (const figure of Array.from(document.querySelectorAll<HTMLElement>('[data-preview]'))) {
    // A figure without a source (the owner's work, drawn by the build alone) is only judged by its validity.
    if (figure.dataset.source) void redraw(figure).catch(() => undefined);
    else showFreshness(figure, builtFreshness(figure, Date.now()));
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
