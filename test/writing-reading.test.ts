// A writing's reading aids (docs/site.md#a-writings-page, builders/build/pages/writings/reading-aids.ts): its words and
// reading time, the link back to the list, the older and newer writings, a link on each section heading and
// a table of contents from three headings up. renderWritings with a constructed context, no network; the
// last block reads the run's shared build of the tests' own content.
import { describe, expect, it } from 'vitest';
import { pagesContext as context } from './helpers/build-context.ts';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import type { Writing } from '../builders/build/content/site-content.ts';
import { countWords, htmlText, readingMinutes, WORDS_PER_MINUTE } from '../builders/build/content/reading-time.ts';
import { renderMarkdown } from '../builders/build/content/markdown.ts';
import { renderWritings } from '../builders/build/pages/writings/writings.ts';
import { sectionHeadings, tableOfContents } from '../builders/build/pages/writings/reading-aids.ts';
import { jsonFeed } from '../builders/build/pages/feeds.ts';
import { sharedSite } from './helpers/site-dist.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

function writing(slug: string, date: string, body = 'A short text.'): Writing {
  return {
    slug,
    title: `Title of ${slug}`,
    date,
    summary: `About ${slug}.`,
    body,
    tags: [],
    image: null,
    cover: null,
    pictures: [],
  };
}

/** Each writing page's <main> as a document, and each twin's text, by slug. */
function rendered(writings: Writing[], siteUrl?: string) {
  const files = new Map(renderWritings(context(siteUrl), writings).map((a) => [a.file, String(a.body)]));
  const page = (slug: string) => {
    const main = mainOf(files.get(`writings/${slug}.html`)!);
    expect(main, `writings/${slug}.html has a <main>`).toBeTruthy();
    return main;
  };
  return { page, twin: (slug: string) => files.get(`writings/${slug}.md`)! };
}

/** What an element must be: one of these tags, carrying this class, with these attributes (true: any value). */
interface Match {
  tag?: string[];
  class?: string;
  attrs?: Record<string, string | true>;
}
const matches = (el: Element, m: Match) =>
  (!m.tag || m.tag.includes(el.name)) &&
  (!m.class || (el.attribs.class ?? '').split(' ').includes(m.class)) &&
  Object.entries(m.attrs ?? {}).every(([k, v]) => (v === true ? k in el.attribs : el.attribs[k] === v));
/** The descendants of `root` that match, in document order. */
const all = (root: Element, m: Match) => DomUtils.findAll((el) => matches(el, m), root.children);
const one = (root: Element, m: Match) => all(root, m)[0] ?? null;
const attr = (el: Element, name: string) => el.attribs[name];
const text = (el: Element | null) => (el ? DomUtils.textContent(el).replace(/\s+/g, ' ').trim() : null);
const mainOf = (html: string) => DomUtils.findOne((el) => el.name === 'main', parseDocument(html).children)!;
const SECTION_HEADINGS = ['h2', 'h3', 'h4', 'h5', 'h6'];
const MORE_WRITINGS: Match = { tag: ['nav'], attrs: { 'aria-label': 'More writings' } };

describe('the reading-time rule', () => {
  it('is words / 230 rounded up: 1 word and 230 words are 1 minute, 231 are 2, none is 0', () => {
    expect(WORDS_PER_MINUTE).toBe(230);
    expect([0, 1, 229, 230, 231, 460, 461].map(readingMinutes)).toEqual([0, 1, 1, 1, 2, 2, 3]);
  });

  it('counts whitespace-separated runs with a letter or digit in them, and not a lone dash or sign', () => {
    expect(countWords('  one two\tthree\nfour  ')).toBe(4);
    expect(countWords('a — b = c · 2')).toBe(4);
    expect(countWords("don't re-read e.g. 3.14")).toBe(4);
    expect(countWords('Café naïve 東京')).toBe(3);
    expect(countWords('')).toBe(0);
  });

  it('reads the rendered text: code included, inline tags joined, blocks and cells apart, references decoded, alt text not', () => {
    const html = renderMarkdown(
      'Some *em*phasis and `code`.\n\n| a | b |\n|---|---|\n| c | d |\n\n```\nconst x = 1;\n```\n\nTom &amp; Jerry ![a picture](p.png)',
    );
    expect(htmlText(html).replace(/\s+/g, ' ').trim()).toBe('Some emphasis and code. a b c d const x = 1; Tom & Jerry');
    expect(countWords(htmlText(html))).toBe(13);
  });
});

