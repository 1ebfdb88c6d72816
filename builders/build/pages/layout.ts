// The shared page layout: one HTML shell for every page, readable on a phone, printable, script-free
// unless a page asks for its script. Links between pages are root-relative (see builders/contract/pages.ts); canonical and
// alternate links are absolute from SITE_URL.
import { liveFeedUrl, type Config } from '../../lib/config.ts';
import { DISCOVERY, API_INDEX_LINK } from '../../contract/service.ts';
import { feedPolicyOptions, pageContentSecurityPolicy } from '../../contract/content-security-policy.ts';
import { SIMULATED_NOTICE_TITLE, simulatedNoticeText } from '../../lib/simulated.ts';
import { escapeHtml, keepPhrasesWhole } from '../../render/html.ts';
import {
  absoluteUrl,
  CONTENT_DOCUMENTS,
  PAGES,
  shareImageFile,
  SITE_ICONS,
  sitePath,
  type PageRef,
} from '../../contract/pages.ts';
import { SHARE_IMAGE_SIZE, sharePalette } from '../../render/share-image.ts';
import { lookOf } from '../../render/themes.ts';
import { schemeToggleHtml } from '../../render/scheme-toggle.ts';
import { PAGE_IDS } from '../../render/page-ids.ts';
import type { BuildContext, HeaderLink, PublishedAvatar } from '../artifact.ts';

export type NavKey = 'home' | 'writings' | 'skills' | 'developers' | 'resume';

export interface LayoutInput {
  config: Config;
  simulated: boolean;
  /** The build's "now", for the footer. */
  nowMs: number;
  /** The page, or null for the 404 page (which has no canonical URL and no twin). */
  page: PageRef | null;
  title: string;
  description: string;
  nav?: NavKey;
  main: string;
  /** Root-relative script paths, loaded with defer. */
  scripts?: string[];
  /** Open Graph's type of the page: `article` for a writing, `website` (the default) for the others. */
  ogType?: 'website' | 'article' | 'profile';
  /**
   * Structured data about the page (schema.org, as JSON-LD): a data block, `<script type="application/ld+json">`,
   * which a browser never runs, so the policy's script-src (no inline script) does not apply to it.
   */
  jsonLd?: Record<string, unknown>;
  /** The owner's picture, when the site has one: the favicon of every page. */
  avatar?: PublishedAvatar | null;
  /** A writing's publication instant (RFC 3339), said as Open Graph's `article:published_time`. */
  publishedTime?: string;
  /** The header's links (site.json's `nav`, content/site-pages.ts); none: the pages' own titles. */
  header?: readonly HeaderLink[];
  /** Feeds of the page's own (a tag's), announced before the site's: root-relative paths. */
  feeds?: ReadonlyArray<{ type: string; title: string; path: string }>;
}

/** What every page of a build shares in its frame: the configuration, the demo notice, the time, the icon, the header. */
export function frameOf(ctx: BuildContext): Pick<LayoutInput, 'config' | 'simulated' | 'nowMs' | 'avatar' | 'header'> {
  return {
    config: ctx.config,
    simulated: ctx.simulated,
    nowMs: ctx.nowMs,
    avatar: ctx.avatar ?? null,
    ...(ctx.pages ? { header: ctx.pages.header } : {}),
  };
}

export const ASSETS = {
  css: '/assets/site.css',
  previewScript: '/assets/preview.js',
  /** Every page's head script: the visitor's colour scheme, before the first paint (site/scripts/scheme.ts). */
  schemeScript: '/assets/scheme.js',
  /** The writings page's search box (site/scripts/search-box.ts), and the search it imports on first use (search.ts). */
  searchBoxScript: '/assets/search-box.js',
  searchModule: '/assets/search.js',
} as const;

/** The page each header key stands for, to mark the current one. */
const NAV_PAGES: Record<NavKey, string> = {
  home: PAGES.home.path,
  writings: PAGES.writings.path,
  skills: PAGES.skills.path,
  developers: PAGES.developers.path,
  resume: PAGES.resume.path,
};

