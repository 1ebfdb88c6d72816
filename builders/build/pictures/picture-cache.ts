// The pictures a build drew, kept on disk for the next build (PICTURE_CACHE_DIR, docs/configuration.md): a
// picture is a pure function of its SVG and of the drawer (resvg's version, its fonts and options, png.ts's
// encoder), so the next build takes the same bytes from the folder instead of drawing them again. A
// scheduled build redraws nothing its content did not change, and builds side by side (the tests') draw
// each picture once between them.
//
// The folder only ever saves time: a file missing, cut short or not a PNG is drawn again, and a folder that
// cannot be read or written is a build without it. It never changes what is published.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PictureStore } from '../artifact.ts';

/**
 * A kept picture not used for this long is removed when a build opens the folder: a build that used it
 * refreshes its time, so the folder holds what recent builds drew and not every title a writing ever had.
 */
export const PICTURE_UNUSED_MAX_MS = 30 * 24 * 3600 * 1000;

/** The drawer's identity names a subfolder: only lowercase hex, so that no other folder is ever taken for one. */
const DRAWER_FOLDER = /^[0-9a-f]{16}$/;

/** A larger file is no picture of ours (the largest, a 1200 × 630 preview, is about 100 KB). */
const PICTURE_BYTES_MAX = 16 * 2 ** 20;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The IEND chunk every PNG ends with: its length (0), type and CRC. */
const PNG_END = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/** Whole, as far as a file kept by put() can be otherwise: a PNG's first and last bytes. */
function wholePng(bytes: Uint8Array): boolean {
  if (bytes.length < PNG_SIGNATURE.length + PNG_END.length) return false;
  return (
    PNG_SIGNATURE.every((b, i) => bytes[i] === b) &&
    PNG_END.every((b, i) => bytes[bytes.length - PNG_END.length + i] === b)
  );
}

/** Writes `png` to `file` whole: renamed into place, so that a build beside this one reads the old file or the new one. */
function keep(file: string, png: Uint8Array, now: Date): void {
  const staged = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(staged, png);
    utimesSync(staged, now, now);
    renameSync(staged, file);
  } catch {
    rmSync(staged, { force: true });
  }
}

/**
 * The store in `dir` for pictures of the drawer `drawer` (16 hex digits, rasterise.ts's drawerIdentity).
 * Opening it removes the subfolders of other drawers (an upgraded resvg draws other bytes) and the pictures
 * no build used for PICTURE_UNUSED_MAX_MS. Undefined when the folder cannot be made.
 */
export function openPictureStore(dir: string, drawer: string, nowMs = Date.now()): PictureStore | undefined {
  if (!DRAWER_FOLDER.test(drawer))
    throw new Error(`a drawer's identity is 16 hex digits, not ${JSON.stringify(drawer)}`);
  const folder = join(dir, drawer);
  try {
    mkdirSync(folder, { recursive: true });
    for (const entry of readdirSync(dir))
      if (entry !== drawer && DRAWER_FOLDER.test(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
    for (const entry of readdirSync(folder)) {
      const file = join(folder, entry);
      if (nowMs - statSync(file).mtimeMs > PICTURE_UNUSED_MAX_MS) rmSync(file, { force: true });
    }
  } catch {
    return undefined;
  }
  const fileOf = (svg: string) => join(folder, `${createHash('sha256').update(svg).digest('hex')}.png`);
  return {
    get(svg) {
      const file = fileOf(svg);
      try {
        if (statSync(file).size > PICTURE_BYTES_MAX) return undefined;
        const bytes = new Uint8Array(readFileSync(file));
        if (!wholePng(bytes)) return undefined;
        const now = new Date(nowMs);
        utimesSync(file, now, now);
        return bytes;
      } catch {
        return undefined;
      }
    },
    put: (svg, png) => keep(fileOf(svg), png, new Date(nowMs)),
    used(svg, png) {
      const file = fileOf(svg);
      const now = new Date(nowMs);
      try {
        utimesSync(file, now, now);
      } catch {
        keep(file, png, now);
      }
    },
  };
}
