// The writings page's search (docs/site.md#search): the index, made at build time with MiniSearch over
// the published writings (the build never sees a draft: content.ts drops them), and the box's markup.
// The box is hidden until its script runs, which asks for the search code and the index only when the
// visitor first focuses or types in it; without script the page is the full list it always was.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import MiniSearch from 'minisearch';
import type { Artifact } from '../../artifact.ts';
import type { Writing } from '../../content/site-content.ts';
import { PAGES, sitePath } from '../../../contract/pages.ts';
import { WRITING_SEARCH_INDEX, WRITING_SEARCH_OPTIONS, type SearchDocument } from '../../../contract/writing-search.ts';
import { escapeHtml } from '../../../render/html.ts';
import { ASSETS } from '../layout.ts';
import { markdownToText } from '../plain-text.ts';
import { PAGE_IDS } from '../../../render/page-ids.ts';

/** A link's or a picture's target in markdownToText's text (`text <url>`): not words a reader sees. */
const URL_IN_TEXT = / ?<[a-z][a-z0-9+.-]*:[^<>\s]*>/gi;

/** The writing as the index takes it: its body as the words a reader sees, its page under SITE_URL's base path. */
export function searchDocument(siteUrl: string, w: Writing): SearchDocument {
  return {
    id: w.slug,
    title: w.title,
    summary: w.summary,
    text: markdownToText(w.body).replace(URL_IN_TEXT, ''),
    tags: w.tags.join(' '),
    date: w.date,
    path: sitePath(siteUrl, PAGES.writing(w.slug).path),
  };
}

/** The index of `writings` as MiniSearch serialises it (toJSON), for MiniSearch.loadJSON in the browser. */
export function writingSearchIndex(siteUrl: string, writings: readonly Writing[]): string {
  const index = new MiniSearch<SearchDocument>(WRITING_SEARCH_OPTIONS);
  index.addAll(writings.map((w) => searchDocument(siteUrl, w)));
  return JSON.stringify(index);
}

const require = createRequire(import.meta.url);

/** The thread that makes the index (writingSearchIndexAside): MiniSearch from the registry, as the build's own. */
const INDEXER = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = require(workerData.minisearch);
const MiniSearch = loaded.default ?? loaded;
const index = new MiniSearch(workerData.options);
index.addAll(workerData.documents);
parentPort.postMessage(JSON.stringify(index));
`;

/**
 * Up to this many writings, the index is made on the build's own thread: starting a thread (an isolate that
 * loads MiniSearch) cost about 45 ms of CPU, more than indexing a few dozen writings, and their tree is a
 * few hundred KiB. The same bytes either way (test/writing-search.test.ts).
 */
const ON_THIS_THREAD_MAX = 64;

/**
 * writingSearchIndex, made on a thread of its own beyond ON_THIS_THREAD_MAX writings: the index's tree over
 * 3,000 writings took 76 MiB of the build's peak memory on the main thread
 * (docs/performance.md#content-at-scale-issue-41), and a thread's heap is gone once it ends, while the build
 * waits for its upstreams, long before the pictures are drawn.
 */
export function writingSearchIndexAside(
  siteUrl: string,
  writings: readonly Writing[],
  onThisThreadMax = ON_THIS_THREAD_MAX,
): Promise<string> {
  // A throw here is a rejection too, as the thread's error is.
  if (writings.length <= onThisThreadMax)
    return new Promise((resolve) => resolve(writingSearchIndex(siteUrl, writings)));
  const worker = new Worker(INDEXER, {
    eval: true,
    workerData: {
      minisearch: require.resolve('minisearch'),
      options: WRITING_SEARCH_OPTIONS,
      documents: writings.map((w) => searchDocument(siteUrl, w)),
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (index: string) => resolve(index));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the search index's thread exited (${code}) before it answered`)));
  });
}

/** The index's file in dist/: a file the page's script fetches, not a page (no sitemap entry, no twin). */
/** The index's file; `index`, when the build made it already (writingSearchIndexAside), else made here. */
export function renderWritingSearch(siteUrl: string, writings: readonly Writing[], index?: string): Artifact[] {
  return [{ file: WRITING_SEARCH_INDEX.file, body: index ?? writingSearchIndex(siteUrl, writings) }];
}

/**
 * The search box, before the list: a labelled search field, a polite status ("2 writings match") and the
 * results' list. `hidden` until site/scripts/search-box.ts shows it; no form, so nothing is ever submitted
 * (the policy's form-action 'none'). `data-source` names the index and `data-module` the search code, both
 * requested by check:dist (builders/build/dist-check/links.ts). None with no writing.
 */
export function writingSearchBox(siteUrl: string, writings: readonly Writing[]): string {
  if (writings.length === 0) return ''; // nothing to find
  const href = (path: string) => escapeHtml(sitePath(siteUrl, path));
  return [
    `<div class="writing-search" role="search" data-writing-search data-source="${href(WRITING_SEARCH_INDEX.path)}" data-module="${href(ASSETS.searchModule)}" hidden>`,
    `<label for="${PAGE_IDS.searchQuery}">Search the writings</label>`,
    `<input type="search" id="${PAGE_IDS.searchQuery}" autocomplete="off" spellcheck="false" aria-controls="${PAGE_IDS.searchResults}">`,
    '<p class="meta" role="status" data-search-status></p>',
    `<ul class="writing-list" id="${PAGE_IDS.searchResults}" aria-label="Matching writings" data-search-results hidden></ul>`,
    '</div>',
    `<script defer src="${href(ASSETS.searchBoxScript)}"></script>`,
  ].join('\n');
}
