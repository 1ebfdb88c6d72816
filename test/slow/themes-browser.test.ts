// The owner's look in Chromium (docs/site.md#themes): the home page built in each of the six themes, read
// light and dark, has no axe-core colour-contrast violation and is as light or dark as asked, in its
// theme's background and link colours, and so has the developer page; an accent pair colours the links of each variant; the header
// toggle turns a light page dark and the choice survives a reload; the owner's picture is served by the
// site and loaded; the profile links carry their icons and rel="me"; the home page weighs at most 40 KB
// (brotli) in at most 8 requests, the picture aside.
import { readFileSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contrastRatio, lookOf, SCHEMES, THEME_NAMES, THEMES, type ThemeName } from '../../builders/render/themes.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import { contentCopy, type ContentCopy } from '../helpers/hostile-content.ts';
import { buildSite, FIXTURE_SITE, type BuiltSite } from '../helpers/site-dist.ts';
import { DESKTOP, PHONE, pool, SITE_READ_AT, withReaderClock } from '../helpers/site-browser.ts';
import { startServeHandler, type StaticServer } from '../helpers/site-serve.ts';
import { TINY_PNG } from '../fakes/avatar.ts';
import { axeResults, axeViolations } from '../helpers/axe.ts';
import { profileWithLinks } from '../helpers/hostile-content.ts';

const availability = browserAvailability();
if (!availability.available && !availability.mustFail) console.warn(`themes-browser.test.ts: ${availability.reason}`);

/** The fixture's profile with a picture and links to four profile sites. */
const PROFILE = profileWithLinks('me.png');
const SITE_JSON = JSON.parse(readFileSync(join(FIXTURE_SITE, 'site.json'), 'utf8')) as Record<string, unknown>;
const ACCENTS = { light: '#8f3c7a', dark: '#f0a8d8' };

interface Built {
  theme: ThemeName;
  content: ContentCopy;
  site: BuiltSite;
  server: StaticServer;
}

