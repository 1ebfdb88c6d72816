// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless, with the official SDK. Its four
// tools are the four data operations (contract/mcp-tools.ts); a call reads the same live routes as the HTTP
// paths (the ticker per call, the calendar cache) and counts once in the same per-client quota bucket.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { GitHubContributions } from '../../domain/contributions.ts';
import type { MarketData } from '../../domain/market.ts';
import { CACHE_CONTROL, CONSTANTS, MCP_ENDPOINT, type DataResource } from '../../contract/service.ts';
import type { JsonSchema } from '../../contract/schemas.ts';
import {
  DATA_TOOLS,
  FUNCTION_TOOL_INPUT_SCHEMA,
  selfContainedSchema,
  type DataTool,
} from '../../contract/mcp-tools.ts';
import type { ClientIdentity } from '../quota/client-identity.ts';
import type { ContributionsRoute } from './contributions.ts';
import type { MarketRoute } from './market.ts';
import { prepareAnswer, type Problems } from '../http/problem-response.ts';
import { DISABLED_QUOTA, type Quota, type QuotaDecision, type QuotaOutcome } from '../quota/quota.ts';
import { COMMON_HEADERS } from '../http/static-files.ts';

export interface McpDeps {
  schemas: Map<string, JsonSchema>;
  /** The name and title agents see in `initialize`. */
  serverName: string;
  serverTitle: string;
  problems: Problems;
  quota: Quota;
  identify: ClientIdentity;
  market: MarketRoute;
  contributions: ContributionsRoute;
  /** One line on stderr. */
  reportError: (line: string) => void;
  /** True once shutdown began: responses then close their connection. */
  closing: () => boolean;
}

export interface McpRoute {
  /** Answers one request to MCP_ENDPOINT.path; `record` receives the quota outcome for the access log. */
  handle(req: IncomingMessage, res: ServerResponse, record: (outcome: QuotaOutcome) => void): Promise<void>;
}

/** JSON-RPC messages here are a few hundred bytes; the cap keeps one request's memory small. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

const ALLOW = MCP_ENDPOINT.methods.join(', ');

/**
 * CORS for browser agents (Fetch standard §3.2): a POST with `Content-Type: application/json` and the
 * transport's own headers needs a preflight. GET and DELETE are allowed through it too, so that a
 * browser client sees the real 405 below (which the SDK's client reads as "no event stream offered")
 * instead of a network error.
 */
const PREFLIGHT_HEADERS = [
  ...COMMON_HEADERS,
  'Access-Control-Allow-Methods',
  'GET, POST, DELETE',
  'Access-Control-Allow-Headers',
  'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age',
  '86400',
];
const EXPOSED = [
  'Access-Control-Expose-Headers',
  'RateLimit, RateLimit-Policy, Mcp-Session-Id, Mcp-Protocol-Version',
] as const;

/** A JSON-RPC error answered before the SDK sees the request (the same shape the SDK's transport writes). */
const rpcError = (status: number, message: string, extra: string[] = []) =>
  prepareAnswer(
    status,
    MCP_ENDPOINT.contentType,
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null })),
    extra,
  );
/**
 * MCP Streamable HTTP transport (2025-11-25): "The server MUST either return Content-Type:
 * text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed"; a
 * stateless server has no stream to offer and no session to DELETE. RFC 9110 §15.5.6: a 405 carries Allow.
 */
const METHOD_NOT_ALLOWED = rpcError(405, 'Method not allowed.', ['Allow', ALLOW]);
const TOO_LARGE = rpcError(413, `Payload Too Large: a message must not exceed ${MCP_MAX_BODY_BYTES} bytes.`, [
  'Connection',
  'close',
]);

/** The server never asks the client for input (no elicitation), so it never validates against a client's schema. */
const NO_ELICITATION = {
  getValidator(): never {
    throw new Error('this server sends no elicitation requests');
  },
};

/**
 * The SDK, loaded on the first POST rather than at start: evaluating it (its message schemas are built
 * when the module loads) was a fifth of the gateway's start time and a few MiB that most gateways,
 * answering HTTP clients only, never use.
 */
let sdk: Promise<typeof import('./mcp-sdk.ts')> | undefined;
const loadSdk = () => (sdk ??= import('./mcp-sdk.ts'));

