// The owner's picture as profile.md names it (docs/site.md#the-owners-picture): `avatar: github`, which the
// build fetches, or a PNG, JPEG or WebP file in site/, read here and checked by its bytes, its size and the
// pixels its header claims. A file that is missing, outside site/, too large or not such a picture is a
// ContentError naming it (exit 2).
import { readFileSync, statSync } from 'node:fs';
import { ContentError } from '../../lib/errors.ts';
import { imageTypeOf, MAX_AVATAR_BYTES, pictureSizeFault, type Picture } from '../../lib/image-type.ts';
import type { PublishedAvatar } from '../artifact.ts';
import { assertInsideSite, PLAIN_FILE_PATH } from './site-files.ts';

export type AvatarSource =
  | { kind: 'file'; name: string; picture: Picture }
  | { kind: 'github' }
  /** The résumé's `basics.image` as an https URL, fetched by the build under the rules of `avatar: github`. */
  | { kind: 'url'; url: string }
  | null;

/** profile.md's `avatar:`; `root` is site/'s real path (site-files.ts). */
export function avatarSource(dir: URL, root: string, avatar: string | undefined): AvatarSource {
  if (avatar === undefined) return null;
  if (avatar === 'github') return { kind: 'github' };
  return pictureFile(dir, root, avatar, `profile.md "avatar" ${JSON.stringify(avatar.slice(0, 80))}`);
}

/**
 * The résumé's `basics.image`, used when profile.md names no `avatar:` (docs/site.md#resumejson): an https
 * URL, fetched at build time like `avatar: github`, or a picture file in site/ checked like `avatar:`; an
 * empty string is no picture. Any other URL is a ContentError naming resume.json and the pointer.
 */
export function resumeImageSource(dir: URL, root: string, image: string | undefined): AvatarSource {
  if (image === undefined || image.trim() === '') return null;
  const where = `resume.json /basics/image ${JSON.stringify(image.slice(0, 80))}`;
  if (/^https:\/\//i.test(image)) return { kind: 'url', url: image };
  if (/^[a-z][a-z0-9+.-]*:/i.test(image) || image.startsWith('/'))
    throw new ContentError(where, 'expected an https URL or the name of a picture file in site/ (such as me.png)');
  return pictureFile(dir, root, image, where);
}

/**
 * A PNG, JPEG or WebP file in site/ named `name`, within site/ with links followed, checked by its bytes;
 * `where` names it in a refusal.
 */
function pictureFile(dir: URL, root: string, avatar: string, where: string): AvatarSource {
  if (!PLAIN_FILE_PATH.test(avatar))
    throw new ContentError(where, 'must be github or the name of a picture file in site/ (such as me.png)');
  const url = new URL(avatar.split('/').map(encodeURIComponent).join('/'), dir);
  const size = statSync(url, { throwIfNoEntry: false });
  if (size === undefined) throw new ContentError(where, `site/${avatar} is missing`);
  if (!size.isFile()) throw new ContentError(where, `site/${avatar} is not a file`);
  assertInsideSite(root, url, where, `site/${avatar} `);
  if (size.size > MAX_AVATAR_BYTES)
    throw new ContentError(
      where,
      `site/${avatar} is ${size.size} bytes, more than 2 MiB (${MAX_AVATAR_BYTES}); make it smaller`,
    );
  const bytes = new Uint8Array(readFileSync(url));
  const type = imageTypeOf(bytes);
  if (type === null)
    throw new ContentError(where, `site/${avatar} is not a PNG, JPEG or WebP picture (read by its bytes)`);
  const fault = pictureSizeFault(bytes);
  if (fault !== null) throw new ContentError(where, `site/${avatar} ${fault}; make it smaller`);
  return { kind: 'file', name: avatar, picture: { bytes, type } };
}

/** Where the site publishes the picture: under assets/, named by its type. */
export function publishedAvatar(picture: Picture): PublishedAvatar {
  const file = `assets/avatar.${picture.type.extension}`;
  return { file, path: `/${file}`, picture };
}
