// The static file table: the built site in memory, every file with its content type, strong ETags,
// compressed copies and ready-made response headers. Made once at start from a plain list of files and
// their bytes: Node reads them from dist/ (gateway/http/static-files.ts), a Worker from its bundle. Per
// request the gateway only looks paths up.
import {
  API_INDEX,
  CACHE_CONTROL,
  CARD_RESPONSE_HEADERS,
  DISCOVERY,
  folderCardResource,
  type ServiceTables,
} from '../../../builders/contract/service.ts';
import { feedPolicyOptions, pageResponseHeaders } from '../../../builders/contract/content-security-policy.ts';
import { contentTypeFor } from '../../../builders/contract/content-types.ts';
import { fileCacheControl } from '../../../builders/contract/cache-rules.ts';
import { isApiPath } from './request-path.ts';
import {
  notModifiedHeaders,
  prepare,
  variantHeaders,
  type BodyCodec,
  type CompressedCopies,
  type PrepareOptions,
  type Representation,
  type Variant,
} from './representation.ts';
import { COMMON_HEADERS } from './common-headers.ts';
import type { Prepared } from './exchange.ts';

export interface ServedVariant extends Variant {
  /** Complete header list of the 200 (and of HEAD). */
  ok: string[];
  /** Complete header list of the 304. */
  notModified: string[];
  /** The 200 and the 304 as answers, made once: the hot path allocates nothing for a file. */
  okAnswer: Prepared;
  notModifiedAnswer: Prepared;
}

export interface StaticEntry {
  /** The dist/-relative file. */
  file: string;
  rep: Representation<ServedVariant>;
  /** Under /api: a wrong method is answered with the 405 problem rather than plain text. */
  api: boolean;
}

export interface StaticTable {
  /** URL path (decoded) → entry. */
  routes: Map<string, StaticEntry>;
  /** dist/404.html, served with status 404 for unknown non-API paths. */
  notFound: StaticEntry | undefined;
}

/**
 * One file of the built site, as the runtime found it. The build's compressed copies (`x.br`, `x.gz`)
 * are not files of their own: they come as `copies` of `x` (never served at a path of their own).
 */
export interface SiteFile {
  /** The dist/-relative path, with "/" between folders. */
  file: string;
  body: Uint8Array;
  /**
   * Its compressed copies as the build wrote them (checked to decode to `body`); absent, the codec
   * compresses it at start. A coding missing from them is one the build found not worth keeping.
   */
  copies?: CompressedCopies;
  /** Brotli quality when the codec compresses it (a body generated at start is compressed quickly). */
  brotliQuality?: number;
}

/** Headers of every card (builders/contract/service.ts), as a flat name/value list. */
const CARD_HEADERS: readonly string[] = Object.entries(CARD_RESPONSE_HEADERS).flat();

/** RFC 9727 §3: the home page, the API index and the catalog itself point at the catalog with a Link header (as the static-host rules do). */
const CATALOG_LINK = ['Link', `<${DISCOVERY.apiCatalog.path}>; rel="api-catalog"`] as const;

/** Hosting configuration the site generator writes for other hosts; not site content. */
const HOST_CONFIG_FILES = new Set(['serve.json', '_headers', '_redirects']);

/**
 * The table of the site's files. A file whose path may not be served (servablePath) is left out here
 * too, whoever listed it.
 */
