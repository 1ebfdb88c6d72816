// The writings' pictures as the site publishes them (docs/site.md#pictures-in-a-writing): each file beside a
// writing and each cover under dist/writings/, as site/writings/ holds them; each https picture fetched once
// per build (one redirect to https, 5 MiB, the five types, the pixel bound) and published under
// dist/assets/pictures/, named by its bytes, so that the pages load it from the site (img-src 'self').
// A picture that cannot be fetched is left out: the page shows its alt text, and the build says so in one
// line; the exit status stays the datasets' to decide.
import { createHash } from 'node:crypto';
import { oneLine } from '../../lib/text/one-line.ts';
import { pictureSize, writingPictureTypeOf } from '../../lib/image-type.ts';
import { fetchPicture, type PictureKinds } from '../../upstreams/github-avatar.ts';
import type { PublishedPicture, PublishedPictures } from '../artifact.ts';
import type { Writing } from './site-content.ts';
import { MAX_WRITING_PICTURE_BYTES, publishedLocalPicture } from './writing-pictures.ts';

const WRITING_PICTURE_KINDS: PictureKinds = {
  typeOf: writingPictureTypeOf,
  named: 'a PNG, JPEG, WebP, GIF or AVIF',
  accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif',
  maxBytes: MAX_WRITING_PICTURE_BYTES,
};

/** The pictures of `writings` that are files beside them, and their covers: published as they are. */
export function localPictures(writings: readonly Writing[]): Map<string, PublishedPicture | null> {
  const published = new Map<string, PublishedPicture | null>();
  for (const w of writings) {
    if (w.cover !== null) published.set(w.cover.href, publishedLocalPicture(w.cover));
    for (const picture of w.pictures)
      if (picture.kind === 'file') published.set(picture.href, publishedLocalPicture(picture));
  }
  return published;
}

/** How many pictures are asked at once: a writing of fifty pictures does not open fifty connections. */
const AT_ONCE = 4;

/**
 * Every picture of `writings`, published: the local ones at once, the https ones fetched, each URL once.
 * `warn` is told of each that was not fetched, with the writings that name it.
 */
export async function publishPictures(
  writings: readonly Writing[],
  request: { siteUrl: string; timeoutMs: number },
  warn: (line: string) => void,
): Promise<PublishedPictures> {
  const published = localPictures(writings);
  const remote = new Map<string, string[]>();
  for (const w of writings)
    for (const picture of w.pictures)
      if (picture.kind === 'url')
        remote.set(picture.href, [...(remote.get(picture.href) ?? []), `writings/${w.slug}.md`]);
  const queue = [...remote.keys()];
  const ask = async (): Promise<void> => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      try {
        const picture = await fetchPicture(url, request, 'writing-picture', WRITING_PICTURE_KINDS);
        const digest = createHash('sha256').update(picture.bytes).digest('hex').slice(0, 20);
        const file = `assets/pictures/${digest}.${picture.type.extension}`;
        published.set(url, { file, path: `/${file}`, ...pictureSize(picture.bytes)!, bytes: picture.bytes });
      } catch (error) {
        published.set(url, null);
        const reason = oneLine(error instanceof Error ? error.message : String(error), 1000);
        warn(
          `build: the picture ${url} (${remote.get(url)!.join(', ')}) was not fetched: ${reason}; its alt text stands in its place`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, ask));
  return published;
}
