// The site's content as data (builders/contract/pages.ts CONTENT_DOCUMENTS): the writings as a JSON Feed 1.1 and its
// Atom (RFC 4287) twin, the profile and the skills as JSON, from a real build; the gateway and both
// static-host configurations send each document with its own type. The Atom file in Chromium's XML parser,
// found as a feed reader finds it: test/slow/site-feeds-browser.test.ts. The build is of the
// tests' own content, test/fixtures/site/ (sharedSite), whose draft carries DRAFT-MARKER.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonFeed } from '../builders/contract/payload-types.ts';
import { CONTENT_DOCUMENTS } from '../builders/contract/pages.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { sharedSite, TEST_SITE_URL, type SiteFiles } from './helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';

const { feed: FEED, atom: ATOM, profile: PROFILE, skills: SKILLS } = CONTENT_DOCUMENTS;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

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
    expect(home).toContain(`<h1 class="p-name">${profile.name}</h1>`);
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
