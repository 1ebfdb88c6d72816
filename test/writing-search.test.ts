// The writings' search (docs/site.md#search): an index made at build time over the published writings'
// title, summary, text and tags (drafts never reach it), a box on the writings page that leaves the full
// list in place, and the index and its scripts served with their headers. In Chromium:
// test/slow/writing-search-browser.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, DomUtils } from 'htmlparser2';
import {
  searchDocument,
  writingSearchBox,
  writingSearchIndex,
  writingSearchIndexAside,
} from '../builders/build/pages/writings/writing-search.ts';
import type { Writing } from '../builders/build/content/site-content.ts';
import { WRITING_SEARCH_INDEX } from '../builders/contract/writing-search.ts';
import { fileCacheControl } from '../builders/contract/cache-rules.ts';
import { contentTypeFor } from '../builders/contract/content-types.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { cacheRules } from '../builders/build/static-host.ts';
import { extractLinks } from '../builders/build/dist-check/links.ts';
import { loadWritingIndex, matchCount, matchingWritings } from '../site/scripts/search.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { sharedSite, type SiteFiles } from './helpers/site-dist.ts';

const SITE_URL = 'https://ada.example.org';
const SEARCH_FILES = [WRITING_SEARCH_INDEX.file, 'assets/search.js', 'assets/search-box.js'];

/** A writing of the tests' own, each of its fields holding one word no other field of any writing holds. */
function writing(slug: string, fields: Partial<Writing>): Writing {
  return {
    slug,
    title: `Title ${slug}`,
    date: '2026-01-01',
    summary: `Summary of ${slug}.`,
    body: 'Body.',
    tags: [],
    image: null,
    cover: null,
    pictures: [],
    ...fields,
  };
}

const WRITINGS = [
  writing('one', { title: 'Aardvarks at dusk' }),
  writing('two', { summary: 'On the habits of the pangolin.' }),
  writing('three', { body: 'A paragraph about **quokkas**, and [a link](https://example.com/narwhal).' }),
  writing('four', { tags: ['axolotl', 'static-hosting'] }),
];

const slugsFor = (json: string, query: string) => matchingWritings(loadWritingIndex(json), query).map((h) => h.path);

describe('the index, made at build time', () => {
  const json = writingSearchIndex(SITE_URL, WRITINGS);

  it('finds a word of the title, the summary, the text and the tags, in that writing alone', () => {
    expect(slugsFor(json, 'aardvarks')).toEqual(['/writings/one']);
    expect(slugsFor(json, 'pangolin')).toEqual(['/writings/two']);
    expect(slugsFor(json, 'quokkas')).toEqual(['/writings/three']);
    expect(slugsFor(json, 'axolotl')).toEqual(['/writings/four']);
    expect(slugsFor(json, 'hosting')).toEqual(['/writings/four']);
  });

  it("holds the words a reader sees, not a link's target", () => {
    expect(slugsFor(json, 'narwhal')).toEqual([]);
    expect(searchDocument(SITE_URL, WRITINGS[2]!).text).toBe('A paragraph about quokkas, and a link.');
  });

  it('stores what a result shows: title, summary, date and the page', () => {
    expect(matchingWritings(loadWritingIndex(json), 'pangolin')).toEqual([
      { title: 'Title two', summary: 'On the habits of the pangolin.', date: '2026-01-01', path: '/writings/two' },
    ]);
  });

  it('takes whole words first, then the start of the last word, then a typo', () => {
    const index = loadWritingIndex(
      writingSearchIndex(SITE_URL, [
        writing('cron', { body: 'A cron job.' }),
        writing('crontab', { body: 'A crontab line.' }),
      ]),
    );
    expect(matchingWritings(index, 'cron').map((h) => h.path)).toEqual(['/writings/cron']);
    expect(matchingWritings(index, 'cront').map((h) => h.path)).toEqual(['/writings/crontab']);
    expect(matchingWritings(index, 'crontap').map((h) => h.path)).toEqual(['/writings/crontab']);
    expect(matchingWritings(index, '  ')).toEqual([]);
  });

  it('links each writing under the base path of a sub-path site', () => {
    const sub = writingSearchIndex('https://you.github.io/portfolio', WRITINGS);
    expect(slugsFor(sub, 'pangolin')).toEqual(['/portfolio/writings/two']);
  });

  it('is the same bytes made on a thread of its own (many writings) as on the build thread (few)', async () => {
    const here = await writingSearchIndexAside(SITE_URL, WRITINGS);
    expect(here).toBe(json);
    expect(await writingSearchIndexAside(SITE_URL, WRITINGS, 0)).toBe(here);
  });

  it('says how many writings match', () => {
    expect([0, 1, 2].map(matchCount)).toEqual(['No writing matches.', '1 writing matches.', '2 writings match.']);
  });
});

