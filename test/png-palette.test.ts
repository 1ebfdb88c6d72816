// test/tools/png-palette.mjs, which shrinks the README's screenshot (npm run screenshot): every PNG row filter
// read back exactly, an image of few colours kept exact, one of many colours brought to 256 close ones.
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toPalettePng } from './tools/png-palette.mjs';

type Rgb = [number, number, number];

/** A truecolour PNG (colour type 2, or 6 with opaque alpha) whose rows use filters 0 to 4 in turn. */
function truecolourPng(width: number, height: number, pixel: (x: number, y: number) => Rgb, alpha = false): Buffer {
  const channels = alpha ? 4 : 3;
  const stride = width * channels;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set(alpha ? [...pixel(x, y), 255] : pixel(x, y), y * stride + x * channels);
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    const filter = y % 5;
    rows.push(filter);
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? raw[y * stride + i - channels]! : 0;
      const up = y > 0 ? raw[(y - 1) * stride + i]! : 0;
      const upLeft = y > 0 && i >= channels ? raw[(y - 1) * stride + i - channels]! : 0;
      const p = left + up - upLeft;
      const paeth =
        Math.abs(p - left) <= Math.abs(p - up) && Math.abs(p - left) <= Math.abs(p - upLeft)
          ? left
          : Math.abs(p - up) <= Math.abs(p - upLeft)
            ? up
            : upLeft;
      const prediction = [0, left, up, (left + up) >> 1, paeth][filter]!;
      rows.push((raw[y * stride + i]! - prediction) & 0xff);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, alpha ? 6 : 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** The pixels of a palette PNG as toPalettePng writes it (filter 0 on every row), checking its chunks' CRCs. */
function readPalettePng(png: Buffer): { width: number; height: number; colours: number; pixels: Rgb[] } {
  const chunks = new Map<string, Buffer[]>();
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typed = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typed));
    const type = typed.toString('latin1', 0, 4);
    chunks.set(type, [...(chunks.get(type) ?? []), typed.subarray(4)]);
    at += 12 + length;
  }
  const header = chunks.get('IHDR')![0]!;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  expect([...header.subarray(8)]).toEqual([8, 3, 0, 0, 0]);
  const palette = chunks.get('PLTE')![0]!;
  const raw = inflateSync(Buffer.concat(chunks.get('IDAT')!));
  const pixels: Rgb[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width + 1)]).toBe(0);
    for (let x = 0; x < width; x++) {
      const index = raw[y * (width + 1) + 1 + x]!;
      pixels.push([palette[index * 3]!, palette[index * 3 + 1]!, palette[index * 3 + 2]!]);
    }
  }
  return { width, height, colours: palette.length / 3, pixels };
}

describe('toPalettePng', () => {
  it.each([false, true])('keeps an image of few colours exactly (alpha channel: %s)', (alpha) => {
    const colours: Rgb[] = [
      [255, 255, 255],
      [33, 37, 41],
      [13, 110, 253],
      [200, 30, 60],
      [46, 160, 67],
    ];
    const pixel = (x: number, y: number) => colours[(x * 7 + y * 3 + ((x * y) % 4)) % colours.length]!;
    const image = readPalettePng(toPalettePng(truecolourPng(37, 23, pixel, alpha)));
    expect([image.width, image.height, image.colours]).toEqual([37, 23, 5]);
    const expected = Array.from({ length: 23 * 37 }, (_, p) => pixel(p % 37, Math.floor(p / 37)));
    expect(image.pixels).toEqual(expected);
  });

  it('brings an image of 4096 colours to 256, each pixel close to its original', () => {
    const pixel = (x: number, y: number): Rgb => [x * 4, y * 4, ((x + y) * 2) & 0xff];
    const image = readPalettePng(toPalettePng(truecolourPng(64, 64, pixel)));
    expect(image.colours).toBe(256);
    let worst = 0;
    image.pixels.forEach((got, p) => {
      const want = pixel(p % 64, Math.floor(p / 64));
      for (let ch = 0; ch < 3; ch++) worst = Math.max(worst, Math.abs(got[ch]! - want[ch]!));
    });
    expect(worst).toBeLessThanOrEqual(24);
  });

  it('refuses what is not an opaque 8-bit truecolour PNG', () => {
    expect(() => toPalettePng(Buffer.from('GIF89a'))).toThrow('not a PNG');
    const header = Buffer.alloc(13);
    header.writeUInt32BE(1, 0);
    header.writeUInt32BE(1, 4);
    header.set([8, 6, 0, 0, 0], 8);
    const oneClearPixel = Buffer.concat([
      truecolourPng(1, 1, () => [0, 0, 0]).subarray(0, 8),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.from([0, 1, 2, 3, 0]))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(() => toPalettePng(oneClearPixel)).toThrow('transparency');
  });
});
