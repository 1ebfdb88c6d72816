// The writings' search index (docs/site.md#search): what the build indexes and stores for each published
// writing, and where the index is published. The build (builders/build/pages/writings/writing-search.ts) makes it
// with these options and the writings page's script (site/scripts/search.ts) loads it with the same
// ones, as MiniSearch.loadJSON requires.
import type { Options } from 'minisearch';

/** One writing as the index takes it: the searched fields and what a result shows. */
export interface SearchDocument {
  /** The writing's slug. */
  id: string;
  title: string;
  summary: string;
  /** The body as plain text, the words a reader sees (no link targets). */
  text: string;
  /** The writing's tags, separated by spaces. */
  tags: string;
  /** YYYY-MM-DD. */
  date: string;
  /** The writing's page, root-relative with SITE_URL's base path (`/portfolio/writings/<slug>`). */
  path: string;
}

/** What a result carries from the index: stored at build time, so the browser fetches nothing else. */
export type SearchHit = Pick<SearchDocument, 'title' | 'summary' | 'date' | 'path'>;

/** The index's file in dist/, and its path on the site (before SITE_URL's base path). */
export const WRITING_SEARCH_INDEX = { file: 'assets/search-index.json', path: '/assets/search-index.json' } as const;

/** The index's options, one object for toJSON and loadJSON; a word in the title weighs most, then a tag's. */
export const WRITING_SEARCH_OPTIONS = {
  idField: 'id',
  fields: ['title', 'summary', 'text', 'tags'],
  storeFields: ['title', 'summary', 'date', 'path'],
  searchOptions: { boost: { title: 3, tags: 2, summary: 1.5 }, combineWith: 'AND' },
} satisfies Options<SearchDocument>;
