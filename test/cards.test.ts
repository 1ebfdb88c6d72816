// The four embeddable SVG cards (docs/api.md#published-paths): written by the build from its snapshots, keeping the
// rules of an image others embed (no script, event attribute or outside reference; title, desc, size;
// under 30 KiB; as-of time and source stated; the market card's no-advice line), served as image/svg+xml
// with the cache rule of their data by the gateway and by the static-host configurations, and drawn
// "unavailable" (no number, when last available) when their data are, never left from an earlier build.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { CACHE_CONTROL, CARD_CONTENT_SECURITY_POLICY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { upstreamEnv } from './helpers/run.ts';
import { runBuild, sharedSite, TEST_SITE_URL, type SiteFiles } from './helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';
import { cardViolations } from './helpers/svg-card.ts';
import { marketCard } from '../builders/datasets/market/card.ts';
import { LIGHT } from '../builders/render/charts/theme.ts';
import { textWidth } from '../builders/render/text-width.ts';
import { formatInstant } from '../builders/render/format.ts';

let site: SiteFiles;
let fake: FakeUpstreams;
let gateway: TestGateway;
let serve: StaticServer;

beforeAll(async () => {
  site = sharedSite();
  fake = await startFakeUpstreams();
  gateway = await startTestGateway(fake.url, site.dir);
  serve = await startServeHandler(site.dir);
});
afterAll(async () => {
  await gateway?.close();
  await serve?.close();
  await fake?.close();
});

