// /writings (the list, newest first) and /writings/<slug> (each published writing), with their twins.
// Only published writings reach this module: content.ts drops drafts when it reads site/.
import type { Artifact, BuildContext } from '../../artifact.ts';
import type { Writing } from '../../content/site-content.ts';
import { escapeHtml } from '../../../render/html.ts';
import { coverImage, publishedBody, writingHtml } from './writing-body.ts';
import { twin } from '../../content/twins.ts';
import { absoluteUrl, PAGES, shareImageFile, sitePath } from '../../../contract/pages.ts';
import { frameOf, renderLayout } from '../layout.ts';
import { sitePagesOf } from '../../content/site-pages.ts';
import { publishedAt } from '../feeds.ts';
import { tagLinks } from './tags.ts';
import { writingSearchBox } from './writing-search.ts';
import { neighboursOf, readingFields, writingMain, writingReadingTime } from './reading-aids.ts';

/** The Writings page's description, the owner's words in site.json (content/site-pages.ts). */
export function writingsDescription(ctx: BuildContext): string {
  return (ctx.pages ?? sitePagesOf(ctx.config.site, false)).writingsDescription;
}

/**
 * A writing as a schema.org BlogPosting (JSON-LD): its headline, summary, dates (midnight of its date in the
 * calendar's zone, as the feeds say), page, preview picture and author.
 */
export function blogPostingJsonLd(ctx: BuildContext, w: Writing): Record<string, unknown> {
  const { config } = ctx;
  const page = PAGES.writing(w.slug);
  const published = publishedAt(w.date, config.calendarTimeZone);
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: w.title,
    description: w.summary,
    datePublished: published,
    dateModified: published,
    url: absoluteUrl(config.siteUrl, page.path),
    mainEntityOfPage: absoluteUrl(config.siteUrl, page.path),
    image: absoluteUrl(config.siteUrl, `/${shareImageFile(page)}`),
    inLanguage: config.site.language || 'en',
    wordCount: writingReadingTime(w).words,
    author: { '@type': 'Person', name: config.site.author, url: absoluteUrl(config.siteUrl, PAGES.home.path) },
  };
}

/** One line of the list twin: `- [Title](<absolute url>) — YYYY-MM-DD: <summary>`, em dash U+2014. */
export function writingListLine(siteUrl: string, w: Writing): string {
  return `- [${w.title}](${absoluteUrl(siteUrl, PAGES.writing(w.slug).path)}) \u2014 ${w.date}: ${w.summary}`;
}

export function writingsMarkdown(ctx: BuildContext, writings: Writing[]): string {
  const { siteUrl } = ctx.config;
  const lines = writings.map((w) => writingListLine(siteUrl, w));
  return twin(
    { title: 'Writings', description: writingsDescription(ctx), url: absoluteUrl(siteUrl, PAGES.writings.path) },
    ['# Writings', lines.length ? lines.join('\n') : 'Nothing published yet.'].join('\n\n'),
  );
}

export function writingMarkdown(ctx: BuildContext, w: Writing): string {
  return twin(
    {
      title: w.title,
      description: w.summary,
      url: absoluteUrl(ctx.config.siteUrl, PAGES.writing(w.slug).path),
      date: w.date,
      summary: w.summary,
      slug: w.slug,
      // A flow list, one line like every field: `tags: [architecture, static-hosting]`.
      ...(w.tags.length > 0 ? { tags: `[${w.tags.join(', ')}]` } : {}),
      ...readingFields(writingReadingTime(w)),
    },
    `# ${w.title}\n\n${publishedBody(ctx, w)}`,
  );
}

/** A writing in a list (the Writings page, a tag's page): its cover, title, date, summary and tags. */
export function writingListItem(ctx: BuildContext, w: Writing): string {
  const href = escapeHtml(sitePath(ctx.config.siteUrl, PAGES.writing(w.slug).path));
  return (
    `<li>${coverImage(ctx, w)}<a href="${href}">${escapeHtml(w.title)}</a>` +
    `<span class="meta"><time datetime="${w.date}">${w.date}</time> · ${escapeHtml(w.summary)}</span>${tagLinks(ctx, w.tags)}</li>`
  );
}

export function renderWritings(ctx: BuildContext, writings: Writing[]): Artifact[] {
  const { config } = ctx;
  const layout = { ...frameOf(ctx), nav: 'writings' as const };
  const description = writingsDescription(ctx);
  const items = writings.map((w) => writingListItem(ctx, w)).join('\n');
  const list = renderLayout({
    ...layout,
    page: PAGES.writings,
    title: 'Writings',
    description,
    main: `<h1>Writings</h1>\n<p class="lede">${escapeHtml(description)}</p>\n${writingSearchBox(config.siteUrl, writings)}\n${items ? `<ul class="writing-list">\n${items}\n</ul>` : '<p>Nothing published yet.</p>'}`,
  });
  const artifacts: Artifact[] = [
    { file: PAGES.writings.htmlFile, body: list },
    { file: PAGES.writings.markdownFile, body: writingsMarkdown(ctx, writings) },
  ];
  for (const [i, w] of writings.entries()) {
    const page = PAGES.writing(w.slug);
    const html = renderLayout({
      ...layout,
      page,
      title: w.title,
      description: w.summary,
      ogType: 'article',
      publishedTime: publishedAt(w.date, config.calendarTimeZone),
      jsonLd: blogPostingJsonLd(ctx, w),
      main: writingMain(
        config.siteUrl,
        w,
        `<h1>${escapeHtml(w.title)}</h1>\n<p class="meta"><time datetime="${w.date}">${w.date}</time> · ${escapeHtml(w.summary)}</p>${tagLinks(ctx, w.tags)}`,
        neighboursOf(writings, i),
        writingHtml(ctx, w, 'page'),
      ),
    });
    artifacts.push({ file: page.htmlFile, body: html }, { file: page.markdownFile, body: writingMarkdown(ctx, w) });
  }
  return artifacts;
}
