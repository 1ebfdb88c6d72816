// The request handler: one lookup in a table built at start decides every response. Data routes pass
// the quota first, then their live source; everything else is a prepared static answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ALLOW_HEADER,
  CACHE_CONTROL,
  DATA_METHODS,
  DATA_PATHS,
  dataResource,
  MCP_ENDPOINT,
  type DataResource,
} from '../contract/service.ts';
import { UpstreamError } from '../lib/errors.ts';
import { secondsUntil } from '../domain/calendar.ts';
import type { AccessLog } from './http/access-log.ts';
import type { ClientIdentity } from './quota/client-identity.ts';
import type { ContributionsRoute } from './routes/contributions.ts';
import type { MarketRoute } from './routes/market.ts';
import type { McpRoute } from './routes/mcp.ts';
import {
  EXPOSED_HEADERS,
  prepareAnswer,
  sendProblem as writeProblem,
  type PreparedProblem,
  type Problems,
} from './http/problem-response.ts';
import { DISABLED_QUOTA, type Quota, type QuotaDecision, type QuotaOutcome } from './quota/quota.ts';
import {
  choose,
  noneMatch,
  notModifiedHeaders,
  variantHeaders,
  type Representation,
  type Variant,
} from './http/representation.ts';
import { decodePath, isApiPath, rawPath } from './http/request-path.ts';
import { COMMON_HEADERS, type StaticEntry, type StaticTable } from './http/static-files.ts';