describe('the cards in dist/', () => {
  it('are a light and a dark card for each dataset of the registry', async () => {
    expect(DEFAULT_SERVICE.cards.map((c) => c.path).sort()).toEqual(
      DEFAULT_SERVICE.resources.flatMap((r) => [`/cards/${r.card}-dark.svg`, `/cards/${r.card}.svg`]).sort(),
    );
    const files = await site.files();
    for (const card of DEFAULT_SERVICE.cards) expect(files).toContain(card.file);
  });

  it.each(DEFAULT_SERVICE.cards.map((c) => [c.file, c] as const))(
    '%s keeps every rule of an embeddable image',
    async (file) => {
      const svg = await site.read(file);
      expect(cardViolations(svg)).toEqual([]);
      expect(Buffer.byteLength(svg)).toBeLessThan(30 * 1024);
      expect(svg).toMatch(/as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      expect(svg).toMatch(/Source: /);
    },
  );

  it('the market cards state the value, the provider, the as-of time and the no-advice line', async () => {
    const market = await site.json<MarketData>('api/v1/mon-price');
    const asOf = `${market.asOf.slice(0, 10)} ${market.asOf.slice(11, 16)} UTC`;
    for (const file of ['cards/mon-price.svg', 'cards/mon-price-dark.svg']) {
      const svg = await site.read(file);
      expect(svg).toContain(`as of ${asOf}`);
      expect(svg).toContain(`Source: ${market.source}`);
      expect(svg).toContain('not a trading recommendation or financial advice');
      expect(svg).toMatch(new RegExp(`>${String(market.value).replace('.', '\\.')}0* USD<`));
    }
  });

  it('the calendar cards state the account, the total and the window', async () => {
    const calendar = await site.json<GitHubContributions>('api/v1/github-contributions');
    for (const file of ['cards/github-contributions.svg', 'cards/github-contributions-dark.svg']) {
      const svg = await site.read(file);
      expect(svg).toContain(`${calendar.username} · GitHub contributions`);
      expect(svg).toContain(
        `${calendar.totalContributions.toLocaleString('en-US')} contributions from ${calendar.startDate} to ${calendar.endDate}`,
      );
      // one square per day of the window
      expect([...svg.matchAll(/<rect x="\d+" y="\d+" width="11" height="11" rx="2"\/>/g)]).toHaveLength(365);
    }
  });

  it('the dark cards are dark and the light ones light', async () => {
    const background = (svg: string) => /<rect x="0.5" y="0.5"[^>]* fill="(#[0-9a-f]{6})"/.exec(svg)![1]!;
    const luminance = (hex: string) => [1, 3, 5].reduce((sum, i) => sum + parseInt(hex.slice(i, i + 2), 16), 0) / 3;
    for (const card of DEFAULT_SERVICE.cards) {
      const lum = luminance(background(await site.read(card.file)));
      if (card.scheme === 'dark') expect(lum, card.file).toBeLessThan(64);
      else expect(lum, card.file).toBeGreaterThan(192);
    }
  });
});

describe('the cards over HTTP', () => {
  it.each(DEFAULT_SERVICE.cards.map((c) => [c.path, c] as const))(
    '%s: the gateway sends image/svg+xml with the cache rule of its data',
    async (path, card) => {
      const r = await get(gateway.url, path);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('image/svg+xml');
      expect(r.headers['cache-control']).toBe(CACHE_CONTROL.card(card.cache));
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.text).toBe(await site.read(card.file));
    },
  );

  it.each(DEFAULT_SERVICE.cards.map((c) => [c.path, c] as const))(
    "%s: the gateway sends a Content-Security-Policy of default-src 'none', which takes nothing the card uses",
    async (path, card) => {
      const r = await get(gateway.url, path);
      expect(r.headers['content-security-policy']).toBe("default-src 'none'");
      // Nothing for the policy to refuse: no style attribute or element, no script, no reference out.
      const svg = await site.read(card.file);
      expect(svg).not.toMatch(/\sstyle\s*=|<style|<script|href\s*=|url\(/i);
    },
  );

  it.each(DEFAULT_SERVICE.cards.map((c) => [c.path, c] as const))(
    '%s: `serve dist` (serve.json) sends image/svg+xml with the cache rule of its data',
    async (path, card) => {
      const r = await fetch(`${serve.url}${path}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/svg+xml');
      expect(r.headers.get('cache-control')).toBe(CACHE_CONTROL.card(card.cache));
      expect(r.headers.get('content-security-policy')).toBe(CARD_CONTENT_SECURITY_POLICY);
      await r.body?.cancel();
    },
  );

  it('_headers gives every card its type, cache rule and Content-Security-Policy', async () => {
    const blocks = new Map(
      (await site.read('_headers'))
        .trim()
        .split(/\n\n/)
        .map((block) => {
          const [path, ...lines] = block.split('\n');
          return [path!, lines.map((l) => l.trim())] as const;
        }),
    );
    for (const card of DEFAULT_SERVICE.cards) {
      expect(blocks.get(card.path)?.toSorted(), card.path).toEqual(
        [
          'Content-Type: image/svg+xml',
          `Cache-Control: ${CACHE_CONTROL.card(card.cache)}`,
          `Content-Security-Policy: ${CARD_CONTENT_SECURITY_POLICY}`,
        ].toSorted(),
      );
    }
    expect(CACHE_CONTROL.card('per-request')).toBe(CACHE_CONTROL.data('per-request'));
  });
});

describe('a card whose data are unavailable', () => {
  it("says unavailable in place of the earlier build's, with no number and when it was last available", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cards-dist-'));
    const upstream = await startFakeUpstreams();
    const env = { ...upstreamEnv(upstream.url), SITE_URL: TEST_SITE_URL, UPSTREAM_TIMEOUT_MS: '10000' };
    try {
      expect((await runBuild(dir, env)).code).toBe(0);
      for (const card of DEFAULT_SERVICE.cards) expect((await stat(join(dir, card.file))).isFile()).toBe(true);
      const earlier = JSON.parse(await readFile(join(dir, 'api/v1/mon-price'), 'utf8')) as MarketData;
      upstream.market.mode = 'not-found';
      const failed = await runBuild(dir, env);
      expect(failed.code).toBe(1);
      for (const card of DEFAULT_SERVICE.cards) {
        const svg = await readFile(join(dir, card.file), 'utf8');
        expect(cardViolations(svg), card.file).toEqual([]);
        if (card.resource !== 'market') {
          expect(svg, card.file).not.toContain('unavailable');
          continue;
        }
        expect(svg, card.file).toContain('<title id="card-title">Market preview: unavailable</title>');
        // no price of the earlier build, and no number but the times it states
        expect(svg, card.file).not.toContain(String(earlier.value));
        expect(svg.replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, ''), card.file).not.toMatch(/>[^<]*\d[^<]*</);
        expect(svg, card.file).toContain(`Last available: ${formatInstant(earlier.asOf)}`);
      }
      // served like the card it stands in for
      expect(await readFile(join(dir, '_headers'), 'utf8')).toContain('/cards/mon-price');
    } finally {
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the market card layout', () => {
  interface Drawn {
    x: number;
    y: number;
    anchor: string;
    size: number;
    bold: boolean;
    text: string;
  }
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  /** The card's own <text> lines (not the chart's, which place themselves in percentages of the chart). */
  const texts = (svg: string): Drawn[] =>
    [...svg.matchAll(/<text x="(\d+(?:\.\d+)?)" y="(\d+(?:\.\d+)?)"([^>]*)>([^<]*)<\/text>/g)].map((m) => ({
      x: Number(m[1]),
      y: Number(m[2]),
      anchor: /text-anchor="end"/.test(m[3]!) ? 'end' : 'start',
      size: Number(/font-size="(\d+)"/.exec(m[3]!)?.[1] ?? 12),
      bold: /font-weight="600"/.test(m[3]!),
      text: unescape(m[4]!),
    }));
  /** Horizontal extent by the same conservative estimate the layout uses (builders/render/text-width.ts). */
  const extent = (t: Drawn): [number, number] => {
    const w = textWidth(t.text, t.size, t.bold);
    return t.anchor === 'end' ? [t.x - w, t.x] : [t.x, t.x + w];
  };
  const LONG_SOURCES = [
    'Simulated provider (npm run demo)',
    'A market data provider with a rather long name, Inc. (delayed quotes, fifteen minutes)',
    'Ünïcödé Märkte & Daten GmbH — Echtzeitkurse für MON-USD und viele weitere Handelspaare',
  ];

  it.each(LONG_SOURCES.flatMap((source) => [true, false].map((simulated) => [source, simulated] as const)))(
    'source %j, simulated %s: no two texts on a line overlap, every text stays inside the card',
    async (source, simulated) => {
      const market = { ...(await site.json<MarketData>('api/v1/mon-price')), source, changePercent: -12.34 };
      const svg = marketCard(market, LIGHT, simulated);
      const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);
      const height = Number(/<svg[^>]* height="(\d+)"/.exec(svg)![1]);
      const drawn = texts(svg);
      // The change figure and the subtitle beside it (the demo label made them run into each other).
      const change = drawn.find((t) => t.text === '−12.34 %' || t.text === '-12.34 %')!;
      expect(change).toBeDefined();
      const subtitle = drawn.filter((t) => t.y === change.y && t !== change);
      expect(subtitle.length).toBe(1);
      expect(extent(subtitle[0]!)[1]).toBeLessThan(extent(change)[0]);
      for (const t of drawn) {
        const [left, right] = extent(t);
        expect(left, t.text).toBeGreaterThanOrEqual(0);
        expect(right, t.text).toBeLessThanOrEqual(width);
        expect(t.y, t.text).toBeLessThan(height);
        for (const other of drawn)
          if (other !== t && other.y === t.y) {
            const [l2, r2] = extent(other);
            expect(right <= l2 || r2 <= left, `${t.text} / ${other.text}`).toBe(true);
          }
      }
      // Nothing is lost to the wrapping: the whole source, the as-of time and the demo label are there.
      const all = drawn.map((t) => t.text).join(' ');
      expect(all).toContain(`Source: ${source},`);
      expect(all).toMatch(/as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      if (simulated) expect(all).toContain('SIMULATED DATA (demo)');
    },
  );
});
