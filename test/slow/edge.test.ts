// The gateway as a Cloudflare Worker in local workerd (`npm run start:edge`, gateway/worker/), side by side with the
// Node gateway (.build/gateway.mjs) on the same dist/ and the same fake upstreams: documents and cards served
// before the Worker by the asset router, with the Node gateway's bytes, type, cache and security headers (from
// dist/_headers) and 304s for their own ETags; the same payloads on every data path, the same
// problems; the calendar fetched once for every calendar and streak request; the quota counted exactly in
// Durable Objects, per CF-Connecting-IP and shared with /mcp; MCP for the official clients; the variables a
// Worker refuses; SIGTERM stopping workerd too.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import { dataTools } from '../../builders/contract/mcp-tools.ts';
import { get, spawnGateway, type GatewayProcess, type RawResponse } from '../helpers/gateway.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, cleanEnv, ROOT, runProgram, upstreamEnv } from '../helpers/run.ts';

const SITE_URL = 'https://edge.example';
/** Every registered dataset's v1 path and alias, and its tools (builders/datasets/registry.ts): none named here. */
const RESOURCES = DEFAULT_SERVICE.resources;
const DATA_PATHS = RESOURCES.flatMap((r) => [r.v1.path, r.alias.path]);
const TOOLS = dataTools(DEFAULT_SERVICE).map((t) => t.name);
/** Paths Cloudflare serves before the Worker (gateway/worker/wrangler.jsonc's run_worker_first names none of them). */
const STATIC_PATHS = [
  '/',
  '/developers',
  '/cards/mon-price.svg',
  '/cards/mon-price-dark.svg',
  '/cards/github-contributions.svg',
  '/cards/github-contributions-dark.svg',
  '/cards/github-streak.svg',
  '/cards/github-streak-dark.svg',
  '/llms.txt',
  '/openapi.json',
  '/status.json',
  '/api',
  // Every kind of published file, with the gateway's cache rule and type from _headers (builders/contract/cache-rules.ts).
  '/favicon.ico',
  '/manifest.webmanifest',
  '/assets/site.css',
  '/og/index.png',
  '/icons/icon-192.png',
  '/cards/repos/octocat/tiny-parser.svg',
  '/cards/repos-dark/octocat/tiny-parser.svg',
];
/** What a static file's answer must share with the Node gateway's. */
const PARITY = [
  'content-type',
  'cache-control',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'access-control-allow-origin',
];
/** The ETag of Cloudflare's asset router (workerd's too): a hex hash of the file, never the gateway's base64url. */
const ASSET_ETAG = /^"[0-9a-f]{32}"$/;
/** CONTRACT: SIGTERM stops the Worker, workerd included, within this. */
const STOP_WITHIN_MS = 8_000;

interface EdgeProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const started = new Set<ChildProcessWithoutNullStreams>();

/** `npm run start:edge` (npm: true) or its program, .build/edge.mjs, until its `listening on` line. */
function spawnEdge(env: Record<string, string>, npm = false): Promise<EdgeProcess> {
  const child = npm
    ? spawn('npm', ['run', 'start:edge'], { cwd: ROOT, env: cleanEnv(env) })
    : spawn(process.execPath, [`${ROOT}.build/edge.mjs`], { cwd: ROOT, env: cleanEnv(env) });
  started.add(child);
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => started.delete(child));
  child.stderr.on('data', (d: Buffer) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ url: m[1]!, child, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`start:edge exited ${code} before listening: ${out} ${err}`)));
  });
}

/** The processes whose parent is `pid` (Linux /proc): the workerd a Worker's program runs. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after its closing parenthesis.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether a process runs (not gone, not a zombie waiting to be reaped). */
function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

let fake: FakeUpstreams;
let base: string;
let env: Record<string, string>;
let edge: EdgeProcess;
let node: GatewayProcess;

beforeAll(async () => {
  fake = await startFakeUpstreams();
  base = await mkdtemp(join(tmpdir(), 'edge-'));
  env = {
    ...upstreamEnv(fake.url),
    SITE_URL,
    HOST: '127.0.0.1',
    PORT: '0',
    DIST_DIR: join(base, 'dist'),
    UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
    MARKET_WS_URL: 'off',
  };
  // dist/ does not exist: start:edge builds it first, as npm start does (build --if-stale).
  edge = await spawnEdge(env, true);
  node = await spawnGateway(env);
}, 240_000);

