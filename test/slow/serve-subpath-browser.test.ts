// A project site's dist/ (SITE_URL=https://you.github.io/portfolio) served by the real `serve dist` and
// read in Chromium (docs/site.md#dist-layout): the site is styled and whole at / and at /portfolio/, every
// request the pages make answers, and the page script runs.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { availability, PHONE, SITE_READ_AT, withReaderClock } from '../helpers/site-browser.ts';
import { buildSite, type BuiltSite } from '../helpers/site-dist.ts';
import { startServeCli, type StaticServer } from '../helpers/site-serve.ts';

describe.runIf(availability.available || availability.mustFail)('serve dist of a sub-path build, in Chromium', () => {
  let site: BuiltSite;
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    site = await buildSite({ env: { SITE_URL: 'https://you.github.io/portfolio' } });
    expect(site.result.code, site.result.stderr).toBe(0);
    server = await startServeCli(site.dir);
    // Read while the build's data are valid, as the other browser tests read theirs.
    browser = withReaderClock(await launchChromium(), SITE_READ_AT);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  /** Opens `path`, and says what failed to load and how the page is styled. */
  async function open(page: Page, path: string) {
    const failed: string[] = [];
    page.on('response', (res) => {
      if (res.url().startsWith(server.url) && res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    page.on('requestfailed', (req) => {
      if (req.url().startsWith(server.url)) failed.push(`failed ${req.url()}`);
    });
    const res = await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    const styled = await page.evaluate(() => {
      const sheet = [...document.styleSheets].find((s) => (s.href ?? '').endsWith('/portfolio/assets/site.css'));
      const wrap = document.querySelector('.site-header .wrap');
      return {
        rules: sheet === undefined ? 0 : sheet.cssRules.length,
        bodyMargin: getComputedStyle(document.body).margin,
        headerDisplay: wrap === null ? '' : getComputedStyle(wrap).display,
      };
    });
    return { status: res?.status(), failed, styled };
  }

  it.each(['/', '/portfolio/', '/portfolio/writings', '/portfolio/writings/static-plus-cron', '/portfolio/resume'])(
    '%s is styled and every request it makes answers',
    async (path) => {
      const context = await browser.newContext({ viewport: PHONE });
      try {
        const page = await context.newPage();
        const { status, failed, styled } = await open(page, path);
        expect(status).toBe(200);
        expect(failed).toEqual([]);
        expect(styled.rules).toBeGreaterThan(50);
        expect(styled.bodyMargin).toBe('0px');
        expect(styled.headerDisplay).toBe('flex');
      } finally {
        await context.close();
      }
    },
  );

  it("the home page's script refreshes a figure from the sub-path's API", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    try {
      const page = await context.newPage();
      const { failed } = await open(page, '/');
      expect(failed).toEqual([]);
      await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]', { timeout: 10_000 });
    } finally {
      await context.close();
    }
  });
});
