// The gateway in process against the fake upstreams, with one injected clock for both: every row of
// docs/api.md's endpoint, header and error tables for the four data URLs and HEAD, the caches (counted in
// upstream calls), and the static site served from the dist/ table.
import { noCalls } from './fakes/upstreams.ts';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseDictionary, parseList } from 'structured-headers';
import { beforeEach, describe, expect, it } from 'vitest';
import { createValidator } from '../builders/contract/schemas.ts';
import { calendarWindow } from '../builders/domain/calendar.ts';
import { FAILURE_MEMORY_MS } from '../gateway/core/routes/kept-route.ts';
import type { FakeUpstreams, GithubMode, MarketMode } from './fakes/upstreams.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import {
  get,
  makeDist,
  SECRET,
  startTestGateway,
  type DistFixture,
  type RawResponse,
  type TestGateway,
} from './helpers/gateway.ts';

const validator = createValidator();
const MARKET = ['/api/v1/mon-price', '/api/mon-price'];
const CONTRIBUTIONS = ['/api/v1/github-contributions', '/api/github-contributions'];
const DATA = [...MARKET, ...CONTRIBUTIONS];

// 23:59:00 in Toronto on 2026-11-22 (EST, UTC-5): one minute before the calendar's refresh boundary.
const START = Date.parse('2026-11-23T04:59:00.000Z');
let clock = START;
const now = () => clock;

let fake: FakeUpstreams;
let fixture: DistFixture;
let gw: TestGateway;

shareUpstreams({ now, slowMs: 4000 }, (shared) => void ({ fake, fixture } = shared));
beforeEach(async () => {
  clock = START;
  fake.market = { mode: 'ok', tradeIdAsString: false };
  fake.github = { mode: 'ok' };
  fake.resetCalls();
  gw = await startTestGateway(fake.url, fixture.dist, {}, { now });
  return () => gw.close();
});

const json = (r: RawResponse) => JSON.parse(r.text) as Record<string, unknown>;

function expectProblem(r: RawResponse, status: number, code: string, fragment: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.headers['cache-control']).toBe('no-store');
  const body = json(r);
  validator.validate('ProblemDetails', body);
  expect(body).toMatchObject({ type: `https://example.test/developers#${fragment}`, status, code });
  expect(typeof body.detail).toBe('string');
  expect(typeof body.resolution).toBe('string');
  expect(r.text).not.toMatch(/\n\s+at |node:internal|\/tmp\//);
  // the run's temporary folder, where dist/ is, wherever it is (test/global-setup.ts)
  expect(r.text).not.toContain(tmpdir());
  return body;
}

