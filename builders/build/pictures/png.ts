// The PNG file of a picture resvg has drawn (docs/performance.md#content-at-scale-issue-41). resvg-js's own
// `asPng` deflates with its defaults: two thirds of a 1200 × 630 preview picture's CPU (13 ms of 20) for 43
// kB. The pictures are flat colours and anti-aliased text, so rows filtered "none" and zlib at level 3 give
// the same size (45 kB) in a third of the time. The bytes are this function's, the same on every machine
// (zlib's output depends only on its input, level and settings).
import type { crc32, deflateSync } from 'node:zlib';

/** What encodePng takes of node:zlib, handed in so that the function stands alone (see rasterise.ts). */
export interface PngZlib {
  deflateSync: typeof deflateSync;
  crc32: typeof crc32;
}

/**
 * The PNG (8-bit RGBA, not interlaced) of a `width` × `height` picture whose pixels are `premultiplied`,
 * RGBA with each colour multiplied by its alpha (resvg's pixmap, RenderedImage.pixels).
 *
 * `scratch`, when as large as the filtered rows, holds them instead of a buffer of their own: a drawing
 * thread passes the same one for every picture, so that 3 MB of rows is not allocated and freed each time.
 *
 * Self-contained: no name from outside its body but its parameters, because rasterise.ts also runs its
 * source text on the drawing threads (`encodePng.toString()`).
 */
export function encodePng(
  width: number,
  height: number,
  premultiplied: Uint8Array,
  zlib: PngZlib,
  scratch?: Uint8Array,
): Uint8Array {
  const stride = width * 4;
  if (premultiplied.length !== stride * height)
    throw new Error(`encodePng: ${premultiplied.length} bytes for ${width} x ${height} RGBA pixels`);
  // Each row: its filter type (0, none), then its pixels, colours divided by alpha again (PNG stores them
  // straight). An opaque pixel (most of them) is copied as it is.
  const size = (stride + 1) * height;
  const rows = scratch !== undefined && scratch.length >= size ? scratch.subarray(0, size) : new Uint8Array(size);
  for (let y = 0; y < height; y++) {
    const from = y * stride;
    const to = y * (stride + 1) + 1;
    rows[to - 1] = 0;
    rows.set(premultiplied.subarray(from, from + stride), to);
    for (let x = 3; x < stride; x += 4) {
      const alpha = premultiplied[from + x]!;
      if (alpha === 255 || alpha === 0) continue;
      for (let c = 1; c <= 3; c++)
        rows[to + x - c] = Math.min(255, Math.round((premultiplied[from + x - c]! * 255) / alpha));
    }
  }
  const chunk = (type: string, data: Uint8Array): Uint8Array => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    out.set(data, 8);
    view.setUint32(8 + data.length, zlib.crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const header = new Uint8Array(13);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, width);
  headerView.setUint32(4, height);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  // header[10..12]: deflate, adaptive filtering (each row names its filter), no interlace: all 0.
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 3 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}
