// The gateway's core, runtime-neutral: one lookup in a table built at start decides every response. Data
// routes pass the quota first, then their live source; /mcp is the MCP endpoint; everything else is a
// prepared static answer. It knows nothing of sockets: its interface is `fetch(Request) → Response`; Node's
// adapter (gateway/node-adapter.ts) takes the fast path, `handle`, which takes a request's method, target and
// headers and answers a Prepared (status, header list, bytes) written as it is.
import {
  ALLOW_HEADER,
  CACHE_CONTROL,
  DATA_METHODS,
  MCP_ENDPOINT,
  type CachePolicy,
  type DataResource,
  type ServiceTables,
} from '../../builders/contract/service.ts';
import { MCP_SERVER_NAME } from '../../builders/contract/mcp-tools.ts';
import { UpstreamError } from '../../builders/lib/errors.ts';
import { secondsUntil } from '../../builders/domain/calendar.ts';
import type { Deployment } from '../../builders/datasets/registry.ts';
import { dataRoutes, type DataRoute, type LiveAnswer } from './routes/data-routes.ts';
import { mcpRoute, type McpRoute } from './routes/mcp.ts';
import {
  EXPOSED_HEADERS,
  prepareAnswer,
  prepareProblems,
  type PreparedAnswer,
  type PreparedProblem,
  type Problems,
} from './http/problem-response.ts';
import { DISABLED_QUOTA, type Quota, type QuotaDecision } from './quota.ts';
import {
  choose,
  ifMatchFails,
  noneMatch,
  notModifiedHeaders,
  variantHeaders,
  type BodyCodec,
  type Representation,
  type Variant,
} from './http/representation.ts';
import { decodePath, hasDotSegment, isApiPath, rawPath, removeDotSegments } from './http/request-path.ts';
import { COMMON_HEADERS } from './http/common-headers.ts';
import type { StaticEntry, StaticTable } from './http/static-table.ts';
import {
  withHeaders,
  type BodyOf,
  type ClientKey,
  type ClientOf,
  type CoreRequest,
  type Prepared,
} from './http/exchange.ts';

export type { BodyOf, ClientKey, ClientOf, CoreHeaders, CoreRequest, Prepared } from './http/exchange.ts';
import { utf8 } from './http/bytes.ts';
import { readRequestBody, toResponse, targetOf } from './http/web.ts';

export interface GatewayDeps {
  /**
   * What the program built once from its configuration (builders/datasets/registry.ts): the datasets (their live
   * routes are made here from their sources), the route table, the schemas and the payload validator.
   */
  deployment: Deployment;
  table: StaticTable;
  quota: Quota;
  codec: BodyCodec;
  /** The clock of every time rule (quota windows, candle reuse, midnight in the calendar's zone). */
  now: () => number;
  /** One line on the runtime's error log. */
  reportError: (line: string) => void;
  /**
   * Whether concurrent requests share an upstream fetch in flight (default true, Node). A Worker's I/O
   * belongs to the request that started it: a request waiting on another's fetch waits for ever once
   * that one ends, so a Worker sets false, and only finished answers (the candle history, the calendar)
   * are shared there.
   */
  sharedFetches?: boolean;
}

/**
 * The core's interface is `fetch`: a web Request in, a Response out (hono's `app.fetch`), for any runtime
 * and for tests in process. `handle` is the fast path of a runtime that has the request's parts already
 * (Node's IncomingMessage): no Request or Response is made, and a file or a kept answer comes back
 * synchronously.
 */
export interface Gateway {
  /** One request as a web Request; `client` is its quota key (null: none known). */
  fetch(request: Request, client: ClientKey): Promise<Response>;
  /** The fast path: one request's method, target and headers, answered synchronously when it can be. */
  handle(req: CoreRequest, client: ClientOf, body: BodyOf): Prepared | Promise<Prepared>;
}

type Route = { kind: 'data'; resource: DataResource } | { kind: 'static'; entry: StaticEntry } | { kind: 'mcp' };

