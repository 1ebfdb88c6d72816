// POST /mcp: the Model Context Protocol over Streamable HTTP, stateless, with the official SDK. Its four
// tools are the four data operations (builders/contract/mcp-tools.ts); a call reads the same live routes as the HTTP
// paths (the ticker per call, the calendar cache) and takes their payloads and problems as values.
// Before the SDK sees anything: the Origin is checked, the POST is counted once in the data routes'
// per-client quota bucket, batches are refused where the protocol removed them, and tools/list is
// answered from bytes prepared at start.
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import {
  CACHE_CONTROL,
  listPhrase,
  MCP_ENDPOINT,
  type DataResource,
  type ServiceTables,
} from '../../../builders/contract/service.ts';
import type { JsonSchema } from '../../../builders/contract/schemas.ts';
import {
  BATCHES_REMOVED_IN,
  dataTools,
  FUNCTION_TOOL_INPUT_SCHEMA,
  MCP_MAX_BATCH,
  selfContainedSchema,
  toolListCacheHint,
  type CacheHint,
} from '../../../builders/contract/mcp-tools.ts';
import type { DataRoute } from './data-routes.ts';
import { prepareAnswer, type PreparedAnswer, type Problems } from '../http/problem-response.ts';
import { DISABLED_QUOTA, type Quota, type QuotaDecision } from '../quota.ts';
import type { BodyOf, ClientOf, CoreRequest, Prepared } from '../http/exchange.ts';
import { concat, text, utf8 } from '../http/bytes.ts';
import { COMMON_HEADERS } from '../http/common-headers.ts';
import { ageSentence } from '../../../builders/render/age.ts';
import { nextMidnightMs } from '../../../builders/domain/calendar.ts';

export interface McpDeps {
  /** The deployment's data operations: the tools. */
  service: ServiceTables;
  schemas: Map<string, JsonSchema>;
  /** The name and title agents see in `initialize`. */
  serverName: string;
  serverTitle: string;
  /** The origins whose pages may call the endpoint: the site's own and MCP_ALLOWED_ORIGINS. */
  allowedOrigins: readonly string[];
  problems: Problems;
  quota: Quota;
  /** Each dataset's live route, by id (data-routes.ts): the HTTP routes' own. */
  live: ReadonlyMap<string, DataRoute>;
  /** One line on the error log. */
  reportError: (line: string) => void;
  /** The clock the data's age is told by (the gateway's). */
  now: () => number;
}

export interface McpRoute {
  /** Answers one request to MCP_ENDPOINT.path; its quota outcome rides on the answer (the access log's). */
  handle(req: CoreRequest, client: ClientOf, body: BodyOf): Promise<Prepared>;
}

/** JSON-RPC messages here are a few hundred bytes; the cap keeps one request's memory small. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

const ALLOW = MCP_ENDPOINT.methods.join(', ');

/**
 * CORS for browser agents (Fetch standard §3.2): a POST with `Content-Type: application/json` and the
 * transport's own headers needs a preflight. Only POST is allowed: GET and DELETE answer 405 here.
 */
const PREFLIGHT_HEADERS = [
  ...COMMON_HEADERS,
  'Access-Control-Allow-Methods',
  ALLOW,
  'Access-Control-Allow-Headers',
  'Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age',
  '86400',
];
const EXPOSED = [
  'Access-Control-Expose-Headers',
  'RateLimit, RateLimit-Policy, Mcp-Session-Id, Mcp-Protocol-Version',
] as const;

/** A JSON-RPC error of the transport, answered without the SDK (the same shape its transport writes). */
const transportError = (status: number, code: number, message: string, extra: string[] = []) =>
  prepareAnswer(
    status,
    MCP_ENDPOINT.contentType,
    utf8(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })),
    extra,
  );
/**
 * MCP Streamable HTTP transport (2025-11-25): "The server MUST either return Content-Type:
 * text/event-stream in response to this HTTP GET, or else return HTTP 405 Method Not Allowed"; a
 * stateless server has no stream to offer and no session to DELETE. RFC 9110 §15.5.6: a 405 carries Allow.
 */
