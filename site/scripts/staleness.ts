// The home page's age notices: a figure whose data are past their validity (builders/domain/freshness.ts) says,
// by the reader's clock, how old they are and that the site stopped refreshing them, in a paragraph
// beside the figure's status line. The build's figures carry their validity (data-as-of,
// data-valid-until: builders/render/age.ts), so this holds even when the API cannot be fetched; a payload the
// script fetches is judged the same way. Only text and attributes are set, as the page's CSP wants.
import { escapeHtml, keepPhrasesWhole } from '../../builders/render/html.ts';
import { freshnessBetween, type Freshness } from '../../builders/domain/freshness.ts';
import { staleSentence } from '../../builders/render/age.ts';

/** The build's payload's validity, from the figure's attributes; null when it carries none. */
export function builtFreshness(figure: HTMLElement, nowMs: number): Freshness | null {
  const { asOf, validUntil } = figure.dataset;
  if (!asOf || !validUntil) return null;
  return freshnessBetween(Date.parse(asOf), Date.parse(validUntil), nowMs);
}

/** Shows (or, for data still valid, removes) the figure's age notice; true when the data are stale. */
export function showFreshness(figure: HTMLElement, f: Freshness | null): boolean {
  let notice = figure.querySelector<HTMLElement>('[data-stale-notice]');
  if (f === null || !f.stale) {
    notice?.remove();
    delete figure.dataset.stale;
    return false;
  }
  if (!notice) {
    notice = document.createElement('p');
    notice.className = 'note stale';
    notice.setAttribute('data-stale-notice', '');
    notice.setAttribute('role', 'status');
    const status = figure.querySelector('[data-preview-status]');
    if (status) status.before(notice);
    else figure.append(notice);
  }
  notice.innerHTML = keepPhrasesWhole(escapeHtml(staleSentence(f)));
  figure.dataset.stale = 'true';
  return true;
}
