// A writing a writer keeps (docs/site.md#pictures-in-a-writing, #tags-and-covers): its pictures published
// beside the page with their sizes, an https picture that cannot be fetched left as its alt text with one
// line, a cover in the list and in the share picture, tags with their pages and feeds, and every mistake
// exit 2 naming the writing and the picture, with nothing written. The https picture that is fetched, from
// a loopback host the build trusts through NODE_EXTRA_CA_CERTS, is test/slow/writing-page-browser.test.ts's.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent, parseWriting } from '../builders/build/content/site-content.ts';
import { shareImageSvg } from '../builders/render/share-image.ts';
import { ContentError } from '../builders/lib/errors.ts';
import { pngClaiming, TINY_PNG } from './fakes/avatar.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { contentCopy, type ContentCopy } from './helpers/hostile-content.ts';
import { buildSite, listFiles, runBuild, TEST_SITE_URL, type BuiltSite } from './helpers/site-dist.ts';
import { ROOT, upstreamEnv } from './helpers/run.ts';

const PICTURES = join(ROOT, 'test/fixtures/pictures');
const picture = (name: string) => new Uint8Array(readFileSync(join(PICTURES, name)));

/** A port nothing listens on: an https picture there cannot be fetched. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const writing = (front: string, body = 'Body.\n') =>
  `---\ntitle: T\ndate: 2026-07-01\nsummary: S\n${front}---\n${body}`;

describe('a writing with pictures, a cover and tags, built', () => {
  let site: BuiltSite;
  let content: ContentCopy;
  let unreachable: string;
  beforeAll(async () => {
    unreachable = `https://127.0.0.1:${await closedPort()}/lost.png`;
    content = await contentCopy({
      'writings/pictured.md': [
        '---',
        'title: Pictured',
        'date: 2026-07-10',
        'summary: A writing with pictures.',
        'tags: [field-notes, pictures]',
        'image: shots/cover.png',
        '---',
        'The ![gradient in PNG](gradient.png "A title") opens, then a JPEG:',
        '',
        '![a gradient in JPEG](./gradient.jpg)',
        '',
        '![a gradient in WebP](gradient.webp) and the same PNG again: ![gradient in PNG](gradient.png)',
        '',
        `![the lost picture](${unreachable})`,
      ].join('\n'),
      'writings/older.md': writing('tags: [field-notes]\n').replace('date: 2026-07-01', 'date: 2026-06-01'),
      'writings/hidden.md': writing('draft: true\ntags: [secret-tag]\n'),
    });
    await mkdir(join(content.dir, 'writings/shots'));
    await writeFile(join(content.dir, 'writings/gradient.png'), picture('plain.png'));
    await writeFile(join(content.dir, 'writings/gradient.jpg'), picture('plain.jpg'));
    await writeFile(join(content.dir, 'writings/gradient.webp'), picture('plain.webp'));
    await writeFile(join(content.dir, 'writings/shots/cover.png'), TINY_PNG);
    site = await buildSite({ site: { content: content.dir } });
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await content?.close();
  });

  it('exits 0, the lost picture said in one line naming it and the writing', () => {
    expect(site.result.code, site.result.stderr).toBe(0);
    const lines = site.result.stderr.split('\n').filter((l) => l.includes(unreachable));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^build: the picture .* \(writings\/pictured\.md\) was not fetched: .*its alt text stands in its place$/,
    );
  });

  it('publishes each picture beside the page, byte for byte, once', async () => {
    const files = await site.files();
    for (const [name, fixture] of [
      ['gradient.png', 'plain.png'],
      ['gradient.jpg', 'plain.jpg'],
      ['gradient.webp', 'plain.webp'],
    ] as const)
      expect(new Uint8Array(await readFile(join(site.dir, 'writings', name)))).toEqual(picture(fixture));
    expect(new Uint8Array(await readFile(join(site.dir, 'writings/shots/cover.png')))).toEqual(TINY_PNG);
    expect(files.filter((f) => f.startsWith('assets/pictures/'))).toEqual([]);
  });

  it('each <img> carries its width and height from the file, loads lazily and decodes asynchronously', async () => {
    const page = await site.read('writings/pictured.html');
    const images = [...page.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images).toEqual([
      '<img src="/writings/gradient.png" alt="gradient in PNG" width="64" height="48" loading="lazy" decoding="async" title="A title" />',
      '<img src="/writings/gradient.jpg" alt="a gradient in JPEG" width="120" height="80" loading="lazy" decoding="async" />',
      '<img src="/writings/gradient.webp" alt="a gradient in WebP" width="96" height="64" loading="lazy" decoding="async" />',
      '<img src="/writings/gradient.png" alt="gradient in PNG" width="64" height="48" loading="lazy" decoding="async" />',
    ]);
    // The lost picture: its alt text in its place.
    expect(page).toContain('the lost picture');
  });

  it('no page, twin, feed or llms file names the lost picture’s host', async () => {
    const host = new URL(unreachable).host;
    const texts = (await site.files()).filter((f) => /\.(?:html|md|json|atom|txt|xml)$/.test(f));
    const naming: string[] = [];
    for (const file of texts) if ((await site.read(file)).includes(host)) naming.push(file);
    expect(naming).toEqual([]);
  });

  it('the twin and the feeds point at the published pictures, absolute', async () => {
    const twin = await site.read('writings/pictured.md');
    expect(twin).toContain(`![a gradient in JPEG](<${TEST_SITE_URL}/writings/gradient.jpg>)`);
    expect(twin).toContain('\ntags: [field-notes, pictures]\n');
    const feed = await site.json<{ items: Array<{ id: string; content_html: string }> }>('feed.json');
    const item = feed.items.find((i) => i.id.endsWith('/writings/pictured'))!;
    expect(item.content_html).toContain(`src="${TEST_SITE_URL}/writings/gradient.webp"`);
  });

  it('the list shows the cover, decorative beside the title, and the tags', async () => {
    const list = await site.read('writings.html');
    const item = /<li>(?:(?!<\/li>).)*\/writings\/pictured"(?:(?!<\/li>).)*<\/li>/s.exec(list)?.[0] ?? '';
    expect(item).toContain(
      '<img class="cover" src="/writings/shots/cover.png" alt="" width="96" height="96" loading="lazy" decoding="async">',
    );
    expect(item).toContain('<a href="/writings/tags/field-notes" rel="tag">field-notes</a>');
  });

  it('each tag has a page, a twin and two feeds holding exactly its published writings, newest first', async () => {
    const files = await site.files();
    for (const tag of ['field-notes', 'pictures'])
      for (const ext of ['html', 'md', 'json', 'atom']) expect(files).toContain(`writings/tags/${tag}.${ext}`);
    const feed = await site.json<{ items: Array<{ id: string }>; feed_url: string }>('writings/tags/field-notes.json');
    expect(feed.items.map((i) => i.id)).toEqual([
      `${TEST_SITE_URL}/writings/pictured`,
      `${TEST_SITE_URL}/writings/older`,
    ]);
    expect(feed.feed_url).toBe(`${TEST_SITE_URL}/writings/tags/field-notes.json`);
    const atom = await site.read('writings/tags/pictures.atom');
    expect([...atom.matchAll(/<entry>\s*<id>([^<]+)<\/id>/g)].map((m) => m[1])).toEqual([
      `${TEST_SITE_URL}/writings/pictured`,
    ]);
    const page = await site.read('writings/tags/field-notes.html');
    expect(page).toContain(
      '<link rel="alternate" type="application/feed+json" title="Ada Park: Writings tagged field-notes (JSON Feed)" href="/writings/tags/field-notes.json">',
    );
    expect(page).toMatch(
      /<link rel="alternate" type="application\/atom\+xml" [^>]*href="\/writings\/tags\/field-notes\.atom">/,
    );
    expect(page.indexOf('/writings/pictured"')).toBeLessThan(page.indexOf('/writings/older"'));
    const sitemap = await site.read('sitemap.xml');
    expect(sitemap).toContain(`<loc>${TEST_SITE_URL}/writings/tags/field-notes</loc>`);
  });

  it('a tag only a draft carries appears nowhere', async () => {
    const files = await site.files();
    expect(files.filter((f) => f.includes('secret-tag'))).toEqual([]);
    for (const file of files.filter((f) => /\.(?:html|md|json|atom|txt|xml)$/.test(f)))
      expect(await site.read(file), file).not.toContain('secret-tag');
  });
});

describe('the share picture of a writing with a cover', () => {
  it('draws the cover beside the title; without one, the title alone', () => {
    const text = { site: 'S', title: 'A title', subtitle: 'Its summary', footer: 'ada.example.org' };
    const palette = { background: '#fff', text: '#111', muted: '#555', line: '#ccc', accent: '#036', onAccent: '#fff' };
    const cover = `data:image/png;base64,${Buffer.from(TINY_PNG).toString('base64')}`;
    expect(shareImageSvg({ ...text, cover }, palette)).toContain(`<image href="${cover}"`);
    expect(shareImageSvg(text, palette)).not.toContain('<image');
  });
});

describe('every mistake in a writing’s pictures, cover, tags or date is exit 2 naming the file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'writing-mistakes-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** site/ of the fixture with `writings/w.md` and `files` (name → bytes or text); what loadContent says. */
  async function refusal(text: string, files: Record<string, Uint8Array | string> = {}): Promise<string> {
    const copy = await contentCopy({ 'writings/w.md': text });
    try {
      for (const [name, body] of Object.entries(files)) {
        await mkdir(join(copy.dir, 'writings', name, '..'), { recursive: true });
        await writeFile(join(copy.dir, 'writings', name), body);
      }
      loadContent(pathToFileURL(copy.dir));
      return 'no refusal';
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      return error.message;
    } finally {
      await copy.close();
    }
  }

  it.each([
    ['an empty alt text', '![](a.png)', { 'a.png': TINY_PNG }, 'writings/w.md: the picture "a.png" has no alt text'],
    [
      'a missing file',
      '![A](gone.png)',
      {},
      'writings/w.md: the picture "gone.png": site/writings/gone.png is missing',
    ],
    [
      'a file that is no picture',
      '![A](fake.png)',
      { 'fake.png': 'not a picture' },
      'site/writings/fake.png is not a PNG, JPEG, WebP, GIF or AVIF picture (read by its bytes)',
    ],
    ['a path out of writings/', '![A](../profile.md)', {}, 'must name a file in site/writings/ by a plain path'],
    ['a path from the root', '![A](/assets/a.png)', {}, 'must be a picture file beside the writing'],
    ['an http: picture', '![A](http://example.org/a.png)', {}, 'is on http:; give its https URL'],
    [
      'a name that is not its type',
      '![A](photo.png)',
      { 'photo.png': picture('plain.jpg') },
      'is a image/jpeg picture by its bytes; name it .jpg',
    ],
    [
      'a picture of too many pixels',
      '![A](bomb.png)',
      { 'bomb.png': pngClaiming(30_000, 30_000) },
      'site/writings/bomb.png is 30000 × 30000 pixels',
    ],
  ])('%s', async (_what, body, files, message) => {
    expect(await refusal(writing('', `${body}\n`), files)).toContain(message);
  });

  it('a picture past 5 MiB', async () => {
    const copy = await contentCopy({ 'writings/w.md': writing('', '![A](big.png)\n') });
    try {
      const file = join(copy.dir, 'writings/big.png');
      await writeFile(file, TINY_PNG);
      await truncate(file, 5 * 1024 * 1024 + 1);
      expect(() => loadContent(pathToFileURL(copy.dir))).toThrow('is 5242881 bytes, more than 5 MiB');
    } finally {
      await copy.close();
    }
  });

  it('a picture that is a link out of writings/', async () => {
    const copy = await contentCopy({ 'writings/w.md': writing('', '![A](me.png)\n') });
    try {
      await writeFile(join(copy.dir, 'me.png'), TINY_PNG);
      await symlink(join(copy.dir, 'me.png'), join(copy.dir, 'writings/me.png'));
      expect(() => loadContent(pathToFileURL(copy.dir))).toThrow(
        'writings/w.md: the picture "me.png": site/writings/me.png resolves to a file outside site/writings/',
      );
    } finally {
      await copy.close();
    }
  });

  it.each([
    ['a cover that is missing', 'image: none.png\n', '"image" "none.png": site/writings/none.png is missing'],
    ['a malformed tag', 'tags: [Data Pipelines]\n', '"tags[0]" "Data Pipelines" must be a tag of 1 to 32'],
    ['a tag too long', `tags: [${'a'.repeat(33)}]\n`, '"tags[0]"'],
    [
      'thirteen tags',
      `tags: [${Array.from({ length: 13 }, (_, i) => `t${i}`).join(', ')}]\n`,
      '"tags" lists 13 tags, more than 12',
    ],
    ['a tag twice', 'tags: [a, a]\n', '"tags" lists "a" twice'],
    ['tags that are no list', 'tags: data\n', '"tags" must be a list'],
  ])('%s', async (_what, front, message) => {
    expect(await refusal(writing(front))).toContain(`writings/w.md: ${message}`);
  });

  it('a cover that is not a picture', async () => {
    expect(await refusal(writing('image: notes.png\n'), { 'notes.png': 'plain text' })).toContain(
      'writings/w.md: "image" "notes.png": site/writings/notes.png is not a PNG',
    );
  });

  it('a build refused for a picture writes nothing and asks no upstream', async () => {
    const fake: FakeUpstreams = await startFakeUpstreams({ now: () => Date.parse('2026-11-23T15:00:00Z') });
    const copy = await contentCopy({ 'writings/w.md': writing('', '![](a.png)\n') });
    const out = join(dir, 'refused');
    try {
      await mkdir(out);
      await writeFile(join(copy.dir, 'writings/a.png'), TINY_PNG);
      const result = await runBuild(out, { ...upstreamEnv(fake.url), SITE_URL: TEST_SITE_URL }, { content: copy.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('writings/w.md: the picture "a.png" has no alt text');
      expect(await listFiles(out)).toEqual([]);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
    } finally {
      await copy.close();
      await fake.close();
    }
  });
});

