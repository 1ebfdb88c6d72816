// Listing a built folder: the tests compare what a build wrote against the route table.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under `dir`, relative, with forward slashes, dot-files included, sorted. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : Promise.resolve([`${prefix}${e.name}`]),
    ),
  );
  return nested.flat().sort();
}
