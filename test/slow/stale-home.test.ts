// The home page of a site whose publishing stopped (issue 30): the shared site, built at TEST_SITE_CLOCK,
// read in Chromium ten days later by the reader's clock (an injected page clock, so no test depends on
// today's date). The page script says, next to each figure, how old the data are and that the site
// stopped refreshing them, and never "Refreshed"; read five minutes after the build it says "Refreshed"
// and no age, so the check can fail. Without scripts the page states its build time.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import { sharedSite, TEST_SITE_CLOCK } from '../helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from '../helpers/site-serve.ts';
import { DESKTOP } from '../helpers/site-browser.ts';
import { datasets, DEFAULT_SERVICE_OPTIONS } from '../../builders/datasets/registry.ts';

const availability = browserAvailability();
const DAY = 86_400_000;
const FIGURES = ['market', 'contributions'];

describe.runIf(availability.available || availability.mustFail)('a home page read long after its build', () => {
  let server: StaticServer;
  let browser: Browser;
  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    server = await startServeHandler(sharedSite().dir);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function home(nowMs: number, javaScriptEnabled = true) {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled });
    await context.clock.setFixedTime(nowMs);
    const page = await context.newPage();
    // Every API answer awaited: the script has judged what it fetched before the page is read (it fetches
    // the live data, not the owner's work: the projects are the build's snapshot).
    const fetched = javaScriptEnabled
      ? datasets(DEFAULT_SERVICE_OPTIONS)
          .filter((d) => !d.home.work)
          .map(({ resource }) => page.waitForResponse((res) => res.url().endsWith(resource.v1.path)))
      : [];
    await page.goto(`${server.url}/`);
    await Promise.all(fetched);
    return page;
  }

  it('ten days later: each figure says its data are ten days old and the site stopped refreshing them', async () => {
    const page = await home(TEST_SITE_CLOCK + 10 * DAY);
    for (const id of FIGURES) {
      const figure = page.locator(`[data-preview="${id}"]`);
      await expect.poll(() => figure.getAttribute('data-stale')).toBe('true');
      const notice = await figure.locator('[data-stale-notice]').textContent();
      expect(notice).toMatch(/^These data are 10 days old: the site stopped refreshing them/);
      expect(await figure.getAttribute('data-refreshed')).toBeNull();
      expect(await figure.textContent()).not.toMatch(/refreshed from/i);
    }
  });

  it('five minutes after the build: "Refreshed", with the data\'s age and validity, and no stale notice', async () => {
    const page = await home(TEST_SITE_CLOCK + 5 * 60_000);
    for (const id of FIGURES) {
      const figure = page.locator(`[data-preview="${id}"]`);
      await expect.poll(() => figure.getAttribute('data-refreshed')).toBe('true');
      expect(await figure.locator('[data-stale-notice]').count()).toBe(0);
      // a fresh build's data are never said as hours or days old (a day's data are said as that day)
      expect(await figure.textContent()).not.toMatch(/\d+ (h|days?) old/);
      expect(await figure.locator('[data-preview-status]').textContent()).toMatch(
        id === 'market'
          ? /^Refreshed from \/api\/v1\/\S+ at 15:05:00 UTC\. These data are \d+ min old: valid until 2026-11-2\d \d\d:\d\d UTC\.$/
          : /^Refreshed from \/api\/v1\/\S+ at 15:05:00 UTC\. From today's calendar in America\/Toronto \(2026-11-23\), valid until midnight there \(2026-11-24 05:00 UTC\)\.$/,
      );
    }
  });

  it('without scripts the page states its build time plainly', async () => {
    const page = await home(TEST_SITE_CLOCK + 10 * DAY, false);
    for (const id of FIGURES)
      expect(await page.locator(`[data-preview="${id}"] [data-preview-status]`).textContent()).toContain(
        'Snapshot taken when this site was built (2026-11-23 15:00 UTC).',
      );
  });
});
