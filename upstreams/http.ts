// One GET with a User-Agent, a deadline that covers every retry and the reading of the body, a cap on
// the size of the answer, no redirects, and a small bounded retry (ky's own; nothing else wraps it, so
// retries never stack). Failures become UpstreamErrors that say what and why.
import type { KyInstance } from 'ky';
import { UpstreamError, type UpstreamName } from '../lib/errors.ts';
import { BodyTooLarge, readCapped } from '../lib/capped-body.ts';

export interface HttpOptions {
  userAgent: string;
  /** Deadline for the whole request, retries and reading the body included (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
}

export function userAgent(siteUrl: string): string {
  return `public-data-preview/1.0 (+${siteUrl})`;
}

const RETRY_LIMIT = 2;
/** An error answer is read only for its `message`; a few KiB is plenty. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The longest wait an upstream's Retry-After can impose: the market route stops asking the provider until
 * then, so a broken or hostile value (years ahead) must not silence it until the process restarts.
 */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** Retry-After as milliseconds (RFC 9110: delay-seconds or an HTTP-date), at most an hour, or undefined. */
export function retryAfterMs(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Math.min(MAX_RETRY_AFTER_MS, Number(value.trim()) * 1000);
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - nowMs)) : undefined;
}

export interface GetOptions {
  as: 'json' | 'text';
  /** The largest answer accepted; more is an UpstreamError, read no further. */
  maxBytes: number;
}

/** One GET of `url` from an upstream client; the answer parsed as JSON or returned as text. */
export type UpstreamGet = (url: string, options: GetOptions) => Promise<unknown>;

const utf8 = new TextDecoder();

/**
 * ky, loaded when an upstream is first asked rather than at start: evaluating it builds a web Request to
 * test the runtime, which loads node's undici whole, a large part of the gateway's start
 * (docs/performance.md#what-changed-in-the-core-round-issue-34).
 */
let kyModule: Promise<typeof import('ky')> | undefined;
const loadKy = () => (kyModule ??= import('ky'));

/**
 * A GET client for one upstream. Everything that does not change between requests (the User-Agent and
 * other headers, the retry policy, the redirect refusal) is merged into a ky instance once, at the first; a
 * request adds only its URL and its deadline. The gateway asks the market provider for the ticker on
 * every request, so the per-request work is part of the market route's latency.
 */
export function upstreamClient(
  upstream: UpstreamName,
  options: HttpOptions & { headers?: Record<string, string> },
): UpstreamGet {
  const create = ({ default: ky, HTTPError }: typeof import('ky')) =>
    ky.create({
      headers: { 'user-agent': options.userAgent, ...options.headers },
      // The deadline is the request's own signal (below), which covers the retries and the body too; ky's
      // timeout would add a timer, a controller and a race per request to the market route's latency.
      timeout: false,
      // The upstreams are fixed origins; a redirect elsewhere is an answer we do not follow (a 3xx
      // is not ok, so ky raises it as an HTTPError, described below).
      redirect: 'manual',
      // ky reads an error answer's body into HTTPError.data itself, up to 10 MiB; ours is read for its
      // `message` only, so it is cut to a few KiB before ky sees it.
      fetch: errorBodiesCapped,
      retry: {
        limit: RETRY_LIMIT,
        methods: ['get'],
        statusCodes: [408, 429, 500, 502, 503, 504],
        afterStatusCodes: [429, 503],
        backoffLimit: 1000,
        // Honour Retry-After only while it fits the deadline; past it, fail now rather than time out later.
        shouldRetry: ({ error }) => {
          if (!(error instanceof HTTPError)) return undefined;
          const wait = retryAfterMs(error.response.headers.get('retry-after'));
          const deadlineMs = error.options.context.deadlineMs as number;
          return wait !== undefined && Date.now() + wait >= deadlineMs ? false : undefined;
        },
      },
    });
  let client: Promise<KyInstance> | undefined;
  return async (url, get) => {
    // Loaded before the deadline starts: the first request must not spend its time loading modules.
    client ??= loadKy().then(create);
    const ky = await client;
    // The request's own deadline travels in ky's context, where the retry policy reads it.
    const deadlineMs = Date.now() + options.timeoutMs;
    // One signal for the whole exchange: it aborts the connection, the retries and the body stream alike.
    const signal = AbortSignal.timeout(options.timeoutMs);
    const what = `GET ${url}`;
    let response: Response;
    try {
      response = await ky.get(url, { signal, context: { deadlineMs } });
    } catch (error) {
      throw describeFailure(upstream, what, error, options.timeoutMs, await loadKy());
    }
    const body = await readBody(upstream, what, response, {
      maxBytes: get.maxBytes,
      signal,
      timeoutMs: options.timeoutMs,
    });
    const text = utf8.decode(body);
    if (get.as === 'text') return text;
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new UpstreamError(upstream, `${what}: answer is not JSON`, { cause: error, status: response.status });
    }
  };
}

