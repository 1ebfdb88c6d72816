// A whole writing a writer keeps, built by the program and read in Chromium (docs/site.md#a-writings-page,
// #pictures-in-a-writing, #code-blocks, #search): a writing with a relative PNG, JPEG and WebP, a GIF cover,
// an https picture from a loopback host, tags, a TypeScript and a Bash block, a table and four headings,
// between an older and a newer writing. The build is the bundled program spawned (`node .build/build.mjs`),
// since it trusts the loopback host only through NODE_EXTRA_CA_CERTS, which Node reads at process start;
// the host's certificate is made by `openssl` for this run. Then: the pictures in dist/ byte for byte with
// their sizes, the https one asked once though two writings show it, no file of dist/ naming the host, no
// broken image, highlighted code and no inline script, the contents, the reading time, older and newer, the
// tag's page and the search box. The markup alone: test/writing-pictures.test.ts, test/writing-reading.test.ts.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { browserAvailability, launchChromium, type BrowserAvailability } from '../helpers/browser.ts';
import { IS_CI } from '../helpers/ci.ts';
import { listFiles } from '../helpers/files.ts';
import { contentCopy, type ContentCopy } from '../helpers/hostile-content.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, ROOT, runProgram, upstreamEnv, type RunResult } from '../helpers/run.ts';
import { DESKTOP, SITE_READ_AT, withReaderClock } from '../helpers/site-browser.ts';
import { TEST_SITE_CLOCK, TEST_SITE_URL } from '../helpers/site-dist.ts';
import { startServeCli, type StaticServer } from '../helpers/site-serve.ts';

/** `openssl` makes the loopback host's certificate: missing, the test skips, or fails under CI. */
function opensslAvailability(): BrowserAvailability {
  if (spawnSync('openssl', ['version']).status === 0) return { available: true };
  return {
    available: false,
    mustFail: IS_CI,
    reason: `openssl not found: install it with \`apt-get install -y openssl\`${IS_CI ? ' (CI is set, so this is a failure)' : ' (skipping the test of a fetched picture)'}`,
  };
}
const missing = [browserAvailability(), opensslAvailability()].find((a) => !a.available);

const PICTURES = join(ROOT, 'test/fixtures/pictures');
const fixture = (name: string) => new Uint8Array(readFileSync(join(PICTURES, name)));

/** The fixtures' pixel sizes, as their files hold them (test/fixtures/pictures/). */
const PIXELS: Record<string, { width: number; height: number }> = {
  'plain.png': { width: 64, height: 48 },
  'plain.jpg': { width: 120, height: 80 },
  'plain.webp': { width: 96, height: 64 },
  'plain.gif': { width: 40, height: 30 },
};
/** Where the writing's own pictures sit under site/writings/ (and so under dist/writings/), and which fixture each is. */
const BESIDE = { 'shots/chart.png': 'plain.png', 'photo.jpg': 'plain.jpg', 'diagram.webp': 'plain.webp' } as const;
const COVER = { 'shots/cover.gif': 'plain.gif' } as const;
/** What the loopback host serves, at REMOTE_PATH. */
const REMOTE_FIXTURE = 'plain.png';
const REMOTE_PATH = '/plates/plate.png';

const SLUG = 'pictures-on-the-loopback';
const OLDER = 'field-notes-before';
const NEWER = 'field-notes-after';
/** The writing's four section headings, in order, and their ids (slugs of their text). */
const HEADINGS = [
  ['Pictures beside the writing', 'pictures-beside-the-writing'],
  ['A picture from afar', 'a-picture-from-afar'],
  ['Code in two languages', 'code-in-two-languages'],
  ['What each picture weighs', 'what-each-picture-weighs'],
] as const;
/** A word only the writing holds (in its text), for the search box. */
const ONLY_WORD = 'quokka';

