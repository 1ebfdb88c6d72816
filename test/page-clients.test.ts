// What third-party clients read of the built pages and feeds (docs/site.md#sharing): og:locale in the
// protocol's form, a writing's article:published_time and JSON-LD BlogPosting, the owner's h-card
// (microformats2), and the Atom feed's alternate link before its self link. Read from the run's shared
// build of the tests' own content (test/fixtures/site/).
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TINY_PNG } from './fakes/avatar.ts';
import { contentCopy, profileWithLinks } from './helpers/hostile-content.ts';
import { openGraphLocale } from '../builders/build/pages/layout.ts';
import { buildSite, sharedSite, TEST_SITE_URL } from './helpers/site-dist.ts';

const site = sharedSite();
const metaOf = (html: string, property: string): string[] =>
  [...html.matchAll(new RegExp(`<meta property="${property}" content="([^"]*)">`, 'g'))].map((m) => m[1]!);
const jsonLdOf = (html: string): Record<string, unknown> => {
  const block = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  expect(block, 'a JSON-LD block').not.toBeNull();
  return JSON.parse(block![1]!) as Record<string, unknown>;
};

describe('og:locale is the site language in the protocol form (language_TERRITORY)', () => {
  it.each([
    ['en', 'en_US'],
    ['fr', 'fr_FR'],
    ['fr-CA', 'fr_CA'],
    ['pt-BR', 'pt_BR'],
    ['de', 'de_DE'],
  ])('%s is %s', (tag, locale) => expect(openGraphLocale(tag)).toBe(locale));

  it('every shared page of the stock build says en_US', async () => {
    for (const file of ['index.html', 'writings.html', 'skills.html', 'resume.html', 'writings/static-plus-cron.html'])
      expect(metaOf(await site.read(file), 'og:locale'), file).toEqual(['en_US']);
  });
});

describe('a writing says when it was published', () => {
  it('article:published_time and a BlogPosting, midnight of its date in the calendar zone', async () => {
    const html = await site.read('writings/midnight-in-toronto.html');
    expect(metaOf(html, 'og:type')).toEqual(['article']);
    expect(metaOf(html, 'article:published_time')).toEqual(['2026-05-02T00:00:00-04:00']);
    const posting = jsonLdOf(html);
    expect(posting).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Midnight in Toronto',
      datePublished: '2026-05-02T00:00:00-04:00',
      url: `${TEST_SITE_URL}/writings/midnight-in-toronto`,
      mainEntityOfPage: `${TEST_SITE_URL}/writings/midnight-in-toronto`,
      image: `${TEST_SITE_URL}/og/writings/midnight-in-toronto.png`,
      author: { '@type': 'Person', name: 'Ada Park', url: `${TEST_SITE_URL}/` },
    });
    // The JSON Feed dates the same writing at the same instant.
    const feed = await site.json<{ items: Array<{ url: string; date_published: string }> }>('feed.json');
    expect(feed.items.find((i) => i.url === posting.url)?.date_published).toBe(posting.datePublished);
  });

  it('pages that are not writings carry no article time', async () => {
    for (const file of ['index.html', 'writings.html', 'skills.html'])
      expect(metaOf(await site.read(file), 'article:published_time'), file).toEqual([]);
  });
});

/** The h-card roots of a page and, for each, its properties as a microformats2 parser reads them (class prefixes). */
function hCards(
  html: string,
): Array<{ name: string[]; photo: string[]; url: string[]; email: string[]; note: string[] }> {
  const doc = parseDocument(html);
  const classes = (el: Element) => (el.attribs.class ?? '').split(/\s+/);
  return DomUtils.findAll((el) => classes(el).includes('h-card'), doc.children).map((root) => {
    const inside = DomUtils.findAll(() => true, root.children);
    const prop = (name: string, read: (el: Element) => string) =>
      inside.filter((el) => classes(el).includes(name)).map(read);
    return {
      name: prop('p-name', (el) => DomUtils.textContent(el).trim()),
      photo: prop('u-photo', (el) => el.attribs.src ?? ''),
      url: prop('u-url', (el) => el.attribs.href ?? ''),
      email: prop('u-email', (el) => el.attribs.href ?? ''),
      note: prop('p-note', (el) => DomUtils.textContent(el).trim()),
    };
  });
}

describe('the owner is an h-card on the home page', () => {
  it('name, tagline and profile links inside one h-card', async () => {
    const cards = hCards(await site.read('index.html'));
    expect(cards).toHaveLength(1);
    const [card] = cards;
    expect(card!.name).toEqual(['Ada Park']);
    expect(card!.note).toEqual(['Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.']);
    expect(card!.url).toContain('https://github.com/octocat');
    expect(card!.url.length).toBeGreaterThan(1);
  });

  it('with a picture, the picture is its u-photo', async () => {
    const content = await contentCopy({ 'profile.md': profileWithLinks('me.png') });
    await writeFile(join(content.dir, 'me.png'), TINY_PNG);
    const built = await buildSite({ site: { content: content.dir } });
    try {
      expect(built.result.code, built.result.stderr).toBe(0);
      const [card] = hCards(await built.read('index.html'));
      expect(card!.photo).toEqual(['/assets/avatar.png']);
      expect(card!.email).toEqual(['mailto:ada@example.org']);
    } finally {
      await built.close();
      await content.close();
    }
  }, 120_000);
});

describe('the Atom feed', () => {
  it('lists its rel="alternate" (the writings page) before its rel="self"', async () => {
    const atom = await site.read('feed.atom');
    const head = atom.slice(0, atom.indexOf('<entry>'));
    const rels = [...head.matchAll(/<link rel="([^"]+)" type="([^"]+)" href="([^"]+)"\/>/g)].map((m) => [m[1], m[3]]);
    expect(rels[0]).toEqual(['alternate', `${TEST_SITE_URL}/writings`]);
    expect(rels.findIndex(([rel]) => rel === 'self')).toBeGreaterThan(0);
  });
});
