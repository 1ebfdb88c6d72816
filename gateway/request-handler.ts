// The request handler: one lookup in a table built at start decides every response. Data routes pass
// the quota first, then their live source; everything else is a prepared static answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ALLOW_HEADER,
  CACHE_CONTROL,
  DATA_METHODS,
  MCP_ENDPOINT,
  type DataResource,
  type ServiceTables,
} from '../contract/service.ts';
import { UpstreamError } from '../lib/errors.ts';
import { secondsUntil } from '../domain/calendar.ts';
import type { AccessLog } from './http/access-log.ts';
import type { ClientIdentity } from './quota/client-identity.ts';
import type { DataRoute, LiveAnswer } from './routes/data-routes.ts';
import type { McpRoute } from './routes/mcp.ts';
import {
  EXPOSED_HEADERS,
  prepareAnswer,
  sendProblem as writeProblem,
  type PreparedAnswer,
  type PreparedProblem,
  type Problems,
} from './http/problem-response.ts';
import { DISABLED_QUOTA, type Quota, type QuotaDecision, type QuotaOutcome } from './quota/quota.ts';
import {
  choose,
  ifMatchFails,
  noneMatch,
  notModifiedHeaders,
  variantHeaders,
  type Representation,
  type Variant,
} from './http/representation.ts';
import { decodePath, isApiPath, rawPath } from './http/request-path.ts';
import { COMMON_HEADERS } from './http/common-headers.ts';
import type { StaticEntry, StaticTable } from './http/static-files.ts';

export interface HandlerDeps {
  table: StaticTable;
  problems: Problems;
  quota: Quota;
  identify: ClientIdentity;
  /** The deployment's data routes (MARKET_PRODUCT, CALENDAR_TIME_ZONE). */
  service: ServiceTables;
  /** Each dataset's live route, by id (gateway/routes/data-routes.ts). */
  live: ReadonlyMap<string, DataRoute>;
  mcp: McpRoute;
  now: () => number;
  log: AccessLog;
  /** One line on stderr. */
  reportError: (line: string) => void;
  /** True once shutdown began: responses then close their connection. */
  closing: () => boolean;
}

type Route = { kind: 'data'; resource: DataResource } | { kind: 'static'; entry: StaticEntry } | { kind: 'mcp' };

interface Exchange {
  path: string;
  quota: QuotaOutcome | '-';
}

const PLAIN = 'text/plain; charset=utf-8';
const plain = (status: number, text: string, extra: string[] = []) =>
  prepareAnswer(status, PLAIN, Buffer.from(text), extra);
const NOT_FOUND_TEXT = plain(404, 'Not found\n');
const METHOD_NOT_ALLOWED_TEXT = plain(
  405,
  `Method not allowed: this site answers ${DATA_METHODS.join(' and ')} only.\n`,
  ['Allow', ALLOW_HEADER],
);
const INTERNAL_ERROR_TEXT = plain(500, 'Internal server error\n');
/** RFC 9112 §6.3: a request whose last transfer coding is not chunked has no knowable end. */
const UNFRAMED_BODY_TEXT = plain(400, 'Bad request: a Transfer-Encoding must end with chunked.\n', [
  'Connection',
  'close',
]);
const ASTERISK_TEXT = plain(400, 'Bad request: "*" is a target for OPTIONS only.\n');
/**
 * RFC 9110 §15.6.6: 505 "indicates that the server does not support, or refuses to support, the major
 * version of HTTP that was used in the request message". node parses `HTTP/2.0` (and `HTTP/0.9`) on
 * this cleartext HTTP/1.1 port and would answer it as HTTP/1.1; nginx answers 505.
 */
const VERSION_NOT_SUPPORTED_TEXT = plain(505, 'HTTP version not supported: this port speaks HTTP/1.1 and 1.0.\n', [
  'Connection',
  'close',
]);
/** RFC 9110 §13.1.1: a failed If-Match is answered 412 and the method is not performed (nginx does the same). */
const PRECONDITION_FAILED_TEXT = plain(
  412,
  'Precondition failed: If-Match names no current representation of this resource.\n',
);
/**
 * RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request
 * message that lacks a Host header field and to any request message that contains more than one Host
 * header field line or a Host header field with an invalid field value." (Node answers a missing Host
 * itself; it keeps the first of two.)
 */
const BAD_HOST_TEXT = plain(400, 'Bad request: one valid Host header is required.\n', ['Connection', 'close']);
/**
 * Host = uri-host [ ":" port ] (RFC 9110 §7.2), uri-host being an IP-literal in brackets, or a reg-name
 * (unreserved, pct-encoded and sub-delims characters; an IPv4 address is one too). Each character is
 * matched by one alternative only, so the match is linear.
 */
