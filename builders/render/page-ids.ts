// The ids the site's own markup gives elements of its pages. A heading of the owner's Markdown never takes
// the main's, which every page has (markdown.ts): `## Content` in a writing would otherwise be a second
// `id="content"`, and the skip link would lead to the heading. A page passes its other ids around a text
// as the text's `takenIds`.
export const PAGE_IDS = {
  main: 'content',
  about: 'about',
  projectsHeading: 'projects-heading',
  searchQuery: 'writing-search-query',
  searchResults: 'writing-search-results',
} as const;

/** The id of a dataset's figure on the home page. */
export const previewId = (datasetId: string): string => `${datasetId}-preview`;
