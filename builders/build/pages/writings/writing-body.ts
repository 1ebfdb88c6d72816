// A writing's body as the site publishes it (docs/site.md#pictures-in-a-writing): its pictures at the URLs
// the site serves them from, with their sizes, and a picture the build could not fetch as its alt text.
// Every place that shows the body reads it here: the page, its Markdown twin, the feeds, llms-full.txt,
// so none of them names a picture's original host. Pure.
import type { BuildContext, PublishedPictures } from '../../artifact.ts';
import type { Writing } from '../../content/site-content.ts';
import { renderMarkdown, type ShownPicture } from '../../content/markdown.ts';
import { withPublishedPictures } from '../../content/writing-pictures.ts';
import { absoluteUrl, sitePath } from '../../../contract/pages.ts';
import { escapeHtml } from '../../../render/html.ts';

/** No picture published: a site rendered without its build (a test of the pages alone). */
const NONE: PublishedPictures = new Map();

/** What was worked out once per build (by its pictures) and site URL: each writing's body, each place's pictures. */
interface Worked {
  siteUrl: string;
  bodies: WeakMap<Writing, string>;
  shown: Partial<Record<'page' | 'feed', ReadonlyMap<string, ShownPicture>>>;
}
const WORKED = new WeakMap<PublishedPictures, Worked>();

function workedFor(ctx: BuildContext): Worked {
  const pictures = ctx.pictures ?? NONE;
  let worked = WORKED.get(pictures);
  if (worked === undefined || worked.siteUrl !== ctx.config.siteUrl) {
    worked = { siteUrl: ctx.config.siteUrl, bodies: new WeakMap(), shown: {} };
    WORKED.set(pictures, worked);
  }
  return worked;
}

/**
 * The body's Markdown with each picture at its published absolute URL (twins, feeds' text), made once per
 * writing: the page, the twin and both feed fields read it.
 */
export function publishedBody(ctx: BuildContext, w: Writing): string {
  if (!w.body.includes('![')) return w.body;
  const { bodies } = workedFor(ctx);
  let body = bodies.get(w);
  if (body === undefined) {
    const published = ctx.pictures ?? NONE;
    body = withPublishedPictures(w.body, (href) => {
      const picture = published.get(href);
      // Not published (a script or data URL, a picture not fetched): its alt text in its place.
      return picture === undefined || picture === null ? null : absoluteUrl(ctx.config.siteUrl, picture.path);
    });
    bodies.set(w, body);
  }
  return body;
}

/** The published pictures by their absolute URL, as a page (root-relative) or a feed (absolute) shows them. */
function shownPictures(ctx: BuildContext, where: 'page' | 'feed'): ReadonlyMap<string, ShownPicture> {
  const worked = workedFor(ctx);
  let shown = worked.shown[where];
  if (shown === undefined) {
    const { siteUrl } = ctx.config;
    const map = new Map<string, ShownPicture>();
    for (const picture of ctx.pictures?.values() ?? [])
      if (picture !== null) {
        const url = absoluteUrl(siteUrl, picture.path);
        map.set(url, {
          src: where === 'page' ? sitePath(siteUrl, picture.path) : url,
          width: picture.width,
          height: picture.height,
        });
      }
    worked.shown[where] = shown = map;
  }
  return shown;
}

/** The body's HTML: pictures at their root-relative path for the pages, at their absolute URL for a feed. */
export function writingHtml(ctx: BuildContext, w: Writing, where: 'page' | 'feed'): string {
  // On the page each section heading links to itself; in a feed a relative #id leads nowhere.
  return renderMarkdown(publishedBody(ctx, w), { pictures: shownPictures(ctx, where), headingLinks: where === 'page' });
}

/** The writing's cover as an <img> (decorative beside its title: empty alt), or '' when it has none. */
export function coverImage(ctx: BuildContext, w: Writing): string {
  const picture = w.cover === null ? undefined : ctx.pictures?.get(w.cover.href);
  if (picture === undefined || picture === null) return '';
  const src = escapeHtml(sitePath(ctx.config.siteUrl, picture.path));
  return `<img class="cover" src="${src}" alt="" width="${picture.width}" height="${picture.height}" loading="lazy" decoding="async">`;
}