afterAll(async () => {
  await node?.stop();
  for (const child of started) child.kill('SIGTERM');
  await Promise.all([...started].map((c) => new Promise((resolve) => c.once('exit', resolve))));
  await fake?.close();
  await rm(base, { recursive: true, force: true });
});

/** The headers two runtimes may differ in: the date, and how the connection is framed and kept. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const headersOf = (r: RawResponse) =>
  Object.entries(r.headers)
    .filter(([name]) => !TRANSPORT.has(name))
    .sort(([a], [b]) => a.localeCompare(b));

describe('npm run start:edge', () => {
  it('builds dist/ first and prints one line, listening on http://HOST:PORT', () => {
    expect(existsSync(join(env.DIST_DIR!, 'index.html'))).toBe(true);
    expect(edge.stdout().match(/^listening on .*$/gm)).toEqual([
      expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+$/),
    ]);
    // The bundle workerd runs compiles nothing at run time (Workers forbid it): validators and MCP included.
    expect(readFileSync(`${ROOT}.build/edge/worker.mjs`, 'utf8')).not.toMatch(/[^\w.$]Function\(|[^\w.$]eval\(/);
    // wrangler's and miniflare's banners, update checks and Request.cf downloads: none.
    expect(edge.stdout() + edge.stderr()).not.toMatch(/wrangler|Request\.cf|update available/i);
  });

  it.each(STATIC_PATHS)(
    "serves %s before the Worker: the Node gateway's bytes, type, cache and security headers, and 304 for its own ETag",
    async (path) => {
      const [a, b] = await Promise.all([get(node.url, path), get(edge.url, path)]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.body.equals(a.body)).toBe(true);
      // From dist/_headers (the build's rules for static hosts) and Cloudflare's defaults: the Node gateway's.
      for (const name of PARITY) expect(b.headers[name], `${path}: ${name}`).toBe(a.headers[name]);
      expect(b.headers['x-content-type-options']).toBe('nosniff');
      expect(b.headers['content-type']).toBeDefined();
      expect(b.headers['cache-control']).toBeDefined();
      if (b.headers['content-type']!.startsWith('text/html')) {
        expect(b.headers['content-security-policy']).toMatch(/^default-src 'self'/);
        expect(b.headers['referrer-policy']).toBe('no-referrer');
      }
      // The asset router answered, not the Worker: its ETag is its own hash of the file, where the
      // Worker's would be the Node gateway's (SHA-256, base64url).
      expect(b.headers.etag).toMatch(ASSET_ETAG);
      expect(b.headers.etag).not.toBe(a.headers.etag);
      const again = await get(edge.url, path, { headers: { 'If-None-Match': b.headers.etag! } });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    },
  );

  it.each([
    ['/api/v1/./github-projects', 200],
    ['/api/v1/%2E/github-projects', 200],
    ['/api/%2e%2e/openapi.json', 200],
    ['/cards/./mon-price.svg', 200],
    ['/cards/../developers', 200],
    ['/api/v1/github-projects/.', 404],
    ['/../.env', 404],
  ])('answers %s as the Node gateway does: dot segments removed (RFC 3986 §5.2.4)', async (path, status) => {
    const [a, b] = await Promise.all([get(node.url, path), get(edge.url, path)]);
    expect(a.status, path).toBe(status);
    expect(b.status, path).toBe(status);
    expect(b.headers['content-type'], path).toBe(a.headers['content-type']);
  });

  it('gives a compressed answer Vary: Accept-Encoding and an ETag of its own, and 304 for that tag', async () => {
    for (const path of ['/', '/assets/site.css', '/no/such/page', '/api/v1/github-contributions']) {
      const plain = await get(edge.url, path);
      const coded = await get(edge.url, path, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(coded.headers['content-encoding'], path).toBe('gzip');
      expect(coded.headers.vary, path).toMatch(/(?:^|,\s*)Accept-Encoding(?:,|$)/i);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(coded.headers.etag, path).toBeDefined();
      expect(coded.headers.etag, path).not.toBe(plain.headers.etag);
      if (plain.status === 200) {
        const again = await get(edge.url, path, {
          headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': coded.headers.etag! },
        });
        expect(again.status, path).toBe(304);
      }
    }
  });

  it("answers an unknown page from the Worker, with the Node gateway's 404 page", async () => {
    const [a, b] = await Promise.all([get(node.url, '/no/such/page'), get(edge.url, '/no/such/page')]);
    expect(b.status).toBe(404);
    expect(b.headers['content-type']).toBe(a.headers['content-type']);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(b.body.equals(a.body)).toBe(true);
  });

  it('lists the same operations in /openapi.json (the gateway document, with /mcp)', async () => {
    const operations = async (url: string) => {
      const doc = JSON.parse((await get(url, '/openapi.json')).text) as { paths: Record<string, object> };
      return Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => `${method} ${path} ${(op as { operationId?: string }).operationId}`),
      );
    };
    const [a, b] = await Promise.all([operations(node.url), operations(edge.url)]);
    expect(b).toEqual(a);
    expect(b.filter((op) => op.startsWith('get /api/'))).toHaveLength(DATA_PATHS.length);
  });

  it("answers 304 for the home page's own ETag, and HEAD without a body", async () => {
    const first = await get(edge.url, '/');
    const etag = first.headers.etag!;
    const again = await get(edge.url, '/', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.body.length).toBe(0);
    // The asset router answers HEAD with the GET's headers but for Content-Length (workerd sends none).
    const head = await get(edge.url, '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    for (const name of ['etag', ...PARITY]) expect(head.headers[name], name).toBe(first.headers[name]);
    expect(head.body.length).toBe(0);
    // The Worker's own answers keep the Node gateway's HEAD, Content-Length included.
    const [a, b] = await Promise.all([
      get(node.url, '/api/v1/github-contributions', { method: 'HEAD' }),
      get(edge.url, '/api/v1/github-contributions', { method: 'HEAD' }),
    ]);
    expect(b.status).toBe(200);
    expect(b.headers['content-length']).toBe(a.headers['content-length']);
    expect(b.body.length).toBe(0);
  });

  it('answers every data path with the payloads of the Node gateway', async () => {
    // The provider's clock stands still where it is (spawned gateways run on the real clock, so the fake's
    // is the real one too): both gateways read the very same ticker.
    const instant = fake.now();
    fake.now = () => instant;
    for (const { cache, v1, alias } of RESOURCES)
      for (const path of [v1.path, alias.path]) {
        const [a, b] = await Promise.all([get(node.url, path), get(edge.url, path)]);
        expect(b.status, path).toBe(200);
        expect(b.headers['content-type'], path).toBe(a.headers['content-type']);
        expect(b.headers['cache-control']?.split(',')[0], path).toBe(a.headers['cache-control']?.split(',')[0]);
        const x = JSON.parse(a.text) as Record<string, unknown>;
        const y = JSON.parse(b.text) as Record<string, unknown>;
        if (cache === 'per-request') {
          // A live price of each request: the same ticker, and the same hourly points but where the real
          // clock's seven-day window moved on an hour between the two requests.
          const fixed = (p: Record<string, unknown>) => ({ ...p, points: [], changePercent: 0, low: 0, high: 0 });
          expect(fixed(y), path).toEqual(fixed(x));
          const since = Math.max(...[x, y].map((p) => (p.points as Array<{ time: number }>)[0]!.time));
          const after = (p: Record<string, unknown>) =>
            (p.points as Array<{ time: number }>).filter((q) => q.time >= since);
          expect(after(y), path).toEqual(after(x));
        } else if (cache === 'hourly') {
          // Read by each gateway at its own request: the same payload, each with the time it was read.
          expect({ ...y, asOf: null }, path).toEqual({ ...x, asOf: null });
        } else expect(y, path).toEqual(x);
      }
    fake.now = Date.now;
  });

  it('fetches the calendar once: no upstream call for the calendar and streak requests after the first', async () => {
    await get(edge.url, '/api/v1/github-contributions');
    fake.resetCalls();
    // The paths kept until midnight: the calendar's and what derives from it, each asked twice.
    const calendar = RESOURCES.filter((r) => r.cache === 'until-midnight').flatMap((r) => [r.v1.path, r.alias.path]);
    const paths = [...calendar, ...calendar];
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect((await get(edge.url, path)).status, path).toBe(200);
    expect(fake.calls.html + fake.calls.graphql).toBe(0);
  });

  it('reads the live ticker on every market request', async () => {
    const price = async () => (JSON.parse((await get(edge.url, '/api/v1/mon-price')).text) as { value: number }).value;
    fake.market.tickerPrice = '0.04211';
    expect(await price()).toBe(0.04211);
    fake.market.tickerPrice = '0.04377';
    expect(await price()).toBe(0.04377);
    delete fake.market.tickerPrice;
  });

  it('retries an upstream answer as the Node gateway does (ky in workerd): a 429 whose Retry-After fits, asked three times', async () => {
    fake.market.tickerMode = 'rate-limited';
    fake.market.retryAfterSeconds = 0;
    try {
      const asked: Record<string, { status: number; tickers: number; text: string }> = {};
      for (const [name, gateway] of [
        ['node', node],
        ['edge', edge],
      ] as const) {
        fake.resetCalls();
        const answer = await get(gateway.url, '/api/v1/mon-price');
        asked[name] = { status: answer.status, tickers: fake.calls.ticker, text: answer.text };
      }
      expect(asked.edge).toEqual(asked.node);
      expect(asked.edge).toMatchObject({ status: 502, tickers: 3 });
    } finally {
      delete fake.market.tickerMode;
      delete fake.market.retryAfterSeconds;
    }
  });

  it.each([
    ['an unknown API path', '/api/v9/nothing', 'GET', 404],
    ['a wrong method', '/api/v1/mon-price', 'DELETE', 405],
  ])("answers %s with the Node gateway's problem", async (_, path, method, status) => {
    const [a, b] = await Promise.all([get(node.url, path, { method }), get(edge.url, path, { method })]);
    expect(b.status).toBe(status);
    expect(b.headers['content-type']).toBe('application/problem+json');
    expect(headersOf(b)).toEqual(headersOf(a));
    expect(b.text).toBe(a.text);
  });

  it('answers a 502 problem when the market upstream is down, and says why on stderr', async () => {
    fake.market.mode = 'server-error';
    try {
      const [a, b] = await Promise.all([get(node.url, '/api/v1/mon-price'), get(edge.url, '/api/v1/mon-price')]);
      expect(b.status).toBe(502);
      expect(b.headers['content-type']).toBe('application/problem+json');
      expect(b.text).toBe(a.text);
      // The Worker's log line travels from workerd to the program's stderr after the answer.
      for (let i = 0; i < 100 && !/market/.test(edge.stderr()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(edge.stderr()).toMatch(/market/);
      expect(edge.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      fake.market.mode = 'ok';
    }
  });

  it('refuses /mcp from a foreign Origin with 403, as the Node gateway does', async () => {
    const request = {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    };
    const [a, b] = await Promise.all([get(node.url, '/mcp', request), get(edge.url, '/mcp', request)]);
    expect(b.status).toBe(403);
    expect(b.text).toBe(a.text);
  });

  it('serves MCP 2026-07-28 to the official client v2 pinned to it: server/discover, the tools, and a call', async () => {
    const sent: Array<{ version: string | null; body: string }> = [];
    const client = new ClientV2(
      { name: 'edge-test', version: '2' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransportV2(new URL('/mcp', edge.url), {
      fetch: async (url, init) => {
        const body = typeof init?.body === 'string' ? init.body : '';
        sent.push({ version: new Headers(init?.headers).get('mcp-protocol-version'), body });
        return fetch(url, init);
      },
    });
    await client.connect(transport);
    try {
      expect(client.getDiscoverResult()).toBeDefined();
      expect(sent[0]!.body).toContain('"server/discover"');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      const result = (await client.callTool({ name: 'getV1GithubContributions', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(JSON.parse((await get(node.url, '/api/v1/github-contributions')).text));
      expect(sent.every((r) => r.version === '2026-07-28')).toBe(true);
      expect(sent.some((r) => r.body.includes('"initialize"'))).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('serves MCP to the official client (SDK v1, a 2025 revision): the tools, and a call', async () => {
    const client = new Client({ name: 'edge-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', edge.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
      const result = (await client.callTool({ name: 'getGithubStreak', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(JSON.parse((await get(node.url, '/api/github-streak')).text));
    } finally {
      await client.close();
    }
  });
});

describe('the quota in Durable Objects (RATE_LIMIT_QUOTA=5)', () => {
  let limited: EdgeProcess;
  // A year-long window: no test here straddles two windows, whatever the clock says.
  const WINDOW = '31536000';
  // The test's requests come from 127.0.0.1, a trusted proxy here: its CF-Connecting-IP names the client,
  // as Cloudflare's does. From any other address the header is the client's own word, and ignored.
  beforeAll(async () => {
    limited = await spawnEdge({ ...env, RATE_LIMIT_QUOTA: '5', RATE_LIMIT_WINDOW: WINDOW, TRUST_PROXY: '127.0.0.1' });
  }, 120_000);
  afterAll(() => void limited?.child.kill('SIGTERM'));

  const as = (client: string, path = '/api/v1/github-contributions', options: Parameters<typeof get>[2] = {}) =>
    get(limited.url, path, { ...options, headers: { 'CF-Connecting-IP': client, ...options.headers } });

  it('counts one client exactly: r=4 to r=0, then the 429 problem with Retry-After', async () => {
    for (const r of [4, 3, 2, 1, 0]) {
      const answer = await as('198.51.100.1');
      expect(answer.status).toBe(200);
      expect(answer.headers['ratelimit-policy']).toBe(`"public-api";q=5;w=${WINDOW}`);
      expect(answer.headers['ratelimit']).toMatch(new RegExp(`^"public-api";r=${r};t=\\d+$`));
    }
    const refused = await as('198.51.100.1', '/api/mon-price');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    const t = /;t=(\d+)$/.exec(refused.headers['ratelimit'] as string)![1];
    expect(refused.headers['retry-after']).toBe(t);
  });

  it('runs the Worker for the data URLs (RateLimit headers), never for a page or a card', async () => {
    for (const path of ['/api/v1/mon-price', '/api/mon-price']) {
      const data = await as('198.51.100.9', path);
      expect(data.status, path).toBe(200);
      expect(data.headers['ratelimit'], path).toMatch(/^"public-api";r=\d;t=\d+$/);
      expect(data.headers['ratelimit-policy'], path).toBe(`"public-api";q=5;w=${WINDOW}`);
    }
    for (const path of ['/', '/cards/mon-price.svg']) {
      const file = await as('198.51.100.9', path);
      expect(file.status, path).toBe(200);
      expect(file.headers['ratelimit'], path).toBeUndefined();
      expect(file.headers.etag, path).toMatch(ASSET_ETAG);
    }
  });

  it('counts a second CF-Connecting-IP on its own', async () => {
    const other = await as('198.51.100.2');
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit']).toMatch(/^"public-api";r=4;/);
  });

  /** Requests one after another, each as `client`: the statuses and the `r=` each 200 carried. */
  const inTurn = async (clients: string[], from?: string) => {
    const seen: string[] = [];
    for (const client of clients) {
      const answer = await get(limited.url, '/api/v1/github-contributions', {
        headers: { 'CF-Connecting-IP': client },
        localAddress: from,
      });
      seen.push(
        answer.status === 200 ? /;r=(\d+);/.exec(answer.headers['ratelimit'] as string)![1]! : `${answer.status}`,
      );
    }
    return seen;
  };
  const ONE_COUNT_OF_FIVE = ['4', '3', '2', '1', '0', '429'];

  it('counts twelve addresses of one IPv6 /64 as one client, as the Node gateway does: one count of 5', async () => {
    const clients = Array.from({ length: 12 }, (_, i) => `2001:db8:41:5::${(i * 4099).toString(16)}:${i + 1}`);
    expect(await inTurn(clients)).toEqual([...ONE_COUNT_OF_FIVE, ...Array(6).fill('429')]);
    // The next /64 is another client.
    expect(await inTurn(['2001:db8:41:6::1'])).toEqual(['4']);
  });

  it('counts seven spellings of one address as one client: one count of 5', async () => {
    const spellings = [
      '2001:db8:41:7::1',
      '2001:DB8:41:7::1',
      '2001:0db8:0041:0007:0000:0000:0000:0001',
      '2001:db8:41:7:0:0:0:1',
      '2001:db8:41:7::0:1',
      '2001:db8:41:7:0::1',
      '2001:db8:41:7::0.0.0.1',
    ];
    expect(await inTurn(spellings)).toEqual([...ONE_COUNT_OF_FIVE, '429']);
    // An IPv4 address and its IPv4-mapped spelling too.
    expect(await inTurn(['203.0.113.41', '::ffff:203.0.113.41', '::FFFF:cb00:7129'])).toEqual(['4', '3', '2']);
  });

  it('ignores the CF-Connecting-IP of a client that is no trusted proxy: its own address counts', async () => {
    // 127.0.0.41 is not in TRUST_PROXY: six requests naming six clients are one client, 127.0.0.41.
    const named = [
      '198.51.100.61',
      '198.51.100.62',
      '198.51.100.63',
      '198.51.100.64',
      '198.51.100.65',
      '198.51.100.66',
    ];
    expect(await inTurn(named, '127.0.0.41')).toEqual(ONE_COUNT_OF_FIVE);
    // The address it named is untouched.
    expect(await inTurn(['198.51.100.61'])).toEqual(['4']);
  });

  it('answers exactly 5 of 20 concurrent requests of one client and refuses 15', async () => {
    const statuses = await Promise.all(Array.from({ length: 20 }, () => as('198.51.100.3', '/api/v1/mon-price')));
    const count = (s: number) => statuses.filter((a) => a.status === s).length;
    expect([count(200), count(429)]).toEqual([5, 15]);
  });

  it('counts /mcp in the same bucket as the data paths', async () => {
    const client = '198.51.100.4';
    expect((await as(client)).headers['ratelimit']).toMatch(/r=4;/);
    const seen: Response[] = [];
    const mcp = new Client({ name: 'edge-test', version: '1' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', limited.url), {
        requestInit: { headers: { 'CF-Connecting-IP': client } },
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          seen.push(response);
          return response;
        },
      }),
    );
    try {
      const result = (await mcp.callTool({ name: 'getV1GithubContributions', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const counted = seen.filter((r) => r.headers.has('ratelimit'));
      const remaining = Number(/r=(\d+);/.exec(counted.at(-1)!.headers.get('ratelimit')!)![1]);
      // The POSTs of the session so far were counted too; one more GET takes the next count.
      const next = await as(client);
      expect(next.headers['ratelimit']).toMatch(new RegExp(`r=${Math.max(0, remaining - 1)};`));
      expect(remaining).toBeLessThan(4);
    } finally {
      await mcp.close();
    }
  });
});