const METHOD_NOT_ALLOWED = transportError(405, -32000, 'Method not allowed.', ['Allow', ALLOW]);
const TOO_LARGE = transportError(
  413,
  -32000,
  `Payload Too Large: a message must not exceed ${MCP_MAX_BODY_BYTES} bytes.`,
  ['Connection', 'close'],
);
/** JSON-RPC "Invalid Request": nothing of the batch is executed. */
const BATCH_REMOVED = transportError(
  400,
  -32600,
  `Invalid Request: protocol versions from ${BATCHES_REMOVED_IN} on have no JSON-RPC batches; send one message per request.`,
);
const BATCH_TOO_LONG = transportError(
  400,
  -32600,
  `Invalid Request: a batch must not exceed ${MCP_MAX_BATCH} messages.`,
);

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
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** A JSON-RPC request as read from the body: only what the route looks at before the SDK. */
interface RpcRequest {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: { name?: unknown; _meta?: unknown };
}

function asRequest(message: unknown): RpcRequest | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const idOk = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id));
  const paramsOk =
    m.params === undefined || (m.params !== null && typeof m.params === 'object' && !Array.isArray(m.params));
  return m.jsonrpc === '2.0' && idOk && typeof m.method === 'string' && paramsOk
    ? (m as unknown as RpcRequest)
    : undefined;
}

/** The MCP-Protocol-Version header. */
const protocolVersion = (req: CoreRequest): string | undefined => req.headers['mcp-protocol-version'];

/** tools/call params: a tool name, and arguments that are absent or an object (MCP "Tools"). */
function toolCallParamsValid(params: RpcRequest['params']): boolean {
  if (params === undefined || typeof params.name !== 'string') return false;
  const args = (params as { arguments?: unknown }).arguments;
  return args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args));
}

const INVALID_PARAMS = {
  code: -32602,
  message: 'Invalid params: tools/call takes a tool name and, optionally, arguments as an object.',
};

/** A JSON-RPC error answering one request. */
const rpcError = (id: string | number, error: { code: number; message: string }) =>
  utf8(JSON.stringify({ jsonrpc: '2.0', id, error }));

