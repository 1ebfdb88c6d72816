// One GET with a User-Agent, a deadline that covers every retry and the reading of the body, a cap on
// the size of the answer, no redirects, and a small bounded retry (nothing else wraps it, so retries
// never stack), over pooled keep-alive connections. Failures become UpstreamErrors that say what and why.
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { UpstreamError, type UpstreamName } from '../errors.ts';
import { BodyTooLarge, readCapped } from '../capped-body.ts';

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

/** Retry-After as milliseconds (RFC 9110: delay-seconds or an HTTP-date), or undefined. */
export function retryAfterMs(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/**
 * Keep-alive pools made once, one per scheme: every upstream GET reuses an open connection to the
 * provider instead of paying a TCP (and TLS) handshake. node:http rather than fetch: measured on the
 * market route, fetch and ky cost about twice the CPU of a node:http request per call, and the ticker
 * is fetched for every request. Idle connections are closed after `timeout`; pooled sockets do not keep
 * a finished program (the build) alive.
 */
const AGENT_OPTIONS = {
  keepAlive: true,
  maxSockets: 32,
  maxFreeSockets: 8,
  timeout: 15_000,
  scheduling: 'lifo',
} as const;
const AGENTS = { 'http:': new HttpAgent(AGENT_OPTIONS), 'https:': new HttpsAgent(AGENT_OPTIONS) };

/** Statuses worth asking again (ky's defaults), and those whose Retry-After says when. */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const RETRY_AFTER_STATUSES = new Set([429, 503]);
/** Exponential backoff between attempts: 300 ms, 600 ms, … at most 1 s. */
const backoffMs = (attempt: number) => Math.min(1000, 0.3 * 2 ** (attempt - 1) * 1000);

/** The deadline of one exchange fired: whatever was in progress is abandoned. */
class DeadlinePassed extends Error {
  override readonly name = 'DeadlinePassed';
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export async function httpGet(
  upstream: UpstreamName,
  url: string,
  options: HttpOptions & { headers?: Record<string, string>; as: 'json' | 'text'; maxBytes: number },
): Promise<unknown> {
  const what = `GET ${url}`;
  const target = new URL(url);
  const agent = AGENTS[target.protocol as keyof typeof AGENTS];
  if (agent === undefined) throw new UpstreamError(upstream, `${what}: only http and https are supported`);
  const headers = { 'user-agent': options.userAgent, ...options.headers };
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const timedOut = (cause?: unknown) =>
    new UpstreamError(upstream, `${what} timed out after ${options.timeoutMs} ms`, { cause });

  // One timer for the whole exchange: it ends the request, the body and the waits between retries alike.
  let expire: ((error: DeadlinePassed) => void) | undefined;
  const expiry = new Promise<never>((_, reject) => (expire = reject));
  expiry.catch(() => undefined);
  const timer = setTimeout(() => expire!(new DeadlinePassed()), options.timeoutMs);
  const beforeDeadline = <T>(work: Promise<T>) => Promise.race([work, expiry]);

  try {
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        answer = await beforeDeadline(exchange(target, agent, headers, options.maxBytes, expiry));
      } catch (error) {
        if (error instanceof DeadlinePassed) throw timedOut(error);
        if (error instanceof BodyTooLarge)
          throw new UpstreamError(upstream, `${what}: answer larger than ${options.maxBytes} bytes`, { cause: error });
        if (error instanceof BodyUnreadable)
          throw new UpstreamError(upstream, `${what}: body could not be read`, { cause: error, status: error.status });
        // No answer at all (refused, reset, closed): worth another attempt, like a 503.
        if (attempt > RETRY_LIMIT) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new UpstreamError(upstream, `${what} failed: ${reason}`, { cause: error });
        }
        await beforeDeadline(sleep(backoffMs(attempt))).catch((e: unknown) => {
          throw timedOut(e);
        });
        continue;
      }
      const { status } = answer;
      if (status >= 200 && status < 300) return decode(upstream, what, answer, options.as);
      const redirected = redirectMessage(what, status, answer.headers.location);
      if (redirected !== undefined) throw new UpstreamError(upstream, redirected, { status });
      const retryAfterHeader = retryAfterMs(headerValue(answer.headers['retry-after']));
      const failure = new UpstreamError(upstream, `${what} answered ${status}${errorMessage(answer.body)}`, {
        status,
        retryAfterMs: retryAfterHeader,
      });
      if (!RETRY_STATUSES.has(status) || attempt > RETRY_LIMIT) throw failure;
      const retryAfter = RETRY_AFTER_STATUSES.has(status) ? retryAfterHeader : undefined;
      // Honour Retry-After only while it fits the deadline; past it, fail now rather than time out later.
      if (retryAfter !== undefined && Date.now() + retryAfter >= deadline) throw failure;
      await beforeDeadline(sleep(retryAfter ?? backoffMs(attempt))).catch((e: unknown) => {
        throw timedOut(e);
      });
    }
  } finally {
    clearTimeout(timer);
  }
}

