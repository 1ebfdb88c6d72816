// /openapi.json against the OpenAPI 3.1 schema (a real validator from the npm registry) and against
// the route table, problem types and schema files it is generated from. Two documents: the one the
// build writes into dist/ for a static host, and the one the gateway serves at the same path, which
// adds what only the gateway does (the quota's 429 and RateLimit headers, its Cache-Control, problems).
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketData } from '../builders/domain/market.ts';
import type { OpenApiHost } from '../builders/contract/openapi.ts';
import { PROBLEM_CONTENT_TYPE } from '../builders/contract/problems.ts';
import { CONTENT_DOCUMENTS } from '../builders/contract/pages.ts';
import { CACHE_CONTROL } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { createValidator, loadSchemas } from '../builders/contract/schemas.ts';
import { describeProblems, lintOpenApi } from '../builders/build/lint-openapi.ts';
import { sharedSite, TEST_SITE_URL, type SiteFiles } from './helpers/site-dist.ts';
import { get, startTestGateway, type TestGateway } from './helpers/gateway.ts';

type Json = Record<string, any>;
let site: SiteFiles;
let gw: TestGateway;
const docs = {} as Record<OpenApiHost, Json>;

beforeAll(async () => {
  site = sharedSite();
  expect(site.result.code).toBe(0);
  docs.static = await site.json<Json>('openapi.json');
  // No data request is made here: the upstream address only has to be well formed.
  gw = await startTestGateway('http://127.0.0.1:9', site.dir, { SITE_URL: TEST_SITE_URL });
  const answer = await get(gw.url, '/openapi.json');
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json');
  docs.gateway = JSON.parse(answer.text) as Json;
});
afterAll(async () => {
  await gw?.close();
  site.close();
});

/** Every data path and its operationId, from the registry (test/dataset-modules.test.ts pins them). */
const BINDING_OPERATION_IDS: Record<string, string> = Object.fromEntries(
  DEFAULT_SERVICE.resources.flatMap((r) => [r.alias, r.v1].map((op) => [op.path, op.operationId])),
);

/** Follows a local `#/components/...` reference. */
const derefIn =
  (doc: Json) =>
  (node: Json): Json =>
    node.$ref
      ? (node.$ref as string)
          .slice(2)
          .split('/')
          .reduce((n: Json, k) => n[k], doc)
      : node;

const operationsOf = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
  );

