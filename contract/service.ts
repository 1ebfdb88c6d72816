// The route table: every public path, alias, operationId and problem type, declared once.
// The builders (snapshots, OpenAPI, catalog, developer page) and the gateway all read it.

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

export const DATA_RESOURCES: readonly DataResource[] = [
  {
    id: 'market',
    title: 'Market preview',
    summary: 'MON-USD: seven days of hourly closes plus the live ticker, in USD. Not financial advice.',
    schema: 'MarketData',
    contentType: JSON_CONTENT_TYPE,
    v1: { path: '/api/v1/mon-price', operationId: 'getV1MonPrice', alias: false },
    alias: { path: '/api/mon-price', operationId: 'getMonPrice', alias: true },
    snapshotFiles: ['api/v1/mon-price', 'api/mon-price'],
  },
  {
    id: 'contributions',
    title: 'Contribution calendar',
    summary: 'Rolling 365-day public contribution calendar of one GitHub account, in America/Toronto.',
    schema: 'GitHubContributions',
    contentType: JSON_CONTENT_TYPE,
    v1: { path: '/api/v1/github-contributions', operationId: 'getV1GithubContributions', alias: false },
    alias: { path: '/api/github-contributions', operationId: 'getGithubContributions', alias: true },
    snapshotFiles: ['api/v1/github-contributions', 'api/github-contributions'],
  },
];

/** The four data paths, each with its resource. */
export const DATA_PATHS: ReadonlyMap<string, DataResource> = new Map(
  DATA_RESOURCES.flatMap((r) => [
    [r.v1.path, r],
    [r.alias.path, r],
  ]),
);

export function dataResource(id: DataResourceId): DataResource {
  const resource = DATA_RESOURCES.find((r) => r.id === id);
  if (!resource) throw new Error(`unknown data resource ${id}`);
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
export const CARDS: readonly CardRef[] = [
  card('contributions', 'github-contributions', 'light'),
  card('contributions', 'github-contributions', 'dark'),
  card('market', 'mon-price', 'light'),
  card('market', 'mon-price', 'dark'),
];

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
  timeZone: 'America/Toronto',
  product: 'MON-USD',
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
