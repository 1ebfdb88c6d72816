// The route table: every public path, alias, operationId and problem type, declared once.
// The builders (snapshots, OpenAPI, catalog, developer page) and the gateway all read it.
import { DEFAULT_MARKET_PRODUCT, DEFAULT_TIME_ZONE } from '../lib/service-defaults.ts';

export type DataResourceId = 'market' | 'contributions';
/** The titles of the schema files under schemas/. */
export type SchemaName =
  | 'MarketData'
  | 'MarketPoint'
  | 'GitHubContributions'
  | 'GitHubContributionDay'
  | 'ProblemDetails'
  | 'ApiIndex'
  | 'Profile'
  | 'Skills'
  | 'JsonFeed';

/** Every JSON document the service publishes (data snapshots, API index, OpenAPI) is sent as this type. */
const JSON_CONTENT_TYPE = 'application/json';

export interface DataOperation {
  path: string;
  operationId: string;
  /** true for the unversioned alias of the v1 path: same payload, no redirect (docs/api.md#versioning). */
  alias: boolean;
}

export interface DataResource {
  id: DataResourceId;
  title: string;
  summary: string;
  schema: SchemaName;
  /** The media type of a 200 (docs/api.md#endpoints). */
  contentType: typeof JSON_CONTENT_TYPE;
  /** The explicit v1 operation first, then its stable alias. */
  v1: DataOperation;
  alias: DataOperation;
  /** Where the build writes the snapshot, relative to dist/ (extension-less so that the path is the file). */
  snapshotFiles: string[];
}

/** What a deployment publishes: the market product (null: no market dataset) and the calendar's zone. */
export interface ServiceOptions {
  /** A Coinbase Exchange product quoted in USD (`<BASE>-USD`), or null for MARKET_PRODUCT=off. */
  marketProduct: string | null;
  /** The calendar's IANA zone. */
  calendarTimeZone: string;
}

/**
 * The route table of one deployment, derived from its configuration: every program reads its paths,
 * operationIds, cards and zone from here, so a fork that publishes BTC-USD in Europe/Berlin changes
 * them all at once and nothing keeps naming the default product.
 */
export interface ServiceTables extends ServiceOptions {
  /** The data resources, the market first when there is one. */
  resources: readonly DataResource[];
  /** The data paths (v1 and alias), each with its resource. */
  paths: ReadonlyMap<string, DataResource>;
  cards: readonly CardRef[];
  market: DataResource | undefined;
  contributions: DataResource;
}

/**
 * The names a product gives its routes (docs/api.md#endpoints): `BTC-USD` → slug `btc` (paths
 * `/api/v1/btc-price`, cards `btc-price.svg`) and `Btc` (operationIds `getV1BtcPrice`, `getBtcPrice`).
 */
export function productNames(product: string): { slug: string; name: string } {
  const base = product.slice(0, product.indexOf('-'));
  const slug = base.toLowerCase();
  return { slug, name: slug.charAt(0).toUpperCase() + slug.slice(1) };
}

/** Each dataset's title, whatever the deployment's product or zone. */
export const RESOURCE_TITLES: Readonly<Record<DataResourceId, string>> = {
  market: 'Market preview',
  contributions: 'Contribution calendar',
};

function marketResource(product: string): DataResource {
  const { slug, name } = productNames(product);
  return {
    id: 'market',
    title: RESOURCE_TITLES.market,
    summary: `${product}: seven days of hourly closes plus the live ticker, in USD. Not financial advice.`,
    schema: 'MarketData',
    contentType: JSON_CONTENT_TYPE,
    v1: { path: `/api/v1/${slug}-price`, operationId: `getV1${name}Price`, alias: false },
    alias: { path: `/api/${slug}-price`, operationId: `get${name}Price`, alias: true },
    snapshotFiles: [`api/v1/${slug}-price`, `api/${slug}-price`],
  };
}

function contributionsResource(timeZone: string): DataResource {
  return {
    id: 'contributions',
    title: RESOURCE_TITLES.contributions,
    summary: `Rolling 365-day public contribution calendar of one GitHub account, in ${timeZone}.`,
    schema: 'GitHubContributions',
    contentType: JSON_CONTENT_TYPE,
    v1: { path: '/api/v1/github-contributions', operationId: 'getV1GithubContributions', alias: false },
    alias: { path: '/api/github-contributions', operationId: 'getGithubContributions', alias: true },
    snapshotFiles: ['api/v1/github-contributions', 'api/github-contributions'],
  };
}

