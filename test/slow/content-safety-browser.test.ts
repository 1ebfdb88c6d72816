// Owner content cannot run script even where no header is sent (issue 37, item 1): a site whose profile
// and a writing hold raw <script>, <svg><script>, <img onerror>, javascript: links and the rest of
// test/helpers/hostile-content.ts, built from a copy of the tests' own content, and served by a plain
// host that sends no header but Content-Type, as GitHub Pages sends no Content-Security-Policy. In
// Chromium: no dialog fires on any page, even with every link clicked; no page has a script URL; every
// page's meta policy is the one the headers state, without 'unsafe-inline'; it is in force (an injected
// inline script is refused) while the page's own script runs; the JSON feed carries nothing that runs.
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeFor } from '../../builders/contract/content-types.ts';
import { feedPolicyOptions, pageContentSecurityPolicy } from '../../builders/contract/content-security-policy.ts';
import { DEFAULT_MARKET_WS_URL } from '../../builders/lib/config.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import {
  contentCopy,
  HOSTILE_WRITING,
  hostileProfile,
  metaPolicies,
  scriptSources,
  scriptVectors,
  type ContentCopy,
} from '../helpers/hostile-content.ts';
import { buildSite, runBuild, TEST_SITE_CLOCK, type BuiltSite } from '../helpers/site-dist.ts';
import { upstreamEnv } from '../helpers/run.ts';
import { withReaderClock } from '../helpers/site-browser.ts';

const availability = browserAvailability();

/**
 * `dir` over HTTP with no header but Content-Type (and the Content-Length node adds): `/x` is `x.html`
 * and a folder its `index.html`, as GitHub Pages serves them; anything else is a plain 404.
 */
