// Where each page lives: its path, its files in dist/ and its absolute URL from SITE_URL (docs/configuration.md#variables
// and §5). Absolute links (sitemap, llms files, twins, catalog) come from here and nowhere else.
import { DISCOVERY } from './service.ts';

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
  writing: (slug: string) => pageRef(`/writings/${slug}`),
} as const;

/** siteUrl is an origin plus an optional base path, without a trailing slash (lib/config.ts). */
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
