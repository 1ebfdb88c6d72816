// POST /mcp with the official SDK's client over Streamable HTTP, against the gateway in process and the
// fake upstreams: the six tools and their schemas, live ticker and calendar cache counted in upstream
// calls, tool errors carrying problem documents, one quota shared with the HTTP data routes, and the
// transport's answers to other methods, preflights and oversized bodies.

import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import type { SchemaName } from '../builders/contract/service.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createValidator, loadSchemas } from '../builders/contract/schemas.ts';
import { dataTools, selfContainedSchema, toolListCacheHint } from '../builders/contract/mcp-tools.ts';
import { serviceTablesOf } from '../builders/contract/service.ts';
import { noCalls, type FakeUpstreams } from './fakes/upstreams.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { get, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const validator = createValidator();
const schemas = loadSchemas();
const DOCUMENTED_INPUT_SCHEMA = { type: 'object', properties: {}, required: [], additionalProperties: false };
/** Each tool's payload schema, one tool per data operation of the registry (test/dataset-modules.test.ts pins them). */
const TOOLS: Record<string, SchemaName> = Object.fromEntries(
  dataTools(DEFAULT_SERVICE).map((t) => [t.name, t.resource.schema]),
);

// 12:00 in Toronto on 2026-11-22: far from the calendar's midnight boundary.
const START = Date.parse('2026-11-22T17:00:00.000Z');
const now = () => START;

let fake: FakeUpstreams;
let fixture: DistFixture;

shareUpstreams({ now }, (shared) => void ({ fake, fixture } = shared));

interface Session {
  client: Client;
  /** The HTTP responses to the client's requests, in order. */
  responses: Array<{ status: number; headers: Headers }>;
  close(): Promise<void>;
}

async function connect(gw: TestGateway): Promise<Session> {
  const responses: Session['responses'] = [];
  const client = new Client({ name: 'mcp-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', gw.url), {
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      responses.push({ status: response.status, headers: response.headers });
      return response;
    },
  });
  await client.connect(transport);
  return { client, responses, close: () => client.close() };
}

async function withGateway(
  env: Record<string, string>,
  run: (gw: TestGateway, session: Session) => Promise<void>,
): Promise<void> {
  fake.market = { mode: 'ok', tradeIdAsString: false };
  fake.github = { mode: 'ok' };
  fake.resetCalls();
  const gw = await startTestGateway(fake.url, fixture.dist, env, { now, quotaKeyPrefix: `mcp-${Math.random()}:` });
  const session = await connect(gw);
  try {
    await run(gw, session);
  } finally {
    await session.close();
    await gw.close();
  }
}

const text = (result: CallToolResult) => {
  expect(result.content).toHaveLength(1);
  const block = result.content[0]!;
  expect(block.type).toBe('text');
  return (block as { text: string }).text;
};

const problemOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const body = JSON.parse(text(result)) as Record<string, unknown>;
  validator.validate('ProblemDetails', body);
  return body;
};

