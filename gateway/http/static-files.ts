// The static file table: dist/ read once at start into memory, every file with its content type, strong
// ETags, compressed copies (the build's, from beside each file) and ready-made response headers. Per
// request the gateway only looks paths up.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  API_INDEX,
  CACHE_CONTROL,
  CARD_RESPONSE_HEADERS,
  DISCOVERY,
  type ServiceTables,
} from '../../contract/service.ts';
import { feedPolicyOptions, pageResponseHeaders } from '../../contract/content-security-policy.ts';
import {
  COMPRESSED_SUFFIX,
  decodesTo,
  type CompressedCoding,
  type CompressedCopies,
} from '../../lib/compressed-copies.ts';
import { contentTypeFor } from '../../contract/content-types.ts';
import { isApiPath } from './request-path.ts';
import {
  notModifiedHeaders,
  prepare,
  variantHeaders,
  type PrepareOptions,
  type Representation,
  type Variant,
} from './representation.ts';
import { COMMON_HEADERS } from './common-headers.ts';

export interface ServedVariant extends Variant {
  /** Complete header list of the 200 (and of HEAD). */
  ok: string[];
  /** Complete header list of the 304. */
  notModified: string[];
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

export class DistMissingError extends Error {
  override readonly name = 'DistMissingError';
}

/** Headers of every card (contract/service.ts), as a flat name/value list. */
const CARD_HEADERS: readonly string[] = Object.entries(CARD_RESPONSE_HEADERS).flat();

/** RFC 9727 §3: the home page, the API index and the catalog itself point at the catalog with a Link header (as the static-host rules do). */
const CATALOG_LINK = ['Link', `<${DISCOVERY.apiCatalog.path}>; rel="api-catalog"`] as const;

/** Hosting configuration the site generator writes for other hosts; not site content. */
const HOST_CONFIG_FILES = new Set(['serve.json', '_headers', '_redirects']);
const MAX_DEPTH = 32;
/**
 * Brotli quality of the bodies the gateway generates at start (its /openapi.json, about 90 kB): measured,
 * quality 5 takes 3 ms where the build's 10 takes 45 ms, for a copy about 15 % larger.
 */
const GENERATED_BROTLI_QUALITY = 5;

/** Files the gateway answers with a body of its own, made from what dist/ holds (its /openapi.json). */
export type GeneratedFiles = (files: ReadonlyMap<string, Buffer>) => Array<[file: string, body: Buffer]>;

/**
 * Reads every servable file under distDir; `generate` replaces or adds files before the table is made
 * (their compressed copies from the build no longer match and are made at start). Throws
 * DistMissingError when distDir is not a folder.
 */
export function loadStaticFiles(
  distDir: string,
  service: ServiceTables,
  generate?: GeneratedFiles,
  feedUrl: string | null = null,
): StaticTable {
  /** Headers of every HTML page (contract/service.ts), whose policy names the deployment's feed, as a flat list. */
  const pageHeaders: readonly string[] = Object.entries(pageResponseHeaders(feedPolicyOptions(feedUrl))).flat();
  const SNAPSHOT_FILES = new Set(service.resources.flatMap((r) => r.snapshotFiles));
  /** The cards picture a snapshot: they are cached like the data they show (CACHE_CONTROL.card). */
  const CARD_FILES = new Map(service.cards.map((c) => [c.file, c]));
  let root: string;
  try {
    root = realpathSync(distDir);
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new DistMissingError(`${distDir} does not exist or is not a folder; run npm run build first`);
  }
  const files = new Map<string, Buffer>();
  walk(root, root, '', 0, files);
  const generated = new Set<string>();
  for (const [file, body] of generate?.(files) ?? []) {
    files.set(file, body);
    generated.add(file);
  }
  const copies = builtCopies(files);

  const routes = new Map<string, StaticEntry>();
  const entries = new Map<string, StaticEntry>();
  const entryFor = (file: string): StaticEntry => {
    let entry = entries.get(file);
    if (entry === undefined) {
      const card = CARD_FILES.get(file);
      const cacheControl =
        file === API_INDEX.file ? CACHE_CONTROL.apiIndex : card ? CACHE_CONTROL.card(card.cache) : CACHE_CONTROL.static;
      // A generated body is compressed here, at start: quickly rather than as small as the build does.
      const compress = generated.has(file) ? { brotliQuality: GENERATED_BROTLI_QUALITY } : { copies: copies.get(file) };
      entry = prepareEntry(file, files.get(file)!, cacheControl, isApiPath(`/${file}`), compress, pageHeaders, !!card);
      entries.set(file, entry);
    }
    return entry;
  };

  for (const file of files.keys()) {
    // The data paths are answered live (request-handler.ts), never from the build's snapshot files.
    if (SNAPSHOT_FILES.has(file) || copies.isCopy(file)) continue;
    routes.set(`/${file}`, entryFor(file));
  }
  // Clean URLs of pages: /x for x.html, /dir and /dir/ for dir/index.html, / for index.html.
  // A real file of the same name wins.
  for (const file of files.keys()) {
    if (!file.endsWith('.html') || SNAPSHOT_FILES.has(file)) continue;
    const bare = file.slice(0, -'.html'.length);
    const paths =
      file === 'index.html'
        ? ['/']
        : bare.endsWith('/index')
          ? [`/${bare.slice(0, -'/index'.length)}`, `/${bare.slice(0, -'index'.length)}`]
          : [`/${bare}`];
    for (const path of paths) if (!routes.has(path)) routes.set(path, entryFor(file));
  }
  // The route table's own paths (docs/api.md#published-paths), e.g. /api → api/index.json.
  for (const { path, file } of [API_INDEX, ...Object.values(DISCOVERY)]) {
    if (files.has(file)) routes.set(path, entryFor(file));
  }
  const notFoundBody = files.get('404.html');
  const notFound =
    notFoundBody === undefined
      ? undefined
      : prepareEntry(
          '404.html',
          notFoundBody,
          CACHE_CONTROL.problem,
          false,
          { copies: copies.get('404.html') },
          pageHeaders,
        );
  return { routes, notFound };
}

/**
 * The compressed copies the build wrote beside each file (`x.br`, `x.gz`), checked against the file: a
 * file with no copies, or with one that does not decode to its bytes (the folder was changed after the
 * build), is compressed at start instead. A copy is part of its file's answer, never a route of its own.
 */
function builtCopies(files: ReadonlyMap<string, Buffer>) {
  const found = new Map<string, CompressedCopies>();
  const copyOf = new Set<string>();
  for (const [file, body] of files) {
    const br = files.get(file + COMPRESSED_SUFFIX.br);
    const gzip = files.get(file + COMPRESSED_SUFFIX.gzip);
    if (br === undefined && gzip === undefined) continue;
    if (br !== undefined) copyOf.add(file + COMPRESSED_SUFFIX.br);
    if (gzip !== undefined) copyOf.add(file + COMPRESSED_SUFFIX.gzip);
    const usable = (coding: CompressedCoding, copy: Buffer | undefined) =>
      copy === undefined || (copy.length < body.length && decodesTo(coding, copy, body));
    if (usable('br', br) && usable('gzip', gzip)) found.set(file, { br, gzip });
  }
  return { get: (file: string) => found.get(file), isCopy: (file: string) => copyOf.has(file) };
}

function prepareEntry(
  file: string,
  body: Buffer,
  cacheControl: string,
  api: boolean,
  compress: PrepareOptions,
  pageHeaders: readonly string[],
  card = false,
): StaticEntry {
  const rep = prepare(body, contentTypeFor(file), compress);
  const extra: string[] = [...COMMON_HEADERS];
  if (rep.contentType.startsWith('text/html')) extra.push(...pageHeaders);
  if (card) extra.push(...CARD_HEADERS);
  if (file === DISCOVERY.apiCatalog.file || file === API_INDEX.file || file === 'index.html')
    extra.push(...CATALOG_LINK);
  const serve = (v: Variant | undefined): ServedVariant | undefined =>
    v && {
      ...v,
      ok: variantHeaders(rep, v, cacheControl, extra),
      notModified: notModifiedHeaders(rep, v, cacheControl, extra),
    };
  return {
    file,
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

/**
 * Collects regular files. A link to a file is followed only when its target is inside dist/ and is
 * itself servable; a link to a folder is not followed at all: the build writes none, and two folders
 * linking to each other would make the walk visit exponentially many paths.
 */
function walk(root: string, dir: string, prefix: string, depth: number, out: Map<string, Buffer>): void {
  if (depth > MAX_DEPTH) return;
  for (const dirent of readdirSync(dir, { withFileTypes: true })) {
    const file = `${prefix}${dirent.name}`;
    if (!servablePath(file)) continue;
    let full = join(dir, dirent.name);
    if (dirent.isSymbolicLink()) {
      try {
        full = realpathSync(full);
      } catch {
        continue; // dangling link
      }
      if (!full.startsWith(root + sep) || !servablePath(relative(root, full).split(sep).join('/'))) continue;
      if (statSync(full).isFile()) out.set(file, readFileSync(full));
      continue;
    }
    if (dirent.isDirectory()) walk(root, full, `${file}/`, depth + 1, out);
    else if (dirent.isFile()) out.set(file, readFileSync(full));
  }
}