const PLAIN = 'text/plain; charset=utf-8';
/** A fixed plain-text answer of the gateway's own (errors outside the API). */
export const plain = (status: number, text: string, extra: string[] = []) =>
  prepareAnswer(status, PLAIN, utf8(text), extra);
const NOT_FOUND_TEXT = plain(404, 'Not found\n');
const METHOD_NOT_ALLOWED_TEXT = plain(
  405,
  `Method not allowed: this site answers ${DATA_METHODS.join(' and ')} only.\n`,
  ['Allow', ALLOW_HEADER],
);
export const INTERNAL_ERROR_TEXT = plain(500, 'Internal server error\n');
/** RFC 9110 §13.1.1: a failed If-Match is answered 412 and the method is not performed (nginx does the same). */
const PRECONDITION_FAILED_TEXT = plain(
  412,
  'Precondition failed: If-Match names no current representation of this resource.\n',
);

/**
 * CORS preflight (Fetch standard §3.2.2). Simple GETs need none; a script that adds its own headers
 * triggers one, and a 405 would make the browser fail the real request for no reason. The answer
 * allows GET and HEAD from any origin and no extra request headers.
 */
const PREFLIGHT: Prepared = {
  status: 204,
  headers: [...COMMON_HEADERS, 'Access-Control-Allow-Methods', ALLOW_HEADER, 'Access-Control-Max-Age', '86400'],
};

const DATA_COMMON = [...COMMON_HEADERS, ...EXPOSED_HEADERS];

/** What every step of a request reads: the dependencies and the tables built once at start. */
interface Context {
  table: StaticTable;
  problems: Problems;
  quota: Quota;
  live: ReadonlyMap<string, DataRoute>;
  mcp: McpRoute;
  now: () => number;
  reportError: (line: string) => void;
  routes: Map<string, Route>;
  /** The shared header lists of answers kept until midnight (sharedHeaders). */
  shared: WeakMap<Variant, { sMaxAge: number; ok: string[]; notModified: string[] }>;
}

export function createGateway(deps: GatewayDeps): Gateway {
  const { quota, now, reportError } = deps;
  const { config, service, datasets, sources, validator, schemas } = deps.deployment;
  const problems = prepareProblems(
    config.siteUrl,
    service,
    config.rateLimitQuota === undefined ? undefined : { quota: config.rateLimitQuota, window: config.rateLimitWindow },
  );
  const live = dataRoutes(datasets, sources, config, validator, deps.codec, now, deps.sharedFetches);
  const mcp = mcpRoute({
    service,
    schemas,
    serverName: MCP_SERVER_NAME,
    serverTitle: config.site.title,
    allowedOrigins: [new URL(config.siteUrl).origin, ...config.mcpAllowedOrigins],
    problems,
    quota,
    live,
    reportError,
    now,
  });
  const routes = new Map<string, Route>();
  for (const [path, entry] of deps.table.routes) routes.set(path, { kind: 'static', entry });
  for (const [path, resource] of service.paths) routes.set(path, { kind: 'data', resource });
  routes.set(MCP_ENDPOINT.path, { kind: 'mcp' });
  const ctx: Context = {
    table: deps.table,
    problems,
    quota,
    live,
    mcp,
    now,
    reportError,
    routes,
    shared: new WeakMap(),
  };

  const handle = (req: CoreRequest, client: ClientOf, body: BodyOf): Prepared | Promise<Prepared> => {
    try {
      const answer = route(ctx, req, client, body);
      return answer instanceof Promise ? answer.catch((error: unknown) => failed(ctx, error)) : answer;
    } catch (error) {
      return failed(ctx, error);
    }
  };
  return {
    handle,
    async fetch(request, client) {
      const req: CoreRequest = {
        method: request.method,
        url: targetOf(request.url),
        headers: Object.fromEntries(request.headers),
      };
      const answer = await handle(req, client, (_, maxBytes) => readRequestBody(request, maxBytes));
      return toResponse(request.method, answer);
    },
  };
}

