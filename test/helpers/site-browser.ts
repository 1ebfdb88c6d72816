// The built site served on loopback and one Chromium to read it with, set up once per test file: the
// browser tests are split in two files (the pages' behaviour, and the accessibility and HTML audits) so
// that vitest runs them side by side.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { browserAvailability, launchChromium } from './browser.ts';
import { ROOT } from './run.ts';
import { sharedSite, TEST_SITE_CLOCK, type SiteFiles } from './site-dist.ts';
import { startServeHandler, type StaticServer } from './site-serve.ts';

export const availability = browserAvailability();
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
/** The published pages the audits cover (a writing is checked by the HTML checker with the rest of dist/). */
export const PAGES_TO_AUDIT = ['/', '/developers', '/writings', '/skills'];
export const SCHEMES = ['light', 'dark'] as const;

export interface SiteInBrowser {
  site: SiteFiles;
  server: StaticServer;
  browser: Browser;
}

/** Registers the file's beforeAll/afterAll; the returned object is filled in before the first test. */
export function siteInBrowser(): SiteInBrowser {
  const it = {} as SiteInBrowser;
  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    it.site = sharedSite();
    expect(it.site.result.code).toBe(0);
    it.server = await startServeHandler(it.site.dir);
    it.browser = withReaderClock(await launchChromium(), SITE_READ_AT);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await it.browser?.close();
    await it.server?.close();
    await it.site?.close();
  });
  return it;
}

/**
 * When the browser tests read the shared site: five minutes after its build, while its data are valid
 * (builders/domain/freshness.ts), whatever today's date. The page script judges staleness by Date.now().
 */
export const SITE_READ_AT = TEST_SITE_CLOCK + 5 * 60_000;

/**
 * Every context of `browser` gets `nowMs` as its fixed Date.now (timers still run): the page script's
 * clock is injected, as every clock of the suite is.
 */
export function withReaderClock(browser: Browser, nowMs: number): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.clock.setFixedTime(nowMs);
    return context;
  };
  return browser;
}

/** Runs `work` over `items`, at most `limit` at a time: one browser, several pages in parallel. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}
