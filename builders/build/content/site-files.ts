// The one rule for every file of site/ the build reads (its content files, the owner's picture, the
// résumé's basics.image): the file, symbolic links followed, must lie under site/'s own real path. A link
// to a file elsewhere would publish it (a page, a feed, dist/assets/), and what the site publishes is what
// site/ holds (docs/site.md#what-content-may-contain).
import { ContentError } from '../../lib/errors.ts';
import { liesUnder, realFolder } from '../../lib/real-path.ts';

/**
 * How a content file names another file of site/ (a picture): a relative path of plain segments, letters,
 * digits, `.`, `_` and `-`, none starting with a dot, so no dot-file and no `..` out of the folder.
 */
export const PLAIN_FILE_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** site/ (or `dir`) as its real path, links followed: what every file read must lie under. */
export function siteRoot(dir: URL): string {
  return realFolder(dir);
}

/**
 * Throws a ContentError naming `where` unless `url`, an existing file, resolves under `root` (siteRoot).
 * `shown` is how the line names the file, before what is wrong with it (`site/me.png `); `folder`, the
 * folder `root` is, as the line names it.
 */
export function assertInsideSite(root: string, url: URL, where: string, shown = '', folder = 'site/'): void {
  if (!liesUnder(root, url))
    throw new ContentError(
      where,
      `${shown}resolves to a file outside ${folder} (a symbolic link); copy the file into ${folder} instead`,
    );
}
