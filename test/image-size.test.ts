// The pixels a picture claims, read from hand-made headers of the five types (builders/lib/image-type.ts), and the
// bound the site holds every picture to: at most 8,192 pixels a side and 50 megapixels.
import { describe, expect, it } from 'vitest';
import {
  imageTypeOf,
  MAX_PICTURE_PIXELS,
  MAX_PICTURE_SIDE,
  pictureSize,
  pictureSizeFault,
} from '../builders/lib/image-type.ts';
import { avatarPng, pngClaiming, TINY_PNG } from './fakes/avatar.ts';

const bytes = (...parts: Array<number[] | string | Uint8Array>) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : [...p])));
const be16 = (n: number) => [n >> 8, n & 0xff];
const le16 = (n: number) => [n & 0xff, n >> 8];
const be32 = (n: number) => [n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];

/** A JPEG: SOI, an APP0 segment (JFIF), a DQT stand-in, then a baseline or progressive frame header. */
function jpeg(width: number, height: number, sof = 0xc0): Uint8Array {
  const app0 = [0xff, 0xe0, ...be16(16), ...bytes('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const dqt = [0xff, 0xdb, ...be16(4), 0, 0];
  const frame = [0xff, sof, ...be16(17), 8, ...be16(height), ...be16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return bytes([0xff, 0xd8], app0, [0xff, 0xff], dqt, frame, [0xff, 0xda, 0, 2]);
}

/** A RIFF WEBP container around one chunk. */
const webp = (chunk: string, body: number[]) =>
  bytes('RIFF', [...be32(0)].reverse(), 'WEBP', chunk, [body.length, 0, 0, 0], body);

/** A GIF89a: its logical screen, then one frame at (left, top) of its own size. */
function gif(screen: [number, number], frame: [number, number, number, number]): Uint8Array {
  const [left, top, w, h] = frame;
  return bytes(
    'GIF89a',
    le16(screen[0]),
    le16(screen[1]),
    [0x80, 0, 0],
    [0, 0, 0, 255, 255, 255], // a global table of two colours
    [0x21, 0xf9, 4, 0, 0, 0, 0, 0], // a graphic control extension
    [0x2c, ...le16(left), ...le16(top), ...le16(w), ...le16(h), 0],
    [2, 2, 0x4c, 0x01, 0], // the LZW code size, one sub-block, the terminator
    [0x3b],
  );
}

/** An ISO BMFF box of `type` around `content`. */
const box = (type: string, ...content: Array<number[] | Uint8Array>) => {
  const body = bytes(...content);
  return bytes(be32(8 + body.length), type, body);
};
/** An AVIF: ftyp, then meta → iprp → ipco holding one ispe per size given. */
const avif = (...sizes: Array<[number, number]>) =>
  bytes(
    box('ftyp', bytes('avif'), [0, 0, 0, 0], bytes('mif1miaf')),
    box(
      'meta',
      [0, 0, 0, 0],
      box('hdlr', [0, 0, 0, 0, 0, 0, 0, 0], bytes('pict'), new Array(13).fill(0)),
      box('iprp', box('ipco', ...sizes.map(([w, h]) => box('ispe', [0, 0, 0, 0], be32(w), be32(h))))),
    ),
    box('mdat', [1, 2, 3]),
  );

describe('pictureSize reads the size each header claims', () => {
  it.each<[string, Uint8Array, number, number]>([
    ['a real PNG', TINY_PNG, 96, 96],
    ['a PNG cut after its IHDR', avatarPng(320).slice(0, 33), 320, 320],
    ['a PNG claiming 30,000 × 30,000', pngClaiming(30_000, 30_000), 30_000, 30_000],
    ['a baseline JPEG', jpeg(640, 480), 640, 480],
    ['a progressive JPEG', jpeg(8192, 6103, 0xc2), 8192, 6103],
    ['a lossy WebP', webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(1200), ...le16(630), 0, 0]), 1200, 630],
    ['a lossless WebP', webp('VP8L', [0x2f, 0xff, 0xc3, 0x03, 0x00, 0, 0]), 1024, 16],
    ['an extended WebP', webp('VP8X', [0, 0, 0, 0, ...le24(29_999), ...le24(29_999)]), 30_000, 30_000],
    ['a GIF', gif([300, 200], [0, 0, 300, 200]), 300, 200],
    ['a GIF whose frame reaches past its 1 × 1 screen', gif([1, 1], [100, 0, 30_000, 20]), 30_100, 20],
    ['an AVIF', avif([1920, 1080]), 1920, 1080],
    ['an AVIF of two items, the larger counted', avif([64, 64], [20_000, 10]), 20_000, 64],
  ])('%s', (_, picture, width, height) => {
    expect(pictureSize(picture)).toEqual({ width, height });
  });

  it('a 109 KB PNG claiming 30,000 × 30,000 pixels is a PNG by its bytes and refused by its size', () => {
    const bomb = pngClaiming(30_000, 30_000);
    expect(bomb.length).toBeGreaterThan(100 * 1024);
    expect(bomb.length).toBeLessThan(120 * 1024);
    expect(imageTypeOf(bomb)?.extension).toBe('png');
    expect(pictureSizeFault(bomb)).toBe('is 30000 × 30000 pixels, more than 8192 a side or 50 megapixels in all');
  });

  it.each<[string, Uint8Array]>([
    ['nothing', new Uint8Array()],
    ['text', bytes('GIF? no, a text file')],
    ['a PNG cut before its IHDR', TINY_PNG.slice(0, 20)],
    ['a PNG whose first chunk is not IHDR', bytes(TINY_PNG.slice(0, 12), 'IDAT', new Array(8).fill(1))],
    ['a JPEG with no frame before its scan', bytes([0xff, 0xd8, 0xff, 0xda, 0, 2])],
    ['a JPEG whose frame defers its height (DNL)', jpeg(640, 0)],
    ['a JPEG whose segments do not chain', bytes([0xff, 0xd8, 0x12, 0x34, 0, 0])],
    ['a WebP of an unknown chunk', webp('VP9 ', new Array(10).fill(0))],
    ['a lossy WebP without its start code', webp('VP8 ', new Array(10).fill(0))],
    ['a GIF of a block it does not know', bytes(gif([3, 3], [0, 0, 3, 3]).slice(0, 19), [0x99])],
    ['an AVIF without ispe', avif()],
    ['a PNG of width 0', pngClaiming(0, 10, 10)],
  ])('no size: %s', (_, picture) => {
    expect(pictureSize(picture)).toBeNull();
    expect(pictureSizeFault(picture)).toBe('gives no width and height in its header');
  });
});

describe('the bound: 8,192 a side, 50 megapixels in all', () => {
  it.each<[number, number, boolean]>([
    [MAX_PICTURE_SIDE, 6103, true],
    [8192, 6104, false], // 50,003,968 pixels
    [MAX_PICTURE_SIDE + 1, 1, false],
    [1, MAX_PICTURE_SIDE + 1, false],
    [7071, 7071, true], // 49,999,041 pixels
    [1, 1, true],
  ])('%i × %i: allowed %s', (width, height, allowed) => {
    expect(width * height <= MAX_PICTURE_PIXELS || !allowed).toBe(true);
    expect(pictureSizeFault(pngClaiming(width, height, 16)) === null).toBe(allowed);
    expect(pictureSizeFault(jpeg(width, height)) === null).toBe(allowed);
  });
});