/** Looks the path up (decoded when it holds percent-encoding) and hands the request to its route. */
function route(ctx: Context, req: CoreRequest, client: ClientOf, body: BodyOf): Prepared | Promise<Prepared> {
  const raw = rawPath(req.url);
  let path = raw;
  let found = ctx.routes.get(path);
  if (found === undefined && (path.includes('%') || path.includes('/.'))) {
    const decoded = decodePath(path);
    if (decoded !== null) {
      path = decoded;
      found = ctx.routes.get(decoded);
    }
  }
  const method = req.method;
  const readable = method === 'GET' || method === 'HEAD';
  if (found === undefined) return notFound(ctx, req, path);
  // Only the plain path reaches the endpoint: an encoded form is not where a client posts its messages.
  // Its dot segments aside, which a Worker's URL parser removes before the Worker sees the request.
  if (found.kind === 'mcp')
    return (hasDotSegment(raw) ? removeDotSegments(raw) : raw) === MCP_ENDPOINT.path
      ? ctx.mcp.handle(req, client, body)
      : notFound(ctx, req, path);
  if (found.kind === 'data') {
    if (!readable) return wrongMethod(ctx, req, true);
    return serveData(ctx, req, client, found.resource);
  }
  if (!readable) return wrongMethod(ctx, req, found.entry.api);
  return serveStatic(req, found.entry);
}

function notFound(ctx: Context, req: CoreRequest, path: string): Prepared {
  if (isApiPath(path)) return ctx.problems.routeNotFound;
  const page = ctx.table.notFound;
  if (page === undefined) return NOT_FOUND_TEXT;
  const v = choose(page.rep, req.headers['accept-encoding']);
  return { status: 404, headers: v.ok, body: v.body };
}

function serveStatic(req: CoreRequest, entry: StaticEntry): Prepared {
  const headers = req.headers;
  const v = choose(entry.rep, headers['accept-encoding']);
  if (ifMatchFails(headers['if-match'], v.etag)) return PRECONDITION_FAILED_TEXT;
  if (noneMatch(headers['if-none-match'], v.etag)) return v.notModifiedAnswer;
  return v.okAnswer;
}

function serveData(
  ctx: Context,
  req: CoreRequest,
  client: ClientOf,
  resource: DataResource,
): Prepared | Promise<Prepared> {
  const { quota } = ctx;
  // docs/data-rules.md: the request is counted before anything else is done.
  const proceed = (decision: QuotaDecision): Prepared | Promise<Prepared> => {
    // Only a configured quota limits a request, and with one the 429 is prepared.
    if (decision.outcome === 'limited') return withHeaders(ctx.problems.rateLimited!, decision.headers, 'limited');
    // An answer computed for each request has no validator, so only If-Match: * can hold; checked before
    // the upstream call.
    if (resource.cache === 'per-request' && ifMatchFails(req.headers['if-match'], undefined))
      return withHeaders(PRECONDITION_FAILED_TEXT, decision.headers, decision.outcome);
    return serveLive(ctx, req, resource, decision);
  };
  // Without a quota the client need not even be identified.
  const decision =
    quota === DISABLED_QUOTA
      ? DISABLED_QUOTA.check(null)
      : quota.check(typeof client === 'function' ? client(req) : client);
  return decision instanceof Promise ? decision.then(proceed) : proceed(decision);
}

/** A dataset's answer of this instant, from its live route; the 502 problem when it has none. */
function serveLive(
  ctx: Context,
  req: CoreRequest,
  resource: DataResource,
  decision: QuotaDecision,
): Prepared | Promise<Prepared> {
  const answer = (a: LiveAnswer) =>
    a.kept ? serveKept(ctx, req, resource, decision, a.kept) : serveFresh(resource, decision, a.body);
  let current: ReturnType<DataRoute['current']>;
  try {
    // Routed only for a registered dataset, which has a route (createGateway's table from service.paths).
    current = ctx.live.get(resource.id)!.current();
  } catch (error) {
    return upstreamFailed(ctx, resource, decision, error);
  }
  if (current instanceof Promise)
    return current.then(answer, (error: unknown) => upstreamFailed(ctx, resource, decision, error));
  return answer(current);
}

