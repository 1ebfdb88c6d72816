// What kind of picture some bytes are, read from the bytes themselves (their signature), never from a file
// name or a Content-Type: the owner's avatar (docs/site.md#the-owners-picture) is published only as PNG,
// JPEG or WebP, and anything else is refused.

export interface ImageType {
  /** The file extension it is published under. */
  extension: 'png' | 'jpg' | 'webp';
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
}

/** A picture checked by its bytes. */
export interface Picture {
  bytes: Uint8Array;
  type: ImageType;
}

/** The largest picture the site publishes as its avatar: 2 MiB. */
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

/**
 * PNG: the 8-byte signature (RFC 2083 §3.1); JPEG: SOI and the next marker's FF (ISO/IEC 10918-1);
 * WebP: a RIFF container whose form type is WEBP (RFC 9649 §2). Null for anything else.
 */
export function imageTypeOf(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { extension: 'png', contentType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { extension: 'jpg', contentType: 'image/jpeg' };
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return { extension: 'webp', contentType: 'image/webp' };
  return null;
}