describe.runIf(availability.available || availability.mustFail)('the six themes in Chromium', () => {
  let browser: Browser;
  const builds = new Map<string, Built>();

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    browser = withReaderClock(await launchChromium(), SITE_READ_AT);
    // One build per theme (the nord one with an accent pair), one after the other: two cores run everything.
    for (const theme of THEME_NAMES) {
      const settings = theme === 'nord' ? { theme, accent: ACCENTS } : { theme };
      const content = await contentCopy({
        'site.json': JSON.stringify({ ...SITE_JSON, ...settings }),
        'profile.md': PROFILE,
      });
      await writeFile(join(content.dir, 'me.png'), TINY_PNG);
      const site = await buildSite({ site: { content: content.dir } });
      expect(site.result.code, site.result.stderr).toBe(0);
      builds.set(theme, { theme, content, site, server: await startServeHandler(site.dir) });
    }
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    for (const b of builds.values()) {
      await b.server.close();
      await b.site.close();
      await b.content.close();
    }
  });

  async function open(theme: ThemeName, scheme: 'light' | 'dark', width = DESKTOP.width, path = '/') {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      colorScheme: scheme,
      bypassCSP: true,
    });
    const page = await context.newPage();
    await page.goto(`${builds.get(theme)!.server.url}${path}`);
    if (path === '/') await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    return { page, close: () => context.close() };
  }

  const colours = (page: Page) =>
    page.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(document.body).color,
      link: getComputedStyle(document.querySelector('main a[href]')!).color,
    }));
  const hex = (rgb: string) =>
    `#${rgb
      .match(/\d+/g)!
      .slice(0, 3)
      .map((n) => Number(n).toString(16).padStart(2, '0'))
      .join('')}`;

  it('each theme, light and dark: no axe-core colour-contrast violation nor text it cannot judge, the chart labels judged and passed, the page in its theme and as light or dark as asked', async () => {
    const settings = THEME_NAMES.flatMap((theme) => SCHEMES.map((scheme) => ({ theme, scheme })));
    const results = await pool(settings, 2, async ({ theme, scheme }) => {
      const { page, close } = await open(theme, scheme);
      try {
        const seen = await colours(page);
        // pa11y's axe runner reports both: a violation, and "needs review" (incomplete), which is what
        // text inside an <svg> was ("background could not be determined": it lies on an image).
        const axe = await axeResults(page, { runOnly: { type: 'rule', values: ['color-contrast'] } });
        const labels = await page.evaluate(
          (passed) => {
            const visible = (el: Element) => el.getClientRects().length > 0;
            const judged = new Set(passed.flatMap((t) => [...document.querySelectorAll(JSON.parse(t)[0])]));
            const all = [...document.querySelectorAll('.chart svg text, .chart .chart-label')].filter(visible);
            return {
              count: all.length,
              svgText: all.filter((el) => el.namespaceURI === 'http://www.w3.org/2000/svg').length,
              notPassed: all.filter((el) => !judged.has(el)).map((el) => `${el.className} ${el.textContent}`),
            };
          },
          axe.passes.map((n) => n.target),
        );
        return { theme, scheme, seen, axe, labels };
      } finally {
        await close();
      }
    });
    expect(results).toHaveLength(12);
    for (const { theme, scheme, seen, axe, labels } of results) {
      const palette = lookOf(theme === 'nord' ? { theme, accent: ACCENTS } : { theme })[scheme];
      expect(axe.violations, `${theme} ${scheme}`).toEqual([]);
      expect(axe.incomplete, `${theme} ${scheme}`).toEqual([]);
      // The charts' labels (the market's days, low, high and prices; the calendar's months and weekdays)
      // are HTML that axe judged and passed, none of them SVG text.
      expect(labels.count, `${theme} ${scheme}`).toBeGreaterThanOrEqual(20);
      expect(labels.svgText, `${theme} ${scheme}`).toBe(0);
      expect(labels.notPassed, `${theme} ${scheme}`).toEqual([]);
      expect(hex(seen.background), `${theme} ${scheme}`).toBe(palette.background);
      expect(hex(seen.text), `${theme} ${scheme}`).toBe(palette.text);
      expect(hex(seen.link), `${theme} ${scheme}`).toBe(palette.accent);
      // light is light and dark is dark: the background against black and white
      const lighter = contrastRatio(palette.background, '#000000') > contrastRatio(palette.background, '#ffffff');
      expect(lighter, `${theme} ${scheme}`).toBe(scheme === 'light');
    }
    // six themes, six page backgrounds and six link colours in each variant
    for (const scheme of SCHEMES) {
      const of = results.filter((r) => r.scheme === scheme);
      expect(new Set(of.map((r) => r.seen.background)).size).toBe(6);
      expect(new Set(of.map((r) => r.seen.link)).size).toBe(6);
    }
  }, 300_000);

  it('/developers, the page with every kind of text (code, tables, links in code), in each theme light and dark: no axe-core colour-contrast violation', async () => {
    // The other pages are made of the same elements in the same custom properties; every pair of those
    // is checked for all twelve palettes by test/themes.test.ts, and every page in the default theme by
    // browser-audit.test.ts. axe over each page in twelve variants is minutes of a loaded machine.
    const settings = THEME_NAMES.flatMap((theme) => SCHEMES.map((scheme) => ({ theme, scheme })));
    const results = await pool(settings, 2, async ({ theme, scheme }) => {
      const { page, close } = await open(theme, scheme, DESKTOP.width, '/developers');
      try {
        const violations = await axeViolations(page, { runOnly: { type: 'rule', values: ['color-contrast'] } });
        return violations.flatMap((v) => v.nodes.map((n) => `${theme} ${scheme}: ${n}`));
      } finally {
        await close();
      }
    });
    expect(results).toHaveLength(12);
    expect(results.flat()).toEqual([]);
  }, 900_000);

  it('an accent pair colours the links of each variant (nord built with one)', async () => {
    for (const scheme of SCHEMES) {
      const { page, close } = await open('nord', scheme);
      expect(hex((await colours(page)).link)).toBe(ACCENTS[scheme]);
      expect(ACCENTS[scheme]).not.toBe(THEMES.nord[scheme].accent);
      await close();
    }
  });

  it('the header toggle turns a light page dark, pressed, and the choice survives a reload; Auto gives the system back', async () => {
    const context = await browser.newContext({ viewport: PHONE, colorScheme: 'light' });
    try {
      const page = await context.newPage();
      const base = builds.get('default')!.server.url;
      await page.goto(`${base}/`);
      const background = async () => hex(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
      expect(await background()).toBe(THEMES.default.light.background);
      const dark = page.getByRole('button', { name: 'Dark' });
      await expect.poll(() => dark.getAttribute('aria-pressed')).toBe('false');
      expect(await page.getByRole('button', { name: 'Auto' }).getAttribute('aria-pressed')).toBe('true');
      await dark.click();
      expect(await dark.getAttribute('aria-pressed')).toBe('true');
      expect(await background()).toBe(THEMES.default.dark.background);
      await page.reload();
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-scheme'))).toBe('dark');
      expect(await background()).toBe(THEMES.default.dark.background);
      expect(await page.getByRole('button', { name: 'Dark' }).getAttribute('aria-pressed')).toBe('true');
      // another page of the site: the same choice, before its first paint (set by the head script)
      await page.goto(`${base}/writings`);
      expect(await background()).toBe(THEMES.default.dark.background);
      await page.getByRole('button', { name: 'Auto' }).click();
      await page.reload();
      expect(await background()).toBe(THEMES.default.light.background);
      expect(await page.evaluate(() => document.documentElement.hasAttribute('data-scheme'))).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('without script the toggle is not shown and the page follows the system', async () => {
    for (const scheme of SCHEMES) {
      const context = await browser.newContext({ viewport: PHONE, colorScheme: scheme, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${builds.get('gruvbox')!.server.url}/`);
      expect(await page.locator('.scheme-toggle').isVisible()).toBe(false);
      expect(hex(await page.evaluate(() => getComputedStyle(document.body).backgroundColor))).toBe(
        THEMES.gruvbox[scheme].background,
      );
      await context.close();
    }
  });

  it("avatar: me.png is an <img> with the owner's name as alt, served by the site and loaded, and the favicon", async () => {
    const { page, close } = await open('default', 'light', PHONE.width);
    try {
      const img = await page.evaluate(() => {
        const el = document.querySelector<HTMLImageElement>('main img.avatar')!;
        return { alt: el.alt, src: el.src, loaded: el.complete && el.naturalWidth > 0 };
      });
      const base = builds.get('default')!.server.url;
      expect(img).toEqual({ alt: 'Ada Park', src: `${base}/assets/avatar.png`, loaded: true });
      expect(await page.evaluate(() => document.querySelector('link[rel="icon"]')?.getAttribute('href'))).toBe(
        '/assets/avatar.png',
      );
    } finally {
      await close();
    }
  });

  it('links to GitHub, LinkedIn, a Mastodon /@user and mailto: each carry their icon; the web ones rel="me"', async () => {
    const { page, close } = await open('dracula', 'dark', PHONE.width);
    try {
      const links = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('.profile-links a')].map((a) => ({
          site: a.dataset.profileSite ?? null,
          rel: a.rel,
          icon: a.querySelector('svg.icon path') !== null && a.querySelector('svg')!.getBoundingClientRect().width > 0,
        })),
      );
      for (const site of ['github', 'linkedin', 'mastodon', 'email'])
        expect(links.find((l) => l.site === site)).toEqual({ site, rel: 'me', icon: true });
      // the layout holds at 320 px: nothing wider than the screen
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
    } finally {
      await close();
    }
  });

  it('the home page is at most 40 KB brotli in at most 8 requests, the picture aside', async () => {
    const built = builds.get('default')!;
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'light' });
    const asked: string[] = [];
    context.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const page = await context.newPage();
    await page.goto(`${built.server.url}/`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
    await context.close();
    const counted = asked.filter((path) => path !== '/assets/avatar.png');
    expect(counted.length).toBeLessThanOrEqual(8);
    let bytes = 0;
    for (const path of counted) {
      // what a host serving dist/'s compressed copies sends: the brotli copy when there is one
      const file = path === '/' ? 'index.html' : path.slice(1);
      const candidates = [`${file}.br`, file];
      let size: number | undefined;
      for (const c of candidates) {
        size = (await stat(join(built.site.dir, c)).catch(() => undefined))?.size;
        if (size !== undefined) break;
      }
      expect(size, path).toBeDefined();
      bytes += size!;
    }
    expect(bytes).toBeLessThanOrEqual(40 * 1024);
    console.log(`home page: ${counted.length} requests, ${bytes} bytes brotli: ${counted.join(' ')}`);
  });
});