/** An answer computed for this request (the `per-request` policy): never stored. */
function serveFresh(resource: DataResource, decision: QuotaDecision, body: Uint8Array): Prepared {
  const headers = [
    'Content-Type',
    resource.contentType,
    'Content-Length',
    String(body.length),
    'Cache-Control',
    CACHE_CONTROL.data(resource.cache),
    ...DATA_COMMON,
  ];
  if (decision.headers) headers.push(...decision.headers);
  return { status: 200, headers, body, quota: decision.outcome };
}

/** An answer kept until it expires (the `until-midnight` and `hourly` policies), with its ETag and variants. */
function serveKept(
  ctx: Context,
  req: CoreRequest,
  resource: DataResource,
  decision: QuotaDecision,
  { rep, expiresAtMs }: { rep: Representation; expiresAtMs: number },
): Prepared {
  // docs/api.md: s-maxage is the whole seconds to the next midnight in the calendar's zone; under quota
  // the response carries per-client values and must stay out of shared caches.
  const v = choose(rep, req.headers['accept-encoding']);
  if (ifMatchFails(req.headers['if-match'], v.etag))
    return withHeaders(PRECONDITION_FAILED_TEXT, decision.headers, decision.outcome);
  const notModified = noneMatch(req.headers['if-none-match'], v.etag);
  let headers: string[];
  if (decision.headers) {
    const extra = [...DATA_COMMON, ...decision.headers];
    headers = notModified
      ? notModifiedHeaders(rep, v, CACHE_CONTROL.perClient, extra)
      : variantHeaders(rep, v, CACHE_CONTROL.perClient, extra);
  } else {
    // `hourly`: a fixed s-maxage (CACHE_CONTROL.data), whatever is left of the kept answer's hour.
    const sMaxAge = resource.cache === 'until-midnight' ? secondsUntil(expiresAtMs, ctx.now()) : 0;
    const lists = sharedHeaders(ctx, rep, v, resource.cache, sMaxAge);
    headers = notModified ? lists.notModified : lists.ok;
  }
  return notModified
    ? { status: 304, headers, quota: decision.outcome }
    : { status: 200, headers, body: v.body, quota: decision.outcome };
}

/**
 * The calendar's header lists without a quota differ only in s-maxage, which changes once a second:
 * each variant's lists are built when it changes and reused until then, not built per request.
 */
function sharedHeaders(ctx: Context, rep: Representation, v: Variant, policy: CachePolicy, sMaxAge: number) {
  let lists = ctx.shared.get(v);
  if (lists === undefined || lists.sMaxAge !== sMaxAge) {
    const cacheControl = CACHE_CONTROL.data(policy, sMaxAge);
    lists = {
      sMaxAge,
      ok: variantHeaders(rep, v, cacheControl, DATA_COMMON),
      notModified: notModifiedHeaders(rep, v, cacheControl, DATA_COMMON),
    };
    ctx.shared.set(v, lists);
  }
  return lists;
}

function upstreamFailed(ctx: Context, resource: DataResource, decision: QuotaDecision, error: unknown): Prepared {
  ctx.reportError(`${resource.id}: ${error instanceof Error ? error.message : String(error)}`);
  // The upstream asked for quiet: the client learns how long (RFC 9110 §10.2.3, delay-seconds).
  const wait = error instanceof UpstreamError ? error.retryAfterMs : undefined;
  const extra = wait === undefined ? [] : ['Retry-After', String(Math.ceil(wait / 1000))];
  const problem: PreparedProblem = ctx.problems.upstream.get(resource.id)!;
  return withHeaders(problem, [...(decision.headers ?? []), ...extra], decision.outcome);
}

/** The one error edge of a request: a line on the error log and a 500 that says nothing of the error. */
function failed(ctx: Context, error: unknown): PreparedAnswer {
  ctx.reportError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
  return INTERNAL_ERROR_TEXT;
}

function wrongMethod(ctx: Context, req: CoreRequest, api: boolean): Prepared {
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) return PREFLIGHT;
  if (api) return ctx.problems.methodNotAllowed;
  return METHOD_NOT_ALLOWED_TEXT;
}
