// One GET with a User-Agent, a deadline that covers every retry and the reading of the body, a cap on
// the size of the answer, no redirects, and a small bounded retry (ky's own; nothing else wraps it, so
// retries never stack). Failures become UpstreamErrors that say what and why. The same code runs on
// Node (the build, the gateway) and in the Worker: ky over the runtime's `fetch`, which pools keep-alive
// connections and decodes gzip, deflate and br itself.
import type { KyInstance, Options as KyOptions } from 'ky';
import type { Config } from '../lib/config.ts';
import { UpstreamError, type UpstreamName } from '../lib/errors.ts';
import { BodyTooLarge, readCapped } from '../lib/capped-body.ts';

export interface HttpOptions {
  userAgent: string;
  /** Deadline for the whole request, retries and reading the body included (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /**
   * The program's lifetime: once it fires, every exchange still running (a retry's wait, a body still
   * arriving) ends at once and none starts. A closing gateway's answers are all sent by then; what runs
   * on is a request nobody waits for (the ticker's half of a market fetch whose candles failed), and it
   * must not keep asking someone else's server after the program has stopped.
   */
  signal?: AbortSignal;
}

export function userAgent(siteUrl: string): string {
  return `public-data-preview/1.0 (+${siteUrl})`;
}

/** Retries of a failed request, within its deadline: ky's for every GET, p-retry's for a GraphQL query. */
export const RETRY_LIMIT = 2;
const STOPPED = 'the program is stopping';
/** An error answer is read only for its `message`; a few KiB is plenty. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The rules of every upstream request of a program, from its configuration; `signal`: the program's lifetime. */
export function httpOptions(config: Config, signal?: AbortSignal): HttpOptions {
  return { userAgent: userAgent(config.siteUrl), timeoutMs: config.upstreamTimeoutMs, signal };
}

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

/** RFC 9110 statuses worth asking again: the upstream may answer the same request a moment later. */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
/** Of those, the ones whose Retry-After says how long to wait (RFC 9110 §10.2.3). */
const RETRY_AFTER_STATUSES = [429, 503];
/** The wait before retry n (1-based) without a Retry-After: 300 ms, then 600 ms, never over a second. */
export const BACKOFF_LIMIT_MS = 1000;
export const BACKOFF_FIRST_MS = 300;
const backoffMs = (retry: number) => Math.min(BACKOFF_LIMIT_MS, BACKOFF_FIRST_MS * 2 ** (retry - 1));

/**
 * ky, loaded when an upstream is first asked rather than at start: evaluating it builds a web Request to
 * test the runtime, which loads Node's undici whole, a large part of the gateway's start
 * (docs/performance.md#what-changed-in-the-core-round-issue-34).
 */
let kyModule: Promise<typeof import('ky')> | undefined;
const loadKy = () => (kyModule ??= import('ky'));

/**
 * A GET client for one upstream: ky with the rules of every request (User-Agent and other headers, at
 * most RETRY_LIMIT retries of a dropped connection or a retryable status, Retry-After honoured, a wait
 * that never outlasts the deadline, no redirects, capped bodies) merged into one instance at the first
 * request; a request adds only its URL, its signal and its retry decision.
 */
