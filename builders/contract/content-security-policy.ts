// The pages' and cards' Content-Security-Policy, declared once. A page states its policy twice: in the
// response header (the gateway, `_headers`, `serve.json`) and in a `<meta http-equiv>` element of its head
// (builders/build/pages/layout.ts), which holds where no header is sent, as on GitHub Pages. Both forms come from
// the one list of directives below, so they can never disagree; the meta form leaves out what CSP Level 3
// §6.x ignores there ("frame-ancestors", "report-uri" and "sandbox" are not supported in a meta element),
// which therefore stay header-only.

/** What a page may connect to beyond its own origin: the live market feed's origin, when there is one. */
export interface PagePolicyOptions {
  /** Origins for `connect-src` besides 'self' (fetch, WebSocket), e.g. `wss://ws-feed.exchange.coinbase.com`. */
  connectSources?: readonly string[];
}

/**
 * The origin (scheme, host and port) of a deployment's market feed, as a policy names it; null for none.
 * `wss://ws-feed.exchange.coinbase.com` → itself; `ws://127.0.0.1:9000/x` → `ws://127.0.0.1:9000`.
 */
export function feedOrigin(feedUrl: string | null): string | null {
  return feedUrl === null ? null : new URL(feedUrl).origin;
}

/**
 * The policy options for pages that subscribe to `feedUrl` (builders/lib/config.ts liveFeedUrl; null: none): the
 * one place where a deployment's configuration reaches the pages' policy (the layout's meta element, the
 * static-host files, the gateway). The feed is named by its origin, never by a wildcard; with no feed
 * (MARKET_WS_URL=off, MARKET_PRODUCT=off) no connect-src is written, and default-src 'self' allows no
 * socket elsewhere.
 */
export function feedPolicyOptions(feedUrl: string | null): PagePolicyOptions {
  const origin = feedOrigin(feedUrl);
  return origin === null ? {} : { connectSources: [origin] };
}

/** The header form of the pages' policy for a deployment whose pages subscribe to `feedUrl` (null: none). */
export function contentSecurityPolicy(feedUrl: string | null): string {
  return pageContentSecurityPolicy(feedPolicyOptions(feedUrl));
}

/** Where the policy is stated: a response header, or a `<meta http-equiv>` element in the page. */
export type PolicyForm = 'header' | 'meta';

/**
 * CSP Level 3, "Policy delivery via the meta element": "The following directives are not supported in a
 * meta element: frame-ancestors, report-uri, sandbox"; a browser ignores them there with a console warning.
 */
const HEADER_ONLY_DIRECTIVES = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/**
 * What a page may load: its own stylesheet, script, icons, manifest and API answers ('self'), and data:
 * images. No inline script or style (so no 'unsafe-inline': the page script is a file of its own; the home
 * page's JSON-LD is a data block, which no browser runs and script-src does not govern), no plugin, no
 * <base>, no form submissions, and no framing by other sites (clickjacking).
 */
function pageDirectives(options: PagePolicyOptions): Array<[name: string, ...sources: string[]]> {
  const connect = options.connectSources ?? [];
  return [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['img-src', "'self'", 'data:'],
    ...(connect.length > 0 ? [['connect-src', "'self'", ...connect] as [string, ...string[]]] : []),
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
}

/**
 * The pages' Content-Security-Policy in the form it is stated: `header` for the response header, `meta`
 * for the page's `<meta http-equiv="Content-Security-Policy">` (without the header-only directives).
 */
export function pageContentSecurityPolicy(options: PagePolicyOptions = {}, form: PolicyForm = 'header'): string {
  return pageDirectives(options)
    .filter(([name]) => form === 'header' || !HEADER_ONLY_DIRECTIVES.has(name))
    .map((directive) => directive.join(' '))
    .join('; ');
}

/**
 * Headers of every HTML page (the 404 page too), from the gateway and from the static-host
 * configuration alike. Links out of the site do not tell the other site which page they were on.
 */
export function pageResponseHeaders(options: PagePolicyOptions = {}) {
  return {
    'Content-Security-Policy': pageContentSecurityPolicy(options, 'header'),
    'Referrer-Policy': 'no-referrer',
  } as const;
}

/**
 * What a card may load: nothing. A card is an SVG of shapes and text with presentation attributes
 * only (no style attribute or element, no script, no link, no font), so `default-src 'none'` takes
 * nothing from it, and a card opened as a document on this origin can run or fetch nothing.
 */
export const CARD_CONTENT_SECURITY_POLICY = "default-src 'none'";
