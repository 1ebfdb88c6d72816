// A writing's body as the site publishes it (docs/site.md#pictures-in-a-writing): its pictures at the URLs
// the site serves them from, with their sizes, and a picture the build could not fetch as its alt text.
// Every place that shows the body reads it here: the page, its Markdown twin, the feeds, llms-full.txt,
// so none of them names a picture's original host. Pure.
import type { BuildContext } from '../../artifact.ts';
import type { Writing } from '../../content/site-content.ts';
import { renderMarkdown, type ShownPicture } from '../../content/markdown.ts';
import { withPublishedPictures } from '../../content/writing-pictures.ts';
import { absoluteUrl, sitePath } from '../../../contract/pages.ts';
import { escapeHtml } from '../../../render/html.ts';

/** The body's Markdown with each picture at its published absolute URL (twins, feeds' text). */
export function publishedBody(ctx: BuildContext, w: Writing): string {
  if (!w.body.includes('![')) return w.body;
  const published = ctx.pictures ?? new Map();
  return withPublishedPictures(w.body, (href) => {
    const picture = published.get(href);
    // Not published (a script or data URL, a picture not fetched): its alt text in its place.
    return picture === undefined || picture === null ? null : absoluteUrl(ctx.config.siteUrl, picture.path);
  });
}

/** The body's HTML: pictures at their root-relative path for the pages, at their absolute URL for a feed. */
export function writingHtml(ctx: BuildContext, w: Writing, where: 'page' | 'feed'): string {
  const { siteUrl } = ctx.config;
  const shown = new Map<string, ShownPicture>();
  for (const picture of ctx.pictures?.values() ?? [])
    if (picture !== null) {
      const url = absoluteUrl(siteUrl, picture.path);
      const src = where === 'page' ? sitePath(siteUrl, picture.path) : url;
      shown.set(url, { src, width: picture.width, height: picture.height });
    }
  // On the page each section heading links to itself; in a feed a relative #id leads nowhere.
  return renderMarkdown(publishedBody(ctx, w), { pictures: shown, headingLinks: where === 'page' });
}

/** The writing's cover as an <img> (decorative beside its title: empty alt), or '' when it has none. */
export function coverImage(ctx: BuildContext, w: Writing): string {
  const picture = w.cover === null ? undefined : ctx.pictures?.get(w.cover.href);
  if (picture === undefined || picture === null) return '';
  const src = escapeHtml(sitePath(ctx.config.siteUrl, picture.path));
  return `<img class="cover" src="${src}" alt="" width="${picture.width}" height="${picture.height}" loading="lazy" decoding="async">`;
}
