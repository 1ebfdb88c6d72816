// The writings' search in Chromium (docs/site.md#search), on a project site's dist/ (SITE_URL with a base
// path) served by the real `serve dist`: the index and the search code are not requested before the box
// is used; a word only one writing holds shows exactly that writing, whose link opens it; the page stays
// within its weight before use; with script off every writing is listed; and no policy is violated.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe.ts';
import { launchChromium } from '../helpers/browser.ts';
import { availability, DESKTOP, SITE_READ_AT, withReaderClock } from '../helpers/site-browser.ts';
import { buildSite, FIXTURE_SITE, type BuiltSite } from '../helpers/site-dist.ts';
import { startServeCli, type StaticServer } from '../helpers/site-serve.ts';

const BASE = '/portfolio';
/** A writing of this file's own, beside the fixture's two: the only one holding the word "heliotrope". */
const THIRD = `---
title: Gardens of the static web
date: 2026-04-20
summary: What a site with no server can still offer its readers.
---
A heliotrope turns toward the sun; a static site turns toward its build.
`;
/** The writings page's budget (issue 56: as the home page's), before the box is used. */
const MAX_REQUESTS = 8;
const MAX_BROTLI_BYTES = 40 * 1024;

describe.runIf(availability.available || availability.mustFail)('the writings search in Chromium', () => {
  let content: string;
  let site: BuiltSite;
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    content = await mkdtemp(join(tmpdir(), 'search-content-'));
    await cp(FIXTURE_SITE, content, { recursive: true });
    await writeFile(join(content, 'writings', 'gardens-of-the-static-web.md'), THIRD);
    site = await buildSite({
      env: { SITE_URL: `https://you.github.io${BASE}` },
      site: { content: `${content}/` },
    });
    expect(site.result.code, site.result.stderr).toBe(0);
    server = await startServeCli(site.dir);
    browser = withReaderClock(await launchChromium(), SITE_READ_AT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
    if (content) await rm(content, { recursive: true, force: true });
  });

  /** The writings page, recording each path requested, console errors and policy violations. */
  async function open(
    context: BrowserContext,
    path = '/writings',
  ): Promise<{ page: Page; requested: string[]; errors: string[] }> {
    const page = await context.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    await page.exposeBinding('reportCspViolation', (_source, text: string) => errors.push(`csp: ${text}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation;
        report(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`);
      });
    });
    const res = await page.goto(`${server.url}${BASE}${path}`, { waitUntil: 'networkidle' });
    expect(res?.status()).toBe(200);
    return { page, requested, errors };
  }

  const searchFiles = (requested: string[]) => requested.filter((p) => /search(?:-index)?\.js(?:on)?$/.test(p));

  it('asks for nothing of the search before the box is used, then finds the one writing holding a word', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const { page, requested, errors } = await open(context);
      const box = page.getByRole('searchbox', { name: 'Search the writings' });
      await expect.poll(() => box.isVisible()).toBe(true);
      expect(requested).toContain(`${BASE}/assets/search-box.js`);
      expect(searchFiles(requested)).toEqual([]);

      const index = page.waitForResponse((r) => r.url().endsWith(`${BASE}/assets/search-index.json`));
      await box.focus();
      expect((await index).status()).toBe(200);
      expect(searchFiles(requested).sort()).toEqual([`${BASE}/assets/search-index.json`, `${BASE}/assets/search.js`]);

      await box.pressSequentially('heliotrope');
      const results = page.locator('[data-search-results] li a');
      await expect.poll(() => results.count()).toBe(1);
      expect(await results.first().innerText()).toBe('Gardens of the static web');
      expect(await results.first().getAttribute('href')).toBe(`${BASE}/writings/gardens-of-the-static-web`);
      expect(await page.getByRole('status').innerText()).toBe('1 writing matches.');
      // the full list stays below the results, every writing in it
      expect(await page.locator('ul.writing-list:not([data-search-results]) li').count()).toBe(3);

      // a word two writings hold (the fixture's and this one's "static"), then one none holds
      await box.fill('static');
      await expect.poll(() => page.getByRole('status').innerText()).toBe('2 writings match.');
      await box.fill('zyzzyva');
      await expect.poll(() => page.getByRole('status').innerText()).toBe('No writing matches.');
      expect(await results.count()).toBe(0);

      // from the keyboard: down to the result, Enter follows it
      await box.fill('heliotrope');
      await expect.poll(() => results.count()).toBe(1);
      await box.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Gardens of the static web');
      await Promise.all([
        page.waitForURL(`**${BASE}/writings/gardens-of-the-static-web`),
        page.keyboard.press('Enter'),
      ]);
      expect(await page.locator('main h1').innerText()).toBe('Gardens of the static web');
      // the index was asked for once
      expect(requested.filter((p) => p.endsWith('search-index.json'))).toHaveLength(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('typing first (with no focus event before) loads the search as well', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const { page, requested, errors } = await open(context);
      const box = page.getByRole('searchbox', { name: 'Search the writings' });
      await expect.poll(() => box.isVisible()).toBe(true);
      // an input event alone, as a paste from the context menu or a dictation would give
      await box.evaluate((el) => {
        (el as HTMLInputElement).value = 'toronto';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      const results = page.locator('[data-search-results] li a');
      await expect.poll(() => results.count()).toBe(1);
      expect(await results.first().getAttribute('href')).toBe(`${BASE}/writings/midnight-in-toronto`);
      expect(searchFiles(requested)).toHaveLength(2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  // The list with its search box, and a writing's page without pictures: within the budget of every page.
  it.each(['/writings', '/writings/midnight-in-toronto'])(
    `%s weighs at most ${MAX_BROTLI_BYTES / 1024} KB brotli in at most ${MAX_REQUESTS} requests (before a search), the favicon included`,
    async (path) => {
      const context = await browser.newContext({ viewport: DESKTOP });
      try {
        const { page, requested } = await open(context, path);
        if (path === '/writings') await expect.poll(() => page.getByRole('searchbox').isVisible()).toBe(true);
        const icon = await page.locator('link[rel~="icon"][type="image/svg+xml"]').getAttribute('href');
        const paths = [...new Set([...requested, ...(icon === null ? [] : [icon])])];
        expect(searchFiles(paths)).toEqual([]);
        const file = (requestPath: string) => {
          const rest = requestPath.slice(BASE.length);
          return rest.startsWith('/writings') && !rest.includes('.') ? `${rest.slice(1)}.html` : rest.slice(1);
        };
        const sizes = await Promise.all(
          paths.map(async (requestPath) => {
            const body = await readFile(join(site.dir, file(requestPath)));
            return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
          }),
        );
        const bytes = sizes.reduce((sum, size) => sum + size, 0);
        console.log(`${path}: ${paths.length} requests, ${bytes} bytes brotli: ${paths.join(' ')}`);
        expect(paths.length).toBeLessThanOrEqual(MAX_REQUESTS);
        expect(bytes).toBeLessThanOrEqual(MAX_BROTLI_BYTES);
      } finally {
        await context.close();
      }
    },
  );

  it.each(['light', 'dark'] as const)(
    'with results shown (%s), axe-core finds no serious or critical violation',
    async (colorScheme) => {
      // bypassCSP: axe is injected by the test, not by the page (as test/slow/browser-audit.test.ts does).
      const context = await browser.newContext({ viewport: DESKTOP, colorScheme, bypassCSP: true });
      try {
        const { page } = await open(context);
        const box = page.getByRole('searchbox', { name: 'Search the writings' });
        await box.fill('static');
        await expect.poll(() => page.locator('[data-search-results] li').count()).toBe(2);
        const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious.map((v) => `${v.id} at ${v.nodes.join(', ')}`)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('with script off, lists every writing and shows no box', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    try {
      const { page, requested, errors } = await open(context);
      expect(await page.locator('[data-writing-search]').isVisible()).toBe(false);
      const links = await page
        .locator('ul.writing-list:not([data-search-results]) li a')
        .evaluateAll((els) => els.map((a) => a.getAttribute('href')));
      expect(links).toEqual([
        `${BASE}/writings/midnight-in-toronto`,
        `${BASE}/writings/gardens-of-the-static-web`,
        `${BASE}/writings/static-plus-cron`,
      ]);
      expect(searchFiles(requested)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
