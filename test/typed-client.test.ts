// The contract as a code generator reads it: types generated from the built /openapi.json with
// openapi-typescript, a small openapi-fetch client compiled against them with the TypeScript compiler,
// then run against a gateway serving that build (fake upstreams), its answers validated with schemas/.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createValidator } from '../builders/contract/schemas.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { ROOT } from './helpers/run.ts';
import { sharedSite, type SiteFiles } from './helpers/site-dist.ts';

/**
 * The client: typed reads of the four operations, plus two compile-time checks. A 200's headers may
 * omit RateLimit and RateLimit-Policy (they are optional), and a field the schema lacks is an error.
 */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

type MarketOk = paths['/api/v1/mon-price']['get']['responses'][200];
// Compiles only while the quota headers are optional in the generated types.
export const withoutQuotaHeaders: MarketOk['headers'] = { 'Cache-Control': 'private, no-store' };

export async function readAll(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  const v1Market = await client.GET('/api/v1/mon-price');
  const market = await client.GET('/api/mon-price');
  const v1Calendar = await client.GET('/api/v1/github-contributions');
  const calendar = await client.GET('/api/github-contributions');
  if (!v1Market.data || !market.data || !v1Calendar.data || !calendar.data)
    throw new Error(\`a read failed: \${[v1Market, market, v1Calendar, calendar].map((r) => r.response.status).join(' ')}\`);
  // @ts-expect-error: MarketData has no such field
  void v1Market.data.price;
  const value: number = v1Market.data.value;
  const total: number = calendar.data.totalContributions;
  return {
    value,
    total,
    payloads: [v1Market.data, market.data, v1Calendar.data, calendar.data],
    rateLimit: v1Market.response.headers.get('RateLimit'),
  };
}
`;

// Noon in Toronto on 2026-11-22, for the fake upstreams and the gateway alike.
const NOW = Date.parse('2026-11-22T17:00:00.000Z');
const now = () => NOW;

let site: SiteFiles;
let fake: FakeUpstreams;
let gw: TestGateway;
let dir: string;

beforeAll(async () => {
  site = sharedSite();
  expect(site.result.code).toBe(0);
  fake = await startFakeUpstreams({ now });
  gw = await startTestGateway(fake.url, site.dir, { RATE_LIMIT_QUOTA: '100', UPSTREAM_TIMEOUT_MS: '10000' }, { now });
  // Inside node_modules so that the compiled client resolves openapi-fetch like any dependent package.
  await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
  dir = await mkdtemp(join(ROOT, 'node_modules/.cache/typed-client-'));
});
afterAll(async () => {
  await gw?.close();
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  site?.close();
});

describe("a typed client generated from the gateway's /openapi.json", () => {
  it('compiles against the generated types (quota headers optional) and reads all four operations', async () => {
    // The gateway's own document: the client runs against the gateway, whose quota headers it reads.
    const doc = JSON.parse((await get(gw.url, '/openapi.json')).text) as Record<string, unknown>;
    const types = astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    expect(types).toMatch(/RateLimit\?: string/);
    expect(types).toMatch(/"RateLimit-Policy"\?: string/);
    await writeFile(join(dir, 'api.d.ts'), types);
    await writeFile(join(dir, 'client.ts'), CLIENT);

    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      outDir: dir,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    expect(program.emit().emitSkipped).toBe(false);

    const client = (await import(pathToFileURL(join(dir, 'client.js')).href)) as {
      readAll(
        baseUrl: string,
      ): Promise<{ payloads: unknown[]; value: number; total: number; rateLimit: string | null }>;
    };
    const result = await client.readAll(gw.url);
    const validator = createValidator();
    const [v1Market, market, v1Calendar, calendar] = result.payloads;
    validator.validate('MarketData', v1Market);
    validator.validate('MarketData', market);
    validator.validate('GitHubContributions', v1Calendar);
    validator.validate('GitHubContributions', calendar);
    expect(result.value).toBe((v1Market as { value: number }).value);
    expect(result.total).toBe((calendar as { totalContributions: number }).totalContributions);
    expect(result.rateLimit).toMatch(/^"public-api";r=\d+;t=\d+$/);
  });
});
