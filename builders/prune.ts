// What an earlier build left in the output folder and this build did not write: a writing turned back
// into a draft, a page that was removed, a temporary file of a build that was killed, a hidden file
// someone dropped there. dist/ is published whole (hidden files included, for .well-known/), so each
// of those would be published as current. They are removed, but only from a folder that is a build's
// own: one that is new or empty, or that holds a valid API index from an earlier build. Any other
// folder (DIST_DIR pointed at the wrong place) keeps every file it had.
import { lstat, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { API_INDEX } from '../core/routes.ts';
import type { Validator } from '../core/schemas.ts';

/** True when the folder is missing, empty, or was written by an earlier build. */
export async function isBuildOutput(outDir: string, validator: Validator): Promise<boolean> {
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  if (entries.length === 0) return true;
  try {
    validator.validate('ApiIndex', JSON.parse(await readFile(join(outDir, API_INDEX.file), 'utf8')));
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes every file (or link) under outDir whose relative path is not in `keep`, then the folders
 * this leaves empty. Links are removed, never followed. Returns the removed paths, sorted.
 */
export async function pruneStale(outDir: string, keep: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (relative: string): Promise<boolean> => {
    const entries = await readdir(join(outDir, relative), { withFileTypes: true });
    let empty = true;
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (await walk(path)) await rmdir(join(outDir, path));
        else empty = false;
      } else if (keep.has(path)) {
        empty = false;
      } else {
        await rm(join(outDir, path), { force: true });
        removed.push(path);
      }
    }
    return empty;
  };
  if ((await lstat(outDir)).isDirectory()) await walk('');
  return removed.sort();
}
