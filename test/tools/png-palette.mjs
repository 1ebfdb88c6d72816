// Re-encodes an opaque 8-bit PNG (what Chromium's screenshots are) as a 256-colour palette PNG with
// maximum compression: a screenshot of a page is flat colours plus anti-aliased edges, so 256 colours
// keep it faithful and it shrinks to a third or less, small enough to commit for a README. Node's own
// zlib only; no image package.
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_COLOURS = 256;

/** The palette PNG of `png`, an 8-bit, non-interlaced RGB or RGBA PNG without transparency. */
export function toPalettePng(png) {
  const { width, height, rgb } = decode(png);
  const { palette, indexOf } = quantize(rgb);
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    // Filter type 0 (none) on every row: the one the PNG specification advises for palette images.
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      rows[y * (width + 1) + 1 + x] = indexOf.get((rgb[p] << 16) | (rgb[p + 1] << 8) | rgb[p + 2]);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, colour type 3 (palette), deflate, adaptive filters, no interlace
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(rows, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** The pixels of `png` as RGB triplets, row after row. */
function decode(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let header;
  const data = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') header = body;
    else if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  if (header === undefined) throw new Error('PNG without IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [depth, colourType, , , interlace] = header.subarray(8, 13);
  const channels = { 2: 3, 6: 4 }[colourType];
  if (depth !== 8 || channels === undefined || interlace !== 0)
    throw new Error(`unsupported PNG (bit depth ${depth}, colour type ${colourType}, interlace ${interlace})`);
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? pixels[y * stride + i - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const upLeft = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      pixels[y * stride + i] = (line[i] + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  const rgb = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    if (channels === 4 && pixels[p * 4 + 3] !== 255) throw new Error('PNG with transparency: not a screenshot');
    rgb.set(pixels.subarray(p * channels, p * channels + 3), p * 3);
  }
  return { width, height, rgb };
}

/** PNG's five row filters (PNG specification, section 9). */
function predict(filter, left, up, upLeft) {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4: {
      const p = left + up - upLeft;
      const pa = Math.abs(p - left);
      const pb = Math.abs(p - up);
      const pc = Math.abs(p - upLeft);
      return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    }
    default:
      throw new Error(`unknown PNG filter ${filter}`);
  }
}

/**
 * At most 256 colours for the image (median cut over its distinct colours, weighted by how often each
 * occurs), and the palette index of every distinct colour. An image with 256 colours or fewer keeps
 * them exactly.
 */
function quantize(rgb) {
  const counts = new Map();
  for (let p = 0; p < rgb.length; p += 3) {
    const key = (rgb[p] << 16) | (rgb[p + 1] << 8) | rgb[p + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const colours = [...counts].map(([key, count]) => ({ c: [key >> 16, (key >> 8) & 0xff, key & 0xff], key, count }));
  let boxes = [colours];
  // Split the box whose colours spread widest along one channel, at its weighted median on that channel,
  // until there are 256 boxes or none can be split.
  while (boxes.length < MAX_COLOURS) {
    let widest;
    for (const box of boxes) {
      if (box.length < 2) continue;
      const spread = [0, 1, 2].map((ch) => {
        let lo = 255;
        let hi = 0;
        for (const { c } of box) {
          if (c[ch] < lo) lo = c[ch];
          if (c[ch] > hi) hi = c[ch];
        }
        return hi - lo;
      });
      const range = Math.max(...spread);
      if (range > 0 && (widest === undefined || range > widest.range))
        widest = { box, range, channel: spread.indexOf(range) };
    }
    if (widest === undefined) break;
    const { box, channel } = widest;
    box.sort((a, b) => a.c[channel] - b.c[channel]);
    const total = box.reduce((n, { count }) => n + count, 0);
    let cut = 0;
    for (let seen = 0; cut < box.length - 1 && seen + box[cut].count <= total / 2; cut++) seen += box[cut].count;
    cut = Math.min(Math.max(cut, 1), box.length - 1);
    boxes = boxes.filter((b) => b !== box).concat([box.slice(0, cut), box.slice(cut)]);
  }
  const palette = boxes.map((box) => {
    const total = box.reduce((n, { count }) => n + count, 0);
    return [0, 1, 2].map((ch) => Math.round(box.reduce((n, { c, count }) => n + c[ch] * count, 0) / total));
  });
  const indexOf = new Map();
  boxes.forEach((box, index) => {
    for (const { key } of box) indexOf.set(key, index);
  });
  return { palette, indexOf };
}
