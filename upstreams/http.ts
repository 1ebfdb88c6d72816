// One GET with a User-Agent, a deadline that covers every retry and the reading of the body, a cap on
// the size of the answer, no redirects, and a small bounded retry (the only one: nothing else wraps it,
// so retries never stack). Failures become UpstreamErrors that say what and why.
import { UpstreamError, type UpstreamName } from '../lib/errors.ts';
import { BodyTooLarge, readCapped } from '../lib/capped-body.ts';
import { fetchTransport, type Transport, type TransportAnswer } from './transport.ts';

export interface HttpOptions {
  userAgent: string;
  /** Deadline for the whole request, retries and reading the body included (UPSTREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** How requests reach the upstreams; `fetch` unless the program gives its runtime's (node-transport.ts). */
  transport?: Transport;
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

const RETRY_LIMIT = 2;
const STOPPED = 'the program is stopping';
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

/** RFC 9110 statuses worth asking again: the upstream may answer the same request a moment later. */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Of those, the ones whose Retry-After says how long to wait (RFC 9110 §10.2.3). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
/** The wait before retry n (0-based) without a Retry-After: 300 ms, then 600 ms, never over a second. */
const backoffMs = (attempt: number) => Math.min(1000, 300 * 2 ** attempt);

/**
 * A GET client for one upstream: the rules of every request (User-Agent and other headers, a deadline
 * over the retries and the body, at most RETRY_LIMIT retries of a dropped connection or a retryable
 * status, a wait that never outlasts the deadline, no redirects, capped bodies) over the runtime's
 * transport (upstreams/transport.ts). Written here rather than taken from an HTTP client library: on the
 * gateway's market route the ticker is fetched for every request, and a library's per-request objects
 * were a third of what the route added over the provider (docs/performance.md).
 */
export function upstreamClient(
  upstream: UpstreamName,
  options: HttpOptions & { headers?: Record<string, string> },
): UpstreamGet {
  const transport = options.transport ?? fetchTransport;
  const headers = { 'user-agent': options.userAgent, ...options.headers };
  const { timeoutMs, signal: lifetime } = options;
  return async (url, get) => {
    if (lifetime?.aborted) throw new UpstreamError(upstream, `GET ${url} not sent: ${STOPPED}`);
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
    try {
      return await exchange(url, get, deadline.signal, Date.now() + timeoutMs);
    } catch (error) {
      // The deadline's signal fired for the program's end, not for time: say so.
      if (lifetime?.aborted) throw new UpstreamError(upstream, `GET ${url} abandoned: ${STOPPED}`, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      lifetime?.removeEventListener('abort', stop);
    }
  };

  async function exchange(url: string, get: GetOptions, signal: AbortSignal, deadlineMs: number): Promise<unknown> {
    const what = `GET ${url}`;
    const timedOut = (cause: unknown) =>
      new UpstreamError(upstream, `${what} timed out after ${timeoutMs} ms`, { cause });
    for (let attempt = 0; ; attempt++) {
      let answer: TransportAnswer;
      try {
        answer = await transport(url, headers, signal);
      } catch (error) {
        if (signal.aborted || isAbort(error)) throw timedOut(error);
        const wait = backoffMs(attempt);
        if (attempt < RETRY_LIMIT && Date.now() + wait < deadlineMs) {
          await pause(wait, signal).catch((cause: unknown) => {
            throw timedOut(cause);
          });
          continue;
        }
        throw new UpstreamError(upstream, `${what} failed: ${reasonOf(error)}`, { cause: error });
      }
      const { status } = answer;
      if (status >= 200 && status < 300) {
        const body = await readBody(upstream, what, answer, { maxBytes: get.maxBytes, signal, timeoutMs });
        const text = utf8.decode(body);
        if (get.as === 'text') return text;
        try {
          return JSON.parse(text) as unknown;
        } catch (error) {
          throw new UpstreamError(upstream, `${what}: answer is not JSON`, { cause: error, status });
        }
      }
      const redirected = redirectReason(what, status, answer.header('location'));
      if (redirected !== undefined) {
        answer.discard();
        throw new UpstreamError(upstream, redirected, { status });
      }
      const retryAfter = retryAfterMs(answer.header('retry-after'));
      const message = await errorMessage(answer);
      if (signal.aborted) throw timedOut(signal.reason);
      if (attempt < RETRY_LIMIT && RETRY_STATUSES.has(status)) {
        const wait = retryAfter !== undefined && RETRY_AFTER_STATUSES.has(status) ? retryAfter : backoffMs(attempt);
        // A wait past the deadline would end in a timeout: the answer we have says more, now.
        if (Date.now() + wait < deadlineMs) {
          await pause(wait, signal).catch((cause: unknown) => {
            throw timedOut(cause);
          });
          continue;
        }
      }
      throw new UpstreamError(upstream, `${what} answered ${status}${message}`, { status, retryAfterMs: retryAfter });
    }
  }
}

/** The `message` of an error answer's (capped) JSON body, as ": <text>", or nothing. */
async function errorMessage(answer: TransportAnswer): Promise<string> {
  let body: Uint8Array;
  try {
    body = await answer.read(MAX_ERROR_BODY_BYTES);
  } catch {
    return ''; // too large, or cut off: the status says enough
  }
  try {
    const parsed = JSON.parse(utf8.decode(body)) as { message?: unknown } | null;
    return typeof parsed?.message === 'string' ? `: ${parsed.message.slice(0, 200)}` : '';
  } catch {
    return ''; // not JSON
  }
}

/** Resolves after `ms`, or rejects with the signal's reason once it fires. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      signal.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/** Why a connection gave no answer: fetch keeps the reason (ECONNREFUSED, a reset) in `cause`. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
}

/**
 * The body of an answer, given up as soon as it passes `maxBytes` (or announces more with
 * Content-Length), so a huge or endless answer costs at most that much memory. A body still arriving
 * when `signal` fires is a timeout, like a slow answer.
 */
export async function readBody(
  upstream: UpstreamName,
  what: string,
  answer: Pick<TransportAnswer, 'read' | 'status'>,
  limits: { maxBytes: number; signal?: AbortSignal | null; timeoutMs: number },
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await answer.read(limits.maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      throw new UpstreamError(upstream, `${what}: answer larger than ${limits.maxBytes} bytes`, {
        cause: error,
        status: answer.status,
      });
    }
    if (limits.signal?.aborted || isAbort(error)) {
      throw new UpstreamError(upstream, `${what} timed out after ${limits.timeoutMs} ms`, { cause: error });
    }
    throw new UpstreamError(upstream, `${what}: body could not be read`, { cause: error, status: answer.status });
  }
}

/** The signal's TimeoutError and an AbortError both say the deadline passed. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** RFC 9110 §15.4: 301, 302, 303, 307 and 308 carry a Location to follow; we never follow it. */
export function redirectReason(what: string, status: number, location: string | null): string | undefined {
  if (status < 300 || status > 399 || status === 304) return undefined;
  return `${what} redirected (${status}) to ${location === null ? 'no Location' : location.slice(0, 200)}; redirects are not followed`;
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
    const redirected = redirectReason(what, response.status, response.headers.get('location'));
    if (redirected !== undefined) {
      void response.body?.cancel().catch(() => undefined);
      throw new UpstreamError(upstream, redirected, { status: response.status });
    }
    const answer = { status: response.status, read: (maxBytes: number) => readCapped(response, maxBytes) };
    return rebuilt(response, await readBody(upstream, what, answer, { ...limits, signal: init?.signal }));
  };
}

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
