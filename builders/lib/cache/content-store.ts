// What a build made from its content, kept on disk for the next build (BUILD_CACHE_DIR,
// docs/configuration.md): its pictures (builders/build/pictures/rasterise.ts) and its compressed copies
// (builders/build/compressed-artifacts.ts). Each is a pure function of its input and of the code that makes
// it (resvg and its fonts; zlib's and brotli's versions and settings), so the next build takes the same
// bytes from the folder instead of making them again: a scheduled build remakes only what its content
// changed, and builds side by side (the tests') make each once between them.
//
// The folder only ever saves time: a file missing, cut short or not what it should be is made again, and a
// folder that cannot be read or written is a build without it. It never changes what is published.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Files kept by a name made from what they were made of (its SHA-256 in hex, and a suffix). */
export interface ContentStore {
  /** The kept file `name`, its use recorded, when `whole` accepts its bytes; else undefined. */
  get(name: string, whole: (bytes: Uint8Array) => boolean): Uint8Array | undefined;
  /** Keeps `bytes`, just made, as `name`, over whatever was kept. */
  put(name: string, bytes: Uint8Array): void;
  /** Records a use of `name`, made earlier in this process: kept as `bytes` if it is not. */
  used(name: string, bytes: Uint8Array): void;
}

/**
 * A kept file not used for this long is removed when a build opens the folder: a build that used it
 * refreshes its time, so the folder holds what recent builds made and not every title a writing ever had.
 */
export const UNUSED_MAX_MS = 30 * 24 * 3600 * 1000;

/** The maker's identity names a subfolder: only lowercase hex, so that no other folder is ever taken for one. */
const MAKER_FOLDER = /^[0-9a-f]{16}$/;
const NAME = /^[0-9a-f]{64}\.[a-z]{2,4}$/;

/** A larger file is none of ours (the largest, a compressed copy of a large feed, is a few megabytes). */
const KEPT_BYTES_MAX = 64 * 2 ** 20;

/** Writes `bytes` to `file` whole: renamed into place, so that a build beside this one reads the old file or the new one. */
function keep(file: string, bytes: Uint8Array, now: Date): void {
  const staged = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(staged, bytes);
    utimesSync(staged, now, now);
    renameSync(staged, file);
  } catch {
    rmSync(staged, { force: true });
  }
}

/** The folders this process has cleaned up already: once is enough, as every later use refreshes a file's time. */
const TIDIED = new Set<string>();

/** Removes from `dir` the subfolders of makers other than `maker`, and the files of its own no build used for UNUSED_MAX_MS. */
export function tidyContentStore(dir: string, maker: string, nowMs = Date.now()): void {
  const folder = join(dir, maker);
  for (const entry of readdirSync(dir))
    if (entry !== maker && MAKER_FOLDER.test(entry)) rmSync(join(dir, entry), { recursive: true, force: true });
  for (const entry of readdirSync(folder)) {
    const file = join(folder, entry);
    if (nowMs - statSync(file).mtimeMs > UNUSED_MAX_MS) rmSync(file, { force: true });
  }
  TIDIED.add(folder);
}

/**
 * The store in `dir` for what the maker `maker` made (16 hex digits: what the bytes depend on besides the
 * input). Opening it, once per process, removes the subfolders of other makers (an upgraded resvg or zlib
 * makes other bytes) and the files no build used for UNUSED_MAX_MS. Undefined when the folder cannot be made.
 */
export function openContentStore(dir: string, maker: string, nowMs = Date.now()): ContentStore | undefined {
  if (!MAKER_FOLDER.test(maker)) throw new Error(`a maker's identity is 16 hex digits, not ${JSON.stringify(maker)}`);
  const folder = join(dir, maker);
  const now = new Date(nowMs);
  try {
    mkdirSync(folder, { recursive: true });
    // Once per process: a program's builds after the first (the tests', a long-lived one's) find it tidy.
    if (!TIDIED.has(folder)) tidyContentStore(dir, maker, nowMs);
  } catch {
    return undefined;
  }
  const fileOf = (name: string) => {
    if (!NAME.test(name))
      throw new Error(`a kept file is named by a SHA-256 and a suffix, not ${JSON.stringify(name)}`);
    return join(folder, name);
  };
  return {
    get(name, whole) {
      const file = fileOf(name);
      try {
        if (statSync(file).size > KEPT_BYTES_MAX) return undefined;
        const bytes = new Uint8Array(readFileSync(file));
        if (!whole(bytes)) return undefined;
        utimesSync(file, now, now);
        return bytes;
      } catch {
        return undefined;
      }
    },
    put: (name, bytes) => keep(fileOf(name), bytes, now),
    used(name, bytes) {
      const file = fileOf(name);
      try {
        utimesSync(file, now, now);
      } catch {
        keep(file, bytes, now);
      }
    },
  };
}
