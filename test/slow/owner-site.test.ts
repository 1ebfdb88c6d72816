// The owner's own site/ in Chromium, not only the tests' fixture (browser-audit.test.ts): whatever the owner
// writes, the pages hold it. Built from a copy of site/ with a long name, a picture and the fixture's résumé
// (so /resume and its header link are there), with a GitHub account of the longest length GitHub allows (39
// characters), which the projects' owner is too: no page scrolls sideways from 320 to 1280 px, no ISO date or
// "as of" phrase is split over two lines (docs/site.md#what-content-may-contain), and the picture sits beside
// the name from 360 px up (docs/site.md#the-top-of-the-home-page).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT } from '../helpers/run.ts';
import { runBuild, TEST_SITE_CLOCK, TEST_SITE_URL } from '../helpers/site-dist.ts';
import { upstreamEnv } from '../helpers/run.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { TINY_PNG } from '../fakes/avatar.ts';
import { startServeHandler, type StaticServer } from '../helpers/site-serve.ts';
import { availability, PAGES_TO_AUDIT, pool, SITE_READ_AT, withReaderClock } from '../helpers/site-browser.ts';

/** GitHub's longest login (39 characters) and a name longer than any line of a phone. */
const ACCOUNT = 'ada-park-writes-data-pipelines-and-apis';
const NAME = 'Alexandra Konstantinidou-Vanderberg Ramaswamy-Castellanos de la Fuente';
const WIDTHS = [320, 360, 390, 768, 1280];
/** The pages audited here: the fixture's audited pages, the résumé and a writing. */
const PAGES = [...PAGES_TO_AUDIT, '/resume', '/writings/static-plus-cron'];

if (!availability.available && !availability.mustFail) console.warn(`owner-site.test.ts: ${availability.reason}`);

describe.runIf(availability.available || availability.mustFail)("the owner's site/ in Chromium", () => {
  let content: string;
  let dir: string;
  let fake: FakeUpstreams;
  let server: StaticServer;
  let browser: Browser;
  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    expect(ACCOUNT).toHaveLength(39);
    content = await mkdtemp(join(tmpdir(), 'owner-site-'));
    await cp(join(ROOT, 'site'), content, { recursive: true });
    const profile = join(content, 'profile.md');
    const text = await readFile(profile, 'utf8');
    expect(text).toMatch(/^name: .+$/m);
    await writeFile(profile, text.replace(/^name: .+$/m, `name: ${NAME}\navatar: me.png`));
    await writeFile(join(content, 'me.png'), TINY_PNG);
    await cp(join(ROOT, 'test/fixtures/site/resume.json'), join(content, 'resume.json'));
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK, account: ACCOUNT });
    dir = await mkdtemp(join(tmpdir(), 'owner-dist-'));
    const result = await runBuild(
      dir,
      {
        ...upstreamEnv(fake.url),
        SITE_URL: TEST_SITE_URL,
        GITHUB_ACCOUNT: ACCOUNT,
        UPSTREAM_TIMEOUT_MS: '10000',
        SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
      },
      { content: `${content}/` },
    );
    expect(result.code, result.stderr).toBe(0);
    server = await startServeHandler(dir);
    browser = withReaderClock(await launchChromium(), SITE_READ_AT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    for (const folder of [content, dir]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** The page at `width`, after its script drew the data (the home page), in a context of its own. */
  async function opened<T>(path: string, width: number, look: (page: Page) => Promise<T>): Promise<T> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    try {
      // The stock site subscribes to Coinbase Exchange's feed, which a test never reaches.
      await context.routeWebSocket(/.*/, () => undefined);
      const page = await context.newPage();
      await page.goto(`${server.url}${path}`);
      if (path === '/') await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
      return await look(page);
    } finally {
      await context.close();
    }
  }

  it('builds with the long name and account on its pages', async () => {
    const home = await readFile(join(dir, 'index.html'), 'utf8');
    expect(home).toContain(NAME);
    expect(home).toContain(ACCOUNT);
    expect(home).toContain('<img class="avatar u-photo"');
    expect(home).toContain('<a href="/resume">Résumé</a>');
  });

  it('the picture sits beside the name from 360 px up, above it at 320 px', async () => {
    const placed = await pool(WIDTHS, 2, (width) =>
      opened('/', width, (page) =>
        page.evaluate(() => {
          const picture = document.querySelector('.profile .avatar')!.getBoundingClientRect();
          const name = document.querySelector('.profile h1')!.getBoundingClientRect();
          if (picture.right <= name.left && picture.bottom > name.top) return 'beside';
          if (picture.bottom <= name.top) return 'above';
          return 'overlapping';
        }),
      ),
    );
    expect(placed).toEqual(WIDTHS.map((w) => (w >= 360 ? 'beside' : 'above')));
  }, 120_000);

  /** What each page shows at each width, read once per page and width for the two tests after it. */
  type Reading = { where: string; overflow: number; split: string[] };
  let readings: Promise<Reading[]> | undefined;
  function read(): Promise<Reading[]> {
    const settings = PAGES.flatMap((path) => WIDTHS.map((width) => ({ path, width })));
    readings ??= pool(settings, 2, ({ path, width }) =>
      opened(path, width, (page) =>
        page.evaluate(
          ({ where }) => {
            // A date (with its time and zone when it has them), or "as of" with what leads to it in a label.
            const phrase =
              /(?:Live(?: \(simulated\))?, )?\bas of\b|\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?(?: UTC)?)?/g;
            const split: string[] = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            while (walker.nextNode()) {
              const node = walker.currentNode as Text;
              for (const match of node.data.matchAll(phrase)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set(
                  [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom)),
                );
                if (lines.size > 1)
                  split.push(`${where}: "${match[0]}" on ${lines.size} lines (in ${node.parentElement?.tagName})`);
              }
            }
            return { where, overflow: document.documentElement.scrollWidth - window.innerWidth, split };
          },
          { where: `${path} at ${width}px` },
        ),
      ),
    );
    return readings;
  }

  // Forty pages opened: on two cores beside the rest of the slow suite one reading took close to 120 s, so the
  // first test, which pays for the reading, gets a guard well above it.
  it('no page scrolls sideways at 320, 360, 390, 768 or 1280 px', async () => {
    const results = await read();
    expect(results).toHaveLength(PAGES.length * WIDTHS.length);
    expect(results.filter((r) => r.overflow > 0).map((r) => `${r.where}: ${r.overflow}px too wide`)).toEqual([]);
  }, 420_000);

  it('no ISO date and no "as of" phrase is split over two lines', async () => {
    const results = await read();
    expect(results).toHaveLength(PAGES.length * WIDTHS.length);
    expect(results.flatMap((r) => r.split)).toEqual([]);
  }, 420_000);
});
