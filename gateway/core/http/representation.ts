// One resource body prepared once: its bytes, a gzip and a brotli copy when they are smaller, and a
// strong ETag per copy. Static files and the cached contribution calendar are both served from these.
// Hashing and compressing are the runtime's (BodyCodec): the core itself imports no runtime module.
import { acceptedCodings, type Coding } from './content-coding.ts';
import { isCompressible } from '../../../builders/contract/content-types.ts';

/** A body's compressed copies, each present only when it is smaller than the body. */
export interface CompressedCopies {
  br: Uint8Array | undefined;
  gzip: Uint8Array | undefined;
}

export interface CompressOptions {
  /** Brotli quality; lower for bodies made while serving. */
  brotliQuality?: number;
}

/** What the runtime does to bytes: Node's crypto and zlib (gateway/http/node-codec.ts), or a Worker's. */
export interface BodyCodec {
  /** The tag of a strong ETag naming exactly these bytes (27 base64url characters of their SHA-256). */
  tag(body: Uint8Array): string;
  /** Both compressed copies of a body; absent where the runtime makes none (only given copies are served). */
  compress?(body: Uint8Array, options: CompressOptions): CompressedCopies;
}

export interface Variant {
  coding: Coding;
  body: Uint8Array;
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

export interface PrepareOptions extends CompressOptions {
  /**
   * Copies compressed earlier (by the build, beside the file); when given, nothing is compressed here.
   * A coding missing from them is one the build found not worth keeping.
   */
  copies?: CompressedCopies;
}

const NO_COPIES: CompressedCopies = { br: undefined, gzip: undefined };

export function prepare(
  codec: BodyCodec,
  body: Uint8Array,
  contentType: string,
  options: PrepareOptions = {},
): Representation {
  const tag = codec.tag(body);
  const identity: Variant = { coding: 'identity', body, etag: `"${tag}"` };
  const copies = isCompressible(contentType)
    ? (options.copies ?? codec.compress?.(body, options) ?? NO_COPIES)
    : NO_COPIES;
  const br: Variant | undefined = copies.br && { coding: 'br', body: copies.br, etag: `"${tag}-br"` };
  const gzip: Variant | undefined = copies.gzip && { coding: 'gzip', body: copies.gzip, etag: `"${tag}-gz"` };
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

/**
 * If-Match (RFC 9110 §13.1.1): "An origin server MUST use the strong comparison function when comparing
 * entity tags for If-Match", so a W/ tag never matches; "*" matches any current representation. True
 * when the condition fails: the method must not be performed and the answer is 412 (Precondition
 * Failed). `etag` is undefined for a representation without a validator (the live market), which only
 * "*" matches.
 */
export function ifMatchFails(header: string | undefined, etag: string | undefined): boolean {
  if (header === undefined) return false;
  for (const part of header.split(',')) {
    const t = part.trim();
    if (t === '*' || (etag !== undefined && t === etag)) return false;
  }
  return true;
}

/** Headers shared by every 200 of a variant, as a flat [name, value, …] list (a Prepared answer's). */
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
