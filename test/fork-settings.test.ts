// A fork's own pair and zone (docs/configuration.md#variables): MARKET_PRODUCT and CALENDAR_TIME_ZONE
// reach every route, operation, tool, card and document, and MARKET_PRODUCT=off leaves no trace of a
// market. Builds run as the program does, on a fixed clock, against fakes that list one product.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataResource, productNames, type ServiceTables } from '../builders/contract/service.ts';
import { serviceTables, type ServiceOptions } from '../builders/datasets/registry.ts';
import { calendarWindow } from '../builders/domain/calendar.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { ConfigError } from '../builders/lib/errors.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { listFiles } from './helpers/files.ts';
import { get, startTestGateway } from './helpers/gateway.ts';
import { runNode, upstreamEnv } from './helpers/run.ts';
import { runBuild } from './helpers/site-dist.ts';

// Tuesday 2026-11-24 23:30 UTC: already Wednesday in Berlin, still Tuesday in Toronto.
const CLOCK = Date.parse('2026-11-24T23:30:00Z');
/** Each dataset's v1 and alias operationIds, in the registry's order. */
const operationIds = (options: ServiceOptions | ServiceTables) =>
  ('resources' in options ? options : serviceTables(options)).resources.flatMap((r) => [
    r.v1.operationId,
    r.alias.operationId,
  ]);
/** The deployment of MARKET_PRODUCT=off: every dataset of the registry but the market. */
const WITHOUT_MARKET = serviceTables({ marketProduct: null, calendarTimeZone: 'America/Toronto' });

/** What would name the default product anywhere in a published file. */
const MON = /MON|mon-price|MonPrice|Monad/;

let btcFake: FakeUpstreams;
const dirs: string[] = [];

