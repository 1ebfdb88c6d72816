// The compressed copies of a file: brotli and gzip, each kept only when it is smaller. The build writes
// them beside the file (`x.br`, `x.gz`: what nginx's brotli_static and gzip_static serve, and what the
// gateway loads instead of compressing at start); the gateway computes them itself only for bodies it
// makes while serving, and for a dist/ whose copies are missing or do not match.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompressSync,
  constants as zlib,
  gunzipSync,
  gzip,
  gzipSync,
} from 'node:zlib';

export type CompressedCoding = 'br' | 'gzip';

/** The file name suffix of each copy, as nginx's `*_static` modules and most static hosts expect it. */
export const COMPRESSED_SUFFIX: Readonly<Record<CompressedCoding, string>> = { br: '.br', gzip: '.gz' };

/** Tiny bodies fit in one packet either way; compression would only cost the client CPU. */
export const MIN_COMPRESSED_BYTES = 256;

export interface CompressedCopies {
  br: Buffer | undefined;
  gzip: Buffer | undefined;
}

export interface CompressOptions {
  /** Brotli quality. Default 10 (6 past 1 MB); lower for data refreshed while serving. */
  brotliQuality?: number;
}

const brotliOptions = (body: Uint8Array, options: CompressOptions) => ({
  params: {
    // Quality 10 rather than 11: measured on this site, about 3 % larger and a third of the time.
    [zlib.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? (body.length > 1_000_000 ? 6 : 10),
    [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
  },
});
const GZIP_OPTIONS = { level: zlib.Z_BEST_COMPRESSION };
const NONE: CompressedCopies = { br: undefined, gzip: undefined };
/**
 * The copy, when smaller than the body, in memory of its own size. zlib hands back a view of a 64 KiB
 * block (its output buffer, or the pool small buffers share with short-lived ones): a 1 kB copy kept as
 * it came pinned the whole block, and a build keeping two copies of each of 6,000 files held 277 MB of
 * them (its memory grew with every writing). `Buffer.from(copy)` would take a slice of the pool again.
 */
const smaller = (copy: Buffer, body: Uint8Array) =>
  copy.length >= body.length
    ? undefined
    : copy.buffer.byteLength > copy.length
      ? Buffer.from(copy.buffer.slice(copy.byteOffset, copy.byteOffset + copy.length))
      : copy;

/** Both copies of a compressible body; none for a body under MIN_COMPRESSED_BYTES. */
export function compressedCopies(body: Uint8Array, options: CompressOptions = {}): CompressedCopies {
  if (body.length < MIN_COMPRESSED_BYTES) return NONE;
  const br = brotliCompressSync(body, brotliOptions(body, options));
  return { br: smaller(br, body), gzip: smaller(gzipSync(body, GZIP_OPTIONS), body) };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The same copies, compressed on libuv's thread pool: the build compresses many files at once, on every core. */
export async function compressedCopiesAsync(
  body: Uint8Array,
  options: CompressOptions = {},
): Promise<CompressedCopies> {
  if (body.length < MIN_COMPRESSED_BYTES) return NONE;
  const [br, gz] = await Promise.all([brotliAsync(body, brotliOptions(body, options)), gzipAsync(body, GZIP_OPTIONS)]);
  return { br: smaller(br, body), gzip: smaller(gz, body) };
}

/**
 * Whether `copy` decodes to exactly `body`. A copy found on disk is used only then: a stale `.gz` left
 * beside a rebuilt file (by hand, or by another tool) must not be served as that file. Decoding is a
 * small fraction of the cost of compressing.
 */
export function decodesTo(coding: CompressedCoding, copy: Uint8Array, body: Uint8Array): boolean {
  try {
    const decoded = coding === 'br' ? brotliDecompressSync(copy) : gunzipSync(copy);
    return decoded.equals(body);
  } catch {
    return false;
  }
}

/**
 * What was made before in this process from a body, by its content (the caller's key: the body's SHA-256,
 * and whatever else the result depends on), bounded by a count of bytes: past the bound it starts over.
 * The build's copies (builders/build/compressed-artifacts.ts) and the gateway's (gateway/http/node-codec.ts) are
 * remembered so: the tests run dozens of builds and hundreds of gateways on the same few sites, and one
 * large build must not keep every copy it made.
 */
export class ContentMemo<V> {
  readonly #made = new Map<string, V>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The value remembered for `key`, else `make()`'s, remembered as `bytes(value)` bytes. */
  get(key: string, make: () => V, bytes: (value: V) => number): V {
    const had = this.#made.get(key);
    if (had !== undefined) return had;
    const value = make();
    const size = bytes(value);
    if (this.#bytes + size > this.#maxBytes) {
      this.#made.clear();
      this.#bytes = 0;
    }
    this.#made.set(key, value);
    this.#bytes += size;
    return value;
  }

  /** Forgets `key` (a value that turned out to be a failure). */
  delete(key: string): void {
    this.#made.delete(key);
  }
}

/**
 * What the bytes of a copy depend on besides its body, as 16 hex digits: zlib's and brotli's versions and
 * the settings above. A kept copy is the compressor's (builders/lib/cache/content-store.ts): another Node's zlib
 * may code the same body in other bytes, and so names another folder.
 */
export function compressorIdentity(): string {
  const settings = JSON.stringify({
    zlib: process.versions.zlib,
    brotli: process.versions.brotli,
    brotliOptions: [brotliOptions(new Uint8Array(0), {}), brotliOptions(new Uint8Array(1_000_001), {})],
    gzip: GZIP_OPTIONS,
    min: MIN_COMPRESSED_BYTES,
  });
  return createHash('sha256').update(settings).digest('hex').slice(0, 16);
}

/** The key of a body for a ContentMemo: its SHA-256, after `prefix`. */
export const contentKey = (body: Uint8Array, prefix = ''): string =>
  `${prefix}${createHash('sha256').update(body).digest('base64')}`;