describe('the market route after an upstream failure', () => {
  // A Worker's I/O belongs to the request that started it: a fetch shared across requests left every
  // later request waiting on one whose request had ended, and the route answered 502 for minutes
  // (issue 41). A fresh Worker, so that its first requests share the candle fetch too.
  let upstream: FakeUpstreams;
  let worker: EdgeProcess;
  beforeAll(async () => {
    // The candles answer 'slow'ly: 1.5 s, after the ticker's 500 and its retries have failed the request.
    upstream = await startFakeUpstreams({ slowMs: 1_500 });
    worker = await spawnEdge({ ...env, ...upstreamEnv(upstream.url) });
  }, 120_000);
  afterAll(async () => {
    worker?.child.kill('SIGTERM');
    await worker?.exited;
    await upstream?.close();
  });

  it('answers 200 within 5 s of its upstream healing after a 500, with requests waiting on the failed fetch', async () => {
    const market = () => get(worker.url, '/api/v1/mon-price');
    // The requests end (502) while the candle fetch one of them started is still running: the five others
    // share it, and the next requests would too.
    upstream.market.tickerMode = 'server-error';
    upstream.market.candlesMode = 'slow';
    const failed = await Promise.all(Array.from({ length: 6 }, market));
    expect(failed.map((r) => r.status)).toEqual(Array(6).fill(502));
    delete upstream.market.tickerMode;
    delete upstream.market.candlesMode;
    const healed = performance.now();
    let answer = await market();
    while (answer.status !== 200 && performance.now() - healed < 5_000) {
      await new Promise((r) => setTimeout(r, 100));
      answer = await market();
    }
    const recovered = performance.now() - healed;
    console.log(`edge market route: 200 again ${recovered.toFixed(0)} ms after the upstream healed`);
    expect(answer.status).toBe(200);
    expect(recovered).toBeLessThan(5_000);
    // And it stays so: the next ones too, each with a ticker fetched for it.
    const before = upstream.calls.ticker;
    expect((await Promise.all(Array.from({ length: 4 }, market))).map((r) => r.status)).toEqual(Array(4).fill(200));
    expect(upstream.calls.ticker).toBeGreaterThan(before);
  });
});