describe('a writing’s date', () => {
  const dated = (date: string) => parseWriting(writing('').replace('2026-07-01', date), 'writings/w.md')?.date;

  it.each([
    ['2026-07-01T09:30-04:00', '2026-07-01'], // Toronto in summer (EDT)
    ['2026-01-15T23:59:59-05:00', '2026-01-15'], // and in winter (EST)
    ['2026-03-08T03:00-04:00', '2026-03-08'], // the first hour of daylight time
    ['2026-11-01T01:30-04:00', '2026-11-01'], // the repeated hour, its first time
    ['2026-11-01T01:30-05:00', '2026-11-01'], // and its second
    ['2026-12-31T23:00', '2026-12-31'], // a time without offset: the calendar's own
  ])('%s, in the calendar zone’s offset, is the day %s', (date, day) => {
    expect(dated(date)).toBe(day);
  });

  it.each([
    ['2026-07-01T09:30-05:00', 'has the offset -05:00, but America/Toronto'],
    ['2026-03-08T03:30-05:00', 'has the offset -05:00, but America/Toronto'], // an hour after the clocks went forward
    ['2026-01-15T12:00Z', 'has the offset Z, but America/Toronto'],
    ['2026-02-30T10:00-05:00', 'is not a day of the calendar'],
    ['2026-07-01T25:00', 'is not a time of the day'],
    ['July 1st', 'must be a date written YYYY-MM-DD'],
  ])('%s is refused naming the field', (date, message) => {
    expect(() => dated(date)).toThrow(`writings/w.md: "date"`);
    expect(() => dated(date)).toThrow(message);
  });

  it('another calendar zone is held to its own offset', () => {
    const source = writing('').replace('2026-07-01', '2026-07-01T10:00+09:00');
    expect(parseWriting(source, 'writings/w.md', 'Asia/Tokyo')?.date).toBe('2026-07-01');
    expect(() => parseWriting(source, 'writings/w.md', 'UTC')).toThrow('has the offset +09:00, but UTC');
  });
});
