// The route table: every public path, alias, operationId and problem type, declared once.
// The builders (snapshots, OpenAPI, catalog, developer page) and the gateway all read it.
import {
  CARD_CONTENT_SECURITY_POLICY,
  pageContentSecurityPolicy,
  pageResponseHeaders,
} from './content-security-policy.ts';

export { contentSecurityPolicy, feedOrigin } from './content-security-policy.ts';

/** A dataset's id, as its module declares it (builders/datasets/registry.ts lists them). */
export type DataResourceId = string;
/**
 * The title of a schema file: under schemas/ (the service's own documents and the first datasets'
 * payloads) or in a dataset's own folder (builders/datasets/<id>/*.schema.json). A title is checked where
 * it is used: a validator refuses one it does not hold.
 */
export type SchemaName = string;

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
  /** How long an answer may be kept (docs/api.md#response-headers): read by the gateway, the static hosts and the documents. */
  cache: CachePolicy;
  /** Its 502 problem (docs/api.md#errors): the `detail`, and the compatibility `error` member. */
  problem: { detail: string; error: string };
  /** What its MCP tool returns, the first sentence of the tool's description. */
  toolText: string;
  /** The name of its light and dark cards under cards/ (`<card>.svg`, `<card>-dark.svg`). */
  card: string;
  /**
   * The folder under cards/ of the cards drawn per item of its payload (`repos`: one per repository), if
   * any; the dark ones are in `<cardFolder>-dark/` (folderCardFile).
   */
  cardFolder?: string;
  /** How a sentence listing the datasets names it: "a GitHub contribution calendar". */
  phrase: string;
  /** Its CLI command (builders/cli/commands.ts): the payload with --json, a terminal picture without. */
  command: DataCommand;
  /** Where its cards stand in the lists of cards (serve.json, _headers), lowest first. */
  cardOrder: number;
  /** The zone whose next midnight ends an `until-midnight` answer (CALENDAR_TIME_ZONE). */
  timeZone?: string;
  /**
   * How long a payload with only an `asOf` stays current after it (builders/domain/freshness.ts): its `--previous`
   * bound. Absent: the market's three hours. The page, the CLI, the MCP tools and status.json all read it,
   * so one snapshot is current or stale alike wherever it is read.
   */
  validForMs?: number;
  /**
   * Words of the committed schemas (written for the defaults) this deployment says otherwise: the default
   * product or zone → the configured one (builders/contract/schemas.ts, loadSchemas).
   */
  schemaWords?: Readonly<Record<string, string>>;
}

/**
 * A dataset's two operations and its snapshot files, from its path's last segment and its operations' name
 * (docs/api.md#versioning): `/api/v1/<slug>` (`getV1<Name>`) and the unversioned alias `/api/<slug>`
 * (`get<Name>`), the same JSON payload at both.
 */
export function dataPaths(
  slug: string,
  name: string,
): Pick<DataResource, 'contentType' | 'v1' | 'alias' | 'snapshotFiles'> {
  return {
    contentType: JSON_CONTENT_TYPE,
    v1: { path: `/api/v1/${slug}`, operationId: `getV1${name}`, alias: false },
    alias: { path: `/api/${slug}`, operationId: `get${name}`, alias: true },
    snapshotFiles: [`api/v1/${slug}`, `api/${slug}`],
  };
}

/** A dataset's CLI command: `--json` prints the payload, whose top-level members are listed. */
export interface DataCommand {
  name: string;
  summary: string;
  /** true: the output opens with a notice on a demo site (the command also reads the index's `simulated`). */
  readsSimulated: boolean;
  json: Array<{ name: string; type: string; description: string }>;
  /** Present: `--watch` follows the deployment's live feed of this product after the picture (builders/cli/live/watch.ts). */
  watch?: { product: string };
  /** true: the picture is followed by the owner's own projects (site/projects.yaml, /profile.json's `ownerProjects`). */
  listsOwnerProjects?: true;
}

/**
 * docs/api.md#caching: `per-request` is computed for every request and never stored (`private, no-store`);
 * `until-midnight` is kept until the next midnight in the calendar's zone (`s-maxage` counting down to it);
 * `hourly` is read at most once an hour (a fixed `s-maxage` of an hour, the build's schedule).
 */