export function serviceTables(options: ServiceOptions): ServiceTables {
  const market = options.marketProduct === null ? undefined : marketResource(options.marketProduct);
  const contributions = contributionsResource(options.calendarTimeZone);
  const resources = market === undefined ? [contributions] : [market, contributions];
  const cards = [
    card('contributions', 'github-contributions', 'light'),
    card('contributions', 'github-contributions', 'dark'),
  ];
  if (market !== undefined) {
    const { slug } = productNames(options.marketProduct!);
    cards.push(card('market', `${slug}-price`, 'light'), card('market', `${slug}-price`, 'dark'));
  }
  return {
    marketProduct: options.marketProduct,
    calendarTimeZone: options.calendarTimeZone,
    resources,
    paths: new Map(
      resources.flatMap((r) => [
        [r.v1.path, r],
        [r.alias.path, r],
      ]),
    ),
    cards,
    market,
    contributions,
  };
}

/** A resource of the tables; the market's absence (MARKET_PRODUCT=off) is a caller's bug here. */
export function dataResource(service: ServiceTables, id: DataResourceId): DataResource {
  const resource = service.resources.find((r) => r.id === id);
  if (!resource) throw new Error(`no ${id} resource in this deployment`);
  return resource;
}

/** Methods a data route answers; every other method is a 405 with this Allow header. */
export const DATA_METHODS = ['GET', 'HEAD'] as const;
export const ALLOW_HEADER = DATA_METHODS.join(', ');

/** The API index and the discovery documents (docs/api.md#published-paths), with the dist/ file behind each path. */
export const API_INDEX = { path: '/api', file: 'api/index.json', contentType: JSON_CONTENT_TYPE } as const;
/**
 * Where published documents link the API index: its file, which every host serves as it is. `/api`
 * itself needs a rewrite (the gateway's route table, serve.json, _redirects); GitHub Pages has none,
 * and a folder without an index.html answers 404 there.
 */
export const API_INDEX_LINK = `/${API_INDEX.file}`;
export const DISCOVERY = {
  openapi: { path: '/openapi.json', file: 'openapi.json', contentType: JSON_CONTENT_TYPE },
  apiCatalog: {
    path: '/.well-known/api-catalog',
    file: '.well-known/api-catalog',
    contentType: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  },
  developers: { path: '/developers', file: 'developers.html', contentType: 'text/html; charset=utf-8' },
  developersMarkdown: { path: '/developers.md', file: 'developers.md', contentType: 'text/markdown; charset=utf-8' },
  llms: { path: '/llms.txt', file: 'llms.txt', contentType: 'text/plain; charset=utf-8' },
  llmsFull: { path: '/llms-full.txt', file: 'llms-full.txt', contentType: 'text/plain; charset=utf-8' },
  sitemap: { path: '/sitemap.xml', file: 'sitemap.xml', contentType: 'application/xml; charset=utf-8' },
  cli: { path: '/cli.mjs', file: 'cli.mjs', contentType: 'text/javascript; charset=utf-8' },
} as const;

/**
 * The embeddable SVG cards (docs/api.md#published-paths), one light and one dark per data resource. They are drawn by the
 * build from its snapshots (builders/cards.ts), so each is exactly as fresh as its snapshot and is
 * absent when its snapshot is.
 */
export type CardScheme = 'light' | 'dark';
export interface CardRef {
  resource: DataResourceId;
  scheme: CardScheme;
  path: string;
  /** Relative to dist/. */
  file: string;
  contentType: 'image/svg+xml';
}
const card = (resource: DataResourceId, name: string, scheme: CardScheme): CardRef => {
  const file = `cards/${name}${scheme === 'dark' ? '-dark' : ''}.svg`;
  return { resource, scheme, path: `/${file}`, file, contentType: 'image/svg+xml' };
};

/**
 * docs/api.md#published-paths, "Gateway only": the Model Context Protocol endpoint (Streamable HTTP, stateless), whose
 * tools are the four data operations named by operationId. A static host has no such path.
 */
export const MCP_ENDPOINT = {
  path: '/mcp',
  /** Stateless Streamable HTTP: every message is a POST; GET (a server-sent event stream) and DELETE (end a session) are 405. */
  methods: ['POST'],
  /** The transport's JSON response mode; a notification alone is answered 202 with no body. */
  contentType: JSON_CONTENT_TYPE,
} as const;

/** docs/api.md#limits and #caching: the fixed constants. */
export const CONSTANTS = {
  marketWindowSeconds: 604_800,
  contributionDays: 365,
  candleReuseSeconds: 300,
  staleWhileRevalidateSeconds: 300,
  apiIndexMaxAgeSeconds: 3600,
  quotaStoreBudgetMs: 50,
  currency: 'USD',
  rateLimitPolicyName: 'public-api',
} as const;

