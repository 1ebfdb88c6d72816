// The pictures of a writing (docs/site.md#pictures-in-a-writing): each `![alt](…)` of its body and its
// cover (`image:`). A file beside the writing, under site/writings/ with links followed, is read and checked
// here by its bytes (PNG, JPEG, WebP, GIF or AVIF), its size and the pixels its header claims, and is
// published beside the page; an https URL is fetched by the build (published-pictures.ts) and served from
// the site, so that the pages' policy stays `img-src 'self' data:`. Every mistake is a ContentError naming
// the writing and the picture (exit 2), found when site/ is read: before any upstream is asked.
import { readFileSync, statSync } from 'node:fs';
import { Marked, type Tokens } from 'marked';
import { ContentError } from '../../lib/errors.ts';
import {
  pictureSize,
  pictureSizeFault,
  writingPictureTypeOf,
  type Picture,
  type PictureSize,
} from '../../lib/image-type.ts';
import type { PublishedPicture } from '../artifact.ts';
import { assertInsideSite, PLAIN_FILE_PATH } from './site-files.ts';

/** The largest picture a writing may show, a file of site/ or fetched: 5 MiB. */
export const MAX_WRITING_PICTURE_BYTES = 5 * 1024 * 1024;

/** A file beside the writing, read and checked. */
export interface LocalPicture {
  kind: 'file';
  /** As the writing names it: `diagram.png`, `./shots/a.webp`. */
  href: string;
  /** Its path under site/writings/, and under dist/writings/ once published. */
  name: string;
  picture: Picture;
  size: PictureSize;
}

/** An https picture, fetched by the build. */
export interface RemotePicture {
  kind: 'url';
  href: string;
}

export type WritingPicture = LocalPicture | RemotePicture;

/** An image of a Markdown text: its URL and alt text as written, and the Markdown that wrote it. */
export interface MarkdownImage {
  href: string;
  alt: string;
  title: string | null;
  raw: string;
}

const lexer = new Marked({ gfm: true });

/**
 * Every image of `markdown`, in its order (inside links, lists and tables too). Raw HTML is not one: what
 * it draws is the sanitizer's to judge (sanitize.ts), and the pages' policy loads nothing from elsewhere.
 */
export function imagesOf(markdown: string): MarkdownImage[] {
  const images: MarkdownImage[] = [];
  lexer.walkTokens(lexer.lexer(markdown), (token) => {
    if (token.type !== 'image') return;
    const image = token as Tokens.Image;
    images.push({ href: image.href, alt: image.text, title: image.title ?? null, raw: image.raw });
  });
  return images;
}

/** The extensions a file of each type may have: a static host serves a picture by its name's extension. */
const EXTENSIONS: Record<string, readonly string[]> = {
  png: ['png'],
  jpg: ['jpg', 'jpeg'],
  webp: ['webp'],
  gif: ['gif'],
  avif: ['avif'],
};

/**
 * Every picture `body` shows, each once (by its URL); `writings` is site/writings/, `root` its real path.
 * An image without alt text, a file that is missing, outside site/writings/, too large or not a picture,
 * or a URL that is neither such a file nor https, is a ContentError naming `file` and the picture.
 */
export function writingPictures(writings: URL, root: string, file: string, body: string): WritingPicture[] {
  const images = imagesOf(body);
  const seen = new Map<string, WritingPicture>();
  for (const { href, alt } of images) {
    const shown = JSON.stringify(href.slice(0, 120));
    if (alt.trim() === '')
      throw new ContentError(
        file,
        `the picture ${shown} has no alt text; say what it shows between the brackets: ![what it shows](${href.slice(0, 120)})`,
      );
    if (seen.has(href)) continue;
    // A script or data URL is no picture of the site's: the sanitizer drops it (sanitize.ts), and the
    // pages show its alt text (pages/writings/writing-body.ts).
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^https?:/i.test(href)) continue;
    if (/^http:/i.test(href))
      throw new ContentError(
        file,
        `the picture ${shown} is on http:; give its https URL, or put the file beside the writing`,
      );
    if (/^https:\/\//i.test(href)) {
      const url = URL.parse(href);
      if (url === null || url.protocol !== 'https:' || url.username !== '' || url.password !== '')
        throw new ContentError(file, `the picture ${shown} is not a usable https URL (https://host/path)`);
      seen.set(href, { kind: 'url', href });
    } else {
      seen.set(href, localPicture(writings, root, file, href, `the picture ${shown}`));
    }
  }
  return [...seen.values()];
}

