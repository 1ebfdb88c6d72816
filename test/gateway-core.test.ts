// The gateway's core called in process, as hono's app.request() calls an app: web Requests in, web
// Responses out, no socket, a static table made from a plain list of files (as a Worker makes it from
// its bundle), the in-process quota store and the fake upstreams. What a Worker adapter relies on.
import { describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../gateway/core/gateway.ts';
import { staticTable, type SiteFile } from '../gateway/core/http/static-table.ts';
import { createQuota, DISABLED_QUOTA } from '../gateway/core/quota.ts';
import type { BodyCodec } from '../gateway/core/http/representation.ts';
import { memoryQuotaStore } from '../gateway/quota/memory-store.ts';
import { NODE_CODEC } from '../gateway/http/node-codec.ts';
import { datasets, serviceTables } from '../builders/datasets/registry.ts';
import { createValidator, loadSchemas } from '../builders/contract/schemas.ts';
import { testDeployment } from './helpers/sources.ts';
import type { FakeUpstreams } from './fakes/upstreams.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { gatewayConfig } from './helpers/gateway.ts';

// 12:00 in Toronto on 2026-11-22: far from the calendar's midnight boundary.
const START = Date.parse('2026-11-22T17:00:00.000Z');
const now = () => START;
const schemas = loadSchemas();
const validator = createValidator(schemas, { checkSchemas: false });
const utf8 = (s: string) => new TextEncoder().encode(s);
const LONG = Array.from({ length: 200 }, (_, i) => `Line ${i} of the home page.`).join('\n');
const FILES: SiteFile[] = [
  { file: 'index.html', body: utf8(`<!doctype html><title>Home</title>\n${LONG}`) },
  { file: '404.html', body: utf8('<!doctype html><title>Not found</title>') },
  { file: 'api/index.json', body: utf8(JSON.stringify({ authentication: 'none' })) },
  { file: '.env', body: utf8('TOKEN=secret') },
];

let fake: FakeUpstreams;
shareUpstreams({ now }, (shared) => void (fake = shared.fake));

function core(env: Record<string, string> = {}, codec: BodyCodec = NODE_CODEC): Gateway {
  const config = gatewayConfig(fake.url, env);
  const deployment = testDeployment(config);
  return createGateway({
    deployment,
    table: staticTable(FILES, deployment.service, codec),
    quota:
      config.rateLimitQuota === undefined
        ? DISABLED_QUOTA
        : createQuota({
            quota: config.rateLimitQuota,
            windowSeconds: config.rateLimitWindow,
            store: memoryQuotaStore(now),
            now,
          }),
    codec,
    now,
    reportError: () => {},
  });
}

const request = (path: string, init?: RequestInit) => new Request(`https://example.test${path}`, init);

describe('the core, called with web Requests', () => {
  it('answers a file with its ETag and brotli copy, a 304 for that ETag, and HEAD without a body', async () => {
    const gw = core();
    const ok = await gw.fetch(request('/', { headers: { 'accept-encoding': 'br' } }), '203.0.113.7');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-encoding')).toBe('br');
    expect(ok.headers.get('vary')).toBe('Accept-Encoding');
    const etag = ok.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}-br"$/);
    const again = await gw.fetch(
      request('/', { headers: { 'accept-encoding': 'br', 'if-none-match': etag } }),
      '203.0.113.7',
    );
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await gw.fetch(request('/', { method: 'HEAD' }), null);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(FILES[0]!.body.length));
    expect(await head.text()).toBe('');
  });

  it('serves nothing a file list names under a dot-name, and answers the 404 page and the API problems', async () => {
    const gw = core();
    const env = await gw.fetch(request('/.env'), null);
    expect(env.status).toBe(404);
    expect(await env.text()).not.toContain('secret');
    const missing = await gw.fetch(request('/api/nothing'), null);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const wrong = await gw.fetch(request('/api/v1/mon-price', { method: 'DELETE' }), null);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves the data routes live, counting one client across aliases, then the 429 problem', async () => {
    const gw = core({ RATE_LIMIT_QUOTA: '2' });
    fake.resetCalls();
    const first = await gw.fetch(request('/api/v1/mon-price'), '203.0.113.7');
    expect(first.status).toBe(200);
    expect(((await first.json()) as { product: string }).product).toBe('MON-USD');
    expect(first.headers.get('ratelimit')).toMatch(/^"public-api";r=1;t=\d+$/);
    const second = await gw.fetch(request('/api/github-contributions'), '203.0.113.7');
    expect(second.headers.get('ratelimit')).toMatch(/^"public-api";r=0;t=\d+$/);
    const third = await gw.fetch(request('/api/mon-price'), '203.0.113.7');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    const other = await gw.fetch(request('/api/mon-price'), '198.51.100.1');
    expect(other.status).toBe(200);
  });

  it('refuses /mcp from a foreign Origin with 403, and answers tools/list to a 2025 client', async () => {
    const gw = core();
    const foreign = await gw.fetch(request('/mcp', { method: 'POST', headers: { origin: 'https://evil.test' } }), null);
    expect(foreign.status).toBe(403);
    const list = await gw.fetch(
      request('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
      null,
    );
    expect(list.status).toBe(200);
    const tools = ((await list.json()) as { result: { tools: Array<{ name: string }> } }).result.tools;
    expect(tools.map((t) => t.name)).toContain('getV1MonPrice');
  });

  it('takes a codec that makes no compressed copies (a runtime without zlib): identity only', async () => {
    const gw = core({}, { tag: NODE_CODEC.tag });
    const ok = await gw.fetch(request('/', { headers: { 'accept-encoding': 'br, gzip' } }), null);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-encoding')).toBeNull();
    expect(ok.headers.get('vary')).toBeNull();
  });
});
