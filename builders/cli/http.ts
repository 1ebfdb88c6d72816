// Reads one public document of the site with Node's global fetch and a deadline; every failure becomes a
// SiteError whose message is one line naming the URL (the edge prints it as is).
import { BodyTooLarge, readCapped } from '../lib/capped-body.ts';
import { SiteError } from './errors.ts';
import { parseJson } from './json-body.ts';
import { printable } from './safe-text.ts';
import { oneLine } from '../lib/text/one-line.ts';

export interface FetchedDocument {
  url: string;
  status: number;
  contentType: string;
  text: string;
}

export interface FetchOptions {
  timeoutMs: number;
  accept: string;
  userAgent: string;
  /** Called once the exchange has waited `waitNoticeMs` without its end: a person is told why nothing shows. */
  onWait?: (url: string) => void;
  waitNoticeMs?: number;
}

/** A wait longer than this is said on stderr (run.ts): a silent site must not leave a terminal silent. */
export const WAIT_NOTICE_MS = 2_000;

/**
 * Far above any document of the site (the writings' feed and the contract are tens of kB); a larger body
 * is not one of them. Bytes only: json-body.ts bounds what parsing them may build.
 */
export const MAX_BODY_BYTES = 8 * 2 ** 20;
/** Enough for http → https and a trailing-slash hop; more is a loop. */
const MAX_REDIRECTS = 5;

export const ACCEPT_JSON =
  'application/json, application/feed+json, application/linkset+json, application/problem+json;q=0.9, */*;q=0.1';

/** `path` is relative to the site root ("profile.json"); `base` ends in "/" (see parseBaseUrl). */
export function documentUrl(base: URL, path: string): string {
  return new URL(path.replace(/^\/+/, ''), base).href;
}

export async function fetchDocument(url: string, options: FetchOptions): Promise<FetchedDocument> {
  const after = options.waitNoticeMs ?? WAIT_NOTICE_MS;
  const notice =
    options.onWait === undefined || options.timeoutMs <= after ? undefined : setTimeout(options.onWait, after, url);
  try {
    return await exchange(url, options);
  } finally {
    clearTimeout(notice);
  }
}

async function exchange(url: string, options: FetchOptions): Promise<FetchedDocument> {
  // One deadline for the whole exchange: connecting, the headers and the body, across redirects.
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    let text: string;
    try {
      // Redirects are followed here, not by fetch: only within the site's origin (or its https upgrade),
      // so a hostile or mistyped --base-url cannot send the CLI to another host or downgrade it to http.
      response = await fetch(current, {
        headers: { accept: options.accept, 'user-agent': options.userAgent },
        signal,
        redirect: 'manual',
      });
      const location = isRedirect(response.status) ? response.headers.get('location') : null;
      if (location !== null) {
        await response.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new SiteError(`${url} redirected more than ${MAX_REDIRECTS} times`);
        current = nextHop(current, location);
        continue;
      }
      text = await readText(response, current);
    } catch (error) {
      if (error instanceof SiteError) throw error;
      throw networkError(current, error, options.timeoutMs);
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok) throw httpError(current, response.status, response.statusText, contentType, text);
    return { url: current, status: response.status, contentType, text };
  }
}

const isRedirect = (status: number) =>
  status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** The target of a redirect, when it stays on the same host: same origin, or http upgraded to https. */
export function nextHop(from: string, location: string): string {
  const origin = new URL(from);
  let target: URL;
  try {
    target = new URL(location, origin);
  } catch {
    throw new SiteError(errorLine(`${from} redirected to an invalid URL`));
  }
  const sameOrigin = target.origin === origin.origin;
  // The usual upgrade: same host, https on its default port (what HSTS and http→https redirects do).
  const upgrade =
    origin.protocol === 'http:' &&
    target.protocol === 'https:' &&
    target.hostname === origin.hostname &&
    target.port === '';
  if (!sameOrigin && !upgrade) {
    const where = target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : target.protocol;
    throw new SiteError(
      errorLine(`${from} redirected to another origin (${where}); to read that site, pass --base-url ${where}`),
    );
  }
  return target.href;
}

/** The body as text, refused past MAX_BODY_BYTES without reading the rest. */
async function readText(response: Response, url: string): Promise<string> {
  try {
    return new TextDecoder().decode(await readCapped(response, MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge)
      throw new SiteError(
        `${url} sent more than the ${MAX_BODY_BYTES} bytes a document of the site can be (${error.message})`,
      );
    throw error;
  }
}

function networkError(url: string, error: unknown, timeoutMs: number): SiteError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new SiteError(`no answer from ${url} within ${formatSeconds(timeoutMs)} (timed out)`);
  }
  // undici reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND...) in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason =
    cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code || cause.name : String(cause);
  return new SiteError(`cannot reach ${url}: ${errorLine(reason)}`);
}

/** An HTTP error, with the RFC 9457 problem's `title` and `detail` when the body is one. */
export function httpError(
  url: string,
  status: number,
  statusText: string,
  contentType: string,
  text: string,
): SiteError {
  const problem = problemOf(contentType, text);
  const head = `${url} answered ${status}`;
  if (problem) {
    // RFC 9457's title and detail, then this service's `resolution`: what to do about it (docs/api.md#errors).
    const parts = [problem.title, problem.detail].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    const resolution = problem.resolution?.trim() ? ` Resolution: ${problem.resolution}` : '';
    return new SiteError(errorLine(`${head}: ${parts.join(': ')}${resolution}`), status);
  }
  return new SiteError(errorLine(`${head}${statusText ? ` ${statusText}` : ''}`), status);
}

interface ProblemSummary {
  title?: string;
  detail?: string;
  resolution?: string;
}

function problemOf(contentType: string, text: string): ProblemSummary | null {
  // RFC 9457 §3: the media type is application/problem+json; some servers send plain JSON with the same members.
  const json = /\bjson\b/i.test(contentType) || /^\s*\{/.test(text);
  if (!json) return null;
  try {
    // Bounded like every JSON the CLI parses (json-body.ts): an error body is no less hostile.
    const body = parseJson(text, 'the problem');
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const { title, detail, resolution } = body as Record<string, unknown>;
    if (typeof title !== 'string' && typeof detail !== 'string') return null;
    return {
      title: typeof title === 'string' ? title : undefined,
      detail: typeof detail === 'string' ? detail : undefined,
      resolution: typeof resolution === 'string' ? resolution : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * Error text on one line: it may quote the site (a problem's title and detail), so terminal escape
 * sequences are removed whole first (safe-text.ts), then builders/lib/text/one-line.ts folds it into one line.
 */
export function errorLine(text: string): string {
  return oneLine(printable(text), 400);
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
