// The home page in Chromium (issues 43 and 44, docs/site.md#the-home-page): the person first, then the
// projects, then the live data; every GitHub project a card linking to https://github.com/<owner>/<name>,
// reached by Tab one card after the other; a description of `<one>` shown as the text "<one>"; the
// projects "as of" their time, not stale after three hours, stale after seven days (the reader's clock
// injected); and the page's weight: at most 40 KB brotli in at most 8 requests, the favicon included and
// the owner's picture aside. The shared site, built from test/fixtures/site/ at TEST_SITE_CLOCK.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { availability, DESKTOP, siteInBrowser } from '../helpers/site-browser.ts';
import { TEST_SITE_CLOCK } from '../helpers/site-dist.ts';
import type { GitHubProjects } from '../../builders/datasets/projects/rule.ts';

const HOUR = 3_600_000;
/** Issue 44's budget for the home page, the owner's picture aside. */
const MAX_REQUESTS = 8;
const MAX_BROTLI_BYTES = 40 * 1024;

describe.runIf(availability.available || availability.mustFail)('the home page in Chromium', () => {
  const it_ = siteInBrowser();

  const projects = async () =>
    JSON.parse(await readFile(join(it_.site.dir, 'api/v1/github-projects'), 'utf8')) as GitHubProjects;

  /**
   * The home page read at `nowMs` by the reader's clock: by default five minutes after the build, once every
   * live figure has been redrawn; at another time once the page script's requests are over (a figure past
   * its validity is never "refreshed").
   */
  async function home(nowMs?: number): Promise<{ page: Page; context: BrowserContext }> {
    const context = await it_.browser.newContext({ viewport: DESKTOP });
    await context.clock.setFixedTime(nowMs ?? TEST_SITE_CLOCK + 5 * 60_000);
    const page = await context.newPage();
    await page.goto(`${it_.server.url}/`, { waitUntil: 'networkidle' });
    if (nowMs === undefined) await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    return { page, context };
  }

  it('shows the person, then the projects, then the live data, top to bottom', async () => {
    const { page, context } = await home();
    try {
      const top = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      const person = await top('main h1');
      const work = await top('section.work li.project');
      const live = await top('section.preview [data-preview]');
      expect(person).toBeLessThan(work);
      expect(work).toBeLessThan(live);
      // every live figure below every project card
      const lowestCard = Math.max(
        ...(await page
          .locator('section.work li.project')
          .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom + window.scrollY))),
      );
      expect(lowestCard).toBeLessThanOrEqual(live);
    } finally {
      await context.close();
    }
  });

  it('links every project to https://github.com/<owner>/<name>, shows <one> as text, and Tab reaches each card in turn', async () => {
    const payload = await projects();
    const { page, context } = await home();
    try {
      const cards = page.locator('section.work li.project');
      const hrefs = await cards.evaluateAll((els) =>
        els.map((el) => Array.from(el.querySelectorAll('a[href]'), (a) => a.getAttribute('href'))),
      );
      const github = payload.projects.map((p) => `https://github.com/${p.owner}/${p.name}`);
      expect(hrefs.slice(0, github.length)).toEqual(github.map((href) => [href]));
      // the owner's projects.yaml after them, each a link too
      expect(hrefs.length).toBeGreaterThan(github.length);
      for (const links of hrefs.slice(github.length)) expect(links).toEqual([expect.stringMatching(/^https:\/\//)]);

      // the description "Reads <one> tag...": the text, not an element
      const described = payload.projects.find((p) => p.description?.includes('<one>'));
      expect(described).toBeDefined();
      const card = cards.filter({ has: page.locator(`a[href="${described!.url}"]`) });
      expect(await card.locator('.project-description').innerText()).toBe(described!.description);
      expect(await page.locator('one').count()).toBe(0);

      // a click anywhere on a card follows its link (the link covers the card)
      const box = (await card.boundingBox())!;
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('a')?.getAttribute('href') ?? null,
        [box.x + box.width - 4, box.y + box.height - 4],
      );
      expect(hit).toBe(described!.url);

      // Tab from the top of the page: the cards' links come one after the other, in the cards' order
      const all = hrefs.map((links) => links[0]!);
      const focused: string[] = [];
      await page.locator('body').focus();
      for (let i = 0; i < 60 && focused.length < 200; i++) {
        await page.keyboard.press('Tab');
        focused.push(await page.evaluate(() => document.activeElement?.getAttribute('href') ?? ''));
        if (focused.at(-1) === all.at(-1)) break;
      }
      const first = focused.indexOf(all[0]!);
      expect(first).toBeGreaterThan(-1);
      expect(focused.slice(first, first + all.length)).toEqual(all);
      // the focused card shows it: an outline around the card
      const outline = await page.evaluate(
        () => getComputedStyle(document.activeElement!.closest('li.project')!).outlineStyle,
      );
      expect(outline).toBe('solid');
    } finally {
      await context.close();
    }
  });

  it('says the projects "as of" their time five hours on, and stale eight days on (the reader\'s clock)', async () => {
    const payload = await projects();
    const asOf = Date.parse(payload.asOf);
    const figure = '[data-preview="projects"]';
    const later = await home(asOf + 5 * HOUR);
    try {
      // the market, three hours valid, is stale by then: the check can fail
      await expect.poll(() => later.page.locator('[data-preview="market"] [data-stale-notice]').count()).toBe(1);
      expect(await later.page.locator(`${figure} [data-stale-notice]`).count()).toBe(0);
      const status = await later.page.locator(`${figure} [data-preview-status]`).innerText();
      expect(status).toContain(`As of ${payload.asOf.slice(0, 16).replace('T', ' ')} UTC`);
      expect(status).not.toMatch(/stale|stopped/i);
    } finally {
      await later.context.close();
    }
    const week = await home(asOf + 8 * 24 * HOUR);
    try {
      await expect.poll(() => week.page.locator(`${figure} [data-stale-notice]`).count()).toBe(1);
      expect(await week.page.locator(`${figure} [data-stale-notice]`).innerText()).toMatch(
        /^These data are 8 days old: the site stopped refreshing them/,
      );
    } finally {
      await week.context.close();
    }
  });

  it(`weighs at most ${MAX_BROTLI_BYTES / 1024} KB brotli in at most ${MAX_REQUESTS} requests, the favicon included`, async () => {
    const context = await it_.browser.newContext({ viewport: DESKTOP });
    await context.clock.setFixedTime(TEST_SITE_CLOCK + 5 * 60_000);
    const bodies = new Map<string, Buffer>();
    const pending: Array<Promise<void>> = [];
    context.on('requestfinished', (request) =>
      pending.push(
        (async () => {
          const response = await request.response();
          bodies.set(new URL(request.url()).pathname, response === null ? Buffer.alloc(0) : await response.body());
        })(),
      ),
    );
    const page = await context.newPage();
    await page.goto(`${it_.server.url}/`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    const icon = await page.locator('link[rel~="icon"][type="image/svg+xml"]').getAttribute('href');
    await context.close();
    await Promise.all(pending);
    // Headless Chromium may not ask for the favicon; a reader's browser does, so it counts either way.
    if (icon !== null && !bodies.has(icon)) bodies.set(icon, await readFile(join(it_.site.dir, icon.slice(1))));
    const counted = [...bodies].filter(([path]) => !/^\/assets\/avatar\./.test(path));
    const sizes = counted.map(
      ([path, body]) =>
        [path, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length] as const,
    );
    const bytes = sizes.reduce((sum, [, size]) => sum + size, 0);
    console.log(
      `home page: ${sizes.length} requests, ${bytes} bytes brotli: ${sizes.map((s) => s.join(' ')).join(', ')}`,
    );
    // the page script asks for the live data and nothing for the projects
    expect(counted.map(([path]) => path)).not.toContain('/api/v1/github-projects');
    expect(counted.map(([path]) => path)).toContain('/api/v1/mon-price');
    expect(sizes.length).toBeLessThanOrEqual(MAX_REQUESTS);
    expect(bytes).toBeLessThanOrEqual(MAX_BROTLI_BYTES);
  });
});
