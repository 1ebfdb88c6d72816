// The Atom feed (RFC 4287) as a feed reader finds and reads it: through the `<link rel="alternate">` of a
// page served by the gateway, parsed by Chromium's XML parser (namespace-aware and strict: a malformed file
// is a parse error), its entries those of the JSON Feed. The feeds' other checks: test/site-feeds.test.ts.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonFeed } from '../../builders/contract/payload-types.ts';
import { CONTENT_DOCUMENTS } from '../../builders/contract/pages.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { sharedSite, TEST_SITE_URL, type SiteFiles } from '../helpers/site-dist.ts';

const { feed: FEED, atom: ATOM } = CONTENT_DOCUMENTS;
const ATOM_NS = 'http://www.w3.org/2005/Atom';
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