export type CachePolicy = 'per-request' | 'until-midnight' | 'hourly';

/**
 * The route table of one deployment, derived from its configuration: every program reads its paths,
 * operationIds, cards and zone from here, so a fork that publishes BTC-USD in Europe/Berlin changes
 * them all at once and nothing keeps naming the default product.
 */
export interface ServiceTables {
  /** The data resources, in the registry's order (builders/datasets/registry.ts). */
  resources: readonly DataResource[];
  /** The data paths (v1 and alias), each with its resource. */
  paths: ReadonlyMap<string, DataResource>;
  cards: readonly CardRef[];
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

/**
 * The tables of a deployment from its datasets' resources (builders/datasets/registry.ts declares them), in their
 * order; the cards in each resource's `cardOrder`.
 */
export function serviceTablesOf(resources: readonly DataResource[]): ServiceTables {
  const cards = [...resources]
    .sort((a, b) => a.cardOrder - b.cardOrder)
    .flatMap((resource) => [card(resource, 'light'), card(resource, 'dark')]);
  return {
    resources,
    paths: new Map(
      resources.flatMap((r) => [
        [r.v1.path, r],
        [r.alias.path, r],
      ]),
    ),
    cards,
  };
}

/**
 * The tables narrowed to the resources `keep` accepts (a build's published datasets): their paths go with
 * them; the cards stay, each at its path whatever its data (an unavailable card stands in for a missing one).
 */
export function narrowedTables(service: ServiceTables, keep: (resource: DataResource) => boolean): ServiceTables {
  const resources = service.resources.filter(keep);
  return resources.length === service.resources.length
    ? service
    : { ...serviceTablesOf(resources), cards: service.cards };
}

/** A resource of the tables; asking for one the deployment does not publish is a caller's bug. */
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
  /** The build's time, each dataset's state and the next scheduled run (docs/api.md#status), and its badge. */
  status: { path: '/status.json', file: 'status.json', contentType: JSON_CONTENT_TYPE },
  statusBadge: { path: '/status-badge.json', file: 'status-badge.json', contentType: JSON_CONTENT_TYPE },
} as const;

/**
 * The embeddable SVG cards (docs/api.md#published-paths), one light and one dark per data resource. They are drawn by the
 * build from its snapshots (builders/build/cards.ts), so each is exactly as fresh as its snapshot and is
 * absent when its snapshot is.
 */
export type CardScheme = 'light' | 'dark';
export interface CardRef {
  resource: DataResourceId;
  /** Its dataset's cache policy: a card is cached like the snapshot it pictures. */
  cache: CachePolicy;
  scheme: CardScheme;
  path: string;
  /** Relative to dist/. */
  file: string;
  contentType: 'image/svg+xml';
}
const card = (resource: DataResource, scheme: CardScheme): CardRef => {
  const file = `cards/${resource.card}${scheme === 'dark' ? '-dark' : ''}.svg`;
  return { resource: resource.id, cache: resource.cache, scheme, path: `/${file}`, file, contentType: 'image/svg+xml' };
};

/**
 * Where an item's card is (docs/api.md#published-paths): `cards/<folder>/<name>.svg`, and the dark one in a
 * folder of its own, `cards/<folder>-dark/<name>.svg`, so that no name's light card is another's dark one
 * (`foo-dark.svg` beside `foo.svg` was both).
 */
export function folderCardFile(folder: string, scheme: CardScheme, name: string): string {
  return `cards/${folder}${scheme === 'dark' ? '-dark' : ''}/${name}.svg`;
}

/**
 * The resource whose per-item cards hold `file` (`cards/<cardFolder>/….svg` or `cards/<cardFolder>-dark/….svg`,
 * DataResource.cardFolder), if any: such a card is served and cached like the resource's own cards.
 */
export function folderCardResource(service: ServiceTables, file: string): DataResource | undefined {
  if (!file.endsWith('.svg')) return undefined;
  return service.resources.find(
    (r) =>
      r.cardFolder !== undefined &&
      (file.startsWith(`cards/${r.cardFolder}/`) || file.startsWith(`cards/${r.cardFolder}-dark/`)),
  );
}

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
  /** The `hourly` policy's s-maxage: the scheduled build's period. */
  hourSeconds: 3600,
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

