// The site in a real browser (Debian chromium + playwright-core) served by serve-handler on loopback:
// the home page's sparkline and heatmap, a problem-type link landing on its fragment, no console
// errors, the page with scripts off and with the API gone, and screenshots at phone and desktop widths.
// The accessibility and HTML audits of every page are in browser-audit.test.ts.
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../builders/contract/service.ts';
import { DEFAULT_MARKET_WS_URL } from '../../builders/lib/config.ts';

/** The shared build is the default deployment's: its pages subscribe to Coinbase Exchange's feed. */
const DEFAULT_POLICY = contentSecurityPolicy(DEFAULT_MARKET_WS_URL);
import { datasets, DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS } from '../../builders/datasets/registry.ts';
import type { SiteFiles } from '../helpers/site-dist.ts';
import type { StaticServer } from '../helpers/site-serve.ts';
import { availability, DESKTOP, PHONE, SCHEMES, SCREENSHOT_DIR, siteInBrowser } from '../helpers/site-browser.ts';

if (!availability.available && !availability.mustFail) console.warn(`browser.test.ts: ${availability.reason}`);

describe.runIf(availability.available || availability.mustFail)('the site in Chromium', () => {
  let site: SiteFiles;
  let server: StaticServer;
  let browser: Browser;
  const shared = siteInBrowser();
  beforeAll(() => void ({ site, server, browser } = shared));

  /**
   * A page that records console errors, uncaught exceptions and Content-Security-Policy violations (the
   * `securitypolicyviolation` event, reported through a binding, so a blocked icon, style or script
   * fails the test even where the browser logs nothing), and the CSP each document was served with.
   */
  async function open(context: BrowserContext): Promise<{ page: Page; errors: string[]; policies: string[] }> {
    // The default build's page subscribes to Coinbase Exchange's feed, which a test never reaches: the
    // socket is answered in the browser, by a feed that says nothing (test/slow/live-feed.test.ts speaks).
    await context.routeWebSocket(/.*/, () => undefined);
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
    expect(policies).toEqual([DEFAULT_POLICY]);
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
    expect(policies).toEqual([DEFAULT_POLICY]);
    const sparkline = page.locator('[data-preview="market"] svg.sparkline');
    await expect.poll(() => sparkline.isVisible()).toBe(true);
    expect(Number(await sparkline.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.locator('[data-preview="contributions"] svg.heatmap-wide rect[data-date]').count())
      .toBe(365);
    // the page script fetched both snapshots from the same origin and redrew the figures
    await page.waitForSelector('[data-preview="market"][data-refreshed="true"]');
    await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    const box = await page.locator('svg.heatmap-wide').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'home-desktop.png'), fullPage: true });
    // Printed, the navigation and the live-refresh status go; the charts and values stay.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.site-nav').isVisible()).toBe(false);
    expect(await page.locator('svg.sparkline').isVisible()).toBe(true);
    expect(await page.locator('svg.heatmap-wide').isVisible()).toBe(true);
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
    expect(await page.locator('svg.heatmap-wide rect[data-date]').count()).toBe(365);
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
      expect(await page.locator('svg.heatmap-wide').isVisible()).toBe(true);
      expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
      await context.close();
    }
  });

  it('the API routes the page script reads are the v1 data paths of the live data', async () => {
    const html = await site.read('index.html');
    // The owner's work (the projects) is the build's snapshot, which the script does not refetch.
    const live = datasets(DEFAULT_SERVICE_OPTIONS).filter((d) => !d.home.work);
    expect(live.length).toBeGreaterThan(0);
    for (const { resource } of live) expect(html).toContain(`data-source="${resource.v1.path}"`);
    // What the script asks for, not only what the markup names: every request it makes under /api/.
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page } = await open(context);
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    await context.close();
    expect([...new Set(asked)].sort()).toEqual(live.map((d) => d.resource.v1.path).sort());
  });

  it('at 390 px the whole year lies within the screen and the market chart has at least three day labels, in both schemes', async () => {
    for (const scheme of SCHEMES) {
      for (const scripts of [true, false]) {
        const context = await browser.newContext({ viewport: PHONE, colorScheme: scheme, javaScriptEnabled: scripts });
        const page = await context.newPage();
        await page.goto(`${server.url}/`);
        if (scripts) await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
        const cells = await page.evaluate(() =>
          Array.from(document.querySelectorAll('svg.heatmap rect[data-date]')).flatMap((r) => {
            const b = r.getBoundingClientRect();
            return b.width > 0 ? [{ left: b.left, right: b.right }] : [];
          }),
        );
        expect(cells, `${scheme} scripts ${scripts}`).toHaveLength(365);
        for (const c of cells) {
          expect(c.left).toBeGreaterThanOrEqual(0);
          expect(c.right).toBeLessThanOrEqual(PHONE.width);
        }
        // a cell a finger can find: at least 8 CSS pixels wide
        expect(Math.min(...cells.map((c) => c.right - c.left))).toBeGreaterThanOrEqual(8);
        const days = await page.evaluate(
          () =>
            Array.from(document.querySelectorAll('svg.sparkline .chart-day')).filter((t) => {
              const b = t.getBoundingClientRect();
              return b.width > 0 && b.left >= 0 && b.right <= window.innerWidth;
            }).length,
        );
        expect(days).toBeGreaterThanOrEqual(3);
        await page.screenshot({
          path: join(SCREENSHOT_DIR, `home-phone-${scheme}${scripts ? '' : '-noscript'}.png`),
          fullPage: true,
        });
        await context.close();
      }
    }
  });

  it('the dark scheme is dark: page, card and heatmap follow prefers-color-scheme', async () => {
    const read = async (scheme: 'light' | 'dark') => {
      const context = await browser.newContext({ viewport: DESKTOP, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      const colors = await page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        empty: getComputedStyle(document.querySelector('svg.heatmap-wide rect[data-level="0"]')!).fill,
        busy: getComputedStyle(document.querySelector('svg.heatmap-wide rect[data-level="4"]')!).fill,
      }));
      await page.screenshot({ path: join(SCREENSHOT_DIR, `home-desktop-${scheme}.png`), fullPage: true });
      await context.close();
      return colors;
    };
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      return (r! + g! + b!) / 3;
    };
    const light = await read('light');
    const dark = await read('dark');
    expect(luminance(light.body)).toBeGreaterThan(200);
    expect(luminance(dark.body)).toBeLessThan(40);
    expect(luminance(dark.text)).toBeGreaterThan(200);
    // In the dark, an empty day is dark and a busy one bright (GitHub's dark palette), the reverse of light.
    expect(luminance(dark.empty)).toBeLessThan(luminance(dark.busy));
    expect(luminance(light.empty)).toBeGreaterThan(luminance(light.busy));
    expect(dark.empty).not.toBe(light.empty);
  });

  it('reads out the value and time under the pointer and the keyboard focus; the day of a heatmap cell', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page, errors } = await open(context);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-preview="market"][data-refreshed="true"]');
    const readout = page.locator('[data-preview="market"] [data-readout]');
    const chart = page.locator('svg.sparkline');
    // below the projects: on screen first, for the pointer to be over it
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await expect.poll(() => readout.textContent()).toMatch(/^\d+\.\d+ USD at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    expect(await page.locator('.chart-cursor').getAttribute('visibility')).toBe('visible');
    const atMiddle = await readout.textContent();
    await chart.focus();
    await page.keyboard.press('Home');
    const first = await readout.textContent();
    await page.keyboard.press('ArrowRight');
    const second = await readout.textContent();
    expect(first).not.toBe(atMiddle);
    expect(second).not.toBe(first);
    const market = await site.json<{ points: Array<{ time: number }> }>('api/v1/mon-price');
    expect(first).toContain(new Date(market.points[0]!.time * 1000).toISOString().slice(0, 16).replace('T', ' '));

    const heatmap = page.locator('svg.heatmap-wide');
    const days = page.locator('[data-preview="contributions"] [data-readout]');
    await heatmap.focus();
    await expect.poll(() => days.textContent()).toMatch(/^\w+day \d{4}-\d{2}-\d{2}: (no|[\d,]+) contributions?$/);
    const last = await days.textContent();
    await page.keyboard.press('ArrowLeft');
    expect(await days.textContent()).not.toBe(last);
    const cell = heatmap.locator('rect[data-date]').nth(100);
    await cell.hover();
    const date = await cell.getAttribute('data-date');
    await expect.poll(() => days.textContent()).toContain(date!);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone a tap on the market chart reads out the point under the finger; the chart has a price axis', async () => {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const { page, errors } = await open(context);
    await page.goto(`${server.url}/`);
    await page.waitForSelector('[data-preview="market"][data-refreshed="true"]');
    const readout = page.locator('[data-preview="market"] [data-readout]');
    const chart = page.locator('svg.sparkline');
    await chart.scrollIntoViewIfNeeded();
    const box = (await chart.boundingBox())!;
    expect(await readout.textContent()).toMatch(/^Last point: /);
    await page.touchscreen.tap(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await expect.poll(() => readout.textContent()).toMatch(/^\d+\.\d+ USD at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    // The finger has lifted: the tapped point stays marked.
    expect(await page.locator('.chart-cursor').getAttribute('visibility')).toBe('visible');
    const first = await readout.textContent();
    await page.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height * 0.5);
    await expect.poll(() => readout.textContent()).not.toBe(first);
    expect(await readout.getAttribute('aria-live')).toBe('polite');

    // The price axis: the high, the middle and the low, in the chart's decimals, inside the chart.
    // The drawn series' own low and high (the chart the script drew from the API).
    const market = {
      low: Number(await chart.getAttribute('data-low')),
      high: Number(await chart.getAttribute('data-high')),
    };
    const decimals = Number(await chart.getAttribute('data-decimals'));
    const labels = page.locator('svg.sparkline [data-axis="price"] .chart-label');
    expect(await labels.allTextContents()).toEqual(
      [market.high, (market.high + market.low) / 2, market.low].map((v) => v.toFixed(decimals)),
    );
    for (const label of await labels.all()) {
      const b = (await label.boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(box.x);
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('every card renders as <img>, parses as SVG and reference nothing outside themselves', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const results = await page.evaluate(
      async (paths) => {
        const out: Array<Record<string, unknown>> = [];
        for (const path of paths) {
          const img = new Image();
          img.src = path;
          await img.decode().catch(() => undefined);
          const text = await (await fetch(path)).text();
          const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
          const elements = Array.from(doc.getElementsByTagName('*'));
          const bad: string[] = [];
          for (const el of elements) {
            if (/^(script|foreignObject|iframe|image|use|a|style)$/i.test(el.localName)) bad.push(`<${el.localName}>`);
            for (const attr of Array.from(el.attributes)) {
              if (/^on/i.test(attr.name)) bad.push(`${el.localName} ${attr.name}`);
              if (/href$/i.test(attr.name) && !attr.value.startsWith('#')) bad.push(`${el.localName} ${attr.name}`);
              if (/url\(/i.test(attr.value)) bad.push(`${el.localName} ${attr.name}=${attr.value}`);
            }
          }
          const root = doc.documentElement;
          out.push({
            path,
            complete: img.complete,
            naturalWidth: img.naturalWidth,
            width: Number(root.getAttribute('width')),
            parseError: doc.getElementsByTagName('parsererror').length > 0,
            root: root.localName,
            title: doc.querySelector('svg > title')?.textContent ?? '',
            desc: doc.querySelector('svg > desc')?.textContent ?? '',
            bad,
          });
        }
        return out;
      },
      DEFAULT_SERVICE.cards.map((c) => c.path),
    );
    for (const r of results) {
      expect(r, String(r.path)).toMatchObject({ complete: true, parseError: false, root: 'svg', bad: [] });
      expect(r.naturalWidth).toBe(r.width);
      expect(r.title).not.toBe('');
      expect(r.desc).toMatch(/As of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    }
    await page.setContent(
      `<body style="margin:0;background:#888">${DEFAULT_SERVICE.cards.map((c) => `<img src="${server.url}${c.path}" alt="">`).join('<br>')}</body>`,
    );
    await page.waitForFunction(() => Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0));
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'cards.png'), fullPage: true });
    await context.close();
  });
});