export function mcpRoute(deps: McpDeps): McpRoute {
  const { problems, quota, identify, market, contributions, reportError } = deps;
  const tools = new Map(DATA_TOOLS.map((t) => [t.name, t]));
  const toolList: Tool[] = DATA_TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: structuredClone(FUNCTION_TOOL_INPUT_SCHEMA) as Tool['inputSchema'],
    outputSchema: selfContainedSchema(t.resource.schema, deps.schemas) as Tool['outputSchema'],
    annotations: {
      title: t.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
  }));
  const instructions =
    `Read-only public data of ${deps.serverTitle}: a ${CONSTANTS.product} market preview (not financial advice) and a GitHub contribution calendar. ` +
    'Every tool takes no arguments; the v1 tools and their unversioned aliases return the same payloads. ' +
    'A tool error carries an RFC 9457 problem document: upstream_unavailable (retry later) or rate_limit_exceeded (wait retryAfter seconds).';

  const problemResult = (body: Buffer | object): CallToolResult => ({
    isError: true,
    content: [{ type: 'text', text: Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body) }],
  });

  const read = async (resource: DataResource): Promise<MarketData | GitHubContributions> => {
    // The bytes the HTTP route would send, parsed: the same payload by construction.
    if (resource.id === 'market') return JSON.parse((await market.body()).toString('utf8')) as MarketData;
    const current = await contributions.current();
    return JSON.parse(current.rep.identity.body.toString('utf8')) as GitHubContributions;
  };

  const summary = (tool: DataTool, payload: MarketData | GitHubContributions): string => {
    if ('product' in payload)
      return (
        `${payload.product} ${payload.value} ${payload.currency} as of ${payload.asOf}; ${payload.changePercent.toFixed(2)}% over seven days ` +
        `(low ${payload.low}, high ${payload.high}; source: ${payload.source}). Not financial advice. The full ${tool.resource.schema} payload is the structured content.`
      );
    return (
      `${payload.username}: ${payload.totalContributions} public contributions from ${payload.startDate} to ${payload.endDate} (${payload.timeZone}); ` +
      `next refresh ${payload.nextRefreshAt}. The full ${tool.resource.schema} payload is the structured content.`
    );
  };

  /** One HTTP request: a fresh SDK server and transport (a stateless transport serves exactly one request). */
  const exchange = (
    { Server, CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError }: Awaited<ReturnType<typeof loadSdk>>,
    req: IncomingMessage,
    record: (outcome: QuotaOutcome) => void,
  ) => {
    let accounted: QuotaDecision | undefined;
    let client: string | null | undefined;
    const server = new Server(
      { name: deps.serverName, title: deps.serverTitle, version: '1' },
      { capabilities: { tools: {} }, instructions, jsonSchemaValidator: NO_ELICITATION },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const tool = tools.get(request.params.name);
      // MCP "Tools", error handling: an unknown tool is a protocol error (-32602), not a tool result.
      if (tool === undefined)
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool; the tools are ${[...tools.keys()].join(', ')}.`);
      // docs/data-rules.md: counted before anything else is done, in the bucket of the four data URLs.
      client ??= quota === DISABLED_QUOTA ? null : identify(req);
      const decision = await quota.check(client);
      record(decision.outcome);
      if (decision.headers) accounted = decision;
      if (decision.outcome === 'limited') {
        const headers = decision.headers!;
        const retryAfter = Number(headers[headers.indexOf('Retry-After') + 1]);
        // No header reaches the model: the seconds to wait travel in the problem document itself.
        const body = JSON.parse(problems.rateLimited!.body.toString('utf8')) as Record<string, unknown>;
        return problemResult({ ...body, retryAfter });
      }
      const args = request.params.arguments;
      // docs/api.md's input schema: no properties, additionalProperties false. Refused as a tool error
      // (MCP 2025-11-25: input validation errors are tool execution errors, so a model can correct itself).
      if (args !== undefined && Object.keys(args).length > 0)
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: `${tool.name} takes no arguments: its input schema is ${JSON.stringify(FUNCTION_TOOL_INPUT_SCHEMA)}.`,
            },
          ],
        };
      let payload: MarketData | GitHubContributions;
      try {
        payload = await read(tool.resource);
      } catch (error) {
        reportError(`${tool.resource.id}: ${error instanceof Error ? error.message : String(error)}`);
        return problemResult(problems.upstream[tool.resource.id].body);
      }
      return {
        content: [{ type: 'text', text: summary(tool, payload) }],
        structuredContent: payload as unknown as Record<string, unknown>,
      };
    });
    return { server, accounted: () => accounted };
  };

  const send = (res: ServerResponse, status: number, headers: string[], body?: Buffer) => {
    if (deps.closing()) res.shouldKeepAlive = false;
    res.writeHead(status, headers);
    res.end(body);
  };

  return {
    async handle(req, res, record) {
      const method = req.method;
      if (method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined)
        return send(res, 204, PREFLIGHT_HEADERS);
      if (method !== 'POST') {
        // A body on a refused request means nothing; drop it without buffering.
        req.resume();
        return send(res, METHOD_NOT_ALLOWED.status, METHOD_NOT_ALLOWED.headers, METHOD_NOT_ALLOWED.body);
      }
      const body = await readBody(req, MCP_MAX_BODY_BYTES);
      if (body === undefined) {
        // The rest of the body is never read: the connection closes after this answer.
        res.shouldKeepAlive = false;
        return send(res, TOO_LARGE.status, TOO_LARGE.headers, TOO_LARGE.body);
      }
      // MCP transport, security: "Servers MUST validate the Origin header ... to prevent DNS rebinding
      // attacks". Every origin is valid here: the tools read public data without credentials, which any
      // page may already read through CORS, so a rebound name reaches nothing it could not.
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      // The origin is a placeholder: the transport reads only the path, and the Host header is not trusted.
      const request = new Request(`http://gateway.invalid${MCP_ENDPOINT.path}`, { method, headers, body });
      const loaded = await loadSdk();
      const { server, accounted } = exchange(loaded, req, record);
      const transport = new loaded.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const answer = await transport.handleRequest(request);
        const bytes = Buffer.from(await answer.arrayBuffer());
        const out: string[] = [];
        answer.headers.forEach((value, name) => out.push(name, value));
        out.push('Content-Length', String(bytes.length), 'Cache-Control', CACHE_CONTROL.perClient);
        out.push(...COMMON_HEADERS, ...EXPOSED);
        const decision = accounted();
        // docs/api.md#limits: the headers when enforcement accounted for the request. Retry-After stays in
        // the tool error: on this 200 it would not mean "retry this request".
        if (decision?.headers) out.push(...withoutRetryAfter(decision.headers));
        send(res, answer.status, out, bytes);
      } finally {
        await server.close();
      }
    },
  };
}

/** The request body, or undefined when it passes `maxBytes` (announced by Content-Length or as it arrives). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before the request body ended'));
    });
  });
}

function withoutRetryAfter(headers: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i]!.toLowerCase() !== 'retry-after') out.push(headers[i]!, headers[i + 1]!);
  return out;
}
