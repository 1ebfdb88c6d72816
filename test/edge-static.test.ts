// The Worker's static table (gateway/worker/worker-static.ts) in process: made from what the bundle carries of a
// real build (gateway/worker/deployment.ts), with the static assets read through a stand-in for the ASSETS binding,
// it answers every path of the site as the Node gateway's table does, byte for byte and header for header,
// reads each body once and only when an answer carries it, and refuses to serve a dist/ changed since.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveFeedUrl } from '../lib/config.ts';
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
import { createValidator, loadSchemas } from '../contract/schemas.ts';
import { datasets, serviceTables } from '../datasets/registry.ts';
import { createSources } from '../upstreams/sources.ts';
import { gatewayConfig } from './helpers/gateway.ts';
import { sharedSite, TEST_SITE_URL } from './helpers/site-dist.ts';

const site = sharedSite();
// Nothing here reaches an upstream: only files are asked for.
const config = { ...gatewayConfig('http://127.0.0.1:9', { SITE_URL: TEST_SITE_URL }), distDir: site.dir };
const service = serviceTables(config);
const schemas = loadSchemas(service);
const baked = JSON.parse(deploymentModules(config, {}).deployment) as Baked;

/** The ASSETS binding over dist/, counting what is read. */
function assetsOf(dir: string, reads: string[]): AssetsBinding {
  return {
    async fetch(request) {
      const path = decodeURI(new URL(request.url).pathname);
      reads.push(path);
      const body = await readFile(join(dir, path)).catch(() => undefined);
      return body ? new Response(body) : new Response('not found', { status: 404 });
    },
  };
}

function gatewayOver(table: StaticTable): Gateway {
  return createGateway({
    config,
    service,
    datasets: datasets(config),
    schemas,
    validator: createValidator(schemas, { checkSchemas: false }),
    table,
    sources: createSources(config),
    quota: DISABLED_QUOTA,
    codec: NODE_CODEC,
    now: Date.now,
    reportError: () => {},
  });
}

const nodeTable = staticTable(
  readSiteFiles(site.dir, (found) => [gatewayOpenApiFile(config, service, schemas, found)]),
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

async function same(a: Response, b: Response) {
  expect(b.status).toBe(a.status);
  expect([...b.headers]).toEqual([...a.headers]);
  expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer()))).toBe(true);
}

describe("the Worker's static table", () => {
  it("answers every path of the site, and an unknown one, as the Node gateway's table", async () => {
    const reads: string[] = [];
    const { table, fill } = workerStaticOver(assetsOf(site.dir, reads));
    const worker = { gateway: gatewayOver(table), fill };
    const paths = [...nodeTable.routes.keys(), '/no/such/page'];
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip' }] as Array<
        Record<string, string>
      >) {
        const a = await node.fetch(new Request(new URL(encodeURI(path), TEST_SITE_URL), { headers }), null);
        await same(a, await workerGet(worker, encodeURI(path), headers));
      }
    }
    // The gateway's own /openapi.json (with /mcp) travels in the bundle; every other body is an asset.
    expect(baked.files.find((f) => f.file === 'openapi.json')!.body).toHaveProperty('base64');
    expect(baked.files.filter((f) => 'base64' in f.body)).toHaveLength(1);
    // Each body read once, whatever the number of answers that carried it.
    expect(new Set(reads).size).toBe(reads.length);
  });

  it('reads nothing for a 304 or a HEAD, and nothing before an answer carries a body', async () => {
    const reads: string[] = [];
    const { table, fill } = workerStaticOver(assetsOf(site.dir, reads));
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
    expect(reads).toEqual(['/index.html']);
  });

  it('refuses to serve a dist/ whose files changed since the bundle was made', async () => {
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