/** One request and its answer. A 2xx body is read up to `maxBytes`; an error body up to a few KiB, for its message. */
function exchange(
  target: URL,
  agent: HttpAgent,
  headers: Record<string, string>,
  maxBytes: number,
  expiry: Promise<never>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { agent, headers }, (res) => {
      const status = res.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      readCappedStream(res, ok ? maxBytes : MAX_ERROR_BODY_BYTES).then(
        (body) => resolve({ status, headers: res.headers, body }),
        (error: unknown) => {
          // Only the answer's own body is capped and refused; an error body past its cap just has no message.
          if (!ok && error instanceof BodyTooLarge) resolve({ status, headers: res.headers, body: Buffer.alloc(0) });
          else reject(error instanceof BodyTooLarge ? error : new BodyUnreadable(status, { cause: error }));
        },
      );
    });
    req.once('error', reject);
    // When the deadline passes, nothing of this exchange is wanted any more: drop its connection.
    expiry.catch(() => req.destroy());
    req.end();
  });
}

class BodyUnreadable extends Error {
  override readonly name = 'BodyUnreadable';
  constructor(
    readonly status: number,
    options: ErrorOptions,
  ) {
    super('body could not be read', options);
  }
}

/**
 * A body read without trusting its size: refused up front when Content-Length announces more than
 * `maxBytes`, given up (and its connection dropped) as soon as more arrives.
 */
export async function readCappedStream(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = res.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    res.destroy();
    throw new BodyTooLarge(`Content-Length ${declared}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      res.destroy();
      throw new BodyTooLarge(`more than ${maxBytes} bytes received`);
    }
    chunks.push(chunk);
  }
  // An answer cut short (the connection closed before Content-Length bytes) is not a body.
  if (!res.complete) throw new Error('the connection closed before the answer was complete');
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

function decode(upstream: UpstreamName, what: string, answer: Answer, as: 'json' | 'text'): unknown {
  const text = UTF8.decode(answer.body);
  if (as === 'text') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UpstreamError(upstream, `${what}: answer is not JSON`, { cause: error, status: answer.status });
  }
}

/** The provider's own `{"message": …}` of an error answer, as ": message", or nothing. */
function errorMessage(body: Buffer): string {
  try {
    const parsed = JSON.parse(UTF8.decode(body)) as { message?: unknown };
    return typeof parsed?.message === 'string' ? `: ${parsed.message.slice(0, 200)}` : '';
  } catch {
    return ''; // not a (small) JSON error body; the status says enough
  }
}

const headerValue = (value: string | string[] | undefined) =>
  value === undefined ? null : Array.isArray(value) ? (value[0] ?? null) : value;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Made once: a decoder per answer was a measurable share of the market route. */
const UTF8 = new TextDecoder();

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

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/** RFC 9110 §15.4: 301, 302, 303, 307 and 308 carry a Location to follow; we never follow it. */
export function redirectReason(what: string, response: Response): string | undefined {
  return redirectMessage(what, response.status, response.headers.get('location') ?? undefined);
}

function redirectMessage(what: string, status: number, location: string | undefined): string | undefined {
  if (status < 300 || status > 399 || status === 304) return undefined;
  return `${what} redirected (${status}) to ${location === undefined ? 'no Location' : location.slice(0, 200)}; redirects are not followed`;
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
    const body = await readBody(upstream, what, response, { ...limits, signal: init?.signal });
    // Fetch: 204, 205 and 304 are null-body statuses; a Response with one cannot carry a body.
    const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
    return new Response(nullBody ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