describe("the build's index and page", () => {
  let site: SiteFiles;
  beforeAll(() => {
    site = sharedSite();
    expect(site.result.code, site.result.stderr).toBe(0);
  });

  it('indexes exactly the published writings: a draft is not in it', async () => {
    const json = await site.read(WRITING_SEARCH_INDEX.file);
    const index = loadWritingIndex(json);
    const feed = await site.json<{ items: Array<{ url: string }> }>('feed.json');
    expect(index.documentCount).toBe(feed.items.length);
    expect(index.documentCount).toBe(2);
    expect(slugsFor(json, 'ticker')).toEqual(['/writings/static-plus-cron']);
    expect(slugsFor(json, 'toronto')).toEqual(['/writings/midnight-in-toronto']);
    // the fixture's draft (unfinished-thoughts-on-ledgers.md) and its marker
    expect(slugsFor(json, 'ledgers')).toEqual([]);
    expect(json).not.toMatch(/DRAFT-MARKER|7f3a|unfinished/i);
  });

  it('shows a labelled search box, hidden without script, above the full list', async () => {
    const html = await site.read('writings.html');
    const doc = parseDocument(html);
    const one = (test: (el: import('domhandler').Element) => boolean) => DomUtils.findAll(test, doc.children);
    const [box] = one((el) => el.attribs['data-writing-search'] !== undefined);
    expect(box?.attribs.role).toBe('search');
    expect(box?.attribs.hidden).toBe('');
    expect(box?.attribs['data-source']).toBe('/assets/search-index.json');
    expect(box?.attribs['data-module']).toBe('/assets/search.js');
    const input = DomUtils.findOne((el) => el.name === 'input', box!.children)!;
    expect(input.attribs.type).toBe('search');
    const label = DomUtils.findOne((el) => el.name === 'label', box!.children)!;
    expect(label.attribs.for).toBe(input.attribs.id);
    expect(DomUtils.textContent(label)).toBe('Search the writings');
    expect(DomUtils.findOne((el) => el.attribs.role === 'status', box!.children)).not.toBeNull();
    // nothing is submitted (form-action 'none') and nothing of the search is asked for before use
    expect(html).not.toContain('<form');
    expect(html).not.toMatch(/rel="(?:preload|prefetch|modulepreload)"/);
    expect(html).toContain('<script defer src="/assets/search-box.js"></script>');
    expect(html).not.toContain('search-index.json"><'); // named by the box alone, never as a script or link
    // the list is still every published writing, after the box
    const listed = one((el) => el.name === 'ul' && el.attribs.class === 'writing-list' && !el.attribs.id);
    expect(listed).toHaveLength(1);
    const links = DomUtils.findAll((el) => el.name === 'a', listed[0]!.children).map((a) => a.attribs.href);
    expect(links).toEqual(['/writings/midnight-in-toronto', '/writings/static-plus-cron']);
    expect(html.indexOf('data-writing-search')).toBeLessThan(html.indexOf('<ul class="writing-list">'));
  });

  it('names the index and the search code where check:dist follows them', async () => {
    const links = extractLinks('html', await site.read('writings.html'));
    for (const path of ['/assets/search-index.json', '/assets/search.js', '/assets/search-box.js'])
      expect(links).toContain(path);
  });

  it('puts the box under the base path of a sub-path site', () => {
    const box = writingSearchBox('https://you.github.io/portfolio', WRITINGS);
    expect(box).toContain('data-source="/portfolio/assets/search-index.json"');
    expect(box).toContain('data-module="/portfolio/assets/search.js"');
    expect(box).toContain('<script defer src="/portfolio/assets/search-box.js"></script>');
    expect(writingSearchBox(SITE_URL, [])).toBe('');
  });

  it('keeps the box script small and the search code within its budget', async () => {
    const box = await site.read('assets/search-box.js');
    const search = await site.read('assets/search.js');
    // The box's own script is all the page loads before use: under 1 kB. The search is MiniSearch
    // (about 17 kB minified) and the results' rendering.
    expect(box.length).toBeLessThan(1_000);
    expect(box).toContain('import(');
    expect(search.length).toBeLessThan(24_000);
    expect(search).toMatch(/export\s*\{/);
    for (const script of [box, search]) expect(script).not.toMatch(/console\.(log|error|warn)/);
  });

  it('lists the index in no sitemap and no llms file: it is not a page', async () => {
    for (const file of ['sitemap.xml', 'llms.txt', 'llms-full.txt'])
      expect(await site.read(file), file).not.toContain('search');
  });
});

describe('the index and its scripts, served', () => {
  let fake: FakeUpstreams;
  let gw: TestGateway;
  let files: string[];
  beforeAll(async () => {
    const site = sharedSite();
    files = await site.files();
    fake = await startFakeUpstreams();
    gw = await startTestGateway(fake.url, site.dir);
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  it.each(SEARCH_FILES)('the gateway sends %s with its type and cache rule', async (file) => {
    expect(files).toContain(file);
    const r = await get(gw.url, `/${file}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(
      file.endsWith('.json') ? 'application/json' : 'text/javascript; charset=utf-8',
    );
    expect(r.headers['content-type']).toBe(contentTypeFor(file));
    expect(r.headers['cache-control']).toBe(fileCacheControl(DEFAULT_SERVICE, file));
  });

  it.each(SEARCH_FILES)("a static host's _headers give %s the gateway's cache rule, once", (file) => {
    const path = `/${file}`;
    const matching = cacheRules(DEFAULT_SERVICE, files).filter((r) =>
      r.path.endsWith('*') ? path.startsWith(r.path.slice(0, -1)) : r.path === path,
    );
    expect(matching.map((r) => r.headers['Cache-Control'])).toEqual([fileCacheControl(DEFAULT_SERVICE, file)]);
  });
});
