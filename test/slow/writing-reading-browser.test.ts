// A writing's reading aids in Chromium (docs/site.md#a-writings-page): a writing with four headings, between
// two others, passes axe-core on a phone and a desktop, light and dark; its "#" links sit inside the window;
// a table of contents entry takes the reader to its section. The markup itself: test/writing-reading.test.ts.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import { contentCopy, type ContentCopy } from '../helpers/hostile-content.ts';
import { DESKTOP, PHONE, SCHEMES, SCREENSHOT_DIR } from '../helpers/site-browser.ts';
import { buildSite, type BuiltSite } from '../helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from '../helpers/site-serve.ts';

const availability = browserAvailability();
const PATH = '/writings/reading-aids';
const WRITING = `---
title: Reading aids
date: 2026-04-01
summary: A writing with four headings, between the fixture's two.
---
An opening paragraph.

## Why a table of contents

Some words about it.

### A smaller point

\`\`\`ts
const minutes = Math.ceil(words / 230);
\`\`\`

## What a reader sees

More words.

## Where it ends

The end.
`;

describe.runIf(availability.available || availability.mustFail)("a writing's reading aids in Chromium", () => {
  let content: ContentCopy;
  let site: BuiltSite;
  let server: StaticServer;
  let browser: Browser;
  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    content = await contentCopy({ 'writings/reading-aids.md': WRITING });
    site = await buildSite({ site: { content: content.dir } });
    expect(site.result.code).toBe(0);
    server = await startServeHandler(site.dir);
    browser = await launchChromium();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
    await content?.close();
  });

  it('passes axe-core at 390 and 1280 px, light and dark, with every "#" link inside the window', async () => {
    for (const viewport of [PHONE, DESKTOP])
      for (const scheme of SCHEMES) {
        const context = await browser.newContext({ viewport, colorScheme: scheme, bypassCSP: true });
        try {
          const page = await context.newPage();
          await page.goto(`${server.url}${PATH}`);
          const setting = `${viewport.width}px ${scheme}`;
          expect(await page.locator('nav.toc a').count(), setting).toBe(4);
          expect(await page.locator('a[rel="prev"], a[rel="next"]').count(), setting).toBe(2);
          for (const box of await page
            .locator('a.anchor')
            .evaluateAll((links) => links.map((a) => a.getBoundingClientRect().toJSON() as DOMRect)))
            expect(box.left, setting).toBeGreaterThanOrEqual(0);
          expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), setting).toBe(0);
          const violations = (await axeViolations(page)).filter((v) => ['serious', 'critical'].includes(v.impact));
          expect(violations, setting).toEqual([]);
          if (scheme === 'light')
            await page.screenshot({
              path: join(SCREENSHOT_DIR, `writing-reading-${viewport.width}.png`),
              fullPage: true,
            });
        } finally {
          await context.close();
        }
      }
  });

  it('a contents entry and a "#" link each lead to their section', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    try {
      await page.goto(`${server.url}${PATH}`);
      await page.locator('nav.toc a', { hasText: 'What a reader sees' }).click();
      expect(await page.evaluate(() => [location.hash, document.querySelector(':target')?.textContent])).toEqual([
        '#what-a-reader-sees',
        'What a reader sees',
      ]);
      await page.getByRole('link', { name: 'Link to the section \u201cWhere it ends\u201d' }).click();
      expect(await page.evaluate(() => location.hash)).toBe('#where-it-ends');
    } finally {
      await page.close();
    }
  });
});
