// The home page's live price (docs/site.md#live-ticks) in Chromium: a site built with MARKET_WS_URL
// pointing at the fake feed (test/fakes/live-feed.ts) and served by the gateway. It subscribes, shows an
// accepted tick (price, change, low, high, the chart's last point, "live" with the tick's time), never
// shows a tick the rule ignores, tells its live region at most once in a stream of ticks, reconnects after
// a close, after silence and through refusals, lets go of its socket while hidden; with MARKET_WS_URL=off
// or MARKET_PRODUCT=off it opens no socket. The pages' policy names exactly the feed. Then the CLI's
// `price --watch`, spawned, against the same feed.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { javaAvailability, vnuErrors } from '../helpers/vnu.ts';
import { startFakeFeed, type FakeFeed } from '../fakes/live-feed.ts';
import { formatFixed } from '../../builders/render/format.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';
import { get, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { cleanEnv, ROOT } from '../helpers/run.ts';
import { DESKTOP, PHONE, withReaderClock } from '../helpers/site-browser.ts';
import { buildSite, TEST_SITE_CLOCK, type BuiltSite } from '../helpers/site-dist.ts';

const availability = browserAvailability();
const java = javaAvailability();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
if (!availability.available && !availability.mustFail) console.warn(`live-feed.test.ts: ${availability.reason}`);

/** The reader's clock and the gateway's: five minutes after the build, while its data are valid. */
const READ_AT = TEST_SITE_CLOCK + 5 * 60_000;
/**
 * Tick times: after the build's ticker (its asOf, the first tick's floor), later and later, and never
 * more than 5 minutes ahead of the reader's clock (READ_AT), which the page holds ticks to.
 */
let tickClock = TEST_SITE_CLOCK + 60_000;
const nextTime = () => new Date((tickClock += 1000)).toISOString();

interface Served {
  site: BuiltSite;
  gateway: TestGateway;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const site = await buildSite({ env });
  expect(site.result.code, site.result.stderr).toBe(0);
  const gateway = await startTestGateway(site.fake.url, site.dir, env, { now: () => READ_AT });
  return { site, gateway };
}

async function stop(served: Served | undefined): Promise<void> {
  await served?.gateway.close();
  await served?.site.close();
}

describe.runIf(availability.available || availability.mustFail)('the live price in Chromium', () => {
  let feed: FakeFeed;
  let live: Served;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!availability.available) throw new Error(availability.reason);
    feed = await startFakeFeed();
    live = await serve({ MARKET_WS_URL: feed.url });
    browser = withReaderClock(await launchChromium(), READ_AT);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stop(live);
    await feed?.close();
  });

  /**
   * The home page, its errors, every value the price has shown and every change of a live region (an
   * element with aria-live or role status/alert, or inside one) recorded from the start.
   */
  async function home(
    served: Served = live,
    viewport: { width: number; height: number } = DESKTOP,
    { ownClock = false }: { ownClock?: boolean } = {},
  ): Promise<{ page: Page; errors: string[]; sockets: string[] }> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    // The page's timers and performance.now() on a clock the test moves (clock.pauseAt, runFor).
    if (ownClock) await context.clock.install({ time: READ_AT });
    const page = await context.newPage();
    const errors: string[] = [];
    const sockets: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.addInitScript(() => {
      const w = window as unknown as { shownValues: string[]; liveChanges: number };
      w.shownValues = [];
      w.liveChanges = 0;
      // A live region: aria-live other than "off", or a status or alert role. A change of text inside one
      // is what a screen reader announces; text written while its aria-live is "off" is not.
      const LIVE = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]';
      new MutationObserver((records) => {
        const value = document.querySelector('[data-preview="market"] [data-field="value"]')?.textContent;
        if (value && w.shownValues[w.shownValues.length - 1] !== value) w.shownValues.push(value);
        const told = records.some((r) => {
          if (r.type !== 'childList' && r.type !== 'characterData') return false;
          const at = r.target instanceof Element ? r.target : r.target.parentElement;
          return at?.closest(LIVE) != null;
        });
        if (told) w.liveChanges++;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${served.gateway.url}/`);
    // The page script's redraw from the API is done before the ticks start.
    await page.waitForSelector('[data-preview="market"][data-refreshed="true"]');
    return { page, errors, sockets };
  }

  const firstValue = async (page: Page) => {
    const series = await page.locator('[data-preview="market"] svg.sparkline').getAttribute('data-series');
    return Number(series!.split(' ')[0]!.split(',')[1]);
  };
  const decimalsOf = async (page: Page) =>
    Number(await page.locator('[data-preview="market"] svg.sparkline').getAttribute('data-decimals'));
  const valueText = (page: Page) => page.locator('[data-preview="market"] [data-field="value"]').textContent();
  const shown = (page: Page) => page.evaluate(() => (window as unknown as { shownValues: string[] }).shownValues);
  const liveChanges = (page: Page) => page.evaluate(() => (window as unknown as { liveChanges: number }).liveChanges);

  it("subscribes to the product's ticker and heartbeat within 5 s", async () => {
    const before = feed.subscriptions.length;
    await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    expect(feed.subscriptions.at(-1)).toEqual({ product_ids: ['MON-USD'], channels: ['ticker', 'heartbeat'] });
  });

  it("shows a tick at twice the first value with +100.00 % within 3 s, live with the tick's time", async () => {
    const before = feed.subscriptions.length;
    const { page, errors } = await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    const first = await firstValue(page);
    const decimals = await decimalsOf(page);
    const time = nextTime();
    feed.tick({ price: (2 * first).toFixed(8), time });
    const figure = page.locator('[data-preview="market"]');
    await expect.poll(() => valueText(page), { timeout: 3_000 }).toBe(`${formatFixed(2 * first, decimals)} USD`);
    expect(await figure.locator('[data-field="changePercent"]').textContent()).toBe('+100.00 %');
    expect(await figure.locator('data[data-field="high"]').getAttribute('value')).toBe(
      String(Number((2 * first).toFixed(8))),
    );
    const asOf = figure.locator('time[data-field="asOf"]');
    expect(await asOf.getAttribute('datetime')).toBe(time);
    expect(await figure.locator('.stat-wide dt').textContent()).toMatch(/^Live/);
    const series = (await figure.locator('svg.sparkline').getAttribute('data-series'))!.split(' ');
    expect(series.at(-1)).toBe(`${Math.floor(Date.parse(time) / 1000)},${Number((2 * first).toFixed(8))}`);
    // The chart's text alternative says the same price.
    expect(await figure.locator('svg.sparkline').getAttribute('aria-label')).toContain(
      `to ${formatFixed(2 * first, decimals)} USD`,
    );
    // The readout's "Last point" moves with it (issue 42).
    expect(await figure.locator('[data-readout]').textContent()).toMatch(
      new RegExp(`^Last point: ${formatFixed(2 * first, decimals).replace('.', '\\.')} USD at `),
    );
    expect(errors).toEqual([]);
  });

  it.each([
    ['desktop', DESKTOP, false],
    ['phone', PHONE, false],
    ['phone, a demo site', PHONE, true],
  ] as const)('ticks shift no layout (%s)', async (_name, viewport, simulated) => {
    const before = feed.subscriptions.length;
    const { page } = await home(live, viewport);
    await feed.waitForSubscriptions(before + 1, 5_000);
    // A demo site's label is the longer one ("Live (simulated), as of").
    if (simulated)
      await page.evaluate(() => {
        document.querySelector<HTMLElement>('[data-preview="market"]')!.dataset.liveSimulated = 'true';
      });
    await page.evaluate(() => {
      const w = window as unknown as { shifts: number };
      w.shifts = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
          if (!e.hadRecentInput) w.shifts += e.value;
      }).observe({ type: 'layout-shift' });
    });
    const decimals = await decimalsOf(page);
    const first = await firstValue(page);
    for (const factor of [2, 0.5, 1.01]) {
      feed.tick({ price: (factor * first).toFixed(8), time: nextTime() });
      await expect.poll(() => valueText(page), { timeout: 3_000 }).toBe(`${formatFixed(factor * first, decimals)} USD`);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
    // The observer sees a shift when there is one (the check can fail).
    await page.evaluate(() => {
      const block = document.createElement('p');
      block.textContent = 'x';
      block.className = 'lede';
      document.querySelector('main')!.prepend(block);
    });
    await expect.poll(() => page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeGreaterThan(0);
  });

  it('after ticks the page is still valid HTML (Nu) with no serious or critical axe violation', async () => {
    const before = feed.subscriptions.length;
    const { page } = await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    const first = await firstValue(page);
    for (const factor of [2, 0.5]) feed.tick({ price: (factor * first).toFixed(8), time: nextTime() });
    await expect.poll(() => page.locator('[data-preview="market"]').getAttribute('data-live')).toBe('true');
    await new Promise((r) => setTimeout(r, 500));
    const html = await page.evaluate(() => `<!doctype html>\n${document.documentElement.outerHTML}\n`);
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(o: object): Promise<{ violations: Array<{ id: string; impact: string }> }> };
        }
      ).axe;
      const result = await axe.run({ resultTypes: ['violations'] });
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(violations).toEqual([]);
    if (!java.available) {
      if (java.mustFail) throw new Error(java.reason);
      console.warn(`live-feed.test.ts: ${java.reason}`);
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'live-html-'));
    try {
      await writeFile(join(dir, 'live.html'), html);
      expect(await vnuErrors([join(dir, 'live.html')])).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('never shows a tick of another product, a bad price, an unparsable or older time, or non-JSON', async () => {
    const before = feed.subscriptions.length;
    const { page } = await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    const decimals = await decimalsOf(page);
    const good = 0.0123;
    feed.tick({ price: String(good), time: nextTime() });
    await expect.poll(() => valueText(page), { timeout: 3_000 }).toBe(`${formatFixed(good, decimals)} USD`);
    const older = new Date(tickClock - 60_000).toISOString();
    for (const fields of [
      { product: 'BTC-USD', price: '0.0999' },
      { price: '0' },
      { price: '-0.0777' },
      { price: 'abc' },
      { price: '0.0666', time: 'not a time' },
      { price: '0.0555', time: older },
      { price: '0.0533', time: '2999-12-31T23:59:59Z' },
      { price: '0.0522', time: new Date(READ_AT + 5 * 60_000 + 1000).toISOString() },
      { price: '0.0511', time: `${new Date(tickClock + 500).toISOString().slice(0, 19)}.${'1'.repeat(10_000)}Z` },
      { price: `0.0${'5'.repeat(31)}` },
      { price: '1e-321' },
      { price: '9'.repeat(308) },
    ])
      feed.tick({ time: nextTime(), ...fields });
    feed.sendRaw('{"type":"error","message":"Failed to subscribe","price":"0.0444"}');
    feed.sendRaw('not json at all');
    // A good tick after them: once it shows, every message before it has been judged.
    const sentinel = 0.0321;
    feed.tick({ price: String(sentinel), time: nextTime() });
    await expect.poll(() => valueText(page), { timeout: 3_000 }).toBe(`${formatFixed(sentinel, decimals)} USD`);
    const values = await shown(page);
    expect(values.slice(-2)).toEqual([`${formatFixed(good, decimals)} USD`, `${formatFixed(sentinel, decimals)} USD`]);
    for (const bad of ['0.0999', '0.0777', '0.0666', '0.0555', '0.0444', '0.0533', '0.0522', '0.0511'])
      expect(values.join(' ')).not.toContain(formatFixed(Number(bad), decimals));
  });

  it('six ticks in 5 s change the live regions at most once; the price shows each', async () => {
    const before = feed.subscriptions.length;
    const { page } = await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    const decimals = await decimalsOf(page);
    const changesBefore = await liveChanges(page);
    const prices = [0.031, 0.032, 0.033, 0.034, 0.035, 0.036];
    for (const price of prices) {
      feed.tick({ price: String(price), time: nextTime() });
      await expect.poll(() => valueText(page), { timeout: 3_000 }).toBe(`${formatFixed(price, decimals)} USD`);
      await new Promise((r) => setTimeout(r, 700));
    }
    expect((await liveChanges(page)) - changesBefore).toBeLessThanOrEqual(1);
    expect((await shown(page)).slice(-6)).toEqual(prices.map((p) => `${formatFixed(p, decimals)} USD`));
    // "Last point" moved with each (only its announcement waits for the minute).
    expect(await page.locator('[data-preview="market"] [data-readout]').textContent()).toContain(
      `Last point: ${formatFixed(0.036, decimals)} USD`,
    );
  });

  it(
    '400 ticks a second for 8 s: at most 4 redraws a second, the latest tick shown, long tasks under 30 %',
    {
      timeout: 60_000,
    },
    async () => {
      // Alone: every socket of the feed is this page's.
      for (const c of contexts.splice(0)) await c.close();
      await expect.poll(() => feed.open, { timeout: 5_000 }).toBe(0);
      const before = feed.subscriptions.length;
      const { page, errors } = await home(live, DESKTOP, { ownClock: true });
      await feed.waitForSubscriptions(before + 1, 5_000);
      const decimals = await decimalsOf(page);
      // From here the page's time moves only when the test moves it, 25 ms a step: a redraw's time is the
      // page clock's when its timer fired, not when a loaded machine got round to it, so "4 a second" is
      // counted exactly (the long tasks are measured on the real clock).
      // (A second ahead of the page's own time: shorter than its silence and reconnection waits.)
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      await page.evaluate(() => {
        const w = window as unknown as { redraws: number[]; longTasks: number; rows: number };
        w.redraws = [];
        w.longTasks = 0;
        w.rows = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longTasks += e.duration;
        }).observe({ type: 'longtask' });
        const figure = document.querySelector('[data-preview="market"]')!;
        new MutationObserver((records) => {
          for (const r of records)
            for (const n of Array.from(r.addedNodes)) {
              if (n instanceof SVGSVGElement && n.classList.contains('sparkline')) w.redraws.push(performance.now());
              if (n instanceof HTMLTableRowElement) w.rows++;
            }
        }).observe(figure, { subtree: true, childList: true });
      });
      const startedAt = performance.now();
      // 400 a second: 10 every 25 ms, for 8 s, all at one instant (a burst of trades in one millisecond
      // is in order: a time no earlier than the last tick's).
      const time = nextTime();
      let sent = 0;
      while (sent < 3200) {
        for (let i = 0; i < 10; i++) feed.tick({ price: (0.03 + (sent++ % 1000) / 1e6).toFixed(6), time });
        // The page's 25 ms and, at least, the wall's: 400 a second on both clocks.
        await Promise.all([page.clock.runFor(25), new Promise((r) => setTimeout(r, 25))]);
      }
      const last = (0.03 + ((sent - 1) % 1000) / 1e6).toFixed(6);
      // The last ticks may still be on the wire: each look gives the kept tick's timer its turn.
      await expect
        .poll(
          async () => {
            await page.clock.runFor(250);
            return valueText(page);
          },
          { timeout: 5_000 },
        )
        .toBe(`${formatFixed(Number(last), decimals)} USD`);
      const endedAt = performance.now();
      const { redraws, longTasks, rows } = await page.evaluate(() => {
        const w = window as unknown as { redraws: number[]; longTasks: number; rows: number };
        return { ...w };
      });
      expect(redraws.length).toBeGreaterThanOrEqual(8);
      const perSecond = new Map<number, number>();
      for (const t of redraws) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(4);
      // The table is not rebuilt per redraw: a row replaced at most per redraw (the last day's), but for the
      // first redraw, whose tick may move the window and with it every row once.
      const tableRows = await page.locator('[data-preview="market"] .chart-data tbody tr').count();
      expect(rows).toBeLessThanOrEqual(redraws.length - 1 + tableRows);
      expect(rows).toBeLessThan(redraws.length * tableRows);
      expect(longTasks / (endedAt - startedAt)).toBeLessThan(0.3);
      expect(errors).toEqual([]);
    },
  );

  it('subscribes again within 10 s after the feed closes the socket', async () => {
    const before = feed.subscriptions.length;
    await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    feed.closeAll();
    await feed.waitForSubscriptions(before + 2, 10_000);
  });

  it('reconnects within 45 s after 30 s of silence', { timeout: 90_000 }, async () => {
    const before = feed.subscriptions.length;
    await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    const connections = feed.connections;
    feed.silent = true;
    try {
      await expect.poll(() => feed.connections, { timeout: 45_000, interval: 500 }).toBeGreaterThan(connections);
    } finally {
      feed.silent = false;
    }
  });

  it('lets go of its socket after a minute hidden and opens it again when seen', { timeout: 120_000 }, async () => {
    // The other pages go first: after the silence before, they reconnect at moments of their own, and a
    // count of the feed's sockets would move with them. Alone, this page's socket is the feed's only one.
    for (const c of contexts.splice(0)) await c.close();
    await expect.poll(() => feed.open, { timeout: 5_000 }).toBe(0);
    const before = feed.subscriptions.length;
    const { page } = await home();
    await feed.waitForSubscriptions(before + 1, 5_000);
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    expect(feed.open).toBe(1);
    await setVisibility('hidden');
    await expect.poll(() => feed.open, { timeout: 75_000, interval: 1_000 }).toBe(0);
    await setVisibility('visible');
    await feed.waitForSubscriptions(before + 2, 10_000);
  });

  it(
    'a feed refusing every upgrade for 30 s gets 1 to 8 attempts; the price stays, nothing is thrown',
    { timeout: 90_000 },
    async () => {
      // The other pages' sockets go first, so every attempt counted is this page's.
      for (const c of contexts.splice(0)) await c.close();
      await expect.poll(() => feed.open, { timeout: 5_000 }).toBe(0);
      feed.refuse = true;
      try {
        const attempts = feed.attempts;
        const { page, errors } = await home();
        const price = await valueText(page);
        await new Promise((r) => setTimeout(r, 30_000));
        const made = feed.attempts - attempts;
        expect(made).toBeGreaterThanOrEqual(1);
        expect(made).toBeLessThanOrEqual(8);
        expect(await valueText(page)).toBe(price);
        expect(errors).toEqual([]);
      } finally {
        feed.refuse = false;
      }
    },
  );

  it(
    'a feed that answers one message and closes gets at most 8 reconnections in 30 s',
    { timeout: 90_000 },
    async () => {
      for (const c of contexts.splice(0)) await c.close();
      await expect.poll(() => feed.open, { timeout: 5_000 }).toBe(0);
      feed.hangUp = true;
      try {
        const { page, errors } = await home();
        const connections = feed.connections;
        await new Promise((r) => setTimeout(r, 30_000));
        expect(feed.connections - connections).toBeLessThanOrEqual(8);
        expect(feed.connections - connections).toBeGreaterThanOrEqual(1);
        expect(await page.locator('[data-preview="market"]').getAttribute('data-live')).toBeNull();
        expect(errors).toEqual([]);
      } finally {
        feed.hangUp = false;
      }
    },
  );

  it("the pages' policy names the feed's origin in connect-src, and no wildcard", async () => {
    for (const path of ['/', '/developers', '/no-such-page']) {
      const policy = String((await get(live.gateway.url, path)).headers['content-security-policy']);
      expect(policy, path).toContain(`connect-src 'self' ${feed.origin}`);
      expect(policy, path).not.toContain('*');
    }
    const headers = await live.site.read('_headers');
    expect(headers).toContain(`connect-src 'self' ${feed.origin}`);
    expect(await live.site.read('serve.json')).toContain(`connect-src 'self' ${feed.origin}`);
  });

  it.each([['MARKET_WS_URL'], ['MARKET_PRODUCT']])(
    '%s=off: no socket in 8 s and no feed in the policy',
    { timeout: 120_000 },
    async (variable) => {
      const off = await serve({ MARKET_WS_URL: feed.url, [variable]: 'off' });
      // The other pages go first, so that any attempt counted would be this page's.
      for (const c of contexts.splice(0)) await c.close();
      try {
        const attempts = feed.attempts;
        const context = await browser.newContext({ viewport: DESKTOP });
        contexts.push(context);
        const page = await context.newPage();
        const sockets: string[] = [];
        page.on('websocket', (ws) => sockets.push(ws.url()));
        await page.goto(`${off.gateway.url}/`);
        await new Promise((r) => setTimeout(r, 8_000));
        expect(sockets).toEqual([]);
        expect(feed.attempts).toBe(attempts);
        expect(await page.locator('[data-live-feed]').count()).toBe(0);
        const policy = String((await get(off.gateway.url, '/')).headers['content-security-policy']);
        expect(policy).not.toContain('connect-src');
        expect(policy).not.toContain(feed.origin);
        expect(await off.site.read('_headers')).not.toContain(feed.origin);
      } finally {
        await stop(off);
      }
    },
  );
});

describe('cli.mjs price --watch against the fake feed', () => {
  let feed: FakeFeed;
  let served: Served;
  beforeAll(async () => {
    feed = await startFakeFeed();
    served = await serve({ MARKET_WS_URL: feed.url });
  });
  afterAll(async () => {
    await stop(served);
    await feed?.close();
  });

  /** Spawns dist's cli.mjs against the gateway; lines of stdout as they come. */
  function watch(args: string[]) {
    const child = spawn(process.execPath, [`${served.site.dir}/cli.mjs`, 'price', '--watch', ...args], {
      cwd: ROOT,
      env: cleanEnv({ NO_COLOR: '1', CLI_BASE_URL: served.gateway.url }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let stderr = '';
    createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return { child, lines, stderr: () => stderr, exited };
  }

  it(
    'a feed it cannot reach: one stderr line within 10 s naming it, still running, exit 0 on SIGINT',
    {
      timeout: 120_000,
    },
    async () => {
      // A site built for a feed nobody listens on (port 9, discard: refused on loopback).
      const unreachable = await serve({ MARKET_WS_URL: 'ws://127.0.0.1:9' });
      const child = spawn(
        process.execPath,
        [`${unreachable.site.dir}/cli.mjs`, 'price', '--watch', '--base-url', unreachable.gateway.url],
        {
          cwd: ROOT,
          env: cleanEnv({ NO_COLOR: '1' }),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      try {
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d));
        const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
        child.stdout!.resume();
        await expect
          .poll(() => stderr, { timeout: 10_000, interval: 200 })
          .toContain('cli.mjs: cannot reach the live feed ws://127.0.0.1:9; still trying (Ctrl-C stops)');
        // Attempts go on (about 1, 2, 4 s apart); no line is said for each.
        await new Promise((r) => setTimeout(r, 8_000));
        expect(stderr.match(/cannot reach/g)).toHaveLength(1);
        expect(child.exitCode).toBeNull();
        child.kill('SIGINT');
        expect(await exited).toBe(0);
      } finally {
        child.kill('SIGKILL');
        await stop(unreachable);
      }
    },
  );

  it.each([[[] as string[]], [['--json']]])(
    'price --watch %j prints each tick within 3 s and exits 0 on SIGINT',
    async (args) => {
      const before = feed.subscriptions.length;
      const run = watch(['--base-url', served.gateway.url, ...args]);
      try {
        await feed.waitForSubscriptions(before + 1, 15_000);
        const printed = run.lines.length;
        for (const price of ['0.0411', '0.0422']) {
          const time = nextTime();
          feed.tick({ price, time });
          await expect
            .poll(() => run.lines.slice(printed).some((l) => l.includes(price.replace(/0+$/, ''))), { timeout: 3_000 })
            .toBe(true);
          if (args.includes('--json')) {
            const line = run.lines.findLast((l) => l.includes(price))!;
            expect(JSON.parse(line)).toEqual({ product: 'MON-USD', price: Number(price), time });
          }
        }
        feed.tick({ product: 'BTC-USD', price: '0.0999', time: nextTime() });
        feed.tick({ price: '0', time: nextTime() });
        await new Promise((r) => setTimeout(r, 1_000));
        expect(run.lines.join('\n')).not.toContain('0.0999');
        run.child.kill('SIGINT');
        expect(await run.exited).toBe(0);
        // The site's snapshot is days old by the CLI's clock (a stale warning may say so); nothing failed.
        expect(run.stderr()).not.toMatch(/error/i);
        if (!args.includes('--json')) expect(run.lines.join('\n')).toMatch(/^MON-USD/m);
      } finally {
        run.child.kill('SIGKILL');
      }
    },
  );
});