/**
 * Headers every response carries, from the gateway and from the static-host configuration alike: the
 * data and discovery documents are public and read by browsers on other origins.
 */
export const COMMON_RESPONSE_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * What a page may load: its own stylesheet, script and API answers ('self'), and its icon, which the
 * layout gives inline as a data: URL (builders/site/pages/layout.ts). No inline script or style, no
 * <base>, no form submissions, and no framing by other sites (clickjacking). CSP Level 3.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * What a card may load: nothing. A card is an SVG of shapes and text with presentation attributes
 * only (no style attribute or element, no script, no link, no font), so `default-src 'none'` takes
 * nothing from it, and a card opened as a document on this origin can run or fetch nothing.
 */
export const CARD_CONTENT_SECURITY_POLICY = "default-src 'none'";

/** Headers of every card, from the gateway and from the static-host configuration alike. */
export const CARD_RESPONSE_HEADERS = {
  'Content-Security-Policy': CARD_CONTENT_SECURITY_POLICY,
} as const;

/**
 * Headers of every HTML page (the 404 page too), from the gateway and from the static-host
 * configuration alike. Links out of the site do not tell the other site which page they were on.
 */
export const PAGE_RESPONSE_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
} as const;

export const CACHE_CONTROL = {
  market: 'private, no-store',
  /** Responses that carry per-client quota values must stay out of shared caches (docs/api.md#limits). */
  perClient: 'private, no-store',
  apiIndex: `public, max-age=${CONSTANTS.apiIndexMaxAgeSeconds}`,
  /** Problem documents and every other error answer (plain-text errors, the 404 page) are never stored. */
  problem: 'no-store',
  /** Pages and documents served as they are from dist/ revalidate with their ETag on every use, so a redeploy shows at once. */
  static: 'public, max-age=0, must-revalidate',
  /**
   * A snapshot on a static host (builders/static-host.ts): the market as short-lived as on the gateway;
   * the calendar revalidates every time and may be served stale for 300 s while it does, since a fixed
   * header cannot say "until the next midnight in America/Toronto".
   */
  staticSnapshot: (resource: DataResourceId) =>
    resource === 'market'
      ? 'private, no-store'
      : `public, max-age=0, stale-while-revalidate=${CONSTANTS.staleWhileRevalidateSeconds}`,
  /** A card is the picture of a build's snapshot: cached like that snapshot on a static host. */
  card: (resource: DataResourceId): string => CACHE_CONTROL.staticSnapshot(resource),
  /** docs/api.md#response-headers: `s-maxage=<seconds>`; the documents pass a placeholder such as `'<seconds>'`. */
  contributions: (sMaxAge: number | string) =>
    `public, max-age=0, s-maxage=${sMaxAge}, stale-while-revalidate=${CONSTANTS.staleWhileRevalidateSeconds}`,
} as const;

/** The tables of a deployment with no variable set: MON-USD and America/Toronto. */
export const DEFAULT_SERVICE = /* @__PURE__ */ serviceTables({
  marketProduct: DEFAULT_MARKET_PRODUCT,
  calendarTimeZone: DEFAULT_TIME_ZONE,
});

/**
 * The one sentence that says what a deployment publishes, as the API index, OpenAPI and llms.txt open:
 * two resources, or the calendar alone with MARKET_PRODUCT=off.
 */
export function resourcesSentence(service: ServiceTables): string {
  return service.marketProduct === null
    ? 'One public, read-only JSON resource that feeds the portfolio preview: a GitHub contribution calendar.'
    : `Two public, read-only JSON resources that feed the portfolio preview: a ${service.marketProduct} market preview (not financial advice) and a GitHub contribution calendar.`;
}

/**
 * How many data operations a deployment has, in words, as the documents read: each is one path and one
 * tool, so "four" (two resources, each with its alias), or "two" with MARKET_PRODUCT=off.
 */
export function dataOperationsWord(service: ServiceTables): string {
  return ['no', 'one', 'two', 'three', 'four'][service.paths.size] ?? String(service.paths.size);
}

/** "all four data URLs", or "both data URLs" for the calendar alone. */
export function dataUrlsPhrase(service: ServiceTables): string {
  return service.paths.size === 2 ? 'both data URLs' : `all ${dataOperationsWord(service)} data URLs`;
}

/**
 * Whether a dist/ file is a data snapshot: every snapshotFiles entry is an extension-less file under
 * api/ (the index is api/index.json), whatever product names it. Snapshots are JSON.
 */
export function isSnapshotFile(file: string): boolean {
  return file.startsWith('api/') && !file.slice(file.lastIndexOf('/') + 1).includes('.');
}