describe('data routes: the endpoint and header tables of docs/api.md', () => {
  it.each(MARKET)(
    'GET %s answers MarketData, application/json, private no-store, CORS, no quota headers',
    async (path) => {
      const r = await get(gw.url, path);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['cache-control']).toBe('private, no-store');
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['content-length']).toBe(String(r.body.length));
      for (const h of ['ratelimit', 'ratelimit-policy', 'deprecation', 'sunset', 'location'])
        expect(r.headers[h]).toBeUndefined();
      const body = json(r);
      validator.validate('MarketData', body);
      expect(body).toMatchObject({
        product: 'MON-USD',
        currency: 'USD',
        source: 'Coinbase Exchange',
        windowSeconds: 604800,
      });
    },
  );

  it.each(CONTRIBUTIONS)(
    'GET %s answers GitHubContributions with the s-maxage to the next Toronto midnight',
    async (path) => {
      const r = await get(gw.url, path);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['access-control-allow-origin']).toBe('*');
      const cc = parseDictionary(r.headers['cache-control']!);
      expect(cc.has('public')).toBe(true);
      expect(cc.get('max-age')?.[0]).toBe(0);
      expect(cc.get('s-maxage')?.[0]).toBe(60); // 23:59:00 → midnight
      expect(cc.get('stale-while-revalidate')?.[0]).toBe(300);
      for (const h of ['ratelimit', 'ratelimit-policy', 'deprecation', 'sunset']) expect(r.headers[h]).toBeUndefined();
      const body = json(r);
      validator.validate('GitHubContributions', body);
      expect(body).toMatchObject({
        username: 'octocat',
        endDate: '2026-11-22',
        startDate: '2025-11-23',
        timeZone: 'America/Toronto',
      });
      expect(body.nextRefreshAt).toBe('2026-11-23T00:00:00.000-05:00');
    },
  );

  it.each(DATA)('HEAD %s sends the GET headers, Content-Length included, and no body', async (path) => {
    const g = await get(gw.url, path);
    const h = await get(gw.url, path, { method: 'HEAD' });
    expect(h.status).toBe(200);
    expect(h.body.length).toBe(0);
    expect(h.headers['content-length']).toBe(String(g.body.length));
    for (const name of ['content-type', 'cache-control', 'access-control-allow-origin', 'etag'])
      expect(h.headers[name]).toBe(g.headers[name]);
  });

  it('alias and v1 answer identical bytes and headers, with no redirect', async () => {
    for (const [v1, alias] of [MARKET, CONTRIBUTIONS] as const) {
      const a = await get(gw.url, v1!);
      const b = await get(gw.url, alias!);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.equals(a.body)).toBe(true);
      const { date: _a, ...ha } = a.headers;
      const { date: _b, ...hb } = b.headers;
      expect(hb).toEqual(ha);
    }
  });

  it('contributions are compressed on request and revalidate with a strong ETag', async () => {
    const plain = await get(gw.url, CONTRIBUTIONS[0]!);
    const br = await get(gw.url, CONTRIBUTIONS[0]!, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get(gw.url, CONTRIBUTIONS[1]!, { headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    const again = await get(gw.url, CONTRIBUTIONS[0]!, { headers: { 'if-none-match': plain.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(plain.headers.etag);
    expect(again.headers['cache-control']).toBe(plain.headers['cache-control']);
  });
});

describe('caching, counted in upstream calls', () => {
  it('five market requests make five ticker calls and one candles call', async () => {
    for (let i = 0; i < 5; i++) expect((await get(gw.url, MARKET[i % 2]!)).status).toBe(200);
    expect(fake.calls.ticker).toBe(5);
    expect(fake.calls.candles).toBe(1);
  });

  it('concurrent market requests share one candles fetch', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => get(gw.url, MARKET[i % 2]!)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // Ticker fetches are shared too, but how many depends on arrival times (test/market-courtesy.test.ts).
    expect(fake.calls.ticker).toBeLessThanOrEqual(5);
    expect(fake.calls.candles).toBe(1);
  });

  it('the candle history is reused for at most five minutes', async () => {
    await get(gw.url, MARKET[0]!);
    clock += 299_000;
    await get(gw.url, MARKET[0]!);
    expect(fake.calls.candles).toBe(1);
    clock += 2_000; // 301 s after the fetch
    await get(gw.url, MARKET[0]!);
    expect(fake.calls.candles).toBe(2);
    expect(fake.calls.ticker).toBe(3);
  });

  it('the ticker is fetched on every request, so its price shows at once', async () => {
    fake.market.tickerPrice = '0.041';
    expect(json(await get(gw.url, MARKET[0]!)).value).toBe(0.041);
    fake.market.tickerPrice = '0.042';
    expect(json(await get(gw.url, MARKET[1]!)).value).toBe(0.042);
  });

  it('repeated contribution requests make one upstream call until the Toronto midnight passes', async () => {
    const first = await Promise.all(Array.from({ length: 4 }, (_, i) => get(gw.url, CONTRIBUTIONS[i % 2]!)));
    expect(first.every((r) => r.status === 200)).toBe(true);
    for (let i = 0; i < 4; i++) await get(gw.url, CONTRIBUTIONS[i % 2]!, { method: i % 2 ? 'HEAD' : 'GET' });
    clock = Date.parse('2026-11-23T04:59:59.900Z');
    const late = await get(gw.url, CONTRIBUTIONS[0]!);
    expect(parseDictionary(late.headers['cache-control']!).get('s-maxage')?.[0]).toBe(1);
    expect(fake.calls.html).toBe(1);

    clock = Date.parse('2026-11-23T05:00:00.500Z'); // 00:00:00.5 in Toronto
    const next = await get(gw.url, CONTRIBUTIONS[1]!);
    expect(fake.calls.html).toBe(2);
    expect(json(next)).toMatchObject({ endDate: '2026-11-23', nextRefreshAt: '2026-11-24T00:00:00.000-05:00' });
    expect(parseDictionary(next.headers['cache-control']!).get('s-maxage')?.[0]).toBe(86_399);
    await get(gw.url, CONTRIBUTIONS[0]!);
    expect(fake.calls.html).toBe(2);
  });

  it('uses the GraphQL source when GITHUB_TOKEN is set, with the same caching', async () => {
    const withToken = await startTestGateway(fake.url, fixture.dist, { GITHUB_TOKEN: 'test-token' }, { now });
    try {
      for (let i = 0; i < 3; i++) expect((await get(withToken.url, CONTRIBUTIONS[i % 2]!)).status).toBe(200);
      expect(fake.calls.graphql).toBe(1);
      expect(fake.calls.html).toBe(0);
    } finally {
      await withToken.close();
    }
  });
});

describe('the contribution snapshot in dist/', () => {
  // The gateway answers what the upstream says now: a snapshot from an earlier build, even today's,
  // is neither a substitute for the first fetch nor for a 502.
  it("is not served in place of the upstream, even when it is today's: the first request fetches", async () => {
    const snapshot = Buffer.from(
      JSON.stringify({ ...json(await get(gw.url, CONTRIBUTIONS[0]!)), totalContributions: 999_999 }),
    );
    const own = await makeDist({ 'api/v1/github-contributions': snapshot, 'api/github-contributions': snapshot });
    fake.resetCalls();
    const gateway = await startTestGateway(fake.url, own.dist, {}, { now });
    try {
      const r = await get(gateway.url, CONTRIBUTIONS[0]!);
      expect(r.status).toBe(200);
      expect(json(r).totalContributions).not.toBe(999_999);
      expect(fake.calls.html).toBe(1);
    } finally {
      await gateway.close();
      await rm(own.base, { recursive: true, force: true });
    }
  });

  it("does not hide an unusable upstream: today's snapshot in dist/, a day missing upstream → 502", async () => {
    const snapshot = Buffer.from(JSON.stringify(json(await get(gw.url, CONTRIBUTIONS[0]!))));
    const own = await makeDist({ 'api/v1/github-contributions': snapshot, 'api/github-contributions': snapshot });
    fake.github.mode = 'missing-day';
    const gateway = await startTestGateway(fake.url, own.dist, {}, { now });
    try {
      for (const path of CONTRIBUTIONS)
        expectProblem(await get(gateway.url, path), 502, 'upstream_unavailable', 'upstream-unavailable');
    } finally {
      fake.github.mode = 'ok';
      await gateway.close();
      await rm(own.base, { recursive: true, force: true });
    }
  });
});

describe('upstream failures: the 502 problem, never a stale or invented 200', () => {
  // Every failure mode of each upstream is an UpstreamError naming it (test/upstream-failures.test.ts), and
  // the gateway answers every UpstreamError alike: two modes per upstream here, neither retried, no deadline
  // waited out.
  it.each<MarketMode>(['not-found', 'bad-price'])(
    'market upstream %s → 502 upstream_unavailable with the market error text',
    async (mode) => {
      fake.market.mode = mode;
      for (const path of MARKET) {
        const r = await get(gw.url, path);
        const body = expectProblem(r, 502, 'upstream_unavailable', 'upstream-unavailable');
        expect(body.title).toBe('Upstream data unavailable');
        expect(body.error).toBe('Market data is unavailable.');
        expect(r.headers['access-control-allow-origin']).toBe('*');
        const h = await get(gw.url, path, { method: 'HEAD' });
        expect(h.status).toBe(502);
        expect(h.body.length).toBe(0);
        expect(h.headers['content-length']).toBe(String(r.body.length));
      }
      expect(gw.stderr.join('')).toMatch(/market: coinbase: /);
      expect(gw.stderr.join('')).not.toMatch(/\n\s+at /);
    },
  );

  it('a ticker failure alone and a candle failure alone each give the 502', async () => {
    fake.market.tickerMode = 'server-error';
    expectProblem(await get(gw.url, MARKET[0]!), 502, 'upstream_unavailable', 'upstream-unavailable');
    fake.market.tickerMode = undefined;
    fake.market.candlesMode = 'garbage';
    expectProblem(await get(gw.url, MARKET[1]!), 502, 'upstream_unavailable', 'upstream-unavailable');
  });

  it.each<GithubMode>(['unknown-account', 'markup-drift'])(
    'public calendar %s → 502 upstream_unavailable, retried once its memory passed',
    async (mode) => {
      fake.github.mode = mode;
      // The failure is remembered for FAILURE_MEMORY_MS only: every request after that fetches again (the
      // client may retry a few times within one request, so the calls are compared before and after).
      let before = 0;
      for (const path of CONTRIBUTIONS) {
        clock += FAILURE_MEMORY_MS;
        const body = expectProblem(await get(gw.url, path), 502, 'upstream_unavailable', 'upstream-unavailable');
        expect(body.title).toBe('Upstream data unavailable');
        expect(body.error).toBe('Contribution data is unavailable.');
        expect(fake.calls.html, path).toBeGreaterThan(before);
        before = fake.calls.html;
      }
      clock += FAILURE_MEMORY_MS;
      const head = await get(gw.url, CONTRIBUTIONS[1]!, { method: 'HEAD' });
      expect(head.status).toBe(502);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-type']).toBe('application/problem+json');
      expect(fake.calls.html).toBeGreaterThan(before);
      fake.github.mode = 'ok';
      clock += FAILURE_MEMORY_MS;
      expect((await get(gw.url, CONTRIBUTIONS[0]!)).status).toBe(200);
    },
  );

  it('a failed refresh is remembered briefly: requests meanwhile get the 502 without another fetch', async () => {
    fake.github.mode = 'unknown-account';
    expect((await get(gw.url, CONTRIBUTIONS[0]!)).status).toBe(502);
    const calls = fake.calls.html;
    clock += FAILURE_MEMORY_MS - 1;
    for (const path of CONTRIBUTIONS)
      expectProblem(await get(gw.url, path), 502, 'upstream_unavailable', 'upstream-unavailable');
    expect(fake.calls.html).toBe(calls);
    // Never a stale or made-up 200: the remembered answer is the failure itself, then a fresh fetch.
    fake.github.mode = 'ok';
    clock += 1;
    expect((await get(gw.url, CONTRIBUTIONS[0]!)).status).toBe(200);
    expect(fake.calls.html).toBe(calls + 1);
  });

  it.each(['bad-token', 'missing-day'] as GithubMode[])('GraphQL %s → 502', async (mode) => {
    const withToken = await startTestGateway(fake.url, fixture.dist, { GITHUB_TOKEN: 'test-token' }, { now });
    try {
      fake.github.mode = mode;
      expectProblem(await get(withToken.url, CONTRIBUTIONS[0]!), 502, 'upstream_unavailable', 'upstream-unavailable');
    } finally {
      await withToken.close();
    }
  });

  it('after the Toronto midnight a failing refresh gives the 502, not yesterday’s calendar', async () => {
    expect((await get(gw.url, CONTRIBUTIONS[0]!)).status).toBe(200);
    fake.github.mode = 'unknown-account';
    clock = Date.parse('2026-11-23T05:00:01.000Z');
    expectProblem(await get(gw.url, CONTRIBUTIONS[0]!), 502, 'upstream_unavailable', 'upstream-unavailable');
  });

  it('concurrent requests during a failing refresh share one upstream call', async () => {
    // Slower than this gateway's deadline, shortened so that nothing waits out the real one. Six requests
    // sent at once share the pending fetch; one arriving after it failed gets the remembered failure (the
    // clock stands still), so the count does not depend on how fast they arrive.
    const short = await startTestGateway(fake.url, fixture.dist, { UPSTREAM_TIMEOUT_MS: '250' }, { now });
    try {
      fake.github.mode = 'slow';
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => get(short.url, CONTRIBUTIONS[i % 2]!)));
      expect(answers.every((r) => r.status === 502)).toBe(true);
      expect(fake.calls.html).toBe(1);
    } finally {
      await short.close();
    }
  });
});

describe('problems and methods on the API', () => {
  it.each([
    '/api/nope',
    '/api/v2/mon-price',
    '/api/v1',
    '/api/mon-price/',
    '/api/V1/mon-price',
    '/api/',
    '/api/v1/mon-price.json',
  ])('unknown %s → 404 api_route_not_found', async (path) => {
    const body = expectProblem(await get(gw.url, path), 404, 'api_route_not_found', 'api-route-not-found');
    expect(body.title).toBe('API route not found');
  });

  it.each(DATA)('write and other methods on %s → 405 method_not_allowed with Allow: GET, HEAD', async (path) => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'LINK']) {
      const r = await get(gw.url, path, {
        method,
        body: method === 'TRACE' ? undefined : '{}',
        headers: method === 'TRACE' ? {} : { 'content-type': 'application/json' },
      });
      const body = expectProblem(r, 405, 'method_not_allowed', 'method-not-allowed');
      expect(body.title).toBe('Method not allowed');
      expect(body.resolution).toMatch(/GET/);
      expect(parseList(r.headers.allow!).map(([item]) => String(item))).toEqual(['GET', 'HEAD']);
    }
    expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
  });

  it('a CORS preflight on a data route is answered so that browsers may GET it', async () => {
    const r = await get(gw.url, MARKET[0]!, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['access-control-allow-methods']).toBe('GET, HEAD');
    expect(fake.calls.ticker).toBe(0);
  });

  it('the data routes let browser scripts read the quota headers', async () => {
    const r = await get(gw.url, MARKET[0]!);
    const exposed = parseList(r.headers['access-control-expose-headers']!).map(([item]) => String(item).toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after']));
  });
});