/** The cover, `image:` (docs/site.md#tags-and-covers): a picture file beside the writing. */
export function coverPicture(writings: URL, root: string, file: string, name: string): LocalPicture {
  return localPicture(writings, root, file, name, `"image" ${JSON.stringify(name.slice(0, 120))}`);
}

/** `href`, a file beside the writing, read and checked; `what` names it in a refusal. */
function localPicture(writings: URL, root: string, file: string, href: string, what: string): LocalPicture {
  const name = href.replace(/^(?:\.\/)+/, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(name) || name.startsWith('/'))
    throw new ContentError(
      file,
      `${what} must be a picture file beside the writing in site/writings/ (such as diagram.png) or an https URL`,
    );
  if (!PLAIN_FILE_PATH.test(name))
    throw new ContentError(
      file,
      `${what} must name a file in site/writings/ by a plain path: letters, digits, ".", "_" and "-", folders with "/", never ".." or a name starting with a dot`,
    );
  const published = `site/writings/${name}`;
  const url = new URL(name, writings);
  const stat = statSync(url, { throwIfNoEntry: false });
  if (stat === undefined) throw new ContentError(file, `${what}: ${published} is missing`);
  if (!stat.isFile()) throw new ContentError(file, `${what}: ${published} is not a file`);
  assertInsideSite(root, url, file, `${what}: ${published} `, 'site/writings/');
  if (stat.size > MAX_WRITING_PICTURE_BYTES)
    throw new ContentError(
      file,
      `${what}: ${published} is ${stat.size} bytes, more than 5 MiB (${MAX_WRITING_PICTURE_BYTES}); make it smaller`,
    );
  const bytes = new Uint8Array(readFileSync(url));
  const type = writingPictureTypeOf(bytes);
  if (type === null)
    throw new ContentError(
      file,
      `${what}: ${published} is not a PNG, JPEG, WebP, GIF or AVIF picture (read by its bytes)`,
    );
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (!EXTENSIONS[type.extension]!.includes(extension))
    throw new ContentError(
      file,
      `${what}: ${published} is a ${type.contentType} picture by its bytes; name it .${type.extension} so that every host serves it as one`,
    );
  const fault = pictureSizeFault(bytes);
  if (fault !== null) throw new ContentError(file, `${what}: ${published} ${fault}; make it smaller`);
  return { kind: 'file', href, name, picture: { bytes, type }, size: pictureSize(bytes)! };
}

/** A file beside the writing, published beside the page: `writings/<name>`. */
export function publishedLocalPicture(local: LocalPicture): PublishedPicture {
  const file = `writings/${local.name}`;
  return { file, path: `/${file}`, ...local.size, bytes: local.picture.bytes };
}

/**
 * `markdown` with each image's URL replaced by `urlOf(href)`: the published picture's URL, or, for null,
 * the image replaced by its alt text (a picture that could not be fetched); undefined leaves it as written.
 */
export function withPublishedPictures(markdown: string, urlOf: (href: string) => string | null | undefined): string {
  let text = markdown;
  for (const image of imagesOf(markdown)) {
    const url = urlOf(image.href);
    if (url === undefined) continue;
    const title = image.title === null ? '' : ` "${image.title.replace(/["\\]/g, '\\$&')}"`;
    text = text.split(image.raw).join(url === null ? image.alt : `![${image.alt}](<${url}>${title})`);
  }
  return text;
}
