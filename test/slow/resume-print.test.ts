// /resume on paper, in Chromium (docs/site.md#resumejson): print media on A4 and Letter, for the fixture's
// full résumé and the demo's sample (test/demo/resume.json): no navigation, no live figure, no sideways
// overflow at the paper's printable width, one to three pages in the PDF Chromium prints, no blank page at
// any of 26 paper heights (each page's text read from the PDF: test/helpers/pdf-pages.ts). And the home
// page's JSON-LD under the pages' Content-Security-Policy: no violation reported (docs/site.md#sharing).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentCopy, type ContentCopy } from '../helpers/hostile-content.ts';
import { launchChromium } from '../helpers/browser.ts';
import { ROOT } from '../helpers/run.ts';
import { availability, DESKTOP, PHONE } from '../helpers/site-browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { pagesWithText } from '../helpers/pdf-pages.ts';
import { buildSite, sharedSite, type BuiltSite } from '../helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from '../helpers/site-serve.ts';

/** The papers, with their width in CSS pixels (96 per inch) less the stylesheet's @page margins (16 mm each side). */
const PAPERS = [
  { format: 'A4', printableWidth: Math.floor(((210 - 32) / 25.4) * 96) },
  { format: 'Letter', printableWidth: Math.floor((8.5 - 32 / 25.4) * 96) },
] as const;

