// A picture for the fakes and the tests: a small real PNG (a face-like disc on a plain ground, 96 × 96,
// 8-bit RGB), made here so that no binary file is committed and any decoder reads it.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `size` × `size` RGB PNG: a disc of `ink` on `paper`, with two eyes and a smile. */
export function avatarPng(size = 96, paper = [0xdd, 0xf4, 0xff], ink = [0x21, 0x6e, 0x39]): Uint8Array {
  const rows: Buffer[] = [];
  const c = size / 2;
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0: none
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      const eye = Math.hypot(Math.abs(x - c) - size * 0.14, y - c * 0.8) < size * 0.06;
      const smile = Math.abs(Math.hypot(x - c, y - c * 0.95) - size * 0.22) < size * 0.03 && y > c * 1.05;
      const colour = d < size * 0.42 && !eye && !smile ? ink : paper;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit depth, colour type 2 (RGB), deflate, no filter, no interlace
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.concat(rows))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** The picture the fakes serve and the tests give as a file. */
export const TINY_PNG = avatarPng();

/**
 * A PNG whose header claims `width` × `height` pixels, about `bytes` long: its IHDR, then an IDAT of stored
 * (uncompressed) zlib blocks of zeros, a valid stream that holds far fewer rows than it claims. A
 * 30,000 × 30,000 one is the decompression bomb a browser would decode into 3.6 GB.
 */
export function pngClaiming(width: number, height: number, bytes = 109 * 1024): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(bytes), { level: 0 })),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}
