// The links a published document holds, by the document's kind, and which of them point into the site.
// Pure: (file, text) → links; (link, document URL, site URL) → a site path or a reason it is not one.
// "Link" is generous on purpose: besides href/src attributes and Markdown link targets, every absolute
// URL written out in running text counts (a `curl https://…/api` in a code block is followed by readers).

export type DocumentKind = 'html' | 'markdown' | 'xml' | 'json';

/** The kind of a dist/ file, or undefined for files that hold no links to check (CSS, scripts, images). */
export function documentKind(file: string, jsonFiles: Pick<ReadonlySet<string>, 'has'>): DocumentKind | undefined {
  if (file.endsWith('.html')) return 'html';
  if (file.endsWith('.md') || file.endsWith('.txt')) return 'markdown';
  if (file.endsWith('.xml')) return 'xml';
  if (file.endsWith('.json') || jsonFiles.has(file)) return 'json';
  return undefined;
}

/** An absolute http(s) URL in running text, up to whitespace or a character that cannot end it there. */
const BARE_URL = /https?:\/\/[^\s<>"'`()[\]{}|\\^]+/g;
/** Trailing punctuation of a sentence is not part of the URL it ends. */
const TRAILING = /[.,;:!?*_]+$/;

const ATTRIBUTE = /\s(?:href|src|data-source|data-module)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const MARKDOWN_TARGET = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const AUTOLINK = /<(https?:\/\/[^>\s]+)>/g;
const LOC = /<loc>\s*([^<\s]+)\s*<\/loc>/g;

const decodeEntities = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function bareUrls(text: string): string[] {
  return [...text.matchAll(BARE_URL)].map((m) => m[0].replace(TRAILING, ''));
}

/** Every link the document holds, as written (relative ones included), without duplicates. */
export function extractLinks(kind: DocumentKind, text: string): string[] {
  const links: string[] = [];
  if (kind === 'html') {
    for (const m of text.matchAll(ATTRIBUTE)) links.push(decodeEntities(m[1] ?? m[2] ?? ''));
    links.push(...bareUrls(decodeEntities(text)));
  } else if (kind === 'markdown') {
    for (const m of text.matchAll(MARKDOWN_TARGET)) links.push(m[1]!);
    for (const m of text.matchAll(AUTOLINK)) links.push(m[1]!);
    links.push(...bareUrls(text));
  } else if (kind === 'xml') {
    for (const m of text.matchAll(LOC)) links.push(decodeEntities(m[1]!));
    links.push(...bareUrls(decodeEntities(text)));
  } else {
    // JSON: every string value that is an absolute URL, and absolute URLs inside longer strings.
    const walk = (value: unknown): void => {
      if (typeof value === 'string') links.push(...bareUrls(value));
      else if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(JSON.parse(text));
  }
  return [...new Set(links.filter((l) => l !== ''))];
}

export type LinkTarget =
  { kind: 'site'; path: string } | { kind: 'outside-base'; url: string } | { kind: 'external' } | { kind: 'not-http' };

/**
 * Where a link leads, seen from the document at `documentUrl` on the site at `siteUrl` (origin plus
 * optional base path, no trailing slash). A link to the site's own origin but outside its base path is
 * its own kind: on a fork's Pages site (`https://owner.github.io/repo`) it leads to another site.
 */
export function classifyLink(link: string, documentUrl: string, siteUrl: string): LinkTarget {
  if (/^(?:data|mailto|tel|javascript):/i.test(link)) return { kind: 'not-http' };
  let url: URL;
  try {
    url = new URL(link, documentUrl);
  } catch {
    return { kind: 'not-http' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'not-http' };
  const site = new URL(siteUrl);
  if (url.origin !== site.origin) return { kind: 'external' };
  const base = site.pathname.replace(/\/+$/, '');
  if (url.pathname !== base && !url.pathname.startsWith(`${base}/`)) return { kind: 'outside-base', url: url.href };
  return { kind: 'site', path: url.pathname.slice(base.length) || '/' };
}
