// The path of a request target, and its safe percent-decoding. The gateway serves only paths that are
// keys of tables built at start, so decoding never reaches the file system; these rules make sure an
// encoded form cannot name something the plain form could not (RFC 3986 §2.2, §3.3, §6.2.2).
import { API_INDEX } from '../../../builders/contract/service.ts';

const API_PREFIX = `${API_INDEX.path}/`;

/** Longer paths are not looked up at all: nothing in the tables is this long. */
export const MAX_PATH_LENGTH = 2048;

/** `http://authority` or `https://authority` at the start of an absolute-form target. */
const ABSOLUTE_FORM_PREFIX = /^https?:\/\/[^/?#]*/i;

/**
 * The path of a request target, without its query. An absolute-form target (RFC 9112 §3.2.2: a server
 * MUST accept it) is reduced to its path; its authority is ignored, like the Host header, because the
 * gateway serves one site whatever name it is reached by.
 */
export function rawPath(target: string): string {
  // The origin form ("/path?query") is nearly every request: no pattern needed for it.
  if (target.charCodeAt(0) === 0x2f /* "/" */) {
    const q = target.indexOf('?');
    return q < 0 ? target : target.slice(0, q);
  }
  const authority = ABSOLUTE_FORM_PREFIX.exec(target);
  let path = authority ? target.slice(authority[0].length) : target;
  if (authority && !path.startsWith('/')) path = `/${path}`;
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

/** A "." or ".." segment, `%2e` being the "." it encodes (RFC 3986 §6.2.2.2; WHATWG URL reads it so too). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/** Whether a raw path holds a "." or ".." segment (removeDotSegments would change it). */
export function hasDotSegment(raw: string): boolean {
  return DOT_SEGMENT.test(raw);
}

/**
 * RFC 3986 §5.2.4, remove_dot_segments, on an absolute path: "." segments go, ".." takes the segment
 * before it away (never above the root), so `/api/v1/./x` is `/api/v1/x` and `/a/../b` is `/b`. A
 * Worker's URL parser does the same before the Worker sees the request, so both runtimes answer one path
 * the same way. Safe for every table: the result is only ever looked up, never opened, and the tables hold
 * no dot-file a plain path could not name.
 */
export function removeDotSegments(raw: string): string {
  const segments = raw.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    if (/^(?:\.|%2e)$/i.test(segment)) {
      if (last) out.push('');
    } else if (/^(?:\.|%2e){2}$/i.test(segment)) {
      out.pop();
      if (last) out.push('');
    } else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * Percent-decodes a path after removing its dot segments (removeDotSegments), or returns null when it is
 * not a path the gateway would ever serve: malformed escapes, an encoded "/" or "\" (a separator hidden
 * from the router), NUL or other control characters, and backslashes.
 */
export function decodePath(raw: string): string | null {
  if (raw.length > MAX_PATH_LENGTH || raw.charCodeAt(0) !== 0x2f /* "/" */) return null;
  if (/%(?:2f|5c)/i.test(raw)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(hasDotSegment(raw) ? removeDotSegments(raw) : raw);
  } catch {
    return null; // malformed percent-encoding or invalid UTF-8
  }
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return null;
  // Never true once the dot segments are gone (an encoded "/" is refused above): kept as the last guard.
  if (/(?:^|\/)\.{1,2}(?:\/|$)/.test(decoded)) return null;
  return decoded;
}

/** True for "/api" and every path below it: their misses are API problems, not the site's 404 page. */
export function isApiPath(path: string): boolean {
  return path === API_INDEX.path || path.startsWith(API_PREFIX);
}