/** A header for a page rendered without the site's words (a test's own context): the pages' titles. */
const PLAIN_HEADER: readonly HeaderLink[] = [
  { label: 'Home', path: PAGES.home.path },
  { label: 'Writings', path: PAGES.writings.path },
  { label: 'Skills', path: PAGES.skills.path },
  { label: 'Developers', path: PAGES.developers.path },
];

/**
 * JSON as the text of a `<script type="application/ld+json">` data block: `<` written `\u003c`, so that no
 * `</script>` or `<!--` in a value can end or change the element (HTML §4.12.1.3, "restrictions for
 * contents of script elements"); the JSON reads the same.
 */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Open Graph's `og:locale` from the site's language (a BCP 47 tag): the protocol writes `language_TERRITORY`
 * (ogp.me: "en_US"), so a tag without a region takes its likeliest one (`en` → `en_US`, `fr` → `fr_FR`,
 * `fr-CA` stays `fr_CA`), from the Unicode likely-subtags data Intl carries.
 */
export function openGraphLocale(language: string): string {
  try {
    const locale = new Intl.Locale(language).maximize();
    return locale.region === undefined ? locale.language : `${locale.language}_${locale.region}`;
  } catch {
    return language.replace('-', '_');
  }
}

/**
 * What a page is shared with (Open Graph, Twitter): its canonical URL, title, description and preview
 * picture, each absolute under SITE_URL (docs/site.md#sharing). The picture is drawn by the build from
 * these very elements (sharing.ts), so it always shows this title.
 */
function sharingHead(input: LayoutInput, page: PageRef): string[] {
  const { config } = input;
  const image = absoluteUrl(config.siteUrl, `/${shareImageFile(page)}`);
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}">`;
  return [
    meta('og:title', input.title),
    meta('og:description', input.description),
    meta('og:type', input.ogType ?? 'website'),
    meta('og:url', absoluteUrl(config.siteUrl, page.path)),
    meta('og:site_name', config.site.title),
    meta('og:locale', openGraphLocale(config.site.language || 'en')),
    ...(input.publishedTime === undefined ? [] : [meta('article:published_time', input.publishedTime)]),
    meta('og:image', image),
    meta('og:image:type', 'image/png'),
    meta('og:image:width', String(SHARE_IMAGE_SIZE.width)),
    meta('og:image:height', String(SHARE_IMAGE_SIZE.height)),
    meta('og:image:alt', `${input.title}: ${input.description}`),
    '<meta name="twitter:card" content="summary_large_image">',
  ];
}

/**
 * A policy as the value of a double-quoted attribute, its quotes kept as they are ('self' reads as
 * 'self' in the page's source): a policy holds no `"`, `&`, `<` or `>`, and one that did is a bug.
 */