const writingText = (remote: string) => `---
title: Pictures on the loopback
date: 2026-07-10
summary: Three pictures beside it, one fetched over https, code in two languages and a table.
image: shots/cover.gif
tags: [pictures, field-notes]
---
A ${ONLY_WORD} smiles at the camera; this writing keeps every kind of picture a writer uses.

## ${HEADINGS[0][0]}

![A chart in PNG](shots/chart.png)

A photo, ![a photo in JPEG](./photo.jpg), and a diagram: ![a diagram in WebP](diagram.webp)

## ${HEADINGS[1][0]}

![a plate fetched over https](${remote})

## ${HEADINGS[2][0]}

\`\`\`ts
export function minutes(words: number): number {
  const perMinute = 230;
  return Math.ceil(words / perMinute);
}
\`\`\`

\`\`\`bash
for file in shots/*.png; do
  if [ -s "$file" ]; then echo "$file"; fi
done
\`\`\`

### ${HEADINGS[3][0]}

| Picture | Type | Pixels |
| --- | --- | --- |
| chart | PNG | 64 × 48 |
| photo | JPEG | 120 × 80 |
| diagram | WebP | 96 × 64 |
`;

const OLDER_TEXT = `---
title: Field notes, before
date: 2026-07-01
summary: The writing just older than the one with pictures.
tags: [field-notes]
---
Notes taken before the pictures.
`;
/** The newer writing shows the same https picture: the build asks the host for it once all the same. */
const newerText = (remote: string) => `---
title: Field notes, after
date: 2026-08-01
summary: The writing just newer than the one with pictures.
---
The same plate again: ![the plate once more](${remote})
`;

