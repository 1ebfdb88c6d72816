// Every page audited in a real browser (Debian chromium + playwright-core): axe-core's serious and
// critical violations at phone and desktop widths, light and dark, scripts on and off; no page wider than
// the screen; and the Nu HTML Checker on every page of dist/ before and after its script ran.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteFiles } from '../helpers/site-dist.ts';
import type { StaticServer } from '../helpers/site-serve.ts';
import { availability, DESKTOP, PAGES_TO_AUDIT, PHONE, pool, SCHEMES, siteInBrowser } from '../helpers/site-browser.ts';
import { javaAvailability, vnuErrors } from '../helpers/vnu.ts';
import { axeViolations } from '../helpers/axe.ts';

const java = javaAvailability();

if (!availability.available && !availability.mustFail) console.warn(`browser-audit.test.ts: ${availability.reason}`);

describe.runIf(availability.available || availability.mustFail)('every page audited in Chromium', () => {
  let site: SiteFiles;
  let server: StaticServer;
  let browser: Browser;
  const shared = siteInBrowser();
  beforeAll(() => void ({ site, server, browser } = shared));

  interface Audit {
    name: string;
    violations: string[];
    overflow: number;
    html: string;
  }

  /** One page in one setting: axe-core's serious and critical violations, horizontal overflow, the DOM after the script. */
  async function audit(path: string, width: number, scheme: 'light' | 'dark', scripts: boolean): Promise<Audit> {
    // bypassCSP: axe is injected by the test, not by the page, whatever Content-Security-Policy the page has.
    const context = await browser.newContext({
      viewport: { width, height: 844 },
      colorScheme: scheme,
      bypassCSP: true,
    });
    try {
      // "Scripts off" is the page without its own script; axe itself still needs JavaScript to run.
      if (!scripts) await context.route('**/assets/*.js', (route) => route.abort());
      const page = await context.newPage();
      await page.goto(`${server.url}${path}`);
      if (scripts && path === '/') await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      const html = await page.evaluate(() => `<!doctype html>\n${document.documentElement.outerHTML}\n`);
      const started = performance.now();
      const violations = (await axeViolations(page))
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
      if (process.env.AXE_TIMING)
        console.log(path, width, scheme, scripts, Math.round(performance.now() - started), 'ms');
      return { name: `${path} ${width}px ${scheme} scripts ${scripts ? 'on' : 'off'}`, violations, overflow, html };
    } finally {
      await context.close();
    }
  }

  let audits: Audit[] = [];

  it('axe-core: no serious or critical violation on every page at 390 and 1280 px, light and dark, scripts on and off; no page wider than the viewport', async () => {
    // A page without a script is the same page with scripts off: it is audited once, not twice.
    const scripted = new Set<string>();
    for (const path of PAGES_TO_AUDIT) {
      const file = path === '/' ? 'index.html' : `${path.slice(1)}.html`;
      if ((await site.read(file)).includes('<script')) scripted.add(path);
    }
    expect(scripted.has('/')).toBe(true);
    const settings = PAGES_TO_AUDIT.flatMap((path) =>
      [PHONE.width, DESKTOP.width].flatMap((width) =>
        SCHEMES.flatMap((scheme) =>
          (scripted.has(path) ? [true, false] : [true]).map((scripts) => ({ path, width, scheme, scripts })),
        ),
      ),
    );
    // Two at a time: axe is CPU-bound, and two cores run the whole suite.
    audits = await pool(settings, 2, (s) => audit(s.path, s.width, s.scheme, s.scripts));
    expect(audits).toHaveLength(PAGES_TO_AUDIT.length * 4 + scripted.size * 4);
    expect(audits.filter((a) => a.violations.length).map((a) => `${a.name}: ${a.violations.join('; ')}`)).toEqual([]);
    expect(audits.filter((a) => a.overflow > 0).map((a) => `${a.name}: ${a.overflow}px too wide`)).toEqual([]);
  }, 360_000);

  describe.runIf(java.available || java.mustFail)('the Nu HTML Checker', () => {
    it('finds no error on any page of dist/, as built and after the page script ran', async () => {
      if (!java.available) throw new Error(java.reason);
      const built = (await site.files()).filter((f) => f.endsWith('.html')).map((f) => join(site.dir, f));
      const dir = await mkdtemp(join(tmpdir(), 'vnu-'));
      try {
        // The DOM after the script, from the audits above (scripts on, one per page and width); when this
        // test runs alone, it opens the pages itself.
        let after = audits.filter((a) => a.name.endsWith('light scripts on'));
        if (after.length === 0)
          after = await pool(
            PAGES_TO_AUDIT.flatMap((path) => [PHONE.width, DESKTOP.width].map((width) => ({ path, width }))),
            2,
            (s) => audit(s.path, s.width, 'light', true),
          );
        expect(after.length).toBe(PAGES_TO_AUDIT.length * 2);
        const dumps: string[] = [];
        for (const [i, a] of after.entries()) {
          const file = join(dir, `after-${i}.html`);
          await writeFile(file, a.html);
          dumps.push(file);
        }
        expect(await vnuErrors([...built, ...dumps])).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 360_000);
  });
});