/**
 * The body of `response`, read as a stream and given up as soon as it passes `maxBytes` (or announces
 * more with Content-Length), so a huge or endless answer costs at most that much memory. A body still
 * arriving when `signal` fires is a timeout, like a slow answer.
 */
export async function readBody(
  upstream: UpstreamName,
  what: string,
  response: Response,
  limits: { maxBytes: number; signal?: AbortSignal | null; timeoutMs: number },
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await readCapped(response, limits.maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      throw new UpstreamError(upstream, `${what}: answer larger than ${limits.maxBytes} bytes`, {
        cause: error,
        status: response.status,
      });
    }
    if (limits.signal?.aborted || isAbort(error)) {
      throw new UpstreamError(upstream, `${what} timed out after ${limits.timeoutMs} ms`, { cause: error });
    }
    throw new UpstreamError(upstream, `${what}: body could not be read`, { cause: error, status: response.status });
  }
}

/** ky's TimeoutError, the signal's TimeoutError and an AbortError all say the deadline passed. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** RFC 9110 §15.4: 301, 302, 303, 307 and 308 carry a Location to follow; we never follow it. */
export function redirectReason(what: string, response: Response): string | undefined {
  if (response.status < 300 || response.status > 399 || response.status === 304) return undefined;
  const location = response.headers.get('location');
  return `${what} redirected (${response.status}) to ${location === null ? 'no Location' : location.slice(0, 200)}; redirects are not followed`;
}

/**
 * A fetch for clients that read the body themselves (@octokit/graphql): redirects are refused and the
 * body is read here, capped and under the request's own signal, then handed over from memory.
 */
export function guardedFetch(upstream: UpstreamName, limits: { maxBytes: number; timeoutMs: number }): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const what = `${request.method} ${new URL(request.url).pathname}`;
    const response = await fetch(request, { redirect: 'manual' });
    const redirected = redirectReason(what, response);
    if (redirected !== undefined) {
      void response.body?.cancel().catch(() => undefined);
      throw new UpstreamError(upstream, redirected, { status: response.status });
    }
    return rebuilt(response, await readBody(upstream, what, response, { ...limits, signal: init?.signal }));
  };
}

/**
 * fetch, with the body of an answer that is not ok cut to MAX_ERROR_BODY_BYTES: a larger one is
 * dropped (the status says enough), so what ky reads into HTTPError.data is small whatever was sent.
 */
const errorBodiesCapped: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (response.ok || response.body === null) return response;
  let body: Uint8Array<ArrayBuffer> | null = null;
  try {
    body = await readCapped(response, MAX_ERROR_BODY_BYTES);
  } catch {
    // too large, or cut off: no message to show
  }
  return rebuilt(response, body);
};

/** `response` with `body` read into memory (none for the null-body statuses 204, 205 and 304). */
function rebuilt(response: Response, body: Uint8Array<ArrayBuffer> | null): Response {
  // Fetch: 204, 205 and 304 are null-body statuses; a Response with one cannot carry a body.
  const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
  return new Response(nullBody ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function describeFailure(
  upstream: UpstreamName,
  what: string,
  error: unknown,
  timeoutMs: number,
  { HTTPError }: typeof import('ky'),
): UpstreamError {
  if (error instanceof HTTPError) {
    const { response } = error;
    const status = response.status;
    const redirected = redirectReason(what, response);
    if (redirected !== undefined) {
      void response.body?.cancel().catch(() => undefined);
      return new UpstreamError(upstream, redirected, { cause: error, status });
    }
    // ky has read the (capped) body: parsed when it was labelled JSON, as text otherwise.
    let message = '';
    try {
      const body = (typeof error.data === 'string' ? JSON.parse(error.data) : error.data) as { message?: unknown };
      if (typeof body?.message === 'string') message = `: ${body.message.slice(0, 200)}`;
    } catch {
      // not a (small) JSON error body; the status says enough
    }
    const retryAfter = retryAfterMs(response.headers.get('retry-after'));
    return new UpstreamError(upstream, `${what} answered ${status}${message}`, {
      cause: error,
      status,
      retryAfterMs: retryAfter,
    });
  }
  if (isAbort(error)) {
    return new UpstreamError(upstream, `${what} timed out after ${timeoutMs} ms`, { cause: error });
  }
  const reason =
    error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
  return new UpstreamError(upstream, `${what} failed: ${reason}`, { cause: error });
}
