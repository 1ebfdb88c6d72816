// Writes a file under a temporary name and renames it into place, so no reader ever sees a partial file.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface PlaceOptions {
  /** The caller has made the file's folder already (a build writing thousands of files makes each once). */
  folderMade?: boolean;
}

export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: PlaceOptions = {},
): Promise<void> {
  await placeAtomically(path, (temporary) => writeFile(temporary, data), options);
}

/** Copies `source` to `path` as writeFileAtomic writes: under a temporary name, then renamed into place. */
export async function copyFileAtomic(source: string, path: string, options: PlaceOptions = {}): Promise<void> {
  await placeAtomically(path, (temporary) => copyFile(source, temporary), options);
}

async function placeAtomically(
  path: string,
  make: (temporary: string) => Promise<void>,
  options: PlaceOptions,
): Promise<void> {
  if (!options.folderMade) await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await make(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