/** `{"jsonrpc":"2.0","id":<id>,"result":<result>}` around a result serialised beforehand. */
const rpcResult = (id: string | number, result: Uint8Array) =>
  concat([utf8(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`), result, utf8('}')]);

export function mcpRoute(deps: McpDeps): McpRoute {
  const { problems, quota, live, reportError } = deps;
  const allowedOrigins = new Set(deps.allowedOrigins);
  const dataToolList = dataTools(deps.service);
  const tools = new Map(dataToolList.map((t) => [t.name, t]));
  const toolList: Tool[] = dataToolList.map((t) => ({
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
  /**
   * tools/list never changes but for its caching hint (MCP 2026-07-28, Caching), which counts down to the
   * next change of a tool's answer: the tools are serialised once, here (about 10 KB), the hint per request.
   */
  const toolListHead = utf8(JSON.stringify({ tools: toolList }).slice(0, -1));
  const toolListHint = (): CacheHint => {
    const nowMs = deps.now();
    return toolListCacheHint(deps.service, (zone) => nextMidnightMs(nowMs, zone) - nowMs);
  };
  const toolListResult = () => {
    const { ttlMs, cacheScope } = toolListHint();
    return concat([toolListHead, utf8(`,"ttlMs":${ttlMs},"cacheScope":${JSON.stringify(cacheScope)}}`)]);
  };
  const instructions =
    `Read-only public data of ${deps.serverTitle}: ${listPhrase(deps.service.resources.map((r) => r.phrase))}. ` +
    'Every tool takes no arguments; the v1 tools and their unversioned aliases return the same payloads. ' +
    'A tool error carries an RFC 9457 problem document: upstream_unavailable (retry later) or rate_limit_exceeded (wait retryAfter seconds).';

  const problemResult = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

  /**
   * The payload as a value (structured content) and as JSON text: MCP "Tools", structured content:
   * a tool that returns it SHOULD also return the serialized JSON in a text content block.
   */
  const payloadResult = async (resource: DataResource): Promise<CallToolResult> => {
    // Registered datasets only are listed, and each has its route; its bytes are the text.
    const current = await live.get(resource.id)!.current();
    // A second text block says how old the data are (builders/domain/freshness.ts), which the JSON leaves to the reader.
    const age = ageSentence(current.payload, deps.now(), resource.validForMs);
    return {
      content: [
        { type: 'text', text: text(current.body) },
        ...(age === null ? [] : [{ type: 'text' as const, text: age }]),
      ],
      structuredContent: { ...(current.payload as Record<string, unknown>) },
    };
  };

  /**
   * One server per HTTP request, for either era: the 2026-07-28 entry (createMcpHandler) asks for one per
   * request, and a 2025 request is served statelessly by a transport that serves exactly one.
   */
  const sdkServer = ({ Server, ProtocolError, ProtocolErrorCode }: Sdk) => {
    const server = new Server(
      { name: deps.serverName, title: deps.serverTitle, version: '1' },
      { capabilities: { tools: {} }, instructions, jsonSchemaValidator: NO_ELICITATION },
    );
    server.setRequestHandler('tools/list', () => ({ tools: toolList, ...toolListHint() }));
    server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
      const tool = tools.get(request.params.name);
      // MCP "Tools", error handling: an unknown tool is a protocol error (-32602), not a tool result.
      if (tool === undefined)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown tool; the tools are ${[...tools.keys()].join(', ')}.`,
        );
      const args = request.params.arguments;
      // docs/api.md's input schema: no properties, additionalProperties false. Refused as a tool error
      // (MCP 2025-11-25: input validation errors are tool execution errors, so a model can correct itself).
      if (args !== undefined && Object.keys(args).length > 0)
        return problemResult(
          `${tool.name} takes no arguments: its input schema is ${JSON.stringify(FUNCTION_TOOL_INPUT_SCHEMA)}.`,
        );
      try {
        return await payloadResult(tool.resource);
      } catch (error) {
        reportError(`${tool.resource.id}: ${error instanceof Error ? error.message : String(error)}`);
        return problemResult(text(problems.upstream.get(tool.resource.id)!.body));
      }
    });
    return server;
  };

  /** An answer of the route, with the quota's outcome for the access log. */
  const answer = (
    status: number,
    headers: readonly string[],
    body?: Uint8Array,
    decision?: QuotaDecision,
  ): Prepared => ({
    status,
    headers,
    body,
    quota: decision?.outcome,
  });
  const prepared = (p: PreparedAnswer, extra?: readonly string[], decision?: QuotaDecision) =>
    answer(p.status, extra ? [...p.headers, ...extra] : p.headers, p.body, decision);

  /** A JSON-RPC answer: `headers` are the transport's, then the route's own. */
  const rpc = (status: number, headers: string[], body: Uint8Array, decision: QuotaDecision): Prepared => {
    headers.push('Content-Length', String(body.length), 'Cache-Control', CACHE_CONTROL.perClient);
    headers.push(...COMMON_HEADERS, ...EXPOSED);
    // docs/api.md#limits: the headers when enforcement accounted for the request. Retry-After stays out of
    // a 200: there it would not mean "retry this request".
    if (decision.headers) headers.push(...withoutRetryAfter(decision.headers));
    return answer(status, headers, body, decision);
  };

  /** A JSON-RPC answer of the route's own making (no transport headers). */
  const rpcOk = (body: Uint8Array, decision: QuotaDecision) =>
    rpc(200, ['Content-Type', MCP_ENDPOINT.contentType], body, decision);

  /**
   * Past the quota nothing of the request is executed. A tools/call gets the tool error a model reads
   * (the 429 problem with the seconds to wait in it, since no header reaches the model); anything else
   * the 429 problem itself.
   */
  const answerLimited = (message: unknown, decision: QuotaDecision): Prepared => {
    const request = asRequest(message);
    const limited = problems.rateLimited!;
    if (request?.method !== 'tools/call') return prepared(limited, decision.headers, decision);
    const text = JSON.stringify({ ...limited.document, retryAfter: decision.retryAfterSeconds });
    const result = utf8(JSON.stringify(problemResult(text)));
    return rpcOk(rpcResult(request.id, result), decision);
  };

  /**
   * The 2026-07-28 entry, made once: stateless, each request carrying its protocol version in `_meta`,
   * `server/discover` included. Its legacy leg is off: 2025 requests take answerWithSdk's other leg, as before.
   */
  let modern: ReturnType<Sdk['createMcpHandler']> | undefined;

  /** Whether the SDK's transport would take this request as it is (else it answers the error itself). */
  const transportAccepts = (req: CoreRequest, { SUPPORTED_PROTOCOL_VERSIONS }: Sdk) => {
    const accept = req.headers.accept ?? '';
    const version = protocolVersion(req);
    return (
      accept.includes('application/json') &&
      accept.includes('text/event-stream') &&
      (req.headers['content-type'] ?? '').includes('application/json') &&
      (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version))
    );
  };

  return {
    async handle(req, client, readBody) {
      // MCP transport, security: "Servers MUST validate the Origin header on all incoming connections
      // to prevent DNS rebinding attacks. If the Origin header is present and invalid, servers MUST
      // respond with HTTP 403 Forbidden." A program sends none; a page only from an allowed origin.
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedOrigins.has(origin)) return problems.originNotAllowed;
      const method = req.method;
      if (method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined)
        return answer(204, PREFLIGHT_HEADERS);
      if (method !== 'POST') return METHOD_NOT_ALLOWED;
      // The rest of a body past the cap is never read: its answer closes the connection (Connection: close).
      const body = await readBody(req, MCP_MAX_BODY_BYTES);
      if (body === undefined) return TOO_LARGE;
      // docs/data-rules.md: counted before anything else is done, in the bucket of the four data URLs: once
      // per POST, whatever it holds, so that what a refused request costs is this count and no more.
      const decision = await quota.check(
        quota === DISABLED_QUOTA ? null : typeof client === 'function' ? client(req) : client,
      );
      let message: unknown;
      try {
        message = JSON.parse(text(body));
      } catch {
        message = undefined; // the SDK's transport answers the parse error
      }
      if (decision.outcome === 'limited') return answerLimited(message, decision);
      if (Array.isArray(message)) {
        const version = protocolVersion(req);
        if (version !== undefined && version >= BATCHES_REMOVED_IN) return prepared(BATCH_REMOVED, undefined, decision);
        if (message.length > MCP_MAX_BATCH) return prepared(BATCH_TOO_LONG, undefined, decision);
      }
      const request = asRequest(message);
      // JSON-RPC 2.0: params of the wrong shape are -32602 (the SDK would call them an internal error).
      if (request?.method === 'tools/call' && !toolCallParamsValid(request.params))
        return rpcOk(rpcError(request.id, INVALID_PARAMS), decision);
      const loaded = await loadSdk();
      if (request?.method === 'tools/list' && request.params?._meta === undefined && transportAccepts(req, loaded))
        return rpcOk(rpcResult(request.id, toolListResult()), decision);
      return answerWithSdk(loaded, req, body, message, decision);
    },
  };

  async function answerWithSdk(
    loaded: Sdk,
    req: CoreRequest,
    body: Uint8Array,
    message: unknown,
    decision: QuotaDecision,
  ): Promise<Prepared> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, value);
    // The origin is a placeholder: the SDK reads only the path, and the Host header is not trusted.
    const request = new Request(`http://gateway.invalid${MCP_ENDPOINT.path}`, {
      method: 'POST',
      headers,
      body: body as Uint8Array<ArrayBuffer>,
    });
    const parsed = message === undefined ? undefined : { parsedBody: message };
    let response: Response;
    // The SDK's own classification (a request without the 2026-07-28 envelope is a 2025 one), so the
    // two legs can never disagree with it.
    if (await loaded.isLegacyRequest(request, message, { maxRequestBodySize: MCP_MAX_BODY_BYTES })) {
      const server = sdkServer(loaded);
      const transport = new loaded.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        // Parsed once, above: the transport takes the value (a malformed body it parses and refuses itself).
        response = await transport.handleRequest(request, parsed);
      } finally {
        await server.close();
      }
    } else {
      modern ??= loaded.createMcpHandler(() => sdkServer(loaded), {
        legacy: 'reject',
        maxRequestBodySize: MCP_MAX_BODY_BYTES,
      });
      response = await modern.fetch(request, parsed);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const out: string[] = [];
    response.headers.forEach((value, name) => out.push(name, value));
    return rpc(response.status, out, bytes, decision);
  }
}

function withoutRetryAfter(headers: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i]!.toLowerCase() !== 'retry-after') out.push(headers[i]!, headers[i + 1]!);
  return out;
}
