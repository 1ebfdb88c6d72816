// The published writings as feeds: /feed.json, a JSON Feed 1.1 (https://jsonfeed.org/version/1.1), and
// /feed.atom, its Atom (RFC 4287) twin with the same entries. Feed readers find both through the
// `<link rel="alternate">` of every page (layout.ts). Pure: (context, writings) → documents.
import { DateTime } from 'luxon';
import type { BuildContext } from '../artifact.ts';
import type { JsonFeed } from '../../contract/payload-types.ts';
import { CONSTANTS } from '../../contract/service.ts';
import { absoluteUrl, CONTENT_DOCUMENTS, PAGES } from '../../contract/pages.ts';
import type { Writing } from '../content/site-content.ts';
import { escapeHtml } from '../../render/html.ts';
import { publishedBody, writingHtml } from './writings/writing-body.ts';
import { markdownToText } from './plain-text.ts';
import { writingsDescription } from './writings/writings.ts';

/**
 * A writing carries a date, not an instant; both formats want an RFC 3339 date-time. Midnight of that
 * date where the author lives (the site's zone) keeps the date a reader's feed reader shows the same.
 */
export function publishedAt(date: string, timeZone: string): string {
  return DateTime.fromISO(date, { zone: timeZone }).toISO({ suppressMilliseconds: true })!;
}

/** Which writings a feed is of: all of them (the site's feeds), or a tag's (pages/writings/tags.ts). */
export interface FeedScope {
  title: string;
  description: string;
  /** The page the feed is of, and the feeds' own paths. */
  homePath: string;
  jsonPath: string;
  atomPath: string;
}

/** The site's feeds: every published writing. */
export function siteFeedScope(ctx: BuildContext): FeedScope {
  return {
    title: `${ctx.config.site.title}: Writings`,
    description: writingsDescription(ctx),
    homePath: PAGES.writings.path,
    jsonPath: CONTENT_DOCUMENTS.feed.path,
    atomPath: CONTENT_DOCUMENTS.atom.path,
  };
}

export function jsonFeed(ctx: BuildContext, writings: Writing[], scope: FeedScope = siteFeedScope(ctx)): JsonFeed {
  const { config } = ctx;
  const url = (path: string) => absoluteUrl(config.siteUrl, path);
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: scope.title,
    home_page_url: url(scope.homePath),
    feed_url: url(scope.jsonPath),
    description: scope.description,
    language: config.site.language || 'en',
    authors: [{ name: config.site.author, url: url(PAGES.home.path) }],
    items: writings.map((w) => {
      const page = url(PAGES.writing(w.slug).path);
      return {
        id: page,
        url: page,
        title: w.title,
        summary: w.summary,
        date_published: publishedAt(w.date, ctx.config.calendarTimeZone),
        content_html: writingHtml(ctx, w, 'feed'),
        content_text: markdownToText(publishedBody(ctx, w)),
      };
    }),
  };
}

/** XML 1.0 §2.2 allows no C0 control but tab, LF and CR, and no U+FFFE or U+FFFF: dropped, then escaped. */
function xmlText(text: string): string {
  return escapeHtml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, ''));
}

/**
 * The same feed as Atom (RFC 4287): §4.1.1 a feed has an id, a title and an `updated` (the newest
 * entry's, so that the file only changes when a writing does; the build's time when there is none), an
 * author for entries that name none, and a `self` link; each entry an id, a title, an `updated`, an
 * alternate link and its content, here as escaped HTML (`type="html"`, §3.1.1.2).
 */
export function atomFeed(ctx: BuildContext, feed: JsonFeed, scope: FeedScope = siteFeedScope(ctx)): string {
  const updated = feed.items[0]?.date_published ?? new Date(ctx.nowMs).toISOString();
  const link = (rel: string, type: string, href: string) =>
    `<link rel="${rel}" type="${type}" href="${xmlText(href)}"/>`;
  const entries = feed.items.map((item) =>
    [
      '  <entry>',
      `    <id>${xmlText(item.id)}</id>`,
      `    <title>${xmlText(item.title)}</title>`,
      `    ${link('alternate', 'text/html', item.url)}`,
      `    <published>${item.date_published}</published>`,
      `    <updated>${item.date_published}</updated>`,
      `    <summary>${xmlText(item.summary)}</summary>`,
      `    <content type="html">${xmlText(item.content_html)}</content>`,
      '  </entry>',
    ].join('\n'),
  );
  const author = feed.authors[0]!;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlText(feed.language)}">`,
    `  <id>${xmlText(feed.home_page_url)}</id>`,
    `  <title>${xmlText(feed.title)}</title>`,
    `  <subtitle>${xmlText(feed.description)}</subtitle>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${xmlText(author.name)}</name><uri>${xmlText(author.url)}</uri></author>`,
    // The site first: a reader that takes the first link as the feed's home (as many do) shows the writings'
    // page, not the feed itself.
    `  ${link('alternate', 'text/html', feed.home_page_url)}`,
    `  ${link('self', CONTENT_DOCUMENTS.atom.contentType.split(';')[0]!, absoluteUrl(ctx.config.siteUrl, scope.atomPath))}`,
    `  ${link('alternate', CONTENT_DOCUMENTS.feed.contentType, feed.feed_url)}`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
