// The Worker's static table (gateway/worker/worker-static.ts) in process: made from what the bundle carries of a
// real build (gateway/worker/deployment.ts), with the static assets the bundle step writes read through a
// stand-in for the ASSETS binding, it answers every path of the site as the Node gateway's table answers a
// client that names no coding (the only kind of client a Worker sees), byte for byte and header for header
// but for Vary, reads each body once and only when an answer carries it, follows the asset router's redirect
// to a page's clean URL, and refuses to serve assets changed since the bundle was made.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveFeedUrl } from '../builders/lib/config.ts';
import { deploymentModules } from '../gateway/worker/deployment.ts';
import type { Baked } from '../gateway/worker/baked.ts';
import { workerStatic, type AssetsBinding } from '../gateway/worker/worker-static.ts';
import { createGateway, type Gateway } from '../gateway/core/gateway.ts';
import { staticTable, type StaticTable } from '../gateway/core/http/static-table.ts';
import { DISABLED_QUOTA } from '../gateway/core/quota.ts';
import { toResponse } from '../gateway/core/http/web.ts';
import { NODE_CODEC } from '../gateway/http/node-codec.ts';
import { readSiteFiles } from '../gateway/http/static-files.ts';
import { gatewayOpenApiFile } from '../gateway/http/openapi-document.ts';
import { createValidator, loadSchemas } from '../builders/contract/schemas.ts';
import { datasets, serviceTables } from '../builders/datasets/registry.ts';
import { testDeployment } from './helpers/sources.ts';
import { gatewayConfig } from './helpers/gateway.ts';
import { sharedSite, TEST_SITE_URL } from './helpers/site-dist.ts';

const site = sharedSite();
// Nothing here reaches an upstream: only files are asked for.
const config = { ...gatewayConfig('http://127.0.0.1:9', { SITE_URL: TEST_SITE_URL }), distDir: site.dir };
const service = serviceTables(config);
const schemas = loadSchemas(service);
const modules = deploymentModules(config, {});
const baked = JSON.parse(modules.deployment) as Baked;
const assetFiles = new Map(modules.assets.map((a) => [`/${a.file}`, a.body]));

/** The ASSETS binding over the bundle's assets, counting what is read; a page's file answers 307 to its clean URL, as Cloudflare's does. */
function assetsOf(reads: string[]): AssetsBinding {
  return {
    async fetch(request) {
      const path = decodeURI(new URL(request.url).pathname);
      reads.push(path);
      if (path.endsWith('.html'))
        return new Response(null, { status: 307, headers: { Location: path.replace(/(index)?\.html$/, '') } });
      const body = assetFiles.get(path) ?? assetFiles.get(`${path === '/' ? '/index' : path}.html`);
      return body ? new Response(Buffer.from(body)) : new Response('not found', { status: 404 });
    },
  };
}

function gatewayOver(table: StaticTable): Gateway {
  return createGateway({
    deployment: testDeployment(config),
    table,
    quota: DISABLED_QUOTA,
    codec: NODE_CODEC,
    now: Date.now,
    reportError: () => {},
  });
}

const nodeTable = staticTable(
  readSiteFiles(site.dir, (found) => [
    gatewayOpenApiFile({ config, datasets: datasets(config), service, schemas }, found),
  ]),
  service,
  NODE_CODEC,
  liveFeedUrl(config),
);
const node = gatewayOver(nodeTable);

/** The Worker's static table over `assets`, from what the bundle carries, as the Worker makes it. */
const workerStaticOver = (assets: AssetsBinding) =>
  workerStatic(baked.files, service, assets, NODE_CODEC, liveFeedUrl(config));

/** One GET as the Worker answers it: the body filled from the assets first. */
async function workerGet(
  worker: { gateway: Gateway; fill: (b?: Uint8Array) => Promise<void> | undefined },
  path: string,
  headers: Record<string, string> = {},
) {
  const answer = await worker.gateway.handle({ method: 'GET', url: path, headers }, null, async () => undefined);
  await worker.fill(answer.body);
  return toResponse('GET', answer);
}

/** The Node gateway's answer and the Worker's: the same but for Vary (the Worker keeps no compressed copy to vary over). */
async function same(a: Response, b: Response) {
  expect(b.status).toBe(a.status);
  const headers = (r: Response) => [...r.headers].filter(([name]) => name !== 'vary');
  expect(headers(b)).toEqual(headers(a));
  expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer()))).toBe(true);
}