describe('the Worker program', () => {
  it('npm run build:edge writes the bundle and the assets folder wrangler.jsonc names, the stock routes left as they are', async () => {
    const before = readFileSync(`${ROOT}gateway/worker/wrangler.jsonc`, 'utf8');
    const result = await runProgram('edge', ['--bundle-only'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^bundled \S+worker\.mjs and \S+\.build\/edge\/assets\/ for /m);
    expect(readFileSync(`${ROOT}gateway/worker/wrangler.jsonc`, 'utf8')).toBe(before);
    const assets = `${ROOT}.build/edge/assets`;
    for (const file of [
      '_headers',
      '_redirects',
      'index.html',
      'openapi.json',
      '.well-known/api-catalog',
      'cards/mon-price.svg',
    ])
      expect(existsSync(join(assets, file)), file).toBe(true);
    for (const file of ['api/v1/mon-price', 'index.html.br', '.nojekyll', 'serve.json'])
      expect(existsSync(join(assets, file)), file).toBe(false);
  });

  it.each([
    ['RATE_LIMIT_REDIS_URL', 'redis://127.0.0.1:6379', []],
    ['TRUST_PROXY', 'nonsense', []],
    // A deployed Worker's client is Cloudflare's CF-Connecting-IP: the bundle takes no proxy.
    ['TRUST_PROXY', '127.0.0.1', ['--bundle-only']],
    ['RATE_LIMIT_QUOTA', '0', []],
    // A dataset's own variable, which its folder checks as its upstream connects: never baked refused.
    ['MARKET_API_URL', 'ftp://example.org', ['--bundle-only']],
  ])('refuses %s=%s at start (%j), exit 2, naming it', async (name, value, args) => {
    const result = await runProgram('edge', args, { ...env, [name]: value });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^edge: invalid configuration: ${name}\\b`, 'm'));
    expect(result.stdout).toBe('');
  });

  it('refuses a HOST that is not an address of this machine (exit 2) and a taken port (exit 1), naming them', async () => {
    const foreign = await runProgram('edge', [], { ...env, HOST: '192.0.2.1' });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(
      /^edge: invalid configuration: HOST "192\.0\.2\.1" is not an address of this machine/m,
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const result = await runProgram('edge', [], { ...env, PORT: String(port) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^edge: cannot start: port ${port} on 127\\.0\\.0\\.1 is taken`, 'm'));
    } finally {
      taken.close();
    }
  });

  it('stops on SIGTERM within 8 s, exit 0, and workerd with it', async () => {
    const worker = await spawnEdge(env);
    const runtime = childrenOf(worker.child.pid!);
    expect(runtime.length).toBeGreaterThan(0);
    worker.child.kill('SIGTERM');
    const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), STOP_WITHIN_MS).unref());
    expect(await Promise.race([worker.exited, deadline])).toBe(0);
    // workerd is killed as the program exits: it is gone by the same deadline, never left serving.
    let late = false;
    void deadline.then(() => (late = true));
    while (runtime.some(alive) && !late) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runtime.filter(alive), 'workerd outlived the program').toEqual([]);
  }, 60_000);
});