describe.each(['gateway', 'static'] as const)('/openapi.json for the %s host', (host) => {
  let doc: Json;
  beforeAll(() => {
    doc = docs[host];
  });
  const operations = () => operationsOf(doc);

  it('is a valid OpenAPI 3.1 document according to @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // every $ref resolves
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("is lint-clean under Redocly's recommended ruleset, with the build's snapshot examples", async () => {
    expect(doc.components.examples).toBeDefined();
    expect(describeProblems(await lintOpenApi(doc))).toEqual([]);
  });

  it('points agents to the MCP endpoint and says it is gateway only', () => {
    expect(doc.info.description).toContain(`**Model Context Protocol (gateway only).**`);
    expect(doc.info.description).toContain(`${TEST_SITE_URL}/mcp`);
  });

  it('names its license (MIT, an SPDX identifier) and a contact', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact).toEqual({ name: expect.any(String), url: `${TEST_SITE_URL}/developers` });
  });

  it('has info version 1, servers from SITE_URL and an empty top-level security', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('1');
    expect(doc.servers).toEqual([{ url: TEST_SITE_URL, description: expect.any(String) }]);
    expect(doc.security).toEqual([]);
  });

  it('declares a GET for each data path (v1 and alias of each dataset) with the exact operationIds, no parameters and empty security', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(BINDING_OPERATION_IDS).sort());
    for (const [path, operationId] of Object.entries(BINDING_OPERATION_IDS)) {
      const get = doc.paths[path].get;
      expect(get.operationId).toBe(operationId);
      expect(get.parameters).toEqual([]);
      expect(get.security).toEqual([]);
      expect(get.requestBody).toBeUndefined();
    }
  });

  it('has exactly the documented operations, one GET per data path, with HEAD described on each', () => {
    const ids = operations().map((o) => o.op.operationId as string);
    expect(ids.sort()).toEqual(Object.values(BINDING_OPERATION_IDS).sort());
    for (const path of Object.keys(BINDING_OPERATION_IDS)) {
      expect(Object.keys(doc.paths[path])).toEqual(['get']);
      expect(doc.paths[path].get.description).toMatch(/HEAD is also accepted/);
    }
    expect(doc.info.description).toMatch(/HEAD/);
  });

  it('declares each snapshot example once and references it from the alias and the v1 path', async () => {
    const names: string[] = [];
    for (const r of DEFAULT_SERVICE.resources) {
      const ref = (path: string) =>
        doc.paths[path].get.responses['200'].content['application/json'].examples.snapshot.$ref as string;
      const [alias, v1] = [ref(r.alias.path), ref(r.v1.path)];
      expect(alias).toBe(v1);
      const name = v1.replace('#/components/examples/', '');
      // The example of this dataset's own snapshot, never another's.
      expect(doc.components.examples[name].value).toEqual(await site.json(r.snapshotFiles[0]!));
      // A schema of its own names it; datasets that share one (a copy of a folder) are told by their operation.
      const shared = DEFAULT_SERVICE.resources.filter((o) => o.schema === r.schema).length > 1;
      expect(name).toBe(shared ? `${r.v1.operationId}Snapshot` : `${r.schema}Snapshot`);
      names.push(name);
    }
    // One a dataset, from the registry (test/dataset-modules.test.ts pins the list).
    expect(Object.keys(doc.components.examples).sort()).toEqual(names.sort());
  });

  it('gives every operation a function-tool input schema: an object with empty properties, empty required, no additional properties', () => {
    expect(doc.info.description).toContain('x-input-schema');
    for (const { op } of operations()) {
      expect(op['x-input-schema']).toEqual({
        type: 'object',
        properties: {},
        required: [],
        additionalProperties: false,
      });
    }
  });

  it('uses the real snapshot of the build as the 200 example, valid against its schema', async () => {
    const validator = createValidator();
    const market = doc.components.examples.MarketDataSnapshot.value as MarketData;
    expect(market).toEqual(await site.json('api/v1/mon-price'));
    validator.validate('MarketData', market);
    const calendar = doc.components.examples.GitHubContributionsSnapshot.value;
    expect(calendar).toEqual(await site.json('api/v1/github-contributions'));
    validator.validate('GitHubContributions', calendar);
  });

  it('takes components.schemas from schemas/ unchanged except $id/$schema dropped and file $refs rewritten', () => {
    const files = loadSchemas();
    // The schemas the operations use; the API index's and the content documents' validate documents that
    // are not operations.
    // A static host answers no problem documents, so its document has no ProblemDetails.
    const notOperations = new Set<string>([
      'ApiIndex',
      // status.json and its badge: static documents of the build, listed by the index and the catalog.
      'Status',
      'StatusBadge',
      ...Object.values(CONTENT_DOCUMENTS).map((d) => d.schema ?? ''),
      ...(host === 'static' ? ['ProblemDetails'] : []),
    ]);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(
      [...files.keys()].filter((t) => !notOperations.has(t)).sort(),
    );
    for (const [title, schema] of files) {
      if (notOperations.has(title)) continue;
      const expected = JSON.parse(
        JSON.stringify(schema).replace(
          /"\$ref":"([A-Za-z]+)\.schema\.json"/g,
          (_m, name: string) => `"$ref":"#/components/schemas/${name}"`,
        ),
      ) as Json;
      delete expected.$id;
      delete expected.$schema;
      expect(doc.components.schemas[title]).toEqual(expected);
    }
    expect(doc.components.schemas.MarketData.properties.points.items).toEqual({
      $ref: '#/components/schemas/MarketPoint',
    });
    expect(JSON.stringify(doc)).not.toMatch(/\.schema\.json/);
  });
});