/** An https server on 127.0.0.1 with a certificate openssl makes now, serving REMOTE_FIXTURE; it counts requests. */
async function startPictureHost(
  dir: string,
): Promise<{ origin: string; ca: string; requests: string[]; close(): Promise<void> }> {
  const key = join(dir, 'key.pem');
  const ca = join(dir, 'cert.pem');
  // prettier-ignore
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', ca,
    '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  ]);
  const requests: string[] = [];
  const body = fixture(REMOTE_FIXTURE);
  const server: Server = createServer({ key: await readFile(key), cert: await readFile(ca) }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.method === 'GET' && req.url === REMOTE_PATH) res.writeHead(200, { 'content-type': 'image/png' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    ca,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.runIf(missing === undefined || missing.mustFail)('a writing with every kind of picture, in Chromium', () => {
  let tls: string;
  let host: Awaited<ReturnType<typeof startPictureHost>>;
  let content: ContentCopy;
  let fake: FakeUpstreams;
  let out: string;
  let build: RunResult;
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (missing !== undefined) throw new Error(missing.reason);
    tls = await mkdtemp(join(tmpdir(), 'picture-host-'));
    host = await startPictureHost(tls);
    const remote = `${host.origin}${REMOTE_PATH}`;
    content = await contentCopy({
      [`writings/${SLUG}.md`]: writingText(remote),
      [`writings/${OLDER}.md`]: OLDER_TEXT,
      [`writings/${NEWER}.md`]: newerText(remote),
    });
    await mkdir(join(content.dir, 'writings/shots'));
    for (const [path, name] of Object.entries({ ...BESIDE, ...COVER }))
      await writeFile(join(content.dir, 'writings', path), fixture(name));
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
    out = await mkdtemp(join(tmpdir(), 'writing-page-dist-'));
    build = await runProgram('build', ['--out', out, '--content', content.dir], {
      ...upstreamEnv(fake.url),
      SITE_URL: TEST_SITE_URL,
      UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
      SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
      NODE_EXTRA_CA_CERTS: host.ca,
    });
    expect(build.code, build.stderr).toBe(0);
    server = await startServeCli(out);
    browser = withReaderClock(await launchChromium(), SITE_READ_AT);
  }, 170_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    await host?.close();
    await content?.close();
    for (const dir of [out, tls]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  const read = (file: string) => readFile(join(out, file));

  /** `path` in a new page, with console errors, uncaught errors, failed requests and policy violations recorded. */
  async function open(path: string): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    // A request the page's own navigation cut short (a picture still loading when a link is followed) is
    // no failure: whether every picture loads is everyImageLoaded's to say.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`failed: ${request.url()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.status()}: ${response.url()}`);
    });
    await page.exposeBinding('reportCspViolation', (_source, text: string) => errors.push(`csp: ${text}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation;
        report(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`);
      });
    });
    const res = await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    expect([res?.status(), res?.headers()['content-type']], path).toEqual([200, 'text/html; charset=utf-8']);
    return { page, errors, close: () => context.close() };
  }

  /** Every <img> of the page scrolled into view (they load lazily), then loaded: none broken. */
  async function everyImageLoaded(page: Page): Promise<Array<{ src: string; width: number; height: number }>> {
    const images = page.locator('img');
    const shown: Array<{ src: string; width: number; height: number }> = [];
    for (let i = 0; i < (await images.count()); i++) {
      const image = images.nth(i);
      await image.scrollIntoViewIfNeeded();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
          message: await image.evaluate((img: HTMLImageElement) => img.src),
        })
        .toBe(true);
      const natural = await image.evaluate((img: HTMLImageElement) => ({
        src: new URL(img.src).pathname,
        width: img.naturalWidth,
        height: img.naturalHeight,
        attributes: [img.getAttribute('width'), img.getAttribute('height')],
      }));
      // The markup's size is the picture's own.
      expect(natural.attributes, natural.src).toEqual([String(natural.width), String(natural.height)]);
      shown.push({ src: natural.src, width: natural.width, height: natural.height });
    }
    return shown;
  }

  it('asks the loopback host once for the picture two writings show, and says nothing went wrong', () => {
    expect(host.requests).toEqual([`GET ${REMOTE_PATH}`]);
    expect(build.stderr).not.toContain('was not fetched');
  });

  it('publishes the fetched picture under assets/pictures/ and the others beside the page, byte for byte', async () => {
    const files = await listFiles(out);
    const fetched = files.filter((f) => f.startsWith('assets/pictures/'));
    expect(fetched).toHaveLength(1);
    expect(fetched[0]).toMatch(/^assets\/pictures\/[0-9a-f]+\.png$/);
    expect(new Uint8Array(await read(fetched[0]!))).toEqual(fixture(REMOTE_FIXTURE));
    for (const [path, name] of Object.entries({ ...BESIDE, ...COVER }))
      expect(new Uint8Array(await read(`writings/${path}`)), path).toEqual(fixture(name));
  });

  it("gives each <img> of the page its file's pixel size, lazy and asynchronous", async () => {
    const html = (await read(`writings/${SLUG}.html`)).toString();
    const [fetched] = (await listFiles(out)).filter((f) => f.startsWith('assets/pictures/'));
    const expected = [
      [`/writings/shots/chart.png`, 'plain.png'],
      [`/writings/photo.jpg`, 'plain.jpg'],
      [`/writings/diagram.webp`, 'plain.webp'],
      [`/${fetched}`, REMOTE_FIXTURE],
    ].map(([src, name]) => ({ src, ...PIXELS[name!]!, loading: 'lazy', decoding: 'async' }));
    const images = [...html.matchAll(/<img\s[^>]*>/g)].map(([tag]) => {
      const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
      const [width, height] = [attribute('width'), attribute('height')].map(Number);
      return { src: attribute('src'), width, height, loading: attribute('loading'), decoding: attribute('decoding') };
    });
    expect(images).toEqual(expected);
  });

  it('names the loopback host in no page, twin, feed, index or llms file', async () => {
    const texts = (await listFiles(out)).filter((f) => /\.(?:html|md|json|atom|txt|xml)$/.test(f));
    expect(texts.length).toBeGreaterThan(20);
    const naming: string[] = [];
    for (const file of texts)
      if ((await read(file)).toString().includes(host.origin.slice('https://'.length))) naming.push(file);
    expect(naming).toEqual([]);
  });

  it('in Chromium: every picture loads, no error or policy violation, no script but the site’s files, code highlighted', async () => {
    const { page, errors, close } = await open(`/writings/${SLUG}`);
    try {
      const [fetched] = (await listFiles(out)).filter((f) => f.startsWith('assets/pictures/'));
      expect(await everyImageLoaded(page)).toEqual([
        { src: '/writings/shots/chart.png', ...PIXELS['plain.png'] },
        { src: '/writings/photo.jpg', ...PIXELS['plain.jpg'] },
        { src: '/writings/diagram.webp', ...PIXELS['plain.webp'] },
        { src: `/${fetched}`, ...PIXELS[REMOTE_FIXTURE] },
      ]);
      // Scripts: files of the site's own assets/, and data (JSON-LD) that no browser runs.
      const scripts = await page
        .locator('script')
        .evaluateAll((els) =>
          els.map((s) => ({ src: s.getAttribute('src'), type: s.getAttribute('type'), text: s.textContent ?? '' })),
        );
      for (const script of scripts)
        if (script.src === null) expect(script.type, script.text.slice(0, 80)).toBe('application/ld+json');
        else expect(script.src).toMatch(/^\/assets\/[\w.-]+\.js$/);
      for (const language of ['ts', 'bash']) {
        const block = page.locator(`pre code.language-${language}`);
        expect(await block.count(), language).toBe(1);
        expect(await block.locator('span.hljs-keyword').count(), language).toBeGreaterThan(0);
      }
      expect(await page.locator('pre code.language-ts span.hljs-keyword').allInnerTexts()).toEqual(
        expect.arrayContaining(['export', 'function', 'const', 'return']),
      );
      expect(await page.locator('pre code.language-bash span.hljs-keyword').allInnerTexts()).toEqual(
        expect.arrayContaining(['for', 'do', 'if', 'then', 'fi', 'done']),
      );
      expect(await page.locator('article table tbody tr').count()).toBe(3);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('lists the four headings in its contents, each entry moving to its section', async () => {
    const { page, errors, close } = await open(`/writings/${SLUG}`);
    try {
      const entries = page.locator('nav.toc a');
      expect(await entries.evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual(
        HEADINGS.map(([text, id]) => [text, `#${id}`]),
      );
      // From the last to the first, so that each click has to move the page.
      for (const [text, id] of [...HEADINGS].reverse()) {
        await page.locator('nav.toc a', { hasText: text }).click();
        await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#${id}`);
        expect(await page.evaluate(() => document.querySelector(':target')?.textContent)).toBe(text);
        await expect
          .poll(() =>
            page.evaluate((target) => {
              const box = document.getElementById(target)!.getBoundingClientRect();
              return box.top >= 0 && box.bottom <= window.innerHeight;
            }, id),
          )
          .toBe(true);
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows its words and reading time by the rule (words / 230, rounded up)', async () => {
    const { page, close } = await open(`/writings/${SLUG}`);
    try {
      const line = await page.locator('article p.reading-time').innerText();
      const [, words, minutes] = /^([\d,]+) words · (\d+) min read$/.exec(line) ?? [];
      expect(words, line).toBeDefined();
      expect(Number(minutes)).toBe(Math.ceil(Number(words!.replace(/,/g, '')) / 230));
    } finally {
      await close();
    }
  });

  it('leads to the older writing by rel=prev and the newer by rel=next', async () => {
    const { page, errors, close } = await open(`/writings/${SLUG}`);
    try {
      for (const [rel, slug, title] of [
        ['prev', OLDER, 'Field notes, before'],
        ['next', NEWER, 'Field notes, after'],
      ] as const) {
        await page.goto(`${server.url}/writings/${SLUG}`);
        await Promise.all([page.waitForURL(`**/writings/${slug}`), page.locator(`a[rel="${rel}"]`).click()]);
        expect(await page.locator('main h1').innerText()).toBe(title);
      }
      // The newer one shows the same fetched picture, loaded from the site too.
      await everyImageLoaded(page);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('its tags link to their pages, which list it; the list shows its cover loaded', async () => {
    const { page, errors, close } = await open(`/writings/${SLUG}`);
    try {
      expect(
        await page.locator('article a[rel="tag"]').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ).toEqual(['/writings/tags/pictures', '/writings/tags/field-notes']);
      const listed = async (tag: string) => {
        const res = await page.goto(`${server.url}/writings/tags/${tag}`);
        expect([res?.status(), res?.headers()['content-type']], tag).toEqual([200, 'text/html; charset=utf-8']);
        return page.locator('main ul.writing-list > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      };
      expect(await listed('pictures')).toEqual([`/writings/${SLUG}`]);
      expect(await listed('field-notes')).toEqual([`/writings/${SLUG}`, `/writings/${OLDER}`]);
      await page.goto(`${server.url}/writings`);
      expect(await everyImageLoaded(page)).toContainEqual({ src: '/writings/shots/cover.gif', ...PIXELS['plain.gif'] });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it(`finds it alone by a word only it holds ("${ONLY_WORD}") in the writings' search box`, async () => {
    const { page, errors, close } = await open('/writings');
    try {
      const box = page.getByRole('searchbox', { name: 'Search the writings' });
      await expect.poll(() => box.isVisible()).toBe(true);
      await box.pressSequentially(ONLY_WORD);
      const results = page.locator('[data-search-results] li a');
      await expect.poll(() => results.count()).toBe(1);
      expect(await results.first().innerText()).toBe('Pictures on the loopback');
      expect(await results.first().getAttribute('href')).toBe(`/writings/${SLUG}`);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