const HOST_VALUE = /^(?:\[[\w:.~!$&'()*+,;=-]+\]|(?:[\w.~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::\d*)?$/;

/** Whether the request carries exactly one Host line with a valid value (or none, for HTTP/1.0). */
function hostIsValid(req: IncomingMessage): boolean {
  let seen = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') {
      if (++seen > 1 || !HOST_VALUE.test(raw[i + 1]!)) return false;
    }
  }
  return true;
}
/** OPTIONS * asks about the server as a whole (RFC 9110 §9.3.7): it only ever reads. */
const SERVER_OPTIONS = ['Allow', ALLOW_HEADER, ...COMMON_HEADERS];

/**
 * CORS preflight (Fetch standard §3.2.2). Simple GETs need none; a script that adds its own headers
 * triggers one, and a 405 would make the browser fail the real request for no reason. The answer
 * allows GET and HEAD from any origin and no extra request headers.
 */
const PREFLIGHT_HEADERS = [
  ...COMMON_HEADERS,
  'Access-Control-Allow-Methods',
  ALLOW_HEADER,
  'Access-Control-Max-Age',
  '86400',
];

const DATA_COMMON = [...COMMON_HEADERS, ...EXPOSED_HEADERS];

/** What every step of a request reads: the dependencies and the tables built once at start. */
interface Context extends HandlerDeps {
  routes: Map<string, Route>;
  /** The shared header lists of answers kept until midnight (sharedHeaders). */
  shared: WeakMap<Variant, { sMaxAge: number; ok: string[]; notModified: string[] }>;
}

export function requestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const routes = new Map<string, Route>();
  for (const [path, entry] of deps.table.routes) routes.set(path, { kind: 'static', entry });
  for (const [path, resource] of deps.service.paths) routes.set(path, { kind: 'data', resource });
  routes.set(MCP_ENDPOINT.path, { kind: 'mcp' });
  const ctx: Context = {
    ...deps,
    routes,
    shared: new WeakMap(),
  };
  return (req, res) => handle(ctx, req, res);
}

/** One request: logged when it closes, refused if malformed, else routed. */
function handle(ctx: Context, req: IncomingMessage, res: ServerResponse): void {
  const raw = rawPath(req.url ?? '/');
  const exchange: Exchange = { path: raw, quota: '-' };
  logOnClose(ctx, req, res, exchange);
  if (refusedAsMalformed(ctx, req, res)) return;
  // A body on GET or HEAD means nothing here (RFC 9110 §9.3.1); read and drop it so the connection
  // stays usable, without buffering it. The MCP endpoint reads its own (bounded) body.
  const mcp = raw === MCP_ENDPOINT.path;
  if (!mcp && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined))
    req.resume();
  if (raw === '*') return answerAsterisk(ctx, req, res);
  try {
    route(ctx, req, res, raw, mcp, exchange);
  } catch (error) {
    fail(ctx, res, error);
  }
}

function logOnClose(ctx: Context, req: IncomingMessage, res: ServerResponse, exchange: Exchange): void {
  const started = performance.now();
  // 'close' is emitted once per response: a plain listener, without once()'s wrapper per request.
  res.on('close', () => {
    ctx.log.record({
      method: req.method ?? '',
      path: exchange.path,
      status: res.statusCode,
      durationMs: performance.now() - started,
      quota: exchange.quota,
      aborted: !res.writableFinished,
    });
  });
}

/** Answers a request the server must refuse before routing (bad Host, unframed body); true if it did. */
function refusedAsMalformed(ctx: Context, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.httpVersionMajor !== 1) {
    res.shouldKeepAlive = false;
    sendFixed(ctx, res, VERSION_NOT_SUPPORTED_TEXT);
    return true;
  }
  if (!hostIsValid(req)) {
    res.shouldKeepAlive = false;
    sendFixed(ctx, res, BAD_HOST_TEXT);
    return true;
  }
  const transferEncoding = req.headers['transfer-encoding'];
  if (transferEncoding !== undefined && !/(?:^|,)[ \t]*chunked[ \t]*$/i.test(transferEncoding)) {
    // Its body has no knowable length: answer nothing else on this connection. Node 20's parser
    // rejects some such codings itself, but only after this handler has answered; the close here
    // does not depend on that, so no later request can be read from the body's bytes.
    res.shouldKeepAlive = false;
    sendFixed(ctx, res, UNFRAMED_BODY_TEXT);
    return true;
  }
  return false;
}