describe("the gateway's /openapi.json: what only the gateway does", () => {
  let doc: Json;
  let deref: (node: Json) => Json;
  beforeAll(() => {
    doc = docs.gateway;
    deref = derefIn(doc);
  });

  it('answers 200 with the schema of the resource and its Cache-Control, RateLimit and RateLimit-Policy headers', () => {
    for (const resource of DEFAULT_SERVICE.resources) {
      for (const op of [resource.v1, resource.alias]) {
        const ok = doc.paths[op.path].get.responses['200'];
        expect(ok.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${resource.schema}` });
        expect(Object.keys(ok.headers).sort()).toEqual(['Cache-Control', 'RateLimit', 'RateLimit-Policy']);
        const cache = deref(ok.headers['Cache-Control']);
        expect(cache.required).toBe(true);
        if (resource.id === 'market') expect(cache.schema.const).toBe('private, no-store');
        else
          expect(
            new RegExp(cache.schema.pattern).test('public, max-age=0, s-maxage=3600, stale-while-revalidate=300'),
          ).toBe(true);
        expect(deref(ok.headers.RateLimit).required).toBe(false);
      }
    }
  });

  it('answers 429 (with Retry-After) and 502 as application/problem+json ProblemDetails', () => {
    for (const path of Object.keys(BINDING_OPERATION_IDS)) {
      const { responses } = doc.paths[path].get;
      const tooMany = deref(responses['429']);
      expect(tooMany.content[PROBLEM_CONTENT_TYPE].schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
      const retryAfter = deref(tooMany.headers['Retry-After']);
      expect(retryAfter).toMatchObject({ required: true, schema: { type: 'integer', minimum: 0 } });
      expect(Object.keys(tooMany.headers)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
      expect(tooMany.content[PROBLEM_CONTENT_TYPE].example).toMatchObject({
        status: 429,
        code: 'rate_limit_exceeded',
        type: `${TEST_SITE_URL}/developers#rate-limit-exceeded`,
      });
      const upstream = deref(responses['502']);
      expect(upstream.content[PROBLEM_CONTENT_TYPE].schema).toEqual({ $ref: '#/components/schemas/ProblemDetails' });
      expect(upstream.content[PROBLEM_CONTENT_TYPE].example).toMatchObject({
        status: 502,
        code: 'upstream_unavailable',
        type: `${TEST_SITE_URL}/developers#upstream-unavailable`,
      });
    }
    expect(deref(doc.paths['/api/mon-price'].get.responses['502']).content[PROBLEM_CONTENT_TYPE].example.error).toMatch(
      /market data is unavailable/i,
    );
  });
});

describe("the static host's /openapi.json (dist/): only what a static host does", () => {
  let doc: Json;
  beforeAll(() => {
    doc = docs.static;
  });

  it("promises no 429, no 502 and no problem documents: a missing snapshot is the host's 404", () => {
    for (const { op } of operationsOf(doc)) {
      expect(Object.keys(op.responses).sort()).toEqual(['200', '404']);
      expect(op.responses['404'].content).toBeUndefined();
      expect(op.description).not.toMatch(/quota/);
    }
    expect(doc.components.responses).toBeUndefined();
    expect(JSON.stringify(doc)).not.toContain(PROBLEM_CONTENT_TYPE + '"');
  });

  it("names no RateLimit header and requires no Cache-Control: the headers are the host's", () => {
    for (const resource of DEFAULT_SERVICE.resources) {
      for (const op of [resource.v1, resource.alias]) {
        const ok = doc.paths[op.path].get.responses['200'];
        expect(Object.keys(ok.headers)).toEqual(['Cache-Control']);
        expect(ok.headers['Cache-Control'].required).toBe(false);
        expect(ok.headers['Cache-Control'].schema).toEqual({ type: 'string' });
        // The rule the build writes for serve, Netlify and Cloudflare Pages, and that GitHub Pages has none.
        expect(ok.headers['Cache-Control'].description).toContain(CACHE_CONTROL.staticSnapshot(resource.cache));
        expect(ok.headers['Cache-Control'].description).toContain('GitHub Pages');
        // The body is JSON; the type is the host's: said, not promised.
        expect(ok.description).toMatch(/GitHub Pages.*application\/octet-stream/);
      }
    }
  });

  it('says that the live gateway adds the quota', () => {
    expect(doc.info.description).toMatch(/The live gateway \(`npm start`\) .* adds the quota: 429/);
    expect(doc.info.description).toContain('`RateLimit` and `RateLimit-Policy` headers');
    expect(doc.info.description).not.toMatch(/405 problem/);
  });

  it("differs from the gateway's document only in what the host does: same operations, schemas of the payloads and examples", () => {
    expect(operationsOf(doc).map((o) => [o.path, o.op.operationId])).toEqual(
      operationsOf(docs.gateway).map((o) => [o.path, o.op.operationId]),
    );
    expect(doc.components.examples).toEqual(docs.gateway.components.examples);
    const { ProblemDetails, ...payloads } = docs.gateway.components.schemas as Json;
    expect(ProblemDetails).toBeDefined();
    expect(doc.components.schemas).toEqual(payloads);
  });
});
