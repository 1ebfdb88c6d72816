// Whether a file, symbolic links followed, lies under a folder's own real path: the one test behind every
// file of site/ the build reads (build/content/site-files.ts, the stylesheet) and site.json (config.ts). A
// link to a file elsewhere would publish it, or let it set the site's words.
import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `dir` as its real path, links followed. */
export function realFolder(dir: URL): string {
  return realpathSync(fileURLToPath(dir));
}

/** True when `file`, an existing file, resolves under `root` (a realFolder). */
export function liesUnder(root: string, file: URL): boolean {
  return realpathSync(file).startsWith(`${root}${sep}`);
}
