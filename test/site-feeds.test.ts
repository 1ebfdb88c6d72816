// The site's content as data (contract/pages.ts CONTENT_DOCUMENTS): the writings as a JSON Feed 1.1 and its
// Atom (RFC 4287) twin, the profile and the skills as JSON, from a real build. The Atom file is parsed by
// Chromium's XML parser (namespace-aware and strict: a malformed file is a parse error), found the way a
// feed reader finds it, through the `<link rel="alternate">` of a page served by the gateway; the
// gateway and both static-host configurations send each document with its own type. The build is of the
// tests' own content, test/fixtures/site/ (sharedSite), whose draft carries DRAFT-MARKER.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonFeed } from '../contract/content-documents.ts';
import { CONTENT_DOCUMENTS } from '../contract/pages.ts';
import { createValidator } from '../contract/schemas.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { browserAvailability, launchChromium } from './helpers/browser.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { sharedSite, TEST_SITE_URL, type SiteFiles } from './helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';

const { feed: FEED, atom: ATOM, profile: PROFILE, skills: SKILLS } = CONTENT_DOCUMENTS;
const ATOM_NS = 'http://www.w3.org/2005/Atom';
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const availability = browserAvailability();

let site: SiteFiles;
let feed: JsonFeed;
let fake: FakeUpstreams;
let gateway: TestGateway;

beforeAll(async () => {
  site = sharedSite();
  feed = await site.json<JsonFeed>(FEED.file);
  fake = await startFakeUpstreams();
  gateway = await startTestGateway(fake.url, site.dir);
});
afterAll(async () => {
  await gateway?.close();
  await fake?.close();
});

describe('the JSON Feed', () => {
  it('is a JSON Feed 1.1 of every published writing, newest first, valid against schemas/JsonFeed', async () => {
    createValidator().validate('JsonFeed', feed);
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.feed_url).toBe(`${TEST_SITE_URL}${FEED.path}`);
    expect(feed.home_page_url).toBe(`${TEST_SITE_URL}/writings`);
    expect(feed.authors[0]!.name).not.toBe('');
    expect(feed.items.length).toBeGreaterThan(0);
    const ids = feed.items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    const dates = feed.items.map((i) => i.date_published);
    for (const date of dates) expect(date).toMatch(RFC_3339);
    expect([...dates].sort((a, b) => Date.parse(b) - Date.parse(a))).toEqual(dates);
    // Each item is a published page of this build, and its date is the writing's own date.
    for (const item of feed.items) {
      const slug = item.url.slice(`${TEST_SITE_URL}/writings/`.length);
      const page = await site.read(`writings/${slug}.html`);
      expect(page).toContain(`<time datetime="${item.date_published.slice(0, 10)}">`);
      expect(page).toContain(item.content_html.trim().split('\n')[0]!);
    }
  });

  it('carries plain text a terminal can wrap: no Markdown markers, links as text <url>, code indented', async () => {
    const texts = feed.items.map((i) => i.content_text).join('\n\n');
    expect(texts).not.toMatch(/^#{1,6} |\*\*|^```|\]\(/m);
    expect(texts).toMatch(/^• /m);
    expect(texts).toMatch(/^ {4}\S/m);
  });

  it('never publishes a draft, in the feeds or the other documents', async () => {
    for (const file of [FEED.file, ATOM.file, PROFILE.file, SKILLS.file])
      expect(await site.read(file)).not.toContain('DRAFT-MARKER');
  });
});