function attributeText(policy: string): string {
  if (/["&<>]/.test(policy)) throw new Error(`a Content-Security-Policy holds a character it never should: ${policy}`);
  return policy;
}

export function simulatedNotice(config: Config): string {
  return (
    `<p class="notice" role="note" data-simulated="true"><strong>${escapeHtml(SIMULATED_NOTICE_TITLE)}</strong> ` +
    `${escapeHtml(simulatedNoticeText(config.site.marketSourceName))}</p>`
  );
}

export function renderLayout(input: LayoutInput): string {
  const { config, page } = input;
  const href = (path: string) => escapeHtml(sitePath(config.siteUrl, path));
  const pageTitle = input.nav === 'home' ? input.title : `${input.title} · ${config.site.title}`;
  const head = [
    '<meta charset="utf-8">',
    // The policy the headers state, in the page itself: it holds where no header is sent (GitHub Pages).
    // First after the charset: a meta policy governs only what comes after it.
    `<meta http-equiv="Content-Security-Policy" content="${attributeText(pageContentSecurityPolicy(feedPolicyOptions(liveFeedUrl(config)), 'meta'))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(pageTitle)}</title>`,
    `<meta name="description" content="${escapeHtml(input.description)}">`,
    `<meta name="author" content="${escapeHtml(config.site.author)}">`,
    `<meta name="theme-color" content="${sharePalette(lookOf(config.site)).accent}">`,
    // The owner's picture is the icon when there is one (docs/site.md#the-owners-picture), else the initials.
    ...(input.avatar
      ? [`<link rel="icon" type="${input.avatar.picture.type.contentType}" href="${href(input.avatar.path)}">`]
      : [
          `<link rel="icon" href="${href(SITE_ICONS.favicon.path)}" sizes="${SITE_ICONS.favicon.size}x${SITE_ICONS.favicon.size}">`,
          `<link rel="icon" href="${href(SITE_ICONS.faviconSvg.path)}" type="image/svg+xml">`,
        ]),
    `<link rel="apple-touch-icon" href="${href(SITE_ICONS.png[0].path)}">`,
    `<link rel="manifest" href="${href(SITE_ICONS.manifest.path)}">`,
    // Blocking, and before the stylesheet (a script after one waits for it): the visitor's scheme is on
    // <html> before the first paint, from a file of its own (script-src 'self', no inline script).
    `<script src="${href(ASSETS.schemeScript)}"></script>`,
    `<link rel="stylesheet" href="${href(ASSETS.css)}">`,
    page ? `<link rel="canonical" href="${escapeHtml(absoluteUrl(config.siteUrl, page.path))}">` : '',
    ...(page ? sharingHead(input, page) : []),
    page ? `<link rel="alternate" type="text/markdown" href="${href(`/${page.markdownFile}`)}">` : '',
    // Feed autodiscovery: a feed reader given any page of the site finds the writings' feeds here, and a
    // tag's page announces the tag's own first.
    ...(input.feeds ?? []).map(
      (feed) =>
        `<link rel="alternate" type="${escapeHtml(feed.type)}" title="${escapeHtml(feed.title)}" href="${href(feed.path)}">`,
    ),
    `<link rel="alternate" type="${CONTENT_DOCUMENTS.feed.contentType}" title="${escapeHtml(`${config.site.title}: Writings (JSON Feed)`)}" href="${href(CONTENT_DOCUMENTS.feed.path)}">`,
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(`${config.site.title}: Writings (Atom)`)}" href="${href(CONTENT_DOCUMENTS.atom.path)}">`,
    `<link rel="api-catalog" href="${href(DISCOVERY.apiCatalog.path)}">`,
    `<link rel="service-desc" type="application/json" href="${href(DISCOVERY.openapi.path)}">`,
    ...(input.scripts ?? []).map((s) => `<script defer src="${href(s)}"></script>`),
    input.jsonLd ? `<script type="application/ld+json">${jsonLdText(input.jsonLd)}</script>` : '',
  ].filter(Boolean);
  const current = input.nav === undefined ? null : NAV_PAGES[input.nav];
  const nav = (input.header ?? PLAIN_HEADER)
    .map(
      ({ label, path }) =>
        `<li><a href="${href(path)}"${path === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`,
    )
    .join('');
  const built = new Date(input.nowMs).toISOString().slice(0, 10);
  const footerLinks: Array<[string, string]> = [
    ...(page ? ([[`/${page.markdownFile}`, 'This page in Markdown']] as Array<[string, string]>) : []),
    [API_INDEX_LINK, 'API index'],
    [DISCOVERY.openapi.path, 'OpenAPI'],
    [DISCOVERY.apiCatalog.path, 'API catalog'],
    [DISCOVERY.llms.path, 'llms.txt'],
    [DISCOVERY.sitemap.path, 'Sitemap'],
  ];
  return `<!doctype html>
<html lang="${escapeHtml(config.site.language || 'en')}">
<head>
${head.join('\n')}
</head>
<body>
<a class="skip" href="#${PAGE_IDS.main}">Skip to content</a>
<header class="site-header"><div class="wrap">
<a class="brand" href="${href('/')}">${escapeHtml(config.site.title)}</a>
<nav class="site-nav" aria-label="Site"><ul>${nav}</ul></nav>
${schemeToggleHtml()}
</div></header>
<div class="wrap">
<main id="${PAGE_IDS.main}">
${input.simulated ? simulatedNotice(config) : ''}
${keepPhrasesWhole(input.main)}
</main>
</div>
<footer class="site-footer"><div class="wrap">
<p>© ${escapeHtml(config.site.author)} · built <time datetime="${built}">${built}</time></p>
<ul>${footerLinks.map(([path, label]) => `<li><a href="${href(path)}">${label}</a></li>`).join('')}</ul>
</div></footer>
</body>
</html>
`;
}
