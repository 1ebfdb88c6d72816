// The core on node:http. What only an HTTP/1.1 server on a socket must do stays here: refusing what its
// parser lets through (another HTTP version, a bad Host, a body without a knowable end, "*" targets),
// dropping bodies nobody reads, the access log, and closing connections at shutdown. The rest is the
// core's: node's IncomingMessage is passed to it as it is (it has the method, target and headers the core
// reads), and the core's Prepared answer is written with one writeHead and one end, so the hot path
// makes no web Request or Response.
import { ServerResponse, type IncomingMessage } from 'node:http';
import { ALLOW_HEADER, MCP_ENDPOINT } from '../builders/contract/service.ts';
import type { AccessLog } from './http/access-log.ts';
import type { ClientIdentity } from './quota/client-identity.ts';
import {
  INTERNAL_ERROR_TEXT,
  plain,
  type BodyOf,
  type ClientOf,
  type CoreRequest,
  type Gateway,
} from './core/gateway.ts';
import type { Prepared } from './core/http/exchange.ts';
import { rawPath } from './core/http/request-path.ts';
import { COMMON_HEADERS } from './core/http/common-headers.ts';

export interface NodeAdapterDeps {
  core: Gateway;
  identify: ClientIdentity;
  log: AccessLog;
  /** One line on stderr. */
  reportError: (line: string) => void;
  /** True once shutdown began: responses then close their connection. */
  closing: () => boolean;
}

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
/** OPTIONS * asks about the server as a whole (RFC 9110 §9.3.7): it only ever reads. */
const SERVER_OPTIONS: Prepared = { status: 204, headers: ['Allow', ALLOW_HEADER, ...COMMON_HEADERS] };

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

/** The request body, or undefined when it passes `maxBytes` (announced by Content-Length or as it arrives). */
const readBody: BodyOf = (request, maxBytes) => {
  const req = request as unknown as IncomingMessage;
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
};

/** Whether an answer says to close the connection after it (it left the request's body unread). */
function closesConnection(headers: readonly string[]): boolean {
  for (let i = 0; i < headers.length; i += 2)
    if (headers[i] === 'Connection' && headers[i + 1] === 'close') return true;
  return false;
}

/** The fields of a response that its access-log line reads when it closes (see loggedResponse). */
interface LoggedResponse extends ServerResponse {
  logPath: string | undefined;
  logStarted: number;
  logQuota: Prepared['quota'];
}

/**
 * node:http's response class for a server whose handler is nodeHandler's: each response records its
 * access-log line when it emits 'close' (once per response, whether it finished or the client went away).
 * A 'close' listener and its closure added to every response cost more CPU per request than the line
 * itself (docs/performance.md#the-snapshot-route-issue-42); the class gives each response the same
 * behaviour without either. A response that never reached the handler (refused by the pipelining
 * bound) has no path and is not recorded, as before.
 */
function loggedResponse(log: AccessLog): typeof ServerResponse {
  class Logged extends ServerResponse {
    logPath: string | undefined = undefined;
    logStarted = 0;
    logQuota: Prepared['quota'] = undefined;
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'close' && this.logPath !== undefined) {
        log.record({
          method: this.req.method ?? '',
          path: this.logPath,
          status: this.statusCode,
          durationMs: performance.now() - this.logStarted,
          quota: this.logQuota ?? '-',
          aborted: !this.writableFinished,
        });
        this.logPath = undefined;
      }
      return super.emit(event, ...args);
    }
  }
  // node's typings make the class generic in its request type, which this one is not.
  return Logged as unknown as typeof ServerResponse;
}

export interface NodeAdapter {
  /** The request listener of createServer. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** createServer's `ServerResponse` option: the class whose responses write the access log. */
  ServerResponse: typeof ServerResponse;
}

export function nodeAdapter(deps: NodeAdapterDeps): NodeAdapter {
  return { listener: nodeHandler(deps), ServerResponse: loggedResponse(deps.log) };
}

/** The request listener; its responses must be loggedResponse's, which record the access log. */
function nodeHandler(deps: NodeAdapterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { core, closing } = deps;
  const identify = deps.identify as unknown as (req: CoreRequest) => string | null;

  const write = (res: ServerResponse, answer: Prepared) => {
    if (closing()) res.shouldKeepAlive = false;
    res.writeHead(answer.status, answer.headers as string[]);
    res.end(answer.body);
  };

  const fail = (res: ServerResponse, error: unknown) => {
    deps.reportError(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    if (res.headersSent) return void res.destroy();
    write(res, INTERNAL_ERROR_TEXT);
  };

  /** One request: logged when it closes, refused if malformed, else answered by the core. */
  return (req, res) => {
    const raw = rawPath(req.url ?? '/');
    const logged = res as LoggedResponse;
    logged.logPath = raw;
    logged.logStarted = performance.now();
    const refusal = malformed(req);
    if (refusal !== undefined) {
      res.shouldKeepAlive = false;
      return write(res, refusal);
    }
    // A body on GET or HEAD means nothing here (RFC 9110 §9.3.1); read and drop it so the connection
    // stays usable, without buffering it. The MCP endpoint reads its own (bounded) body.
    const mcp = raw === MCP_ENDPOINT.path;
    if (!mcp && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined))
      req.resume();
    if (raw === '*') return write(res, req.method === 'OPTIONS' ? SERVER_OPTIONS : ASTERISK_TEXT);
    const answered = (answer: Prepared) => {
      logged.logQuota = answer.quota;
      // A refused POST /mcp leaves its body unread: dropped, unless the answer closes the connection.
      if (mcp && !req.complete && !closesConnection(answer.headers)) req.resume();
      write(res, answer);
    };
    let answer: Prepared | Promise<Prepared>;
    try {
      answer = core.handle(req as unknown as CoreRequest, identify as ClientOf, readBody);
    } catch (error) {
      return fail(res, error);
    }
    if (answer instanceof Promise) answer.then(answered).catch((error: unknown) => fail(res, error));
    else answered(answer);
  };
}

/** A request the server must refuse before routing (another HTTP version, bad Host, unframed body). */
function malformed(req: IncomingMessage): Prepared | undefined {
  if (req.httpVersionMajor !== 1) return VERSION_NOT_SUPPORTED_TEXT;
  if (!hostIsValid(req)) return BAD_HOST_TEXT;
  const transferEncoding = req.headers['transfer-encoding'];
  // Its body has no knowable length: answer nothing else on this connection. Node 20's parser rejects
  // some such codings itself, but only after this handler has answered; the close here does not depend
  // on that, so no later request can be read from the body's bytes.
  if (transferEncoding !== undefined && !/(?:^|,)[ \t]*chunked[ \t]*$/i.test(transferEncoding))
    return UNFRAMED_BODY_TEXT;
  return undefined;
}
