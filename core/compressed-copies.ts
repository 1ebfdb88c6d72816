// The compressed copies of a file: brotli and gzip, each kept only when it is smaller. The build writes
// them beside the file (`x.br`, `x.gz`: what nginx's brotli_static and gzip_static serve, and what the
// gateway loads instead of compressing at start); the gateway computes them itself only for bodies it
// makes while serving, and for a dist/ whose copies are missing or do not match.
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';

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

/** Both copies of a compressible body; none for a body under MIN_COMPRESSED_BYTES. */
export function compressedCopies(body: Uint8Array, options: CompressOptions = {}): CompressedCopies {
  if (body.length < MIN_COMPRESSED_BYTES) return { br: undefined, gzip: undefined };
  // Quality 10 rather than 11: measured on this site, about 3 % larger and a third of the time.
  const quality = options.brotliQuality ?? (body.length > 1_000_000 ? 6 : 10);
  const br = brotliCompressSync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: quality,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(body, { level: zlib.Z_BEST_COMPRESSION });
  return { br: br.length < body.length ? br : undefined, gzip: gzip.length < body.length ? gzip : undefined };
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
