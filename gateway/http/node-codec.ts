// The core's BodyCodec on Node: SHA-256 from node:crypto for strong ETags, brotli and gzip from
// node:zlib (builders/lib/compressed-copies.ts, the build's own rules) for the compressed copies.
import { createHash } from 'node:crypto';
import {
  compressedCopies,
  contentKey,
  ContentMemo,
  MIN_COMPRESSED_BYTES,
  type CompressedCopies,
  type CompressOptions,
} from '../../builders/lib/compressed-copies.ts';
import type { BodyCodec } from '../core/http/representation.ts';

/**
 * The copies made before in this process, by the body's SHA-256 and the brotli quality. A gateway
 * compresses at start the files it generates (its /openapi.json, about 50 kB at brotli quality 5, 13 ms)
 * and any file of dist/ without the build's copies; the tests start hundreds of gateways in one process
 * on the same few sites, and compressing the same /openapi.json again at each start was seconds of CPU.
 * The copies are a function of those bytes and that quality alone, and nothing changes a copy once made
 * (it is only ever written to sockets). Bounded by the copies' bytes (and a little per entry, for bodies
 * whose copies were not worth keeping): past the bound it starts over.
 */
const MADE = new ContentMemo<CompressedCopies>(16 * 1024 * 1024);
/** What an entry costs beside its copies (a body whose copies were not worth keeping still takes room). */
const ENTRY_BYTES = 128;

function copiesOf(body: Uint8Array, options: CompressOptions): CompressedCopies {
  // A body too small to compress costs nothing to look at again.
  if (body.length < MIN_COMPRESSED_BYTES) return compressedCopies(body, options);
  return MADE.get(
    contentKey(body, `${options.brotliQuality ?? ''}:`),
    () => compressedCopies(body, options),
    (copies) => ENTRY_BYTES + (copies.br?.length ?? 0) + (copies.gzip?.length ?? 0),
  );
}

export const NODE_CODEC: BodyCodec = {
  tag: (body) => createHash('sha256').update(body).digest('base64url').slice(0, 27),
  compress: (body, options) => copiesOf(body, options),
};
