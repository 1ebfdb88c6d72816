// The pictures' layout, measured in Chromium from the rendered boxes (getBoundingClientRect), never from
// string lengths: on every card, light and dark, built for a 39-character username (GitHub's longest), a
// long zone, rest days and another product, and on a demo build's cards with the "SIMULATED DATA" label,
// no text lies outside the card, no two texts overlap, and the price line passes through no label; the
// home page's chart holds the same at 390 and 1280 px (docs/site.md#embeddable-cards).
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import { readdir, rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, upstreamEnv } from '../helpers/run.ts';
import { runBuild, TEST_SITE_CLOCK } from '../helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from '../helpers/site-serve.ts';

const availability = browserAvailability();
if (!availability.available && !availability.mustFail) console.warn(`card-layout.test.ts: ${availability.reason}`);

/** 39 characters, the longest a GitHub username may be, of the widest letters. */
const USERNAME = `${'W'.repeat(19)}-${'M'.repeat(19)}`;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
interface Measured {
  frame: Box;
  texts: Array<Box & { text: string }>;
  /** Points along the price line (`.sparkline-line`), in the page's pixels; none without a chart. */
  line: Array<{ x: number; y: number }>;
}

/**
 * The boxes of an SVG's texts and the points of its price line, as Chromium lays them out. On a page the
 * texts are HTML labels (builders/render/charts/label.ts): each one's box, its opaque background, is measured.
 */
function measure(page: Page, root: string): Promise<Measured> {
  return page.evaluate((selector) => {
    const svg = document.querySelector<SVGSVGElement>(selector)!;
    const box = (r: DOMRect) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    const texts = [...svg.querySelectorAll('text, .chart-label')]
      .filter((t) => (t.textContent ?? '').trim() !== '' && t.closest('[visibility="hidden"]') === null)
      .map((t) => ({ rect: t.getBoundingClientRect(), text: t.textContent ?? '' }))
      // a text the stylesheet leaves out (display: none) has no box and is not drawn
      .filter(({ rect }) => rect.width > 0 && rect.height > 0)
      .map(({ rect, text }) => ({ ...box(rect), text }));
    const line: Array<{ x: number; y: number }> = [];
    const path = svg.querySelector<SVGPathElement>('.sparkline-line');
    if (path) {
      const ctm = path.getScreenCTM()!;
      const length = path.getTotalLength();
      for (let at = 0; at <= length; at += 0.5) {
        const p = path.getPointAtLength(at).matrixTransform(ctm);
        line.push({ x: p.x, y: p.y });
      }
    }
    return { frame: box(svg.getBoundingClientRect()), texts, line };
  }, root);
}

/** What is wrong with a layout, in words; empty when nothing is. */
function collisions({ frame, texts, line }: Measured): string[] {
  const problems: string[] = [];
  const EPS = 0.5;
  for (const t of texts)
    if (
      t.left < frame.left - EPS ||
      t.right > frame.right + EPS ||
      t.top < frame.top - EPS ||
      t.bottom > frame.bottom + EPS
    )
      problems.push(`"${t.text}" leaves the picture (${JSON.stringify([t.left, t.top, t.right, t.bottom])})`);
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i]!;
      const b = texts[j]!;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > EPS && h > EPS) problems.push(`"${a.text}" and "${b.text}" overlap`);
    }
  for (const t of texts) {
    const through = line.find((p) => p.x > t.left && p.x < t.right && p.y > t.top && p.y < t.bottom);
    if (through)
      problems.push(`the price line passes through "${t.text}" at ${through.x.toFixed(1)},${through.y.toFixed(1)}`);
  }
  return problems;
}

interface Built {
  name: string;
  dir: string;
  fake: FakeUpstreams;
}

/** A build for USERNAME against its own fake, with `env` and the fake's product. */
async function buildFor(name: string, product: string, env: Record<string, string>): Promise<Built> {
  const fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK, account: USERNAME, product });
  const dir = await mkdtemp(join(tmpdir(), `card-layout-${name}-`));
  const result = await runBuild(dir, {
    ...upstreamEnv(fake.url),
    GITHUB_ACCOUNT: USERNAME,
    MARKET_PRODUCT: product,
    SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
    UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
    ...env,
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { name, dir, fake };
}

describe.runIf(availability.available || availability.mustFail)('pictures without collisions, in Chromium', () => {
  let browser: Browser;
  const builds: Built[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    builds.push(
      await buildFor('fork', 'BTC-USD', {
        CALENDAR_TIME_ZONE: 'America/Argentina/ComodRivadavia',
        STREAK_REST_DAYS: 'Sat,Sun',
      }),
      await buildFor('demo', 'MON-USD', { DEMO_SIMULATED: '1' }),
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const b of builds) {
      await b.fake.close();
      await rm(b.dir, { recursive: true, force: true });
    }
  });

  it('every card of a fork and of a demo, light and dark, with a 39-character username', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    let cards = 0;
    for (const build of builds) {
      // The deployment's cards (the per-repository ones under cards/repos/ are test/projects.test.ts's).
      for (const file of (await readdir(join(build.dir, 'cards'))).filter((f) => f.endsWith('.svg'))) {
        await page.goto(pathToFileURL(join(build.dir, 'cards', file)).href);
        const measured = await measure(page, 'svg');
        expect(measured.texts.length, file).toBeGreaterThan(3);
        if (file.includes('-price')) expect(measured.line.length, file).toBeGreaterThan(10);
        for (const problem of collisions(measured)) problems.push(`${build.name} ${file}: ${problem}`);
        cards++;
      }
    }
    // Each build's light and dark card of every dataset.
    expect(cards).toBe(builds.length * 2 * DEFAULT_SERVICE.resources.length);
    expect(problems).toEqual([]);
    await page.close();
  });

  describe("the home page's chart", () => {
    let server: StaticServer;
    beforeAll(async () => {
      server = await startServeHandler(builds.find((b) => b.name === 'demo')!.dir);
    });
    afterAll(() => server?.close());

    for (const width of [390, 1280])
      it(`at ${width} px: its labels in the chart, apart, and clear of the line`, async () => {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.goto(`${server.url}/`);
        // measured as the page script leaves it, after it redraws the chart from the API
        await page.waitForLoadState('networkidle');
        const measured = await measure(page, 'svg.sparkline');
        expect(measured.line.length).toBeGreaterThan(10);
        expect(measured.texts.map((t) => t.text)).toEqual(expect.arrayContaining([expect.stringMatching(/^Low /)]));
        expect(collisions(measured)).toEqual([]);
        await page.close();
      });
  });

  it('can fail: a label moved onto the line, and one moved out of the card, are caught', async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(builds[1]!.dir, 'cards', 'mon-price.svg')).href);
    const measured = await measure(page, 'svg');
    const [first] = measured.line;
    const label = measured.texts.find((t) => /^Low /.test(t.text))!;
    const onLine = { ...label, left: first!.x - 5, right: first!.x + 5, top: first!.y - 5, bottom: first!.y + 5 };
    const outside = { ...label, left: measured.frame.right - 3, right: measured.frame.right + 20 };
    expect(collisions({ ...measured, texts: [onLine] }).join('\n')).toMatch(/passes through "Low /);
    expect(collisions({ ...measured, texts: [outside] }).join('\n')).toMatch(/leaves the picture/);
    expect(collisions({ ...measured, texts: [label, label] }).join('\n')).toMatch(/overlap/);
    await page.close();
  });
});