export function staticTable(
  files: Iterable<SiteFile>,
  service: ServiceTables,
  codec: BodyCodec,
  feedUrl: string | null = null,
): StaticTable {
  /** Headers of every HTML page, whose policy names the deployment's live feed (builders/lib/config.ts liveFeedUrl). */
  const pageHeaders: readonly string[] = Object.entries(pageResponseHeaders(feedPolicyOptions(feedUrl))).flat();
  const SNAPSHOT_FILES = new Set(service.resources.flatMap((r) => r.snapshotFiles));
  /** The cards, which carry the cards' policy (CARD_RESPONSE_HEADERS). */
  const CARD_FILES = new Set(service.cards.map((c) => c.file));
  const byPath = new Map<string, SiteFile>();
  for (const f of files) if (servablePath(f.file)) byPath.set(f.file, f);

  const routes = new Map<string, StaticEntry>();
  const entries = new Map<string, StaticEntry>();
  const entryFor = (f: SiteFile): StaticEntry => {
    let entry = entries.get(f.file);
    if (entry === undefined) {
      const card = CARD_FILES.has(f.file) || folderCardResource(service, f.file) !== undefined;
      // The static hosts' files carry the same value (builders/contract/cache-rules.ts).
      const cacheControl = fileCacheControl(service, f.file);
      entry = prepareEntry(codec, f, cacheControl, isApiPath(`/${f.file}`), pageHeaders, card);
      entries.set(f.file, entry);
    }
    return entry;
  };

  for (const f of byPath.values()) {
    // The data paths are answered live (core/gateway.ts), never from the build's snapshot files.
    if (SNAPSHOT_FILES.has(f.file)) continue;
    routes.set(`/${f.file}`, entryFor(f));
  }
  // Clean URLs of pages: /x for x.html, /dir and /dir/ for dir/index.html, / for index.html.
  // A real file of the same name wins.
  for (const f of byPath.values()) {
    const file = f.file;
    if (!file.endsWith('.html') || SNAPSHOT_FILES.has(file)) continue;
    const bare = file.slice(0, -'.html'.length);
    const paths =
      file === 'index.html'
        ? ['/']
        : bare.endsWith('/index')
          ? [`/${bare.slice(0, -'/index'.length)}`, `/${bare.slice(0, -'index'.length)}`]
          : [`/${bare}`];
    for (const path of paths) if (!routes.has(path)) routes.set(path, entryFor(f));
  }
  // The route table's own paths (docs/api.md#published-paths), e.g. /api → api/index.json.
  for (const { path, file } of [API_INDEX, ...Object.values(DISCOVERY)]) {
    const f = byPath.get(file);
    if (f !== undefined) routes.set(path, entryFor(f));
  }
  const notFoundFile = byPath.get('404.html');
  const notFound =
    notFoundFile === undefined
      ? undefined
      : prepareEntry(codec, notFoundFile, CACHE_CONTROL.problem, false, pageHeaders);
  return { routes, notFound };
}

function prepareEntry(
  codec: BodyCodec,
  f: SiteFile,
  cacheControl: string,
  api: boolean,
  pageHeaders: readonly string[],
  card = false,
): StaticEntry {
  const options: PrepareOptions = f.copies !== undefined ? { copies: f.copies } : { brotliQuality: f.brotliQuality };
  const rep = prepare(codec, f.body, contentTypeFor(f.file), options);
  const extra: string[] = [...COMMON_HEADERS];
  if (rep.contentType.startsWith('text/html')) extra.push(...pageHeaders);
  if (card) extra.push(...CARD_HEADERS);
  if (f.file === DISCOVERY.apiCatalog.file || f.file === API_INDEX.file || f.file === 'index.html')
    extra.push(...CATALOG_LINK);
  const serve = (v: Variant | undefined): ServedVariant | undefined => {
    if (v === undefined) return undefined;
    const ok = variantHeaders(rep, v, cacheControl, extra);
    const notModified = notModifiedHeaders(rep, v, cacheControl, extra);
    return {
      ...v,
      ok,
      notModified,
      okAnswer: { status: 200, headers: ok, body: v.body },
      notModifiedAnswer: { status: 304, headers: notModified },
    };
  };
  return {
    file: f.file,
    api,
    rep: {
      contentType: rep.contentType,
      varies: rep.varies,
      identity: serve(rep.identity)!,
      br: serve(rep.br),
      gzip: serve(rep.gzip),
    },
  };
}

/**
 * Whether a dist/-relative path may be served. Dot-names are refused at every level (.git, .env,
 * .nojekyll, editor files) except the top-level .well-known folder (RFC 8615), and so are the host
 * configuration files at the top. Applied to the path a file is served under and, for a link, to the
 * path of its target too, so `env.txt -> .env` or `gitdir -> .git` expose nothing a name could not.
 */
export function servablePath(relative: string): boolean {
  const segments = relative.split('/');
  if (segments.length === 1 && HOST_CONFIG_FILES.has(segments[0]!)) return false;
  return segments.every((segment, i) => !segment.startsWith('.') || (i === 0 && segment === '.well-known'));
}
