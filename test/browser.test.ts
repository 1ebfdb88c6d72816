// The site in a real browser (Debian chromium + playwright-core) served by serve-handler on loopback:
// the home page's sparkline and heatmap, a problem-type link landing on its fragment, no console
// errors, the page with scripts off and with the API gone, and screenshots at phone and desktop widths.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, DATA_RESOURCES } from '../core/routes.ts';
import { browserAvailability, launchChromium } from './helpers/browser.ts';
import { ROOT } from './helpers/run.ts';
import { sharedSite, type SiteFiles } from './helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';

const availability = browserAvailability();
const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

if (!availability.available && !availability.mustFail) console.warn(`browser.test.ts: ${availability.reason}`);

describe.runIf(availability.available || availability.mustFail)('the site in Chromium', () => {
  let site: SiteFiles;
  let server: StaticServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    site = sharedSite();
    expect(site.result.code).toBe(0);
    server = await startServeHandler(site.dir);
    browser = await launchChromium();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  /**
   * A page that records console errors, uncaught exceptions and Content-Security-Policy violations (the
   * `securitypolicyviolation` event, reported through a binding, so a blocked icon, style or script
   * fails the test even where the browser logs nothing), and the CSP each document was served with.
   */
  async function open(context: BrowserContext): Promise<{ page: Page; errors: string[]; policies: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    const policies: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('response', (response) => {
      if (response.request().resourceType() === 'document')
        policies.push(response.headers()['content-security-policy'] ?? '(none)');
    });
    await page.exposeBinding('reportCspViolation', (_source, text: string) => errors.push(`csp: ${text}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { reportCspViolation: (t: string) => void }).reportCspViolation;
        report(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
      });
    });
    return { page, errors, policies };
  }

  it('pages are served with the CSP, which blocks what the pages do not use (the check can fail)', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page, errors, policies } = await open(context);
    await page.goto(`${server.url}/developers`);
    expect(policies).toEqual([CONTENT_SECURITY_POLICY]);
    expect(errors).toEqual([]);
    // An inline script and an inline style, as an injection would add them: both refused and reported.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.injected = "yes"';
      document.body.append(script);
      const styled = document.createElement('div');
      styled.setAttribute('style', 'color: red');
      document.body.append(styled);
    });
    await expect.poll(() => errors.filter((e) => e.startsWith('csp: ')).length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined();
    await context.close();
  });

  it('home page: draws the sparkline and the 365-day heatmap, refreshes them from the API, logs no error', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page, errors, policies } = await open(context);
    await page.goto(`${server.url}/`);
    expect(policies).toEqual([CONTENT_SECURITY_POLICY]);
    const sparkline = page.locator('[data-preview="market"] svg.sparkline');
    await expect.poll(() => sparkline.isVisible()).toBe(true);
    expect(Number(await sparkline.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.locator('[data-preview="contributions"] svg.heatmap rect[data-date]').count())
      .toBe(365);
    // the page script fetched both snapshots from the same origin and redrew the figures
    await page.waitForSelector('[data-preview="market"][data-refreshed="true"]');
    await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    const box = await page.locator('svg.heatmap').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'home-desktop.png'), fullPage: true });
    // Printed, the navigation and the live-refresh status go; the charts and values stay.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.site-nav').isVisible()).toBe(false);
    expect(await page.locator('svg.sparkline').isVisible()).toBe(true);
    expect(await page.locator('svg.heatmap').isVisible()).toBe(true);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'home-print.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('home page at phone width: no horizontal page scroll, charts within the screen', async () => {
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const { page, errors } = await open(context);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const spark = await page.locator('svg.sparkline').boundingBox();
    expect(spark!.x).toBeGreaterThanOrEqual(0);
    expect(spark!.x + spark!.width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'home-phone.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('developer page: a problem-type link lands on the element whose id is its fragment', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await browser.newContext({ viewport });
      const { page, errors } = await open(context);
      await page.goto(`${server.url}/developers`);
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await page.screenshot({ path: join(SCREENSHOT_DIR, `developers-top-${name}.png`) });
      await page.locator('a[href="#rate-limit-exceeded"]').first().click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#rate-limit-exceeded');
      expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('rate-limit-exceeded');
      const target = page.locator('#rate-limit-exceeded');
      expect(await target.textContent()).toBe('Rate limit exceeded');
      await expect.poll(() => target.isVisible()).toBe(true);
      const inView = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight;
      });
      expect(inView).toBe(true);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `developers-${name}.png`) });
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('with scripts off the home page still shows both charts and every value', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const { page } = await open(context);
    await page.goto(`${server.url}/`);
    expect(await page.locator('svg.sparkline').isVisible()).toBe(true);
    expect(await page.locator('svg.heatmap rect[data-date]').count()).toBe(365);
    expect(await page.locator('[data-field="value"]').textContent()).toMatch(/USD$/);
    expect(await page.locator('[data-preview="market"]').getAttribute('data-refreshed')).toBeNull();
    await context.close();
  });

  it('when the API is gone (404) the script keeps the build-time charts and throws nothing', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await open(context);
    // Answer every API request with a 404 problem, as a static host without the snapshots would.
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/problem+json', body: '{"status":404}' }),
    );
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    expect(await page.locator('svg.sparkline').isVisible()).toBe(true);
    expect(await page.locator('[data-preview="market"]').getAttribute('data-refreshed')).toBeNull();
    // Chromium itself reports failed loads ("Failed to load resource"); the page's own code reports nothing.
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });

  it('when the API answers 502 or is unreachable the script throws nothing', async () => {
    for (const fail of ['502', 'abort'] as const) {
      const context = await browser.newContext({ viewport: DESKTOP });
      const { page, errors } = await open(context);
      await page.route('**/api/**', (route) =>
        fail === 'abort'
          ? route.abort('connectionrefused')
          : route.fulfill({ status: 502, contentType: 'application/problem+json', body: '{"status":502}' }),
      );
      await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
      expect(await page.locator('svg.heatmap').isVisible()).toBe(true);
      expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
      await context.close();
    }
  });

  it('the API routes the page script reads are the v1 data paths', async () => {
    const html = await site.read('index.html');
    for (const r of DATA_RESOURCES) expect(html).toContain(`data-source="${r.v1.path}"`);
  });
});