beforeAll(async () => {
  btcFake = await startFakeUpstreams({ product: 'BTC-USD', now: () => CLOCK });
});
afterAll(async () => {
  await btcFake.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function build(env: Record<string, string>) {
  const out = await mkdtemp(join(tmpdir(), 'fork-'));
  dirs.push(out);
  const result = await runBuild(out, {
    ...upstreamEnv(btcFake.url),
    SOURCE_DATE_EPOCH: String(Math.floor(CLOCK / 1000)),
    ...env,
  });
  return { ...result, out };
}

const readText = (out: string, file: string) => readFile(join(out, file), 'utf8');

describe('MARKET_PRODUCT and CALENDAR_TIME_ZONE together', () => {
  let built: Awaited<ReturnType<typeof build>>;
  beforeAll(async () => {
    built = await build({ MARKET_PRODUCT: 'BTC-USD', CALENDAR_TIME_ZONE: 'Europe/Berlin' });
  });

  it('exits 0 against a provider that lists only the configured product', () => {
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
  });

  it('publishes the market at /api/v1/btc-price and /api/btc-price, with product BTC-USD', async () => {
    const v1 = JSON.parse(await readText(built.out, 'api/v1/btc-price')) as Record<string, unknown>;
    expect(v1.product).toBe('BTC-USD');
    expect(v1.currency).toBe('USD');
    expect(await readText(built.out, 'api/btc-price')).toBe(await readText(built.out, 'api/v1/btc-price'));
    expect(btcFake.requests.some((r) => r.url.startsWith('/products/BTC-USD/ticker'))).toBe(true);
  });

  it('ends the calendar on today in Berlin, with Berlin midnight as the refresh', async () => {
    const calendar = JSON.parse(await readText(built.out, 'api/v1/github-contributions')) as {
      timeZone: string;
      endDate: string;
      startDate: string;
      days: unknown[];
      nextRefreshAt: string;
    };
    expect(calendar.timeZone).toBe('Europe/Berlin');
    expect(calendar.endDate).toBe('2026-11-25');
    expect(calendar.startDate).toBe('2025-11-26');
    expect(calendar.days).toHaveLength(365);
    expect(Date.parse(calendar.nextRefreshAt)).toBe(Date.parse('2026-11-26T00:00:00+01:00'));
    expect(calendar.nextRefreshAt).toMatch(/^2026-11-26T00:00:00(\.000)?\+01:00$/);
  });

  it('names the operations getV1BtcPrice and getBtcPrice, with the schemas saying the configured values', async () => {
    const openapi = JSON.parse(await readText(built.out, 'openapi.json')) as {
      paths: Record<string, { get: { operationId: string } }>;
      components: { schemas: Record<string, { properties: Record<string, { const?: string }> }> };
    };
    expect(openapi.paths['/api/v1/btc-price']!.get.operationId).toBe('getV1BtcPrice');
    expect(openapi.paths['/api/btc-price']!.get.operationId).toBe('getBtcPrice');
    expect(openapi.components.schemas.MarketData!.properties.product!.const).toBe('BTC-USD');
    expect(openapi.components.schemas.GitHubContributions!.properties.timeZone!.const).toBe('Europe/Berlin');
  });

  it('draws the cards /cards/btc-price.svg and its dark twin', async () => {
    const files = await listFiles(built.out);
    expect(files).toEqual(expect.arrayContaining(['cards/btc-price.svg', 'cards/btc-price-dark.svg']));
    expect(await readText(built.out, 'cards/btc-price.svg')).toContain('BTC-USD');
  });

  it('mentions MON in no published file, the CLI included', async () => {
    const files = (await listFiles(built.out)).filter((f) => !/\.(br|gz|png|ico)$/.test(f));
    const mentions: string[] = [];
    for (const file of files) {
      const found = MON.exec(await readText(built.out, file));
      if (found) mentions.push(`${file}: ${found[0]}`);
    }
    expect(mentions).toEqual([]);
  });

  it('says the configured zone in the documents that describe the calendar', async () => {
    for (const file of ['developers.md', 'llms-full.txt', 'openapi.json'])
      expect(await readText(built.out, file), file).toContain('Europe/Berlin');
  });

  it('gives the CLI the price command of the product', async () => {
    const gw = await startTestGateway(
      btcFake.url,
      built.out,
      {
        MARKET_PRODUCT: 'BTC-USD',
        CALENDAR_TIME_ZONE: 'Europe/Berlin',
      },
      { now: () => CLOCK },
    );
    try {
      const price = await runNodeCli(built.out, ['price', '--json', '--base-url', gw.url]);
      expect(price.code).toBe(0);
      expect((JSON.parse(price.stdout) as { product: string }).product).toBe('BTC-USD');
    } finally {
      await gw.close();
    }
  });
});

function runNodeCli(out: string, args: string[]) {
  return runNode(join(out, 'cli.mjs'), args, { PATH: process.env.PATH ?? '' }, 120_000);
}

describe('the gateway of a fork', () => {
  it('serves the live market at its product route and lists its tools, and not the default route', async () => {
    const out = await mkdtemp(join(tmpdir(), 'fork-gw-'));
    dirs.push(out);
    const gw = await startTestGateway(btcFake.url, out, { MARKET_PRODUCT: 'BTC-USD' }, { now: () => CLOCK });
    try {
      const price = await get(gw.url, '/api/btc-price');
      expect(price.status).toBe(200);
      expect((JSON.parse(price.text) as { product: string }).product).toBe('BTC-USD');
      expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(404);
      const list = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      const tools = (JSON.parse(list.text) as { result: { tools: Array<{ name: string }> } }).result.tools;
      expect(tools.map((t) => t.name)).toEqual([
        'getV1BtcPrice',
        'getBtcPrice',
        ...operationIds({ marketProduct: null, calendarTimeZone: 'Europe/Berlin' }),
      ]);
    } finally {
      await gw.close();
    }
  });
});

describe('MARKET_PRODUCT=off', () => {
  it('publishes the calendar and its streak alone: no file, operation, tool or page section about a price', async () => {
    btcFake.resetCalls();
    const { code, stderr, out } = await build({ MARKET_PRODUCT: 'off' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const files = await listFiles(out);
    expect(files.filter((f) => /price/.test(f))).toEqual([]);
    expect(files).toContain('api/v1/github-contributions');
    // No market dataset: the provider is never asked.
    expect(btcFake.calls.ticker + btcFake.calls.candles).toBe(0);
    expect(btcFake.calls.html).toBeGreaterThan(0);
    const openapi = JSON.parse(await readText(out, 'openapi.json')) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(openapi.paths).sort()).toEqual([...WITHOUT_MARKET.paths.keys()].sort());
    expect(Object.keys(openapi.components.schemas)).not.toContain('MarketData');
    const index = JSON.parse(await readText(out, 'api/index.json')) as {
      routes: unknown[];
      mcp: { tools: string[] };
    };
    expect(index.routes).toHaveLength(WITHOUT_MARKET.resources.length);
    expect(index.mcp.tools).toEqual(operationIds(WITHOUT_MARKET));
    const home = await readText(out, 'index.html');
    expect(home).not.toContain('data-preview="market"');
    const mentions: string[] = [];
    // cli.mjs carries the route table's code (its market branch included), not a market.
    for (const file of files.filter((f) => /\.(html|md|txt|json|xml|svg)$|^api\//.test(f))) {
      const found = /MON-USD|-price\b|\/products\/|MarketData|getV1\w*Price/.exec(await readText(out, file));
      if (found) mentions.push(`${file}: ${found[0]}`);
    }
    expect(mentions).toEqual([]);
    // The generated documents describe the calendar alone (the site's own prose may say what it likes).
    for (const file of ['developers.md', 'llms.txt', 'openapi.json', 'api/index.json'])
      expect(await readText(out, file), file).not.toMatch(/market preview/i);
    const help = await runNodeCli(out, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).not.toMatch(/\bprice\b/);
    const price = await runNodeCli(out, ['price']);
    expect(price.code).toBe(2);

    // The gateway serving it: its own OpenAPI document and MCP tools say nothing of a market either.
    const gw = await startTestGateway(btcFake.url, out, { MARKET_PRODUCT: 'off' }, { now: () => CLOCK });
    try {
      const openapi = await get(gw.url, '/openapi.json');
      expect(openapi.status).toBe(200);
      expect(openapi.text).not.toMatch(/MarketUpstreamUnavailable|MarketData|market preview|MON-USD|-price\b/i);
      const list = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      const tools = (JSON.parse(list.text) as { result: { tools: Array<{ name: string }> } }).result.tools;
      expect(tools.map((t) => t.name)).toEqual(operationIds(WITHOUT_MARKET));
      expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(404);
    } finally {
      await gw.close();
    }
  });
});

// A ConfigError is exit 2 with its one line, nothing built, for every program (test/build.test.ts spawns
// the build for one); which values are refused is the configuration's own table.
describe('refused at start, naming the variable (exit 2)', () => {
  it.each([
    ['MARKET_PRODUCT', 'BTC-EUR'],
    ['MARKET_PRODUCT', 'BTC'],
    ['MARKET_PRODUCT', '../x-USD'],
    ['CALENDAR_TIME_ZONE', 'Mars/Olympus_Mons'],
    ['CALENDAR_TIME_ZONE', '+05:00'],
  ])('%s=%s', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(name);
    expect((error as ConfigError).message).toContain(name);
  });
});

describe('the route names of a product', () => {
  it('lower-cases the base for paths and capitalises it for operationIds', () => {
    expect(productNames('BTC-USD')).toEqual({ slug: 'btc', name: 'Btc' });
    expect(productNames('1INCH-USD')).toEqual({ slug: '1inch', name: '1inch' });
    const tables = serviceTables(loadConfig({ MARKET_PRODUCT: 'eth-usd' }));
    expect(dataResource(tables, 'market').v1).toMatchObject({
      path: '/api/v1/eth-price',
      operationId: 'getV1EthPrice',
    });
    expect(tables.cards.map((c) => c.path)).toContain('/cards/eth-price-dark.svg');
  });

  it('spells a zone as the time-zone database does', () => {
    expect(loadConfig({ CALENDAR_TIME_ZONE: 'europe/berlin' }).calendarTimeZone).toBe('Europe/Berlin');
  });
});

describe('the window in other zones, swept', () => {
  // The last date is today's date in the zone, for instants either side of its midnight, in both seasons.
  it.each([
    ['Europe/Berlin', '2026-03-28T22:59:59Z', '2026-03-28', '2026-03-29T00:00:00.000+01:00'],
    ['Europe/Berlin', '2026-03-28T23:00:00Z', '2026-03-29', '2026-03-30T00:00:00.000+02:00'],
    ['Europe/Berlin', '2026-10-25T21:59:59Z', '2026-10-25', '2026-10-26T00:00:00.000+01:00'],
    ['Asia/Tokyo', '2026-12-31T15:00:00Z', '2027-01-01', '2027-01-02T00:00:00.000+09:00'],
    ['Pacific/Auckland', '2026-06-30T11:59:59Z', '2026-06-30', '2026-07-01T00:00:00.000+12:00'],
    ['America/Los_Angeles', '2026-11-02T07:59:59Z', '2026-11-01', '2026-11-02T00:00:00.000-08:00'],
    ['UTC', '2028-02-29T23:59:59Z', '2028-02-29', '2028-03-01T00:00:00.000Z'],
  ])('%s at %s ends on %s', (zone, instant, endDate, next) => {
    const w = calendarWindow(Date.parse(instant), zone);
    expect(w.endDate).toBe(endDate);
    expect(w.dates).toHaveLength(365);
    expect(w.nextRefreshAt).toBe(next);
  });
});