describe('the static site from dist/', () => {
  const pages: Array<[string, string, RegExp | string]> = [
    ['/', 'text/html; charset=utf-8', /home page/],
    ['/developers', 'text/html; charset=utf-8', /id="upstream-unavailable"/],
    ['/developers.html', 'text/html; charset=utf-8', /Developers/],
    ['/developers.md', 'text/markdown; charset=utf-8', /# Developers/],
    ['/index.md', 'text/markdown; charset=utf-8', /# Home/],
    ['/writings', 'text/html; charset=utf-8', /Writings/],
    ['/writings/first-post', 'text/html; charset=utf-8', /First post/],
    ['/writings/first-post.md', 'text/markdown; charset=utf-8', /# First post/],
    ['/api', 'application/json', /"authentication":"none"/],
    // Not the file: the gateway's own document, generated at start (gateway/http/openapi-document.ts).
    ['/openapi.json', 'application/json', /"openapi": "3\.1\.0",[^]*"429"/],
    [
      '/.well-known/api-catalog',
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      /linkset/,
    ],
    ['/llms.txt', 'text/plain; charset=utf-8', /# Site/],
    ['/llms-full.txt', 'text/plain; charset=utf-8', /# Site/],
    ['/sitemap.xml', 'application/xml; charset=utf-8', /urlset/],
    ['/cli.mjs', 'text/javascript; charset=utf-8', /console.log/],
    ['/f%C3%BCnke.txt', 'text/plain; charset=utf-8', 'umlaut file\n'],
    ['/with%20space.txt', 'text/plain; charset=utf-8', 'space file\n'],
    ['/logo.png', 'image/png', /PNG/],
  ];
  it.each(pages)('GET %s → 200 %s', async (path, type, content) => {
    const r = await get(gw.url, path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    if (typeof content === 'string') expect(r.text).toBe(content);
    else expect(r.text).toMatch(content);
    const h = await get(gw.url, path, { method: 'HEAD' });
    expect(h.body.length).toBe(0);
    expect(h.headers['content-length']).toBe(String(r.body.length));
    expect(h.headers.etag).toBe(r.headers.etag);
  });

  it('/api carries Cache-Control public, max-age=3600 and points at the API catalog', async () => {
    const r = await get(gw.url, '/api');
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.headers.link).toBe('</.well-known/api-catalog>; rel="api-catalog"');
    const head = await get(gw.url, '/.well-known/api-catalog', { method: 'HEAD' });
    expect(head.headers.link).toBe('</.well-known/api-catalog>; rel="api-catalog"');
    // the publisher's home page too, as on static hosts
    expect((await get(gw.url, '/', { method: 'HEAD' })).headers.link).toBe(
      '</.well-known/api-catalog>; rel="api-catalog"',
    );
  });

  it('text is sent compressed when accepted (brotli preferred), with Vary and a per-coding ETag', async () => {
    const plain = await get(gw.url, '/');
    const br = await get(gw.url, '/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await get(gw.url, '/', { headers: { 'accept-encoding': 'gzip;q=1, br;q=0.5' } });
    const refused = await get(gw.url, '/', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length);
    for (const r of [plain, br, gz]) expect(r.headers.vary).toBe('Accept-Encoding');
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
    // images are not recompressed
    expect(
      (await get(gw.url, '/logo.png', { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'],
    ).toBeUndefined();
  });

  it('conditional GETs get 304 with the validator, weak comparison included', async () => {
    const r = await get(gw.url, '/developers');
    for (const inm of [r.headers.etag!, `W/${r.headers.etag}`, `"other", ${r.headers.etag}`, '*']) {
      const c = await get(gw.url, '/developers', { headers: { 'if-none-match': inm } });
      expect(c.status).toBe(304);
      expect(c.body.length).toBe(0);
      expect(c.headers.etag).toBe(r.headers.etag);
      expect(c.headers['cache-control']).toBe(r.headers['cache-control']);
    }
    expect((await get(gw.url, '/developers', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });

  it('unknown pages get the site 404 page; HEAD gets its headers', async () => {
    for (const path of ['/nope', '/writings/missing', '/developers/', '/index.html/x']) {
      const r = await get(gw.url, path);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.text).toMatch(/This page does not exist/);
    }
    const h = await get(gw.url, '/nope', { method: 'HEAD' });
    expect(h.status).toBe(404);
    expect(h.body.length).toBe(0);
  });

  it('without dist/404.html, unknown pages get a plain 404', async () => {
    const bare = await makeDist();
    await rm(`${bare.dist}/404.html`);
    const g = await startTestGateway(fake.url, bare.dist, {}, { now });
    try {
      const r = await get(g.url, '/nope');
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    } finally {
      await g.close();
      await rm(bare.base, { recursive: true, force: true });
    }
  });

  it.each([
    '/.env',
    '/.git/config',
    '/.nojekyll',
    '/writings/.draft.html',
    '/.well-known/.hidden',
    '/_headers',
    '/serve.json',
    '/linked-secret.txt',
    '/linked-parent/secret.txt',
    '/linked-parent/dist/index.html',
    '/%2eenv',
    '/%2Egit/config',
    '/.%65nv',
  ])('%s is never served', async (path) => {
    const r = await get(gw.url, path);
    expect(r.status).toBe(404);
    expect(r.text).not.toContain(SECRET);
  });

  it('pages refuse other methods with 405 and Allow', async () => {
    const r = await get(gw.url, '/developers', { method: 'POST', body: 'x' });
    expect(r.status).toBe(405);
    expect(parseList(r.headers.allow!).map(([item]) => String(item))).toEqual(['GET', 'HEAD']);
    expectProblem(await get(gw.url, '/api', { method: 'DELETE' }), 405, 'method_not_allowed', 'method-not-allowed');
  });
});

it('calendarWindow agrees with the clock used above', () => {
  expect(calendarWindow(START, 'America/Toronto').endDate).toBe('2026-11-22');
});
