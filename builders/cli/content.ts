// The site's content as the CLI reads it: /profile.json, /skills.json, /resume.json and the writings' JSON Feed
// (builders/contract/pages.ts CONTENT_DOCUMENTS), already checked against their schemas (schema-check.ts) when they
// reach this module. Pure: documents in, the values the commands print out.
import type { JsonFeed } from '../contract/payload-types.ts';

type FeedItem = JsonFeed['items'][number];
import { UnexpectedBody } from './errors.ts';

export type { JsonFeed, Profile, Skills } from '../contract/payload-types.ts';

export interface WritingEntry {
  slug: string;
  title: string;
  /** YYYY-MM-DD: the writing's date where it was published (the date part of date_published). */
  date: string;
  summary: string;
  url: string;
}

export interface Writing extends WritingEntry {
  /** The body as plain text (the feed's content_text). */
  text: string;
  /** The body as HTML (content_html). */
  html: string;
}

/** A writing's page is /writings/<slug>: the slug is the last segment of its URL. */
export function slugOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    throw new UnexpectedBody(`${JSON.stringify(url)} is not a URL`);
  }
  let segment: string;
  try {
    segment = decodeURIComponent(path.replace(/\/+$/, '').split('/').pop() ?? '');
  } catch {
    throw new UnexpectedBody(`${JSON.stringify(url)} is not a writing's URL`);
  }
  if (!segment) throw new UnexpectedBody(`${JSON.stringify(url)} has no slug`);
  return segment;
}

function entryOf(item: FeedItem): WritingEntry {
  return {
    slug: slugOf(item.url),
    title: item.title,
    date: item.date_published.slice(0, 10),
    summary: item.summary,
    url: item.url,
  };
}

/** The list the `writings` command prints: the feed's order, newest first. */
export function writingsOf(feed: JsonFeed): { url: string; writings: WritingEntry[] } {
  return { url: feed.home_page_url, writings: feed.items.map(entryOf) };
}

/** One writing by slug, or null when the feed has none by that slug. */
export function writingOf(feed: JsonFeed, slug: string): Writing | null {
  const item = feed.items.find((i) => slugOf(i.url) === slug);
  return item ? { ...entryOf(item), text: item.content_text, html: item.content_html } : null;
}

/**
 * /resume.json, the owner's JSON Resume document. The CLI carries no JSON Resume schema (the build validated
 * the document against it): a document that is no object is refused, and of the rest the renderer shows only
 * the strings it expects; --json prints the document as it is.
 */
export function resumeOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UnexpectedBody('a JSON Resume document is a JSON object');
  return value as Record<string, unknown>;
}
