// Where each page lives: its path, its files in dist/ and its absolute URL from SITE_URL (docs/configuration.md#variables
// and §5). Absolute links (sitemap, llms files, twins, catalog) come from here and nowhere else.
import { DISCOVERY, type SchemaName } from './service.ts';

export interface PageRef {
  /** URL path without the site's base path: "/", "/writings", "/writings/<slug>". */
  path: string;
  /** HTML file relative to dist/. */
  htmlFile: string;
  /** Markdown twin relative to dist/: the page path plus ".md" ("/index.md" for "/"). */
  markdownFile: string;
}

export function pageRef(path: string): PageRef {
  const stem = path === '/' ? 'index' : path.slice(1);
  return { path, htmlFile: `${stem}.html`, markdownFile: `${stem}.md` };
}

export const PAGES = {
  home: pageRef('/'),
  writings: pageRef('/writings'),
  skills: pageRef('/skills'),
  developers: pageRef(DISCOVERY.developers.path),
  /** Published only when the owner has a site/resume.json (docs/site.md#resumejson). */
  resume: pageRef('/resume'),
  writing: (slug: string) => pageRef(`/writings/${slug}`),
  /** A tag's writings (docs/site.md#tags-and-covers). */
  tag: (tag: string) => pageRef(`/writings/tags/${tag}`),
} as const;

/** Whether `file` (relative to dist/) is a tag's JSON Feed: its type is the feed's, not `.json`'s. */
export function isTagJsonFeed(file: string): boolean {
  return /^writings\/tags\/[a-z0-9]+(?:-[a-z0-9]+)*\.json$/.test(file);
}

/** A tag's own feeds, beside its page: `/writings/tags/<tag>.json` (JSON Feed) and `.atom`. */
export function tagFeeds(tag: string) {
  const stem = `writings/tags/${tag}`;
  return {
    json: { path: `/${stem}.json`, file: `${stem}.json` },
    atom: { path: `/${stem}.atom`, file: `${stem}.atom` },
  } as const;
}

/**
 * A page's preview picture (og:image), relative to dist/: `og/index.png` for `/`, `og/writings/<slug>.png`
 * for a writing. A PNG (Open Graph and Twitter take no SVG), drawn at build time (builders/build/pages/sharing.ts).
 */
export function shareImageFile(page: PageRef): string {
  return `og/${page.htmlFile.replace(/\.html$/, '')}.png`;
}

function iconFile(size: number) {
  return { path: `/icons/icon-${size}.png`, file: `icons/icon-${size}.png`, size } as const;
}

/** The site's icons and its web manifest (W3C Web Application Manifest), relative to dist/. */
export const SITE_ICONS = {
  manifest: { path: '/manifest.webmanifest', file: 'manifest.webmanifest' },
  /** PNG inside an ICO container, for the readers that ask /favicon.ico whatever the page says. */
  favicon: { path: '/favicon.ico', file: 'favicon.ico', size: 32 },
  faviconSvg: { path: '/favicon.svg', file: 'favicon.svg' },
  /** The manifest's icons: 192 and 512 pixels square, the sizes installers ask for. */
  png: [iconFile(192), iconFile(512)],
} as const;

/** The owner's JSON Resume document as published beside /resume (less what is not published). */
export const RESUME_DOCUMENT = { path: '/resume.json', file: 'resume.json', contentType: 'application/json' } as const;

/**
 * The site's content as data, beside its pages: the writings as a JSON Feed 1.1 with an Atom (RFC 4287)
 * twin, the profile and the skills as JSON documents, each validated against its schema under schemas/.
 * The command-line tool reads these and nothing else of the content. The names are the ones readers
 * guess: `/feed.json` is the JSON Feed convention, and `.atom` is a name every static host (GitHub
 * Pages included, which takes no header rules) already serves as application/atom+xml, where `.xml`
 * would be application/xml. Content types: JSON Feed 1.1 ("application/feed+json") and RFC 4287 §7.
 */
export const CONTENT_DOCUMENTS = {
  feed: { path: '/feed.json', file: 'feed.json', contentType: 'application/feed+json', schema: 'JsonFeed' },
  atom: { path: '/feed.atom', file: 'feed.atom', contentType: 'application/atom+xml; charset=utf-8', schema: null },
  profile: { path: '/profile.json', file: 'profile.json', contentType: 'application/json', schema: 'Profile' },
  skills: { path: '/skills.json', file: 'skills.json', contentType: 'application/json', schema: 'Skills' },
} as const satisfies Record<string, { path: string; file: string; contentType: string; schema: SchemaName | null }>;

/** siteUrl is an origin plus an optional base path, without a trailing slash (builders/lib/config.ts). */
export function absoluteUrl(siteUrl: string, path: string): string {
  return path === '/' ? `${siteUrl}/` : `${siteUrl}${path}`;
}

/**
 * A root-relative href for links between pages: the base path of SITE_URL plus the path. Pages link
 * root-relatively so that the same dist/ also works from a local server on another origin.
 */
export function sitePath(siteUrl: string, path: string): string {
  const base = new URL(siteUrl).pathname.replace(/\/+$/, '');
  return `${base}${path}` || '/';
}

/** Resolves a link from site content: absolute URLs stay, "/x" becomes an absolute URL on this site. */
export function resolveContentUrl(siteUrl: string, url: string): string {
  return url.startsWith('/') ? absoluteUrl(siteUrl, url) : url;
}

/** The account's public page on GitHub: the profile links it, and the calendar's disclaimer names it. */
export function githubProfileUrl(account: string): string {
  return `https://github.com/${account}`;
}