async function startBareHost(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
      const file = normalize(join(dir, path));
      for (const candidate of [file, `${file}.html`, join(file, 'index.html')]) {
        if (!candidate.startsWith(dir)) break;
        const found = await stat(candidate).catch(() => null);
        if (found?.isFile()) {
          const body = await readFile(candidate);
          res.writeHead(200, {
            'content-type': contentTypeFor(candidate.slice(dir.length + 1)),
            'content-length': body.byteLength,
          });
          res.end(body);
          return;
        }
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('hostile content on a host that sends no headers', () => {
  let content: ContentCopy;
  let site: BuiltSite;
  let host: Awaited<ReturnType<typeof startBareHost>>;
  let browser: Browser;
  let pages: string[];

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    content = await contentCopy({ 'profile.md': hostileProfile(), 'writings/hostile-markup.md': HOSTILE_WRITING });
    site = await buildSite({ site: { content: content.dir } });
    host = await startBareHost(site.dir);
    // Read five minutes after the build, while its data are valid, so the page script refreshes them.
    browser = withReaderClock(await launchChromium(), TEST_SITE_CLOCK + 5 * 60_000);
    pages = (await site.files())
      .filter((f) => f.endsWith('.html'))
      .map((f) => `/${f.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '')}`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await site?.close();
    await content?.close();
  });

  it('a javascript: link in the profile front matter: exit 2 naming the file and the field, nothing written', async () => {
    const refused = await contentCopy({
      'profile.md': hostileProfile('  - label: Home\n    url: " JavaScript:alert(document.domain)"\n'),
    });
    try {
      const outDir = join(refused.dir, 'dist');
      const result = await runBuild(outDir, upstreamEnv(site.fake.url), { content: refused.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^build: the site's content needs a fix: profile\.md: "links\[0\]\.url" .*\n$/);
      await expect(stat(outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await refused.close();
    }
  });

  it('the hostile site builds, and the host sends no Content-Security-Policy', async () => {
    expect(site.result.code, site.result.stderr).toBe(0);
    expect(pages).toContain('/writings/hostile-markup');
    const response = await fetch(`${host.url}/`);
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect([...response.headers.keys()].sort()).toEqual([
      'connection',
      'content-length',
      'content-type',
      'date',
      'keep-alive',
    ]);
  });

  /** A page that counts dialogs (dismissing each) and Content-Security-Policy violations. */
  async function open(): Promise<{ page: Page; dialogs: string[]; violations: string[]; close(): Promise<void> }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    const violations: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.exposeBinding('reportViolation', (_source, text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { reportViolation: (t: string) => void }).reportViolation;
        report(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'}`);
      });
    });
    return { page, dialogs, violations, close: () => context.close() };
  }

  it('no dialog fires on any page, with every link that goes nowhere clicked and every details toggled', async () => {
    const { page, dialogs, close } = await open();
    for (const path of pages) {
      await page.goto(`${host.url}${path}`, { waitUntil: 'load' });
      await page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = !d.open;
      });
      // Every link that goes nowhere a reader can follow: none (its href dropped), or a script URL.
      await page.evaluate(() => {
        for (const a of document.querySelectorAll('a'))
          if (!a.hasAttribute('href') || !['http:', 'https:', 'mailto:'].includes(a.protocol))
            a.setAttribute('data-click', '');
      });
      for (const link of await page.locator('a[data-click]').all()) await link.click();
      // Clicking a link with a script URL would run it here; none is left, so this page stays put.
      expect(page.url(), path).toBe(`${host.url}${path}`);
    }
    expect(dialogs).toEqual([]);
    await close();
  });

  it('no published page has a script URL or handler; each states the meta policy, its scripts without unsafe-inline', async () => {
    // The stock deployment's pages subscribe to the live feed: their policy names its origin.
    const meta = pageContentSecurityPolicy(feedPolicyOptions(DEFAULT_MARKET_WS_URL), 'meta');
    for (const path of pages) {
      const html = await (await fetch(`${host.url}${path}`)).text();
      expect(scriptVectors(html), path).toEqual([]);
      expect(metaPolicies(html), path).toEqual([meta]);
      expect(scriptSources(meta)).not.toContain("'unsafe-inline'");
    }
    // What Chromium itself parsed: no element links or loads a javascript: URL.
    const { page, close } = await open();
    for (const path of ['/', '/writings/hostile-markup']) {
      await page.goto(`${host.url}${path}`);
      const urls = await page.evaluate(() =>
        [...document.querySelectorAll('[href], [src]')].map(
          (e) => (e as HTMLAnchorElement).href || (e as HTMLImageElement).src,
        ),
      );
      expect(
        urls.filter((u) => /^(javascript|vbscript):/i.test(u)),
        path,
      ).toEqual([]);
    }
    await close();
  });

  it("the meta policy is in force without a header: an injected inline script is refused, the page's own script runs", async () => {
    const { page, violations, close } = await open();
    await page.goto(`${host.url}/`);
    // The page script refreshes the figures from the API, which it could not do if the policy blocked it.
    await expect
      .poll(() => page.locator('[data-preview="market"] [data-preview-status]').textContent())
      .toMatch(/^Refreshed from /);
    expect(violations).toEqual([]);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.injected = "yes"';
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBeGreaterThanOrEqual(1);
    expect(violations[0]).toMatch(/^script-src(-elem)? blocked inline$/);
    expect(await page.evaluate(() => document.body.dataset.injected)).toBeUndefined();
    await close();
  });

  it('the JSON feed carries no script, event handler or script URL', async () => {
    const text = await (await fetch(`${host.url}/feed.json`)).text();
    expect(text).not.toMatch(/<script|\bon[a-z]+\s*=|javascript:|vbscript:|data:/i);
    const feed = JSON.parse(text) as { items: Array<{ url: string; content_html: string }> };
    const item = feed.items.find((i) => i.url.endsWith('/writings/hostile-markup'));
    expect(item?.content_html).toContain('<a href="https://example.org/ok">good link</a>');
    for (const { content_html } of feed.items) expect(scriptVectors(content_html)).toEqual([]);
  });
});