/** The pages' policy as a header, for a deployment without a live feed (builders/contract/content-security-policy.ts). */
export const CONTENT_SECURITY_POLICY = pageContentSecurityPolicy();

export { CARD_CONTENT_SECURITY_POLICY };

/** Headers of every card, from the gateway and from the static-host configuration alike. */
export const CARD_RESPONSE_HEADERS = {
  'Content-Security-Policy': CARD_CONTENT_SECURITY_POLICY,
} as const;

/** pageResponseHeaders() for a deployment without a live feed (builders/contract/content-security-policy.ts). */
export const PAGE_RESPONSE_HEADERS = pageResponseHeaders();

export const CACHE_CONTROL = {
  /**
   * A data answer's, by its dataset's own policy (`DataResource.cache`, docs/api.md#response-headers):
   * `per-request` is never stored; `until-midnight` is shared-cacheable for `sMaxAge`, the whole seconds to
   * the next midnight in the calendar's zone (the documents pass a placeholder such as `'<seconds>'`).
   */
  data: (policy: CachePolicy, sMaxAge: number | string = '<seconds>'): string =>
    policy === 'per-request'
      ? 'private, no-store'
      : `public, max-age=0, s-maxage=${policy === 'hourly' ? CONSTANTS.hourSeconds : sMaxAge}, stale-while-revalidate=${CONSTANTS.staleWhileRevalidateSeconds}`,
  /** Responses that carry per-client quota values must stay out of shared caches (docs/api.md#limits). */
  perClient: 'private, no-store',
  apiIndex: `public, max-age=${CONSTANTS.apiIndexMaxAgeSeconds}`,
  /** Problem documents and every other error answer (plain-text errors, the 404 page) are never stored. */
  problem: 'no-store',
  /** Pages and documents served as they are from dist/ revalidate with their ETag on every use, so a redeploy shows at once. */
  static: 'public, max-age=0, must-revalidate',
  /**
   * A snapshot on a static host (builders/build/static-host.ts): the market as short-lived as on the gateway;
   * the calendar revalidates every time and may be served stale for 300 s while it does, since a fixed
   * header cannot say "until the next midnight in America/Toronto".
   */
  staticSnapshot: (policy: CachePolicy): string =>
    policy !== 'until-midnight'
      ? CACHE_CONTROL.data(policy)
      : `public, max-age=0, stale-while-revalidate=${CONSTANTS.staleWhileRevalidateSeconds}`,
  /** A card is the picture of a build's snapshot: cached like that snapshot on a static host. */
  card: (policy: CachePolicy): string => CACHE_CONTROL.staticSnapshot(policy),
} as const;

/**
 * The one sentence that says what a deployment publishes, as the API index, OpenAPI and llms.txt open:
 * two resources, or the calendar alone with MARKET_PRODUCT=off.
 */
export function resourcesSentence(service: ServiceTables): string {
  return `${resourcesFeed(service.resources.length)} the portfolio preview: ${listPhrase(service.resources.map((r) => r.phrase))}.`;
}

/** "Two public, read-only JSON resources that feed": how the documents open on `n` datasets. */
export function resourcesFeed(n: number): string {
  const word = countWord(n);
  return `${word.charAt(0).toUpperCase()}${word.slice(1)} public, read-only JSON resource${n === 1 ? '' : 's'} that ${n === 1 ? 'feeds' : 'feed'}`;
}

/** "a", "a and b", "a, b and c": a list in running text. */
export function listPhrase(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A small count in words, as the documents write it ("two resources", "six tools"). */
export function countWord(n: number): string {
  return ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'][n] ?? String(n);
}

/**
 * How many data operations a deployment has, in words, as the documents read: each is one path and one
 * tool, so "four" (two resources, each with its alias), or "two" with MARKET_PRODUCT=off.
 */
export function dataOperationsWord(service: ServiceTables): string {
  return countWord(service.paths.size);
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