describe('the profile and skills documents', () => {
  it('are valid against their schemas and say what the pages say', async () => {
    const validator = createValidator();
    const profile = await site.json<{ name: string; about: string[]; links: Array<{ url: string }> }>(PROFILE.file);
    const skills = await site.json<{ groups: Array<{ name: string }> }>(SKILLS.file);
    validator.validate('Profile', profile);
    validator.validate('Skills', skills);
    const home = await site.read('index.html');
    expect(home).toContain(`<h1>${profile.name}</h1>`);
    expect(profile.about.join(' ')).not.toMatch(/[*_`]/);
    const skillsPage = await site.read('skills.html');
    for (const group of skills.groups) expect(skillsPage).toContain(`>${group.name}</h2>`);
  });
});

describe('served with their own types', () => {
  const TYPES: Array<[string, RegExp]> = [
    [FEED.path, /^application\/feed\+json$/],
    [ATOM.path, /^application\/atom\+xml; charset=utf-8$/],
    [PROFILE.path, /^application\/json$/],
    [SKILLS.path, /^application\/json$/],
  ];

  it('by the gateway', async () => {
    for (const [path, type] of TYPES) {
      const response = await fetch(`${gateway.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(type);
      expect(await response.text()).toBe(await site.read(path.slice(1)));
    }
  });

  it('by serve with the serve.json the build writes, and in _headers', async () => {
    let serve: StaticServer | undefined;
    try {
      serve = await startServeHandler(site.dir);
      for (const [path, type] of TYPES) {
        const response = await fetch(`${serve.url}${path}`);
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-type'), path).toMatch(type);
      }
    } finally {
      await serve?.close();
    }
    const headers = await readFile(join(site.dir, '_headers'), 'utf8');
    for (const doc of [FEED, ATOM, PROFILE, SKILLS])
      expect(headers).toContain(`${doc.path}\n  Content-Type: ${doc.contentType}\n`);
  });
});

describe.runIf(availability.available || availability.mustFail)('found and parsed as a feed reader does', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('every page links both feeds; the Atom file is well-formed Atom with the JSON Feed entries', async () => {
    const page = await browser.newPage();
    await page.goto(`${gateway.url}/writings`);
    const links = await page.$$eval('link[rel="alternate"]', (els) =>
      els.map((el) => ({ type: el.getAttribute('type'), href: (el as HTMLLinkElement).href })),
    );
    expect(links).toEqual(
      expect.arrayContaining([
        { type: 'application/feed+json', href: `${gateway.url}${FEED.path}` },
        { type: 'application/atom+xml', href: `${gateway.url}${ATOM.path}` },
      ]),
    );
    for (const file of ['index.html', 'skills.html', 'developers.html'])
      expect(await site.read(file)).toContain(`type="application/atom+xml"`);

    const atom = await page.evaluate(async (href) => {
      const text = await (await fetch(href)).text();
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const ns = 'http://www.w3.org/2005/Atom';
      const child = (el: Element, name: string) =>
        Array.from(el.children).filter((c) => c.namespaceURI === ns && c.localName === name);
      const textOf = (el: Element, name: string) => child(el, name)[0]?.textContent ?? null;
      const root = doc.documentElement;
      return {
        parseError: doc.getElementsByTagName('parsererror').length > 0,
        root: root.localName,
        namespace: root.namespaceURI,
        lang: root.getAttribute('xml:lang'),
        id: textOf(root, 'id'),
        title: textOf(root, 'title'),
        updated: textOf(root, 'updated'),
        author: child(root, 'author')[0] ? textOf(child(root, 'author')[0]!, 'name') : null,
        self:
          child(root, 'link')
            .find((l) => l.getAttribute('rel') === 'self')
            ?.getAttribute('href') ?? null,
        entries: child(root, 'entry').map((e) => ({
          id: textOf(e, 'id'),
          title: textOf(e, 'title'),
          updated: textOf(e, 'updated'),
          published: textOf(e, 'published'),
          alternate: child(e, 'link')
            .find((l) => l.getAttribute('rel') === 'alternate')
            ?.getAttribute('href'),
          contentType: child(e, 'content')[0]?.getAttribute('type'),
          content: textOf(e, 'content'),
        })),
      };
    }, `${gateway.url}${ATOM.path}`);
    await page.close();

    expect(atom).toMatchObject({
      parseError: false,
      root: 'feed',
      namespace: ATOM_NS,
      lang: feed.language,
      id: feed.home_page_url,
      title: feed.title,
      updated: feed.items[0]!.date_published,
      author: feed.authors[0]!.name,
      self: `${TEST_SITE_URL}${ATOM.path}`,
    });
    expect(atom.entries).toEqual(
      feed.items.map((item) => ({
        id: item.id,
        title: item.title,
        updated: item.date_published,
        published: item.date_published,
        alternate: item.url,
        contentType: 'html',
        content: item.content_html,
      })),
    );
  });
});
