// /sitemap.xml (sitemaps.org 0.9) and /robots.txt. The sitemap lists published HTML pages only: no
// Markdown twins, no API answers, no drafts (content.ts never hands drafts to a generator).
import type { Config } from '../../lib/config.ts';
import { DISCOVERY } from '../../contract/service.ts';
import { escapeHtml } from '../../render/html.ts';
import { absoluteUrl } from '../../contract/pages.ts';

export interface SitemapEntry {
  path: string;
  /** W3C date (YYYY-MM-DD), optional. */
  lastmod?: string;
}

export function sitemapXml(config: Config, entries: SitemapEntry[]): string {
  const urls = entries.map((e) => {
    const lastmod = e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : '';
    // sitemaps.org: "all data values ... must be entity-escaped".
    return `  <url><loc>${escapeHtml(absoluteUrl(config.siteUrl, e.path))}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(config: Config): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(config.siteUrl, DISCOVERY.sitemap.path)}\n`;
}