describe("the Worker's static table", () => {
  it("answers every path of the site, and an unknown one, as the Node gateway's table", async () => {
    const reads: string[] = [];
    const { table, fill } = workerStaticOver(assetsOf(reads));
    const worker = { gateway: gatewayOver(table), fill };
    const paths = [...nodeTable.routes.keys(), '/no/such/page'];
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      const a = await node.fetch(new Request(new URL(encodeURI(path), TEST_SITE_URL)), null);
      await same(a, await workerGet(worker, encodeURI(path)));
    }
    // Every body is a static asset the bundle step writes, the gateway's own /openapi.json (with /mcp) among them.
    expect(baked.files.every((f) => assetFiles.has(f.body.asset))).toBe(true);
    const gatewayDocument = nodeTable.routes.get('/openapi.json')!.rep.identity.body;
    expect(Buffer.from(assetFiles.get('/openapi.json')!).equals(Buffer.from(gatewayDocument))).toBe(true);
    expect(Buffer.from(gatewayDocument).equals(await readFile(join(site.dir, 'openapi.json')))).toBe(false);
    // Each body read once, whatever the number of answers that carried it (a page's twice: its file, then its clean URL).
    const pages = reads.filter((r) => r.endsWith('.html'));
    expect(new Set(reads).size).toBe(reads.length);
    expect(pages.length).toBeGreaterThan(3);
  });

  it('writes the assets Cloudflare serves: the served files and the host rules, no snapshot, copy or dot-file', () => {
    const names = [...assetFiles.keys()];
    expect(names).toContain('/_headers');
    expect(names).toContain('/_redirects');
    expect(names).toContain('/.well-known/api-catalog');
    for (const r of service.resources) for (const f of r.snapshotFiles) expect(names).not.toContain(`/${f}`);
    expect(names.filter((n) => /\.(br|gz)$/.test(n) || /\/\.(?!well-known\/)/.test(n))).toEqual([]);
    expect(names).not.toContain('/serve.json');
  });

  it('reads nothing for a 304 or a HEAD, and nothing before an answer carries a body', async () => {
    const reads: string[] = [];
    const { table, fill } = workerStaticOver(assetsOf(reads));
    const gateway = gatewayOver(table);
    expect(reads).toEqual([]);
    const etag = (await node.fetch(new Request(new URL('/', TEST_SITE_URL)), null)).headers.get('etag')!;
    const notModified = await gateway.handle(
      { method: 'GET', url: '/', headers: { 'if-none-match': etag } },
      null,
      async () => undefined,
    );
    expect(notModified.status).toBe(304);
    await fill(notModified.body);
    expect(reads).toEqual([]);
    await workerGet({ gateway, fill }, '/');
    // index.html answers 307 to / at the asset router: the body is read from where it redirects.
    expect(reads).toEqual(['/index.html', '/']);
  });

  it("fills a body for a request on its own, never through another request's read that may never end", async () => {
    // workerd ties a promise to the request that made it: a read begun for a request that has since ended
    // never settles for another. The first read here never answers; the second request must not wait on it.
    const reads: string[] = [];
    const answering = assetsOf(reads);
    let first = true;
    const assets: AssetsBinding = {
      fetch(request) {
        if (!first) return answering.fetch(request);
        first = false;
        return new Promise<Response>(() => {});
      },
    };
    const { table, fill } = workerStaticOver(assets);
    const gateway = gatewayOver(table);
    const ask = () => gateway.handle({ method: 'GET', url: '/llms.txt', headers: {} }, null, async () => undefined);
    const abandoned = await ask();
    void fill(abandoned.body);
    const answer = await ask();
    await fill(answer.body);
    expect(Buffer.from(answer.body!).equals(Buffer.from(assetFiles.get('/llms.txt')!))).toBe(true);
    expect(reads).toEqual(['/llms.txt']);
  });

  it('refuses to serve assets whose files changed since the bundle was made', async () => {
    const changed: AssetsBinding = { fetch: async () => new Response('another file') };
    const { table, fill } = workerStaticOver(changed);
    const answer = await gatewayOver(table).handle(
      { method: 'GET', url: '/llms.txt', headers: {} },
      null,
      async () => undefined,
    );
    await expect(fill(answer.body)).rejects.toThrow(
      /\/llms\.txt is not the file the bundle was made from; run npm run build:edge again/,
    );
  });
});