export function upstreamClient(
  upstream: UpstreamName,
  options: HttpOptions & { headers?: Record<string, string> },
): UpstreamGet {
  const { timeoutMs, signal: lifetime } = options;
  const create = ({ default: ky }: typeof import('ky')) =>
    ky.create({
      headers: { 'user-agent': options.userAgent, ...options.headers },
      // The deadline is the request's own signal (below), which covers the retries and the body too.
      timeout: false,
      // The upstreams are fixed origins; a redirect elsewhere is an answer we do not follow (a 3xx is
      // not ok, so ky raises it as an HTTPError, described below).
      redirect: 'manual',
      // ky reads an error answer's body into HTTPError.data itself, up to 10 MiB; ours is read for its
      // `message` only, so it is cut to a few KiB before ky sees it.
      fetch: errorBodiesCapped,
      retry: {
        limit: RETRY_LIMIT,
        methods: ['get'],
        statusCodes: RETRY_STATUSES,
        afterStatusCodes: RETRY_AFTER_STATUSES,
        maxRetryAfter: MAX_RETRY_AFTER_MS,
        backoffLimit: BACKOFF_LIMIT_MS,
      },
    });
  let client: Promise<KyInstance> | undefined;
  /** The client and ky's module once loaded: later requests take them without waiting a turn. */
  let loaded: { ky: KyInstance; kyErrors: typeof import('ky') } | undefined;
  return async (url, get) => {
    if (lifetime?.aborted) throw new UpstreamError(upstream, `GET ${url} not sent: ${STOPPED}`);
    // Loaded before the deadline starts: the first request must not spend its time loading modules.
    if (loaded === undefined) {
      client ??= loadKy().then(create);
      const [ky, kyErrors] = await Promise.all([client, loadKy()]);
      loaded ??= { ky, kyErrors };
      // The program may have begun to stop while ky loaded.
      if (lifetime?.aborted) throw new UpstreamError(upstream, `GET ${url} not sent: ${STOPPED}`);
    }
    const { ky, kyErrors } = loaded;
    const what = `GET ${url}`;
    const deadlineMs = performance.now() + timeoutMs;
    // One signal for the whole exchange: it aborts the connection, the waits and the body alike. Its
    // timer is a strong one of our own, cleared when the exchange ends: AbortSignal.timeout() holds its
    // signal only weakly, and once nothing else reaches the signal (a body still arriving with no
    // listener left on it) garbage collection may take it, and the deadline never fires.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException(`The deadline of ${timeoutMs} ms passed`, 'TimeoutError')),
      timeoutMs,
    );
    const stop = () => deadline.abort(lifetime!.reason);
    lifetime?.addEventListener('abort', stop, { once: true });
    const { signal } = deadline;
    try {
      let response: Response;
      try {
        response = await ky.get(url, { signal, retry: { shouldRetry: withinDeadline(deadlineMs, kyErrors) } });
      } catch (error) {
        throw describeFailure(upstream, what, error, timeoutMs, signal, kyErrors);
      }
      const body = await readBody(upstream, what, response, { maxBytes: get.maxBytes, signal, timeoutMs });
      const text = utf8.decode(body);
      if (get.as === 'text') return text;
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        throw new UpstreamError(upstream, `${what}: answer is not JSON`, { cause: error, status: response.status });
      }
    } catch (error) {
      // The deadline's signal fired for the program's end, not for time: say so.
      if (lifetime?.aborted) throw new UpstreamError(upstream, `${what} abandoned: ${STOPPED}`, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      lifetime?.removeEventListener('abort', stop);
    }
  };
}

/**
 * ky's retry decision, narrowed by the deadline: a retry whose wait (Retry-After on a 429 or 503, the
 * backoff otherwise) would end past it is not made, and the answer that asked for it is the error now,
 * rather than a timeout later. Anything else is ky's default (the statuses above, a dropped connection).
 */
function withinDeadline(deadlineMs: number, { isHTTPError }: typeof import('ky')) {
  return ({ error, retryCount }: { error: Error; retryCount: number }): boolean | undefined => {
    let wait = backoffMs(retryCount);
    if (isHTTPError(error) && RETRY_AFTER_STATUSES.includes(error.response.status)) {
      wait = retryAfterMs(error.response.headers.get('retry-after')) ?? wait;
    }
    return performance.now() + wait >= deadlineMs ? false : undefined;
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
    return await readCapped(response, limits.maxBytes, limits.signal);
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
const errorBodiesCapped: NonNullable<KyOptions['fetch']> = async (input, init) => {
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

/** What went wrong, as one UpstreamError: the status and the upstream's `message`, a timeout, or why no answer came. */
function describeFailure(
  upstream: UpstreamName,
  what: string,
  error: unknown,
  timeoutMs: number,
  signal: AbortSignal,
  { isHTTPError }: typeof import('ky'),
): UpstreamError {
  if (isHTTPError(error)) {
    const { response } = error;
    const status = response.status;
    const redirected = redirectReason(what, response);
    if (redirected !== undefined) return new UpstreamError(upstream, redirected, { cause: error, status });
    // ky has read the (capped) body: parsed when it was labelled JSON, as text otherwise.
    let detail: string | undefined;
    try {
      const body = (typeof error.data === 'string' ? JSON.parse(error.data) : error.data) as { message?: unknown };
      if (typeof body?.message === 'string') detail = body.message.slice(0, 200);
    } catch {
      // not a (small) JSON error body; the status says enough
    }
    return new UpstreamError(upstream, `${what} answered ${status}${detail === undefined ? '' : `: ${detail}`}`, {
      cause: error,
      status,
      detail,
      retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
    });
  }
  if (signal.aborted || isAbort(error)) {
    return new UpstreamError(upstream, `${what} timed out after ${timeoutMs} ms`, { cause: error });
  }
  return new UpstreamError(upstream, `${what} failed: ${reasonOf(error)}`, { cause: error });
}

/** Why a connection gave no answer: fetch keeps the reason (ECONNREFUSED, a reset) in `cause`, and ky's NetworkError keeps fetch's. */
function reasonOf(error: unknown): string {
  let reason = error;
  while (reason instanceof Error && reason.cause instanceof Error) reason = reason.cause;
  return reason instanceof Error ? reason.message : String(reason);
}
