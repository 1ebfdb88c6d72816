// The home page's live price (docs/site.md#live-ticks) in Chromium: a site built with MARKET_WS_URL
// pointing at the fake feed (tools/fakes/live-feed.ts) and served by the gateway. It subscribes, shows an
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
import { startFakeFeed, type FakeFeed } from '../../tools/fakes/live-feed.ts';
import { formatFixed } from '../../render/format.ts';
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
/** Tick times: after the build's ticker, later and later. */
let tickClock = TEST_SITE_CLOCK + 10 * 60_000;
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
  ): Promise<{ page: Page; errors: string[]; sockets: string[] }> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    const errors: string[] = [];
    const sockets: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.addInitScript(() => {
      const w = window as unknown as { shownValues: string[]; liveChanges: number };
      w.shownValues = [];
      w.liveChanges = 0;
      const LIVE = '[aria-live], [role="status"], [role="alert"]';
      const liveText = () =>
        Array.from(document.querySelectorAll(LIVE))
          .map((e) => e.textContent)
          .join('\u0000');
      let before = '';
      new MutationObserver(() => {
        const value = document.querySelector('[data-preview="market"] [data-field="value"]')?.textContent;
        if (value && w.shownValues[w.shownValues.length - 1] !== value) w.shownValues.push(value);
        const now = liveText();
        if (now !== before) w.liveChanges++;
        before = now;
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      document.addEventListener('DOMContentLoaded', () => (before = liveText()));
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
    for (const bad of ['0.0999', '0.0777', '0.0666', '0.0555', '0.0444'])
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
  });

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
