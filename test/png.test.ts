// The PNG encoder of the preview pictures (builders/build/pictures/png.ts): a file any decoder reads, checked here
// chunk by chunk (PNG §5: signature, chunks with their CRC, IHDR, IDAT's zlib stream, IEND), with the
// pixels it was given back, straight (not premultiplied) alpha included.
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../builders/build/pictures/png.ts';

const ZLIB = { deflateSync, crc32 };

/** The chunks of `png`, each CRC checked, after its signature. */
function chunksOf(png: Uint8Array): Array<{ type: string; data: Uint8Array }> {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks = [];
  for (let at = 8; at < png.length;) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    expect(view.getUint32(at + 8 + length), `${type} CRC`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data });
    at += 12 + length;
  }
  return chunks;
}

/** The RGBA pixels of an 8-bit RGBA PNG whose rows are all filtered "none", as encodePng writes them. */
function pixelsOf(png: Uint8Array): { width: number; height: number; rgba: number[] } {
  const chunks = chunksOf(png);
  expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
  const header = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset, 13);
  const [width, height] = [header.getUint32(0), header.getUint32(4)];
  expect([...chunks[0]!.data.subarray(8)]).toEqual([8, 6, 0, 0, 0]);
  const rows = inflateSync(chunks[1]!.data);
  expect(rows.length).toBe((width * 4 + 1) * height);
  const rgba: number[] = [];
  for (let y = 0; y < height; y++) {
    expect(rows[y * (width * 4 + 1)], `row ${y}'s filter`).toBe(0);
    rgba.push(...rows.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)));
  }
  return { width, height, rgba };
}

describe('encodePng', () => {
  it('writes a PNG whose pixels are the ones given, each colour divided by its alpha again', () => {
    // 3 × 2: opaque red, transparent, half-transparent white (premultiplied: 128, 128, 128, 128), then
    // a quarter-transparent blue (0, 0, 191, 191), opaque black, opaque grey.
    const premultiplied = new Uint8Array([
      255, 0, 0, 255, 0, 0, 0, 0, 128, 128, 128, 128, 0, 0, 191, 191, 0, 0, 0, 255, 90, 90, 90, 255,
    ]);
    const { width, height, rgba } = pixelsOf(encodePng(3, 2, premultiplied, ZLIB));
    expect([width, height]).toEqual([3, 2]);
    expect(rgba).toEqual([
      255, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 128, 0, 0, 255, 191, 0, 0, 0, 255, 90, 90, 90, 255,
    ]);
  });

  it('gives the same bytes with a scratch buffer, however large and whatever it held', () => {
    const premultiplied = new Uint8Array(Array.from({ length: 4 * 5 * 4 }, (_, i) => (i % 4 === 3 ? 255 : i * 7)));
    const plain = encodePng(5, 4, premultiplied, ZLIB);
    const scratch = new Uint8Array(1000).fill(0xaa);
    expect(Buffer.compare(encodePng(5, 4, premultiplied, ZLIB, scratch), plain)).toBe(0);
    expect(Buffer.compare(encodePng(5, 4, premultiplied, ZLIB, new Uint8Array(3)), plain)).toBe(0);
  });

  it('refuses pixels that do not fill width × height', () => {
    expect(() => encodePng(2, 2, new Uint8Array(15), ZLIB)).toThrow(/15 bytes for 2 x 2 RGBA pixels/);
  });

  it('stands alone: its source text, run in a fresh context, gives the same bytes (the drawing threads run it so)', () => {
    const premultiplied = new Uint8Array([10, 20, 30, 255, 1, 2, 3, 4, 0, 0, 0, 0, 200, 100, 50, 255]);
    const alone = new Function(`return (${encodePng.toString()})`)() as typeof encodePng;
    expect(Buffer.compare(alone(2, 2, premultiplied, ZLIB), encodePng(2, 2, premultiplied, ZLIB))).toBe(0);
  });
});