function answerAsterisk(ctx: Context, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'OPTIONS') return sendFixed(ctx, res, ASTERISK_TEXT);
  head(ctx, res, 204, SERVER_OPTIONS);
  res.end();
}

/** Looks the path up (decoded when it holds percent-encoding) and hands the request to its route. */
function route(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  mcp: boolean,
  exchange: Exchange,
): void {
  let path = raw;
  let found = ctx.routes.get(path);
  if (found === undefined && path.includes('%')) {
    const decoded = decodePath(path);
    if (decoded !== null) {
      path = decoded;
      found = ctx.routes.get(decoded);
    }
  }
  const method = req.method;
  const readable = method === 'GET' || method === 'HEAD';
  if (found === undefined) return notFound(ctx, req, res, path);
  // Only the plain path reaches the endpoint: the body of an encoded form was already dropped above.
  if (found.kind === 'mcp' && !mcp) return notFound(ctx, req, res, path);
  if (found.kind === 'mcp')
    return void ctx.mcp
      .handle(req, res, (outcome) => (exchange.quota = outcome))
      .catch((e: unknown) => fail(ctx, res, e));
  if (found.kind === 'data') {
    if (!readable) return wrongMethod(ctx, req, res, true);
    return serveData(ctx, req, res, found.resource, exchange);
  }
  if (!readable) return wrongMethod(ctx, req, res, found.entry.api);
  serveStatic(ctx, req, res, found.entry);
}

function head(ctx: Context, res: ServerResponse, status: number, headers: readonly string[]): void {
  if (ctx.closing()) res.shouldKeepAlive = false;
  res.writeHead(status, headers as string[]);
}

/** One of the fixed plain-text answers. */
function sendFixed(ctx: Context, res: ServerResponse, answer: PreparedAnswer): void {
  head(ctx, res, answer.status, answer.headers);
  res.end(answer.body);
}

function sendProblem(ctx: Context, res: ServerResponse, p: PreparedProblem, extra?: readonly string[]): void {
  if (ctx.closing()) res.shouldKeepAlive = false;
  writeProblem(res, p, extra);
}

function notFound(ctx: Context, req: IncomingMessage, res: ServerResponse, path: string): void {
  if (isApiPath(path)) return sendProblem(ctx, res, ctx.problems.routeNotFound);
  const page = ctx.table.notFound;
  if (page === undefined) return sendFixed(ctx, res, NOT_FOUND_TEXT);
  const v = choose(page.rep, req.headers['accept-encoding']);
  head(ctx, res, 404, v.ok);
  res.end(v.body);
}

function serveStatic(ctx: Context, req: IncomingMessage, res: ServerResponse, entry: StaticEntry): void {
  const v = choose(entry.rep, req.headers['accept-encoding']);
  if (ifMatchFails(req.headers['if-match'], v.etag)) return sendFixed(ctx, res, PRECONDITION_FAILED_TEXT);
  if (noneMatch(req.headers['if-none-match'], v.etag)) {
    head(ctx, res, 304, v.notModified);
    return void res.end();
  }
  head(ctx, res, 200, v.ok);
  res.end(v.body);
}

function serveData(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  resource: DataResource,
  exchange: Exchange,
): void {
  const { quota } = ctx;
  // docs/data-rules.md: the request is counted before anything else is done.
  const proceed = (decision: QuotaDecision) => {
    exchange.quota = decision.outcome;
    // Only a configured quota limits a request, and with one the 429 is prepared.
    if (decision.outcome === 'limited') return sendProblem(ctx, res, ctx.problems.rateLimited!, decision.headers);
    // An answer computed for each request has no validator, so only If-Match: * can hold; checked before
    // the upstream call.
    if (resource.cache === 'per-request' && ifMatchFails(req.headers['if-match'], undefined))
      return preconditionFailed(ctx, res, decision);
    serveLive(ctx, req, res, resource, decision);
  };
  // Without a quota the client need not even be identified.
  const decision = quota === DISABLED_QUOTA ? DISABLED_QUOTA.check(null) : quota.check(ctx.identify(req));
  if (decision instanceof Promise) {
    decision.then(proceed, (error: unknown) => fail(ctx, res, error)).catch((error: unknown) => fail(ctx, res, error));
  } else proceed(decision);
}

