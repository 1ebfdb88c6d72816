// The core's BodyCodec on Node: SHA-256 from node:crypto for strong ETags, brotli and gzip from
// node:zlib (lib/compressed-copies.ts, the build's own rules) for the compressed copies.
import { createHash } from 'node:crypto';
import { compressedCopies } from '../../lib/compressed-copies.ts';
import type { BodyCodec } from '../core/http/representation.ts';

export const NODE_CODEC: BodyCodec = {
  tag: (body) => createHash('sha256').update(body).digest('base64url').slice(0, 27),
  compress: (body, options) => compressedCopies(body, options),
};