describe("a writing's page", () => {
  it('shows its words and reading time at the boundary: 230 words read in 1 min, 231 in 2, 1 word in 1', () => {
    const { page, twin } = rendered([
      writing('one', '2026-03-03', 'Hello.'),
      writing('at', '2026-03-02', words(230)),
      writing('past', '2026-03-01', `${words(200)}\n\n## A heading\n\n${words(29)}`),
    ]);
    const line = (slug: string) => text(one(page(slug), { class: 'reading-time' }));
    expect(line('one')).toBe('1 word · 1 min read');
    expect(line('at')).toBe('230 words · 1 min read');
    // The heading's two words count; its "#" link does not.
    expect(line('past')).toBe('231 words · 2 min read');
    expect(twin('at')).toMatch(/\nwords: 230\nreading_minutes: 1\n/);
    expect(twin('past')).toMatch(/\nwords: 231\nreading_minutes: 2\n/);
  });

  it('links to the older (rel=prev) and newer (rel=next) writing: the newest has no next, the oldest no previous', () => {
    const list = [writing('newest', '2026-03-03'), writing('middle', '2026-03-02'), writing('oldest', '2026-03-01')];
    const { page } = rendered(list);
    const links = (slug: string) => {
      const nav = one(page(slug), MORE_WRITINGS)!;
      expect(nav, `${slug} has the writings nav`).toBeTruthy();
      return Object.fromEntries(
        all(nav, { tag: ['a'], attrs: { rel: true } }).map(
          (a) => [attr(a, 'rel'), [attr(a, 'href'), text(a)]] as const,
        ),
      );
    };
    expect(links('newest')).toEqual({ prev: ['/writings/middle', 'Older Title of middle'] });
    expect(links('middle')).toEqual({
      prev: ['/writings/oldest', 'Older Title of oldest'],
      next: ['/writings/newest', 'Newer Title of newest'],
    });
    expect(links('oldest')).toEqual({ next: ['/writings/middle', 'Newer Title of middle'] });
  });

  it('with one writing links neither older nor newer, and still links back to the list', () => {
    const main = rendered([writing('only', '2026-03-03')]).page('only');
    expect(all(main, { tag: ['a'], attrs: { rel: true } })).toEqual([]);
    expect(all(main, { tag: ['a'] }).map((a) => [attr(a, 'href'), text(a)])).toEqual([['/writings', 'All writings']]);
  });

  it("links back to the list in the page's content, under the site's base path on a sub-path deployment", () => {
    const list = [writing('newer', '2026-03-03'), writing('older', '2026-03-02')];
    const { page } = rendered(list, 'https://example.org/~ada/');
    const back = all(page('newer'), { tag: ['a'] }).filter((a) => text(a) === 'All writings');
    expect(back.map((a) => attr(a, 'href'))).toEqual(['/~ada/writings']);
    expect(attr(one(page('newer'), { tag: ['a'], attrs: { rel: 'prev' } })!, 'href')).toBe('/~ada/writings/older');
  });

  it('gives every heading ## to ###### a unique id and a "#" link to it named by its text; not the title or a # in the body', () => {
    const body = [
      '# A first-level heading',
      '## Notes',
      '### Deeper',
      '#### Fourth',
      '##### Fifth',
      '###### Sixth',
      '## Notes',
      '## `code` & *more*',
    ].join('\n\n');
    const main = rendered([writing('headings', '2026-03-03', body)]).page('headings');
    const sections = all(one(main, { tag: ['article'] })!, { tag: SECTION_HEADINGS });
    expect(sections.map((h) => attr(h, 'id'))).toEqual([
      'notes',
      'deeper',
      'fourth',
      'fifth',
      'sixth',
      'notes-1',
      'code--more',
    ]);
    const ids = all(main, { attrs: { id: true } }).map((el) => attr(el, 'id'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const h of sections) {
      const anchor = one(h.parent as Element, { tag: ['a'], class: 'anchor' })!;
      expect(anchor, `#${attr(h, 'id')} has its link`).toBeTruthy();
      expect(attr(anchor, 'href')).toBe(`#${attr(h, 'id')}`);
      expect(attr(anchor, 'aria-label')).toBe(`Link to the section \u201c${text(h)}\u201d`);
      expect(text(anchor)).toBe('#');
      // Beside the heading, not in it: the heading's name is its own text.
      expect(all(h, { tag: ['a'] })).toEqual([]);
    }
    expect(text(sections.at(-1)!)).toBe('code & more');
    const h1s = all(main, { tag: ['h1'] });
    expect(h1s.map((h) => text(h))).toEqual(['Title of headings', 'A first-level heading']);
    for (const h of h1s) expect((h.parent as Element).attribs.class).not.toBe('heading');
  });

  it('keeps "#" links out of the feed, where a relative #id leads nowhere, and keeps the ids', () => {
    const [item] = jsonFeed(context(), [writing('feed', '2026-03-03', '## One\n\n## Two\n\n## Three')]).items;
    expect(item!.content_html).not.toMatch(/class="(anchor|heading)"|href="#/);
    expect(item!.content_html).toContain('<h2 id="one">One</h2>');
  });

  it('shows a table of contents, nested by level, from three headings; none with two', () => {
    const { page } = rendered([
      writing('three', '2026-03-03', '## First\n\ntext\n\n### Inside first\n\n## Second'),
      writing('two', '2026-03-02', '## First\n\ntext\n\n## Second'),
    ]);
    const toc = one(page('three'), { tag: ['nav'], class: 'toc' })!;
    expect(toc).toBeTruthy();
    expect(attr(toc, 'aria-label')).toBe('Contents');
    const top = one(toc, { tag: ['ol'] })!;
    const items = top.children.filter((n): n is Element => n.type === 'tag' && n.name === 'li');
    expect(items.map((li) => all(li, { tag: ['a'] }).map((a) => [attr(a, 'href'), text(a)]))).toEqual([
      [
        ['#first', 'First'],
        ['#inside-first', 'Inside first'],
      ],
      [['#second', 'Second']],
    ]);
    const nested = all(items[0]!, { tag: ['ol'] });
    expect(nested.map((ol) => all(ol, { tag: ['a'] }).map((a) => attr(a, 'href')))).toEqual([['#inside-first']]);
    // Every entry names a heading of the page.
    for (const a of all(toc, { tag: ['a'] }))
      expect(one(page('three'), { tag: SECTION_HEADINGS, attrs: { id: attr(a, 'href')!.slice(1) } })).toBeTruthy();
    expect(one(page('two'), { tag: ['nav'], class: 'toc' })).toBeNull();
  });
});

describe('the table of contents', () => {
  it('names an entry whose heading has no text (a picture alone) by its id, never an empty link', () => {
    const html = renderMarkdown('## One\n\n## ![a chart](chart.png)\n\n## Three', { headingLinks: true });
    expect(tableOfContents(sectionHeadings(html))).toContain('<li><a href="#section">section</a></li>');
  });
});

describe('the built site', () => {
  it('each writing page shows its reading line and the writings nav; other Markdown pages link no headings', async () => {
    const site = sharedSite();
    for (const slug of ['static-plus-cron', 'midnight-in-toronto']) {
      const main = mainOf(await site.read(`writings/${slug}.html`));
      expect(text(one(main, { class: 'reading-time' }))).toMatch(/^\d+ words · \d+ min read$/);
      expect(one(one(main, MORE_WRITINGS)!, { tag: ['a'], attrs: { href: '/writings' } })).toBeTruthy();
    }
    for (const file of ['developers.html', 'skills.html', 'index.html'])
      expect(await site.read(file), file).not.toContain('class="anchor"');
  });
});
