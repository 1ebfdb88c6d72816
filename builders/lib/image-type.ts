// What kind of picture some bytes are, read from the bytes themselves (their signature), never from a file
// name or a Content-Type: the owner's avatar (docs/site.md#the-owners-picture) is published only as PNG,
// JPEG or WebP, and anything else is refused. And how many pixels a picture claims, read from its header
// alone (never decoded): PNG, JPEG, WebP, GIF and AVIF. A 109 KB PNG may claim 30,000 × 30,000 pixels,
// 3.6 GB once a browser decodes it, so every picture the site publishes is held to a bound on its size
// before it is kept.

export interface ImageType {
  /** The file extension it is published under. */
  extension: 'png' | 'jpg' | 'webp' | 'gif' | 'avif';
  contentType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | 'image/avif';
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

/**
 * What a picture in a writing may be (docs/site.md#pictures-in-a-writing): imageTypeOf's three, and GIF
 * (its 6-byte signature, GIF89a §17) or AVIF (an ISO BMFF `ftyp` box naming the avif or avis brand).
 */
export function writingPictureTypeOf(bytes: Uint8Array): ImageType | null {
  const type = imageTypeOf(bytes);
  if (type !== null) return type;
  if (/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return { extension: 'gif', contentType: 'image/gif' };
  if (isAvif(bytes)) return { extension: 'avif', contentType: 'image/avif' };
  return null;
}

export interface PictureSize {
  width: number;
  height: number;
}

/** The most pixels a side of a published picture may have. */
export const MAX_PICTURE_SIDE = 8192;
/** The most pixels a published picture may have in all: 50 megapixels. */
export const MAX_PICTURE_PIXELS = 50_000_000;

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  at + length <= bytes.length ? String.fromCharCode(...bytes.subarray(at, at + length)) : '';
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => b[at]! * 0x1000000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
const u32le = (b: Uint8Array, at: number) => u24le(b, at) + b[at + 3]! * 0x1000000;
const sized = (width: number, height: number): PictureSize | null =>
  width > 0 && height > 0 ? { width, height } : null;

/** PNG (ISO/IEC 15948 §11.2.2): the first chunk is IHDR, width and height as 32-bit big-endian. */
function png(b: Uint8Array): PictureSize | null {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return sized(u32be(b, 16), u32be(b, 20));
}

/** A JPEG's start-of-frame markers (ITU T.81 Table B.1): SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG (ITU T.81 §B.2): the segments after SOI, each skipped by its length, up to the first frame header. */
function jpeg(b: Uint8Array): PictureSize | null {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    // Fill bytes, and the markers that stand alone (TEM, RSTn).
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Start of scan or end of image before any frame: no size.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    // The frame header: length, precision, then the number of lines and of samples per line. A height of
    // 0 (the lines defined later, by DNL) is a size the header does not give.
    if (SOF.has(marker)) return at + 9 <= b.length ? sized(u16be(b, at + 7), u16be(b, at + 5)) : null;
    at += 2 + length;
  }
  return null;
}

/** WebP (RFC 9649 §2.5–2.7): the first chunk is a lossy, lossless or extended one, each with its own layout. */
function webp(b: Uint8Array): PictureSize | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = u32le(b, 21);
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X' && b.length >= 30) return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
  return null;
}

/**
 * GIF (GIF89a §18, §20): the logical screen, widened by any frame that reaches past it (a 1 × 1 screen
 * may hold a 30,000-pixel frame); the blocks are walked once, each skipped by its sub-block lengths.
 */
function gif(b: Uint8Array): PictureSize | null {
  if (b.length < 13) return null;
  let width = u16le(b, 6);
  let height = u16le(b, 8);
  const table = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  let at = 13 + table(b[10]!);
  const subBlocks = () => {
    while (at < b.length && b[at] !== 0) at += 1 + b[at]!;
    at++;
  };
  while (at < b.length) {
    const block = b[at]!;
    if (block === 0x3b) break;
    if (block === 0x21) {
      at += 2;
      subBlocks();
    } else if (block === 0x2c) {
      if (at + 10 > b.length) return null;
      width = Math.max(width, u16le(b, at + 1) + u16le(b, at + 5));
      height = Math.max(height, u16le(b, at + 3) + u16le(b, at + 7));
      at += 10 + table(b[at + 9]!) + 1;
      subBlocks();
    } else return null;
  }
  return sized(width, height);
}

/** An ISO BMFF box (ISO/IEC 14496-12 §4.2): its type and where its content lies, or null past the data. */
function boxes(b: Uint8Array, start: number, end: number): Array<{ type: string; from: number; to: number }> {
  const found = [];
  let at = start;
  while (at + 8 <= end) {
    let size = u32be(b, at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    found.push({ type: ascii(b, at + 4, 4), from: at + header, to: at + size });
    at += size;
  }
  return found;
}

/**
 * AVIF (AV1 Image File Format §9, HEIF): the largest image spatial extent (`ispe`) of the item properties,
 * meta → iprp → ipco; the largest, so that no item of the file is bigger than the bound.
 */
function avif(b: Uint8Array): PictureSize | null {
  let width = 0;
  let height = 0;
  for (const meta of boxes(b, 0, b.length).filter((box) => box.type === 'meta'))
    // meta is a full box: a version and flags before its children.
    for (const iprp of boxes(b, meta.from + 4, meta.to).filter((box) => box.type === 'iprp'))
      for (const ipco of boxes(b, iprp.from, iprp.to).filter((box) => box.type === 'ipco'))
        for (const ispe of boxes(b, ipco.from, ipco.to).filter(
          (box) => box.type === 'ispe' && box.to - box.from >= 12,
        )) {
          width = Math.max(width, u32be(b, ispe.from + 4));
          height = Math.max(height, u32be(b, ispe.from + 8));
        }
  return sized(width, height);
}

/** Whether an ISO BMFF file's `ftyp` names AVIF as its brand or a compatible one. */
function isAvif(b: Uint8Array): boolean {
  if (ascii(b, 4, 4) !== 'ftyp') return false;
  const end = Math.min(u32be(b, 0), b.length);
  for (let at = 8; at + 4 <= end; at += 4) if (/^avi[fs]$/.test(ascii(b, at, 4))) return true;
  return false;
}

/** The width and height `bytes` claim in their header, or null for a picture of none of the five types, or no size. */
export function pictureSize(bytes: Uint8Array): PictureSize | null {
  if (ascii(bytes, 1, 3) === 'PNG' && bytes[0] === 0x89) return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webp(bytes);
  if (/^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return gif(bytes);
  if (isAvif(bytes)) return avif(bytes);
  return null;
}

/**
 * Why `bytes` may not be published for its size, or null when they may: no size in the header, more than
 * MAX_PICTURE_SIDE a side, or more than MAX_PICTURE_PIXELS in all. Said after the picture's name.
 */
export function pictureSizeFault(bytes: Uint8Array): string | null {
  const size = pictureSize(bytes);
  if (size === null) return 'gives no width and height in its header';
  const { width, height } = size;
  if (width > MAX_PICTURE_SIDE || height > MAX_PICTURE_SIDE || width * height > MAX_PICTURE_PIXELS)
    return `is ${width} × ${height} pixels, more than ${MAX_PICTURE_SIDE} a side or ${MAX_PICTURE_PIXELS / 1e6} megapixels in all`;
  return null;
}