export interface HandlerDeps {
  table: StaticTable;
  problems: Problems;
  quota: Quota;
  identify: ClientIdentity;
  market: MarketRoute;
  contributions: ContributionsRoute;
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

export function requestHandler(deps: HandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { table, problems, quota, identify, market, contributions, now, log, reportError } = deps;

  const marketResource = dataResource('market');
  const contributionsResource = dataResource('contributions');
  const routes = new Map<string, Route>();
  for (const [path, entry] of table.routes) routes.set(path, { kind: 'static', entry });
  for (const [path, resource] of DATA_PATHS) routes.set(path, { kind: 'data', resource });
  routes.set(MCP_ENDPOINT.path, { kind: 'mcp' });

  const head = (res: ServerResponse, status: number, headers: readonly string[]) => {
    if (deps.closing()) res.shouldKeepAlive = false;
    res.writeHead(status, headers as string[]);
  };

  const sendProblem = (res: ServerResponse, p: PreparedProblem, extra?: readonly string[]) => {
    if (deps.closing()) res.shouldKeepAlive = false;
    writeProblem(res, p, extra);
  };

  const notFound = (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (isApiPath(path)) return sendProblem(res, problems.routeNotFound);
    const page = table.notFound;
    if (page === undefined) {
      head(res, 404, NOT_FOUND_TEXT.headers);
      return res.end(NOT_FOUND_TEXT.body);
    }
    const v = choose(page.rep, req.headers['accept-encoding']);
    head(res, 404, v.ok);
    res.end(v.body);
  };

  const serveStatic = (req: IncomingMessage, res: ServerResponse, entry: StaticEntry) => {
    const v = choose(entry.rep, req.headers['accept-encoding']);
    if (noneMatch(req.headers['if-none-match'], v.etag)) {
      head(res, 304, v.notModified);
      return res.end();
    }
    head(res, 200, v.ok);
    res.end(v.body);
  };

  const upstreamFailed = (res: ServerResponse, resource: DataResource, decision: QuotaDecision, error: unknown) => {
    reportError(`${resource.id}: ${error instanceof Error ? error.message : String(error)}`);
    // The upstream asked for quiet: the client learns how long (RFC 9110 §10.2.3, delay-seconds).
    const wait = error instanceof UpstreamError ? error.retryAfterMs : undefined;
    const extra = wait === undefined ? [] : ['Retry-After', String(Math.ceil(wait / 1000))];
    sendProblem(res, problems.upstream[resource.id], [...(decision.headers ?? []), ...extra]);
  };

  const serveMarket = (res: ServerResponse, decision: QuotaDecision) => {
    market
      .body()
      .then(
        (body) => {
          const headers = [
            'Content-Type',
            marketResource.contentType,
            'Content-Length',
            String(body.length),
            'Cache-Control',
            CACHE_CONTROL.market,
            ...DATA_COMMON,
          ];
          if (decision.headers) headers.push(...decision.headers);
          head(res, 200, headers);
          res.end(body);
        },
        (error: unknown) => upstreamFailed(res, marketResource, decision, error),
      )
      // A throw while answering must reach the one error edge, not become an unhandled rejection.
      .catch((error: unknown) => fail(res, error));
  };

  /**
   * The calendar's header lists without a quota differ only in s-maxage, which changes once a second:
   * each variant's lists are built when it changes and reused until then, not built per request.
   */
  const shared = new WeakMap<Variant, { sMaxAge: number; ok: string[]; notModified: string[] }>();
  const sharedHeaders = (rep: Representation, v: Variant, sMaxAge: number) => {
    let lists = shared.get(v);
    if (lists === undefined || lists.sMaxAge !== sMaxAge) {
      const cacheControl = CACHE_CONTROL.contributions(sMaxAge);
      lists = {
        sMaxAge,
        ok: variantHeaders(rep, v, cacheControl, DATA_COMMON),
        notModified: notModifiedHeaders(rep, v, cacheControl, DATA_COMMON),
      };
      shared.set(v, lists);
    }
    return lists;
  };

  const serveContributions = (req: IncomingMessage, res: ServerResponse, decision: QuotaDecision) => {
    const answer = ({ rep, expiresAtMs }: Awaited<ReturnType<ContributionsRoute['current']>>) => {
      // docs/api.md: s-maxage is the whole seconds to the next Toronto midnight; under quota the response
      // carries per-client values and must stay out of shared caches.
      const v = choose(rep, req.headers['accept-encoding']);
      const notModified = noneMatch(req.headers['if-none-match'], v.etag);
      let headers: string[];
      if (decision.headers) {
        const extra = [...DATA_COMMON, ...decision.headers];
        headers = notModified
          ? notModifiedHeaders(rep, v, CACHE_CONTROL.perClient, extra)
          : variantHeaders(rep, v, CACHE_CONTROL.perClient, extra);
      } else {
        const lists = sharedHeaders(rep, v, secondsUntil(expiresAtMs, now()));
        headers = notModified ? lists.notModified : lists.ok;
      }
      head(res, notModified ? 304 : 200, headers);
      res.end(notModified ? undefined : v.body);
    };
    let current: ReturnType<ContributionsRoute['current']>;
    try {
      current = contributions.current();
    } catch (error) {
      return upstreamFailed(res, contributionsResource, decision, error);
    }
    if (current instanceof Promise)
      current
        .then(answer, (error: unknown) => upstreamFailed(res, contributionsResource, decision, error))
        .catch((error: unknown) => fail(res, error));
    else answer(current);
  };

  const serveData = (req: IncomingMessage, res: ServerResponse, resource: DataResource, exchange: Exchange) => {
    // docs/data-rules.md: the request is counted before anything else is done.
    const proceed = (decision: QuotaDecision) => {
      exchange.quota = decision.outcome;
      // Only a configured quota limits a request, and with one the 429 is prepared.
      if (decision.outcome === 'limited') return sendProblem(res, problems.rateLimited!, decision.headers);
      if (resource.id === 'market') serveMarket(res, decision);
      else serveContributions(req, res, decision);
    };
    // Without a quota the client need not even be identified.
    const decision = quota === DISABLED_QUOTA ? DISABLED_QUOTA.check(null) : quota.check(identify(req));
    if (decision instanceof Promise) {
      decision.then(proceed, (error: unknown) => fail(res, error)).catch((error: unknown) => fail(res, error));
    } else proceed(decision);
  };

  const fail = (res: ServerResponse, error: unknown) => {
    reportError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    if (res.headersSent) return res.destroy();
    head(res, INTERNAL_ERROR_TEXT.status, INTERNAL_ERROR_TEXT.headers);
    res.end(INTERNAL_ERROR_TEXT.body);
  };

  const wrongMethod = (req: IncomingMessage, res: ServerResponse, api: boolean) => {
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      head(res, 204, PREFLIGHT_HEADERS);
      return res.end();
    }
    if (api) return sendProblem(res, problems.methodNotAllowed);
    head(res, 405, METHOD_NOT_ALLOWED_TEXT.headers);
    res.end(METHOD_NOT_ALLOWED_TEXT.body);
  };