/** A dataset's answer of this instant, from its live route; the 502 problem when it has none. */
function serveLive(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  resource: DataResource,
  decision: QuotaDecision,
): void {
  const answer = (a: LiveAnswer) =>
    a.kept ? serveKept(ctx, req, res, decision, a.kept) : serveFresh(ctx, res, resource, decision, a.body);
  let current: ReturnType<DataRoute['current']>;
  try {
    // Routed only for a registered dataset, which has a route (requestHandler's table from service.paths).
    current = ctx.live.get(resource.id)!.current();
  } catch (error) {
    return upstreamFailed(ctx, res, resource, decision, error);
  }
  if (current instanceof Promise)
    current
      .then(answer, (error: unknown) => upstreamFailed(ctx, res, resource, decision, error))
      // A throw while answering must reach the one error edge, not become an unhandled rejection.
      .catch((error: unknown) => fail(ctx, res, error));
  else answer(current);
}

/** An answer computed for this request (the `per-request` policy): never stored. */
function serveFresh(
  ctx: Context,
  res: ServerResponse,
  resource: DataResource,
  decision: QuotaDecision,
  body: Buffer,
): void {
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
  head(ctx, res, 200, headers);
  res.end(body);
}

/** An answer kept until the next midnight (the `until-midnight` policy), with its ETag and variants. */
function serveKept(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  decision: QuotaDecision,
  { rep, expiresAtMs }: { rep: Representation; expiresAtMs: number },
): void {
  // docs/api.md: s-maxage is the whole seconds to the next midnight in the calendar's zone; under quota
  // the response carries per-client values and must stay out of shared caches.
  const v = choose(rep, req.headers['accept-encoding']);
  if (ifMatchFails(req.headers['if-match'], v.etag)) return preconditionFailed(ctx, res, decision);
  const notModified = noneMatch(req.headers['if-none-match'], v.etag);
  let headers: string[];
  if (decision.headers) {
    const extra = [...DATA_COMMON, ...decision.headers];
    headers = notModified
      ? notModifiedHeaders(rep, v, CACHE_CONTROL.perClient, extra)
      : variantHeaders(rep, v, CACHE_CONTROL.perClient, extra);
  } else {
    const lists = sharedHeaders(ctx, rep, v, secondsUntil(expiresAtMs, ctx.now()));
    headers = notModified ? lists.notModified : lists.ok;
  }
  head(ctx, res, notModified ? 304 : 200, headers);
  res.end(notModified ? undefined : v.body);
}

/**
 * The calendar's header lists without a quota differ only in s-maxage, which changes once a second:
 * each variant's lists are built when it changes and reused until then, not built per request.
 */
function sharedHeaders(ctx: Context, rep: Representation, v: Variant, sMaxAge: number) {
  let lists = ctx.shared.get(v);
  if (lists === undefined || lists.sMaxAge !== sMaxAge) {
    const cacheControl = CACHE_CONTROL.data('until-midnight', sMaxAge);
    lists = {
      sMaxAge,
      ok: variantHeaders(rep, v, cacheControl, DATA_COMMON),
      notModified: notModifiedHeaders(rep, v, cacheControl, DATA_COMMON),
    };
    ctx.shared.set(v, lists);
  }
  return lists;
}

/** A data route's 412, with the quota's headers as every answer of a data route carries them. */
function preconditionFailed(ctx: Context, res: ServerResponse, decision: QuotaDecision): void {
  const answer = PRECONDITION_FAILED_TEXT;
  head(ctx, res, answer.status, decision.headers ? [...answer.headers, ...decision.headers] : answer.headers);
  res.end(answer.body);
}

function upstreamFailed(
  ctx: Context,
  res: ServerResponse,
  resource: DataResource,
  decision: QuotaDecision,
  error: unknown,
): void {
  ctx.reportError(`${resource.id}: ${error instanceof Error ? error.message : String(error)}`);
  // The upstream asked for quiet: the client learns how long (RFC 9110 §10.2.3, delay-seconds).
  const wait = error instanceof UpstreamError ? error.retryAfterMs : undefined;
  const extra = wait === undefined ? [] : ['Retry-After', String(Math.ceil(wait / 1000))];
  sendProblem(ctx, res, ctx.problems.upstream.get(resource.id)!, [...(decision.headers ?? []), ...extra]);
}

function fail(ctx: Context, res: ServerResponse, error: unknown): void {
  ctx.reportError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
  if (res.headersSent) return void res.destroy();
  sendFixed(ctx, res, INTERNAL_ERROR_TEXT);
}

function wrongMethod(ctx: Context, req: IncomingMessage, res: ServerResponse, api: boolean): void {
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    head(ctx, res, 204, PREFLIGHT_HEADERS);
    return void res.end();
  }
  if (api) return sendProblem(ctx, res, ctx.problems.methodNotAllowed);
  sendFixed(ctx, res, METHOD_NOT_ALLOWED_TEXT);
}