describe('MCP 2026-07-28 with the official v2 client, pinned to that revision', () => {
  it('discovers the server, lists the six tools with their schemas and calls one, in the quota of the data routes', async () => {
    fake.market = { mode: 'ok', tradeIdAsString: false };
    fake.github = { mode: 'ok' };
    fake.resetCalls();
    const gw = await startTestGateway(
      fake.url,
      fixture.dist,
      { RATE_LIMIT_QUOTA: '9' },
      {
        now,
        quotaKeyPrefix: `mcp2-${Math.random()}:`,
      },
    );
    const sent: Array<{ version: string | null; body: string }> = [];
    const answers: Headers[] = [];
    const client = new ClientV2(
      { name: 'mcp-test-v2', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransportV2(new URL('/mcp', gw.url), {
      fetch: async (url, init) => {
        sent.push({
          version: new Headers(init?.headers).get('mcp-protocol-version'),
          body: typeof init?.body === 'string' ? init.body : '',
        });
        const response = await fetch(url, init);
        answers.push(response.headers);
        return response;
      },
    });
    try {
      await client.connect(transport);
      expect(client.getDiscoverResult()).toBeDefined();
      expect(sent[0]!.body).toContain('"server/discover"');
      const listed = await client.listTools();
      const { tools } = listed;
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOLS).sort());
      for (const tool of tools) {
        expect(tool.inputSchema).toEqual(DOCUMENTED_INPUT_SCHEMA);
        expect(tool.outputSchema).toEqual(selfContainedSchema(TOOLS[tool.name]!, schemas));
      }
      // MCP 2026-07-28, Caching: the hint of the shortest-lived tool, the market's (computed per request).
      expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
      const result = (await client.callTool({ name: 'getV1GithubContributions', arguments: {} })) as {
        isError?: boolean;
        structuredContent?: unknown;
        content: Array<{ type: string; text?: string }>;
      };
      expect(result.isError).toBeFalsy();
      validator.validate('GitHubContributions', result.structuredContent);
      expect(result.content[1]!.text).toMatch(
        /^(These data are .+ old: valid until |From today's calendar in America\/Toronto \(\d{4}-\d\d-\d\d\), valid until midnight there )/,
      );
      // Every request of the modern revision says so, and no initialize handshake was made.
      expect(sent.every((r) => r.version === '2026-07-28')).toBe(true);
      expect(sent.some((r) => r.body.includes('"initialize"'))).toBe(false);
      // Each POST counted in the bucket of the data URLs: the next data request sees what is left.
      const left = Number(/r=(\d+)/.exec(answers.at(-1)!.get('ratelimit') ?? '')?.[1]);
      expect(left).toBe(9 - sent.length);
      expect((await get(gw.url, '/api/v1/mon-price')).headers['ratelimit']).toMatch(
        new RegExp(`^"public-api";r=${left - 1};`),
      );
    } finally {
      await client.close();
      await gw.close();
    }
  });
});

describe('MCP tools/list caching hints and output schemas', () => {
  const untilMidnight = () => 12 * 3_600_000;

  it('hints the shortest validity of the listed tools: 0 with a market, else the hour of the projects', () => {
    expect(toolListCacheHint(DEFAULT_SERVICE, untilMidnight)).toEqual({ ttlMs: 0, cacheScope: 'public' });
    const withoutMarket = serviceTablesOf(DEFAULT_SERVICE.resources.filter((r) => r.cache !== 'per-request'));
    expect(toolListCacheHint(withoutMarket, untilMidnight)).toEqual({ ttlMs: 3_600_000, cacheScope: 'public' });
    const calendarOnly = serviceTablesOf(DEFAULT_SERVICE.resources.filter((r) => r.cache === 'until-midnight'));
    expect(toolListCacheHint(calendarOnly, () => 90_000)).toEqual({ ttlMs: 90_000, cacheScope: 'public' });
  });

  it('writes no type array in any output schema (the MCP Inspector warns on them) and accepts the same payloads', () => {
    const typeArrays = (node: unknown, at: string): string[] => {
      if (node === null || typeof node !== 'object') return [];
      const here = !Array.isArray(node) && Array.isArray((node as { type?: unknown }).type) ? [at] : [];
      return [...here, ...Object.entries(node).flatMap(([k, v]) => typeArrays(v, `${at}/${k}`))];
    };
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const schema of new Set(Object.values(TOOLS))) {
      const output = selfContainedSchema(schema, schemas);
      expect(typeArrays(output, schema)).toEqual([]);
      const check = ajv.compile(output);
      // The nullable fields accept their values and null, and nothing else, as the committed schemas do.
      if (schema === 'GitHubProjects') {
        const project = {
          owner: 'octo-org',
          name: 'hello-world',
          url: 'https://github.com/octo-org/hello-world',
          description: null,
          language: 'Python',
          languageColor: null,
          stars: 1,
          forks: 0,
        };
        const payload = { username: 'octocat', selection: 'pinned', asOf: '2026-11-22T17:00:00Z', projects: [project] };
        expect(check(payload)).toBe(true);
        expect(check({ ...payload, projects: [{ ...project, description: '' }] })).toBe(false);
        expect(check({ ...payload, projects: [{ ...project, languageColor: 'red' }] })).toBe(false);
        expect(check({ ...payload, projects: [{ ...project, language: 7 }] })).toBe(false);
      }
    }
    // The streak's run dates, nullable too, became anyOf with the date format kept in the string branch.
    const run = (
      selfContainedSchema('GitHubStreak', schemas).$defs as Record<string, { properties: Record<string, unknown> }>
    ).GitHubStreakRun!.properties.startDate;
    expect(run).toEqual({
      description: expect.any(String),
      anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
    });
  });
});

