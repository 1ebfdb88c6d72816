// Writes a file under a temporary name and renames it into place, so no reader ever sees a partial file.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await placeAtomically(path, (temporary) => writeFile(temporary, data));
}

/** Copies `source` to `path` as writeFileAtomic writes: under a temporary name, then renamed into place. */
export async function copyFileAtomic(source: string, path: string): Promise<void> {
  await placeAtomically(path, (temporary) => copyFile(source, temporary));
}

async function placeAtomically(path: string, make: (temporary: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await make(temporary);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