/** Pages of a PDF as Chromium writes it: one `/Type /Page` object each (the tree's nodes are `/Pages`). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}

describe.runIf(availability.available || availability.mustFail)('/resume in print, A4 and Letter', () => {
  let browser: Browser;
  let fixture: StaticServer;
  let demoContent: ContentCopy;
  let demoSite: BuiltSite;
  let demo: StaticServer;

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    fixture = await startServeHandler(sharedSite().dir);
    // The demo's sample résumé, built as the demo builds it (DEMO_SIMULATED: every page says so).
    demoContent = await contentCopy({
      'resume.json': await readFile(join(ROOT, 'test/demo/resume.json'), 'utf8'),
    });
    demoSite = await buildSite({ site: { content: demoContent.dir }, env: { DEMO_SIMULATED: '1' } });
    expect(demoSite.result.code, demoSite.result.stderr).toBe(0);
    demo = await startServeHandler(demoSite.dir);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
    await demo?.close();
    await demoSite?.close();
    await demoContent?.close();
  });

  /** What print media shows of /resume at `width`: the visible navigation, live figures, overflow. */
  async function printed(page: Page, width: number) {
    await page.setViewportSize({ width, height: 1000 });
    await page.emulateMedia({ media: 'print' });
    return page.evaluate(() => {
      const shown = (el: Element) => {
        const style = getComputedStyle(el);
        return style.display !== 'none' && style.visibility !== 'hidden' && el.getClientRects().length > 0;
      };
      const visible = (selector: string) => [...document.querySelectorAll(selector)].filter(shown).length;
      return {
        navigation: visible('nav, .site-nav, .site-header, .skip'),
        live: visible('[data-preview], [data-live-feed], [aria-live]'),
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        wide: [...document.querySelectorAll('main *')]
          .filter((el) => shown(el) && el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .map((el) => el.tagName),
        sections: [...document.querySelectorAll('main h2')].filter(shown).map((h) => h.textContent),
        simulated: visible('[data-simulated="true"]'),
      };
    });
  }

  for (const which of ['fixture', 'demo'] as const)
    for (const paper of PAPERS)
      it(`${which} résumé on ${paper.format}: no navigation, no live figure, no sideways overflow, 1 to 3 pages`, async () => {
        const server = which === 'fixture' ? fixture : demo;
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(`${server.url}/resume`);
          // On screen the navigation is there: the print rules are what hides it.
          expect((await printed(page, 1280)).navigation).toBe(0);
          await page.emulateMedia({ media: 'screen' });
          expect(await page.locator('.site-nav').isVisible()).toBe(true);
          const shown = await printed(page, paper.printableWidth);
          expect(shown.navigation).toBe(0);
          expect(shown.live).toBe(0);
          expect(shown.overflow).toBeLessThanOrEqual(0);
          expect(shown.wide).toEqual([]);
          expect(shown.sections).toContain('Work');
          expect(shown.sections).toContain('Education');
          // A demo's paper says it is simulated, as its screen does.
          expect(shown.simulated).toBe(which === 'demo' ? 1 : 0);
          const pdf = await page.pdf({ format: paper.format, preferCSSPageSize: true, printBackground: false });
          const pages = pdfPages(pdf);
          if (process.env.PRINT_PAGES) console.log(`${which} ${paper.format}: ${pages} pages`);
          expect(pages).toBeGreaterThanOrEqual(1);
          expect(pages).toBeLessThanOrEqual(3);
        } finally {
          await context.close();
        }
      });

  /**
   * Paper heights in millimetres, 100 to 320: A4's and Letter's among them, and those where a page of the
   * demo's or the fixture's résumé once ended on a blank page (main's bottom padding carried past the text).
   */
  const HEIGHTS = [
    100, 108, 110, 130, 132, 150, 164, 170, 184, 200, 210, 220, 230, 240, 250, 260, 268, 270, 272, 279.4, 285, 290, 297,
    300, 310, 320,
  ];
  const WIDTHS = ['210mm', '8.5in'];

  for (const which of ['fixture', 'demo'] as const)
    it(`${which} résumé at ${HEIGHTS.length} paper heights, A4's and Letter's widths: no page without text`, async () => {
      const server = which === 'fixture' ? fixture : demo;
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/resume`);
        const blank: string[] = [];
        for (const width of WIDTHS)
          for (const height of HEIGHTS) {
            const pages = pagesWithText(await page.pdf({ width, height: `${height}mm` }));
            expect(pages.length).toBeGreaterThanOrEqual(1);
            if (pages.includes(false))
              blank.push(`${width} × ${height}mm: ${pages.map((p) => (p ? 'text' : 'blank')).join(', ')}`);
          }
        expect(blank).toEqual([]);
      } finally {
        await context.close();
      }
    });

  it('the blank page is read from the PDF, not assumed: with main padded at the bottom again, a page is blank', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${demo.url}/resume`);
      await page.evaluate(() => ((document.querySelector('main') as HTMLElement).style.paddingBottom = '2.5rem'));
      const blanks = [];
      for (const height of [108, 110, 130, 132, 184])
        blanks.push(pagesWithText(await page.pdf({ width: '210mm', height: `${height}mm` })).includes(false));
      expect(blanks).toContain(true);
    } finally {
      await context.close();
    }
  });

  // browser-audit.test.ts audits the other pages; themes-browser.test.ts checks /resume's contrast in every theme.
  it('/resume on screen: no serious or critical axe-core violation at 390 and 1280 px, light and dark; no overflow', async () => {
    for (const width of [PHONE.width, DESKTOP.width])
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width, height: 844 }, colorScheme, bypassCSP: true });
        try {
          const page = await context.newPage();
          await page.goto(`${fixture.url}/resume`);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
          const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(serious, `${width}px ${colorScheme}`).toEqual([]);
        } finally {
          await context.close();
        }
      }
  });

  it('the page count is read from the PDF, not assumed: a page of forty copies of the résumé prints more than three', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${fixture.url}/resume`);
      await page.evaluate(() => {
        const article = document.querySelector('.resume')!;
        for (let i = 0; i < 40; i++) article.after(article.cloneNode(true));
      });
      expect(pdfPages(await page.pdf({ format: 'A4' }))).toBeGreaterThan(3);
    } finally {
      await context.close();
    }
  });

  it("the home page's JSON-LD breaks no Content-Security-Policy; an inline script there would", async () => {
    const context = await browser.newContext();
    try {
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI}`),
        );
      });
      const violations = async (page: Page) => {
        await page.waitForLoadState('load');
        // Reports are queued as tasks: one more turn of the event loop lets them arrive.
        await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
        return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      };
      const page = await context.newPage();
      const response = await page.goto(`${fixture.url}/`);
      expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      expect(await page.locator('script[type="application/ld+json"]').count()).toBe(1);
      const person = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '');
      expect(person['@type']).toBe('Person');
      expect(await violations(page)).toEqual([]);

      // The control: the same page with the block made a classic script is refused and reported.
      const html = (await response!.text()).replace(
        '<script type="application/ld+json">',
        '<script>window.ran = true;</script><script type="application/ld+json">',
      );
      await page.route(`${fixture.url}/`, (route) =>
        route.fulfill({ status: 200, headers: response!.headers(), body: html }),
      );
      await page.goto(`${fixture.url}/`);
      // Reported once per policy that refuses it: the header's and the page's meta element's.
      const refused = await violations(page);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      for (const report of refused) expect(report).toMatch(/^script-src(-elem)? inline$/);
      expect(await page.evaluate(() => (window as unknown as { ran?: boolean }).ran)).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
