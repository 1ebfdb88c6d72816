// The writings' search (docs/site.md#search), imported by site/scripts/search-box.ts on the box's first use:
// fetches the index the build made (builders/build/pages/writing-search.ts), loads it with the options it
// was made with, and lists the writings that match what the visitor types, each linking to its page.
import MiniSearch, { type SearchResult } from 'minisearch';
import { WRITING_SEARCH_OPTIONS, type SearchDocument, type SearchHit } from '../../builders/contract/writing-search.ts';

export type WritingIndex = MiniSearch<SearchDocument>;

/** The index's JSON (as the build wrote it) loaded for searching. */
export function loadWritingIndex(json: string): WritingIndex {
  return MiniSearch.loadJSON<SearchDocument>(json, WRITING_SEARCH_OPTIONS);
}

/** Only the last word may be unfinished: the visitor is still typing it. */
const lastTerm = (_term: string, i: number, terms: string[]): boolean => i === terms.length - 1;

/**
 * The writings holding every word of `query`, best first: whole words when some writing has them all, so a
 * word finds exactly the writings that hold it; else the last word read as the start of one; else any word
 * a typo or two away (MiniSearch's fuzzy 0.2: one edit in five letters).
 */
export function matchingWritings(index: WritingIndex, query: string): SearchHit[] {
  const q = query.trim();
  if (q === '') return [];
  const found = (results: SearchResult[]) => results.length > 0;
  let results = index.search(q);
  if (!found(results)) results = index.search(q, { prefix: lastTerm });
  if (!found(results)) results = index.search(q, { prefix: lastTerm, fuzzy: 0.2 });
  return results.map((r) => ({ title: r.title, summary: r.summary, date: r.date, path: r.path }) as SearchHit);
}

/** "1 writing matches", "2 writings match", "No writing matches". */
export function matchCount(n: number): string {
  if (n === 0) return 'No writing matches.';
  return n === 1 ? '1 writing matches.' : `${n} writings match.`;
}

/** A result as the list shows a writing: its title as the link, then its date and summary. */
function resultItem(hit: SearchHit): HTMLLIElement {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = hit.path;
  link.textContent = hit.title;
  const meta = document.createElement('span');
  meta.className = 'meta';
  const time = document.createElement('time');
  time.dateTime = hit.date;
  time.textContent = hit.date;
  meta.append(time, ` \u00b7 ${hit.summary}`);
  item.append(link, meta);
  return item;
}

/** Wires the box: fetches the index now, then answers every change of the field. */
export function startSearch(box: HTMLElement, input: HTMLInputElement): void {
  const status = box.querySelector<HTMLElement>('[data-search-status]')!;
  const list = box.querySelector<HTMLUListElement>('[data-search-results]')!;
  const index = fetch(box.dataset.source!).then(async (res) => {
    if (!res.ok) throw new Error(`${res.status} for the search index`);
    return loadWritingIndex(await res.text());
  });
  const show = async (): Promise<void> => {
    const query = input.value;
    if (query.trim() === '') {
      list.replaceChildren();
      list.hidden = true;
      status.textContent = '';
      return;
    }
    let hits: SearchHit[];
    try {
      hits = matchingWritings(await index, query);
    } catch {
      status.textContent = 'Search is unavailable: the list below holds every writing.';
      return;
    }
    if (input.value !== query) return; // a later change shows its own
    list.replaceChildren(...hits.map(resultItem));
    list.hidden = hits.length === 0;
    status.textContent = matchCount(hits.length);
  };
  input.addEventListener('input', () => void show());
  // Down from the field to the first result; Tab goes on through them like any links.
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown') return;
    const first = list.querySelector('a');
    if (first === null) return;
    event.preventDefault();
    first.focus();
  });
  void show();
}
