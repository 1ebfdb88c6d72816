// What a writing's page adds to help read it (docs/site.md#a-writings-page): its words and reading time,
// a table of contents from three section headings up, a link to each section, the older and newer
// writings and a link back to the list. Pure: (writing, neighbours) → the page's <main> HTML.
import type { Writing } from '../../content/site-content.ts';
import { renderMarkdown } from '../../content/markdown.ts';
import { readingTime, type ReadingTime } from '../../content/reading-time.ts';
import { escapeHtml } from '../../../render/html.ts';
import { formatCount } from '../../../render/format.ts';
import { PAGES, sitePath } from '../../../contract/pages.ts';

/** A writing with at least this many section headings (`##` and below) shows a table of contents. */
export const CONTENTS_FROM_HEADINGS = 3;

/** A section heading of a rendered writing: its level (2 to 6), its id and its text as HTML (no tags). */
export interface SectionHeading {
  depth: number;
  id: string;
  text: string;
}

/** The writings either side of one in the list (newest first): the older is `rel="prev"`, the newer `rel="next"`. */
export interface Neighbours {
  older: Writing | undefined;
  newer: Writing | undefined;
}

export function neighboursOf(writings: readonly Writing[], index: number): Neighbours {
  return { older: writings[index + 1], newer: index > 0 ? writings[index - 1] : undefined };
}

/** The section headings of `html` (rendered Markdown: each `<hN id="…">` as markdown.ts writes it), in order. */
export function sectionHeadings(html: string): SectionHeading[] {
  return [...html.matchAll(/<h([2-6]) id="([^"]+)">([\s\S]*?)<\/h\1>/g)].map(([, depth, id, inner]) => ({
    depth: Number(depth),
    id: id!,
    text: inner!.replace(/<[^>]*>/g, '').trim(),
  }));
}

/** A writing's words and reading minutes, counted in its rendered HTML (the feeds' and the page's words alike). */
export function writingReadingTime(w: Writing): ReadingTime {
  // Counted once per writing: its page, its twin and its JSON-LD all say it.
  let counted = COUNTED.get(w);
  if (counted === undefined) COUNTED.set(w, (counted = readingTime(renderMarkdown(w.body))));
  return counted;
}

const COUNTED = new WeakMap<Writing, ReadingTime>();

/** The Markdown twin's front-matter lines for them: `words: 312`, `reading_minutes: 2`. */
export function readingFields({ words, minutes }: ReadingTime): { words: string; reading_minutes: string } {
  return { words: String(words), reading_minutes: String(minutes) };
}

/** "1 word · 1 min read", "1,234 words · 6 min read"; an empty writing has no reading time. */
export function readingLine({ words, minutes }: ReadingTime): string {
  const count = `${formatCount(words)} ${words === 1 ? 'word' : 'words'}`;
  return minutes === 0 ? count : `${count} · ${minutes} min read`;
}

/**
 * The headings as nested lists: a heading deeper than the list's shallowest opens a list inside the item
 * before it; a writing that skips a level (`##` then `####`) nests one step, not two.
 */
function contentsList(headings: readonly SectionHeading[]): string {
  const top = Math.min(...headings.map((h) => h.depth));
  const items: Array<{ heading: SectionHeading; children: SectionHeading[] }> = [];
  for (const heading of headings) {
    const last = items.at(-1);
    if (last && heading.depth > top) last.children.push(heading);
    else items.push({ heading, children: [] });
  }
  const item = ({ heading, children }: (typeof items)[number]) =>
    `<li><a href="#${heading.id}">${heading.text || heading.id}</a>${children.length ? `\n${contentsList(children)}\n` : ''}</li>`;
  return `<ol>\n${items.map(item).join('\n')}\n</ol>`;
}

/**
 * The table of contents, or nothing under CONTENTS_FROM_HEADINGS headings. Ids and texts are the renderer's,
 * escaped; a heading with no text (a picture alone) is listed by its id, so that no entry is a link without a name.
 */
export function tableOfContents(headings: readonly SectionHeading[]): string {
  if (headings.length < CONTENTS_FROM_HEADINGS) return '';
  return `<nav class="toc" aria-label="Contents">\n<p class="toc-title">Contents</p>\n${contentsList(headings)}\n</nav>`;
}

/** Older, newer and the list: `rel="prev"` and `rel="next"` only where there is one, the list always. */
export function writingNav(siteUrl: string, { older, newer }: Neighbours): string {
  const href = (path: string) => escapeHtml(sitePath(siteUrl, path));
  const link = (w: Writing, rel: 'prev' | 'next') =>
    `<li class="${rel}"><a rel="${rel}" href="${href(PAGES.writing(w.slug).path)}">` +
    `<span class="writing-nav-label">${rel === 'prev' ? 'Older' : 'Newer'}</span> ${escapeHtml(w.title)}</a></li>`;
  const links = [older && link(older, 'prev'), newer && link(newer, 'next')].filter(Boolean);
  return [
    // Links lead nowhere on paper.
    '<nav class="writing-nav print-hide" aria-label="More writings">',
    ...(links.length ? [`<ul>\n${links.join('\n')}\n</ul>`] : []),
    `<p class="back"><a href="${href(PAGES.writings.path)}">All writings</a></p>`,
    '</nav>',
  ].join('\n');
}

/**
 * A writing page's <main>: `head` (its title and meta line, writings.ts's), the reading line, the table of
 * contents, `body` (its HTML with its sections linked, writing-body.ts's), then the way to the older, the
 * newer and all writings.
 */
export function writingMain(siteUrl: string, w: Writing, head: string, neighbours: Neighbours, body: string): string {
  return [
    '<article>',
    head,
    `<p class="meta reading-time">${readingLine(writingReadingTime(w))}</p>`,
    tableOfContents(sectionHeadings(body)),
    body.trim(),
    '</article>',
    writingNav(siteUrl, neighbours),
  ]
    .filter(Boolean)
    .join('\n');
}