describe('MCP endpoint with the SDK client', () => {
  it('initializes without a session and lists exactly one tool per data operation with the documented input schema and payload output schemas', async () => {
    await withGateway({}, async (gw, { client, responses }) => {
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      expect(client.getServerVersion()?.name).toBe('public-data-preview');
      // Stateless: no session is handed out.
      expect(responses[0]!.headers.get('mcp-session-id')).toBeNull();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(TOOLS).sort());
      const ajv = new Ajv2020({ strict: false });
      addFormats(ajv);
      for (const tool of tools) {
        const schema = TOOLS[tool.name]!;
        expect(tool.inputSchema).toEqual(DOCUMENTED_INPUT_SCHEMA);
        expect(tool.outputSchema).toEqual(selfContainedSchema(schema, schemas));
        expect(tool.outputSchema!.title).toBe(schema);
        expect(tool.description).toMatch(/returns the same payload/);
        if (schema === 'MarketData') expect(tool.description).toMatch(/not financial advice/i);
        // Self-contained: it compiles without the other schema files.
        expect(() => ajv.compile(tool.outputSchema!)).not.toThrow();
      }
      expect(gw.accessLog().filter((l) => l.path === '/mcp')).not.toHaveLength(0);
      // initialize and tools/list make no upstream call.
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
    });
  });

  it('calls each tool: schema-valid structuredContent and its JSON as text; the ticker per call, the calendar once', async () => {
    await withGateway({}, async (_gw, { client }) => {
      for (const [name, schema] of Object.entries(TOOLS)) {
        const result = (await client.callTool({ name, arguments: {} })) as CallToolResult;
        expect(result.isError).toBeFalsy();
        validator.validate(schema, result.structuredContent);
        // MCP "Tools": a tool with structured content SHOULD also return the serialized JSON as text;
        // a second text block says the data's age (docs/data-rules.md#freshness).
        expect(result.content).toHaveLength(2);
        expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
        expect((result.content[1] as { text: string }).text).toMatch(
          /^(These data are .+ old: valid until |From today's calendar in America\/Toronto \(\d{4}-\d\d-\d\d\), valid until midnight there )/,
        );
      }
      // The same payload as the HTTP route (same clock, same cached calendar).
      const http = await get(_gw.url, '/api/v1/github-contributions');
      const tool = (await client.callTool({ name: 'getGithubContributions' })) as CallToolResult;
      expect(tool.structuredContent).toEqual(JSON.parse(http.text));
      // Two market tool calls: two tickers. Three calendar reads (two tools and HTTP): one upstream fetch.
      expect(fake.calls.ticker).toBe(2);
      expect(fake.calls.html).toBe(1);
    });
  });

  it('answers an upstream failure with a tool error carrying the upstream_unavailable problem', async () => {
    await withGateway({}, async (gw, { client }) => {
      fake.allDown = true;
      onTestFinished(() => void (fake.allDown = false));
      for (const name of Object.keys(TOOLS)) {
        const body = problemOf((await client.callTool({ name })) as CallToolResult);
        expect(body).toMatchObject({
          code: 'upstream_unavailable',
          status: 502,
          type: 'https://example.test/developers#upstream-unavailable',
        });
      }
      expect(gw.stderr.join('')).toMatch(/market: /);
      expect(gw.stderr.join('')).not.toMatch(/\n\s+at /);
    });
  });

  it('shares one quota with the HTTP data routes, every POST counted once before anything else', async () => {
    // The session's initialize and its notification were two POSTs: two of the seven.
    await withGateway({ RATE_LIMIT_QUOTA: '7' }, async (gw, { client, responses }) => {
      await client.listTools();
      await client.listTools();
      expect(responses.at(-1)!.headers.get('ratelimit')).toMatch(/^"public-api";r=3;t=\d+$/);

      expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(200);

      const seen = responses.length;
      const ok = (await client.callTool({ name: 'getGithubContributions' })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      const callResponse = responses[seen]!;
      expect(callResponse.headers.get('ratelimit-policy')).toBe('"public-api";q=7;w=60');
      expect(callResponse.headers.get('ratelimit')).toMatch(/^"public-api";r=1;t=\d+$/);
      expect(callResponse.headers.get('cache-control')).toBe('private, no-store');

      const third = await get(gw.url, '/api/mon-price');
      expect(third.status).toBe(200);
      expect(third.headers['ratelimit']).toMatch(/^"public-api";r=0;/);

      const tickersBefore = fake.calls.ticker;
      const limited = (await client.callTool({ name: 'getV1MonPrice' })) as CallToolResult;
      const body = problemOf(limited);
      expect(body).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
      expect(Number.isInteger(body.retryAfter)).toBe(true);
      expect(body.retryAfter as number).toBeGreaterThanOrEqual(0);
      expect(body.retryAfter as number).toBeLessThanOrEqual(60);
      expect(fake.calls.ticker).toBe(tickersBefore);
      const limitedResponse = responses.at(-1)!;
      expect(limitedResponse.headers.get('ratelimit')).toMatch(/^"public-api";r=0;t=\d+$/);
      // The seconds to wait travel in the problem document; on this 200 a Retry-After would mean nothing.
      expect(limitedResponse.status).toBe(200);
      expect(limitedResponse.headers.get('retry-after')).toBeNull();

      const after = await get(gw.url, '/api/v1/github-contributions');
      expect(after.status).toBe(429);
      expect(JSON.parse(after.text)).toMatchObject({ code: 'rate_limit_exceeded' });

      const mcpLines = gw.accessLog().filter((l) => l.path === '/mcp' && l.method === 'POST');
      expect(mcpLines.map((l) => l.quota)).toEqual([...Array(5).fill('allowed'), 'limited']);

      // Past the quota, what is not a tool call is the 429 problem itself, and nothing is executed.
      const list = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      });
      expect(list.status).toBe(429);
      expect(list.headers['retry-after']).toMatch(/^\d+$/);
      expect(JSON.parse(list.text)).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    });
  });

  it('refuses arguments outside the empty input schema as a tool error, with no upstream call', async () => {
    await withGateway({}, async (_gw, { client }) => {
      const result = (await client.callTool({
        name: 'getMonPrice',
        arguments: { product: 'BTC-USD' },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('takes no arguments');
      expect(fake.calls.ticker).toBe(0);
    });
  });

  it('answers an unknown tool with a protocol error and keeps serving', async () => {
    await withGateway({}, async (_gw, { client }) => {
      const error = await client.callTool({ name: 'deleteEverything' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
      const ok = (await client.callTool({ name: 'getV1MonPrice' })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
    });
  });
});

describe('MCP endpoint over plain HTTP', () => {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  });
  const postHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

  it('answers GET, DELETE and PUT with 405 and Allow: POST (a stateless server offers no stream and no session)', async () => {
    await withGateway({}, async (gw) => {
      for (const method of ['GET', 'DELETE', 'PUT']) {
        const r = await get(gw.url, '/mcp', { method, headers: { accept: 'text/event-stream' } });
        expect(r.status).toBe(405);
        expect(r.headers.allow).toBe('POST');
        expect(r.headers['access-control-allow-origin']).toBe('*');
        expect(JSON.parse(r.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
      }
    });
  });

  it('answers a CORS preflight with the headers the transport needs', async () => {
    await withGateway({}, async (gw) => {
      const r = await get(gw.url, '/mcp', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://example.test',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-protocol-version',
        },
      });
      expect(r.status).toBe(204);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['access-control-allow-methods']).toBe('POST');
      const allowed = r.headers['access-control-allow-headers']!.toLowerCase();
      for (const h of ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'])
        expect(allowed).toContain(h);
      const post = await get(gw.url, '/mcp', { method: 'POST', headers: postHeaders, body: init });
      expect(post.status).toBe(200);
      expect(post.headers['access-control-allow-origin']).toBe('*');
      expect(post.headers['access-control-expose-headers']).toMatch(/RateLimit, RateLimit-Policy/);
      expect(JSON.parse(post.text)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: {} } });
    });
  });

  it('answers the documented one-request call (no initialize, no session) with the payload', async () => {
    await withGateway({}, async (gw) => {
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'getV1GithubContributions', arguments: {} },
      });
      const r = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { ...postHeaders, 'mcp-protocol-version': '2025-06-18' },
        body: call,
      });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      const answer = JSON.parse(r.text) as { id: number; result: CallToolResult };
      expect(answer.id).toBe(7);
      validator.validate('GitHubContributions', answer.result.structuredContent);
      expect(gw.accessLog().at(-1)).toMatchObject({ method: 'POST', path: '/mcp', status: 200 });
    });
  });

  it('refuses a body over the cap with 413 and closes the connection', async () => {
    await withGateway({}, async (gw) => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } });
      const r = await get(gw.url, '/mcp', { method: 'POST', headers: postHeaders, body: big });
      expect(r.status).toBe(413);
      expect(r.headers.connection).toBe('close');
      const chunked = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { ...postHeaders, 'transfer-encoding': 'chunked' },
        body: big,
      });
      expect(chunked.status).toBe(413);
    });
  });

  it('answers malformed JSON with the transport parse error, not a crash', async () => {
    await withGateway({}, async (gw) => {
      const r = await get(gw.url, '/mcp', { method: 'POST', headers: postHeaders, body: '{"jsonrpc":' });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toMatchObject({ error: { code: -32700 } });
      expect(r.text).not.toMatch(/\n\s+at /);
    });
  });

  const post = (gw: TestGateway, body: unknown, headers: Record<string, string> = {}) =>
    get(gw.url, '/mcp', { method: 'POST', headers: { ...postHeaders, ...headers }, body: JSON.stringify(body) });
  const listRequest = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

  it.each(['2025-06-18', '2025-11-25'])(
    'refuses a batch under protocol version %s (batches were removed): an error, nothing executed',
    async (version) => {
      await withGateway({}, async (gw) => {
        const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'getV1MonPrice' } };
        const r = await post(gw, [listRequest(1), listRequest(2), call], { 'mcp-protocol-version': version });
        expect(r.status).toBe(400);
        const answer = JSON.parse(r.text) as Record<string, unknown>;
        expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
        expect(answer.result).toBeUndefined();
        expect(fake.calls.ticker).toBe(0);
      });
    },
  );

  it('answers a batch under 2025-03-26, which has them, and refuses one of more than ten messages', async () => {
    await withGateway({}, async (gw) => {
      const two = await post(gw, [listRequest(1), listRequest(2)], { 'mcp-protocol-version': '2025-03-26' });
      expect(two.status).toBe(200);
      expect((JSON.parse(two.text) as Array<{ id: number }>).map((m) => m.id).sort()).toEqual([1, 2]);
      const many = Array.from({ length: 11 }, (_, i) => listRequest(i));
      const r = await post(gw, many, { 'mcp-protocol-version': '2025-03-26' });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toMatchObject({ error: { code: -32600 } });
    });
  });

  it('serves tools/list from prepared bytes: the same tools as through the SDK, with its transport checks', async () => {
    await withGateway({}, async (gw, { client }) => {
      const r = await post(gw, listRequest('a-b' as unknown as number), { 'mcp-protocol-version': '2025-11-25' });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['content-length']).toBe(String(r.body.length));
      const answer = JSON.parse(r.text) as { id: string; result: { tools: unknown[] } };
      expect(answer.id).toBe('a-b');
      expect(answer.result).toEqual(await client.listTools());
      // What the transport refuses is still refused.
      const version = await post(gw, listRequest(1), { 'mcp-protocol-version': '1999-01-01' });
      expect(version.status).toBe(400);
      const accept = await post(gw, listRequest(1), { accept: 'application/json' });
      expect(accept.status).toBe(406);
    });
  });

  it.each([
    ['arguments that are no object', { name: 'getV1MonPrice', arguments: 'x' }],
    ['arguments that are a list', { name: 'getV1MonPrice', arguments: [] }],
    ['no tool name', { arguments: {} }],
    ['an unknown tool', { name: 'deleteEverything' }],
  ])('answers a tool call with %s with the JSON-RPC error -32602 (Invalid params)', async (_, params) => {
    await withGateway({}, async (gw) => {
      const r = await post(gw, { jsonrpc: '2.0', id: 5, method: 'tools/call', params });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32602 } });
      expect(fake.calls.ticker).toBe(0);
    });
  });

  it.each([
    ['a foreign origin', 'http://evil.example'],
    ['an opaque origin', 'null'],
    ['the site on another scheme', 'http://example.test'],
    ['an allowed origin with a path', 'https://agent.example/x'],
  ])('answers a request from %s with the 403 problem and runs nothing', async (_, origin) => {
    await withGateway({ MCP_ALLOWED_ORIGINS: 'https://agent.example' }, async (gw) => {
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getV1MonPrice' } };
      const r = await post(gw, call, { origin });
      expect(r.status).toBe(403);
      expect(r.headers['content-type']).toBe('application/problem+json');
      const problem = JSON.parse(r.text) as Record<string, unknown>;
      validator.validate('ProblemDetails', problem);
      expect(problem).toMatchObject({ status: 403, code: 'origin_not_allowed' });
      const preflight = await get(gw.url, '/mcp', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(403);
      expect(fake.calls.ticker).toBe(0);
    });
  });

  it.each([
    ['no Origin', undefined],
    ["the site's own origin", 'https://example.test'],
    ['an origin of MCP_ALLOWED_ORIGINS', 'https://agent.example'],
  ])('answers a request with %s', async (_, origin) => {
    await withGateway({ MCP_ALLOWED_ORIGINS: 'https://agent.example' }, async (gw) => {
      const r = await post(gw, listRequest(1), origin === undefined ? {} : { origin });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    });
  });
});