  return (req, res) => {
    const started = performance.now();
    const raw = rawPath(req.url ?? '/');
    const exchange: Exchange = { path: raw, quota: '-' };
    // 'close' is emitted once per response: a plain listener, without once()'s wrapper per request.
    res.on('close', () => {
      log.record({
        method: req.method ?? '',
        path: exchange.path,
        status: res.statusCode,
        durationMs: performance.now() - started,
        quota: exchange.quota,
        aborted: !res.writableFinished,
      });
    });
    if (!hostIsValid(req)) {
      res.shouldKeepAlive = false;
      head(res, BAD_HOST_TEXT.status, BAD_HOST_TEXT.headers);
      return res.end(BAD_HOST_TEXT.body);
    }
    const transferEncoding = req.headers['transfer-encoding'];
    if (transferEncoding !== undefined && !/(?:^|,)[ \t]*chunked[ \t]*$/i.test(transferEncoding)) {
      // Its body has no knowable length: answer nothing else on this connection. Node 20's parser
      // rejects some such codings itself, but only after this handler has answered; the close here
      // does not depend on that, so no later request can be read from the body's bytes.
      res.shouldKeepAlive = false;
      head(res, UNFRAMED_BODY_TEXT.status, UNFRAMED_BODY_TEXT.headers);
      return res.end(UNFRAMED_BODY_TEXT.body);
    }
    // A body on GET or HEAD means nothing here (RFC 9110 §9.3.1); read and drop it so the connection
    // stays usable, without buffering it. The MCP endpoint reads its own (bounded) body.
    const mcp = raw === MCP_ENDPOINT.path;
    if (!mcp && (req.headers['content-length'] !== undefined || transferEncoding !== undefined)) req.resume();
    if (raw === '*') {
      const answer =
        req.method === 'OPTIONS' ? { status: 204, headers: SERVER_OPTIONS, body: undefined } : ASTERISK_TEXT;
      head(res, answer.status, answer.headers);
      return res.end(answer.body);
    }
    try {
      let path = raw;
      let route = routes.get(path);
      if (route === undefined && path.includes('%')) {
        const decoded = decodePath(path);
        if (decoded !== null) {
          path = decoded;
          route = routes.get(decoded);
        }
      }
      const method = req.method;
      const readable = method === 'GET' || method === 'HEAD';
      if (route === undefined) return notFound(req, res, path);
      // Only the plain path reaches the endpoint: the body of an encoded form was already dropped above.
      if (route.kind === 'mcp' && !mcp) return notFound(req, res, path);
      if (route.kind === 'mcp')
        return void deps.mcp
          .handle(req, res, (outcome) => (exchange.quota = outcome))
          .catch((e: unknown) => fail(res, e));
      if (route.kind === 'data') {
        if (!readable) return wrongMethod(req, res, true);
        return serveData(req, res, route.resource, exchange);
      }
      if (!readable) return wrongMethod(req, res, route.entry.api);
      serveStatic(req, res, route.entry);
    } catch (error) {
      fail(res, error);
    }
  };
}
