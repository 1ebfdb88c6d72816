// One resource body prepared once: its bytes, a gzip and a brotli copy when they are smaller, and a
// strong ETag per copy. Static files and the cached contribution calendar are both served from these.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { acceptedCodings, type Coding } from './content-coding.ts';
import { isCompressible } from './content-type.ts';

export interface Variant {
  coding: Coding;
  body: Buffer;
  /**
   * Strong validator (RFC 9110 §8.8.1): a strong ETag names exact bytes, so each content coding
   * gets its own ("…-br", "…-gz"), or a cache could pair one coding's validator with another's bytes.
   */
  etag: string;
}

export interface Representation<V extends Variant = Variant> {
  contentType: string;
  identity: V;
  br: V | undefined;
  gzip: V | undefined;
  /** True when the choice depends on Accept-Encoding, so responses carry Vary: Accept-Encoding. */
  varies: boolean;
}

export interface PrepareOptions {
  /** Brotli quality. Default 10 (6 past 1 MB) for the dist/ files, compressed once when the gateway starts; lower for data refreshed while serving. */
  brotliQuality?: number;
}

export function prepare(body: Buffer, contentType: string, options: PrepareOptions = {}): Representation {
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const identity: Variant = { coding: 'identity', body, etag: `"${tag}"` };
  let br: Variant | undefined;
  let gzip: Variant | undefined;
  // Tiny bodies fit in one packet either way; compression would only cost the client CPU.
  if (isCompressible(contentType) && body.length >= 256) {
    // Quality 10 rather than 11: measured on this site, about 3 % larger and a third of the time, and the
    // compression of every dist/ file happens before the port opens (half of the start time at 11).
    const quality = options.brotliQuality ?? (body.length > 1_000_000 ? 6 : 10);
    const brBody = brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: quality,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      },
    });
    const gzBody = gzipSync(body, { level: zlib.Z_BEST_COMPRESSION });
    if (brBody.length < body.length) br = { coding: 'br', body: brBody, etag: `"${tag}-br"` };
    if (gzBody.length < body.length) gzip = { coding: 'gzip', body: gzBody, etag: `"${tag}-gz"` };
  }
  return { contentType, identity, br, gzip, varies: br !== undefined || gzip !== undefined };
}

/** The best copy the client accepts. */
export function choose<V extends Variant>(rep: Representation<V>, acceptEncoding: string | undefined): V {
  if (!rep.varies) return rep.identity;
  for (const coding of acceptedCodings(acceptEncoding)) {
    const v = coding === 'br' ? rep.br : coding === 'gzip' ? rep.gzip : rep.identity;
    if (v !== undefined) return v;
  }
  return rep.identity;
}

/**
 * If-None-Match (RFC 9110 §13.1.2): "A recipient MUST use the weak comparison function when comparing
 * entity tags for If-None-Match", so a W/ prefix is ignored; "*" matches any current representation.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag || header === '*') return true;
  for (const part of header.split(',')) {
    let t = part.trim();
    if (t.startsWith('W/')) t = t.slice(2);
    if (t === etag || t === '*') return true;
  }
  return false;
}

/** Headers shared by every 200 of a variant, as a flat [name, value, …] list for res.writeHead. */
export function variantHeaders(
  rep: Representation,
  v: Variant,
  cacheControl: string,
  extra: readonly string[] = [],
): string[] {
  const h = [
    'Content-Type',
    rep.contentType,
    'Content-Length',
    String(v.body.length),
    'ETag',
    v.etag,
    'Cache-Control',
    cacheControl,
  ];
  if (rep.varies) h.push('Vary', 'Accept-Encoding');
  if (v.coding !== 'identity') h.push('Content-Encoding', v.coding);
  h.push(...extra);
  return h;
}

/**
 * RFC 9110 §15.4.5: a 304 carries the header fields "that would have been sent in a 200 (OK) response
 * to the same request: Content-Location, Date, ETag, and Vary; Cache-Control and Expires".
 */
export function notModifiedHeaders(
  rep: Representation,
  v: Variant,
  cacheControl: string,
  extra: readonly string[] = [],
): string[] {
  const h = ['ETag', v.etag, 'Cache-Control', cacheControl];
  if (rep.varies) h.push('Vary', 'Accept-Encoding');
  h.push(...extra);
  return h;
}
