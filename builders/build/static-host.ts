// Static-host configuration written into dist/: serve.json (the `serve` package reads it from the
// served folder), _headers and _redirects (Netlify, Cloudflare Pages) and .nojekyll (GitHub Pages).
// One rule list, derived from the route table, is rendered into each host's format. What a static host
// cannot do (per-request s-maxage, quota, live ticker, problem bodies) is the gateway's work.
import { liveFeedUrl, type Config } from '../lib/config.ts';
import {
  API_INDEX,
  CARD_RESPONSE_HEADERS,
  COMMON_RESPONSE_HEADERS,
  type ServiceTables,
  DISCOVERY,
  folderCardResource,
} from '../contract/service.ts';
import { feedPolicyOptions, pageResponseHeaders } from '../contract/content-security-policy.ts';
import type { Artifact } from './artifact.ts';
import { contentTypeFor, hostTypeDiffers } from '../contract/content-types.ts';
import { DEFAULT_FILE_CACHE_CONTROL, fileCacheControl } from '../contract/cache-rules.ts';
import { absoluteUrl, CONTENT_DOCUMENTS, isTagJsonFeed, PAGES, sitePath } from '../contract/pages.ts';

export interface HeaderRule {
  /** The file's path in dist/, as a URL path ("/api/v1/mon-price"). */
  path: string;
  headers: Record<string, string>;
}

export interface Rewrite {
  from: string;
  to: string;
}

export const MARKDOWN_CONTENT_TYPE = DISCOVERY.developersMarkdown.contentType;

/** What the static-host files are made from: the build's configuration and its deployment's tables. */
export interface StaticSite {
  config: Config;
  service: ServiceTables;
}

/**
 * Every rule but the cache's (cacheRules, from builders/contract/cache-rules.ts): the types a host would not guess,
 * the cards' policy and the catalog's Link.
 */
export function headerRules({ config, service }: StaticSite, files: string[]): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const resource of service.resources) {
    // Extension-less snapshots: without a rule a static host guesses no type (or octet-stream).
    for (const file of resource.snapshotFiles)
      rules.push({ path: `/${file}`, headers: { 'Content-Type': resource.contentType } });
  }
  // The cards: an SVG type every host knows, and the cards' own policy.
  const written = new Set(files);
  for (const card of service.cards.filter((c) => written.has(c.file)))
    rules.push({ path: card.path, headers: { 'Content-Type': card.contentType, ...CARD_RESPONSE_HEADERS } });
  // Each item's card (the projects' one per repository): written or not by this build's payload.
  for (const file of files.filter((f) => folderCardResource(service, f) !== undefined).sort())
    rules.push({ path: `/${file}`, headers: { 'Content-Type': 'image/svg+xml', ...CARD_RESPONSE_HEADERS } });
  rules.push({ path: `/${API_INDEX.file}`, headers: { 'Content-Type': API_INDEX.contentType } });
  for (const doc of Object.values(DISCOVERY)) {
    if (doc.file.endsWith('.md')) continue; // every twin gets the Markdown rule below
    rules.push({ path: `/${doc.file}`, headers: { 'Content-Type': doc.contentType } });
  }
  // The feeds' types are not what a host guesses from `.json` and `.atom`; the other two are named alike.
  for (const doc of Object.values(CONTENT_DOCUMENTS).filter((d) => written.has(d.file)))
    rules.push({ path: `/${doc.file}`, headers: { 'Content-Type': doc.contentType } });
  // A tag's JSON Feed, as the site's (pages/writings/tags.ts).
  for (const file of files.filter(isTagJsonFeed).sort())
    rules.push({ path: `/${file}`, headers: { 'Content-Type': CONTENT_DOCUMENTS.feed.contentType } });
  // Types the hosts' own tables name otherwise than the gateway (builders/contract/content-types.ts).
  for (const file of files.filter(hostTypeDiffers).sort())
    rules.push({ path: `/${file}`, headers: { 'Content-Type': contentTypeFor(file) } });
  for (const file of files.filter((f) => f.endsWith('.md')).sort())
    rules.push({ path: `/${file}`, headers: { 'Content-Type': MARKDOWN_CONTENT_TYPE } });
  // RFC 9727 §3: the api-catalog relation lets a client find the catalog from the publisher's home page,
  // the API index and the catalog itself, as the gateway's Link header does.
  const catalogLink = `<${absoluteUrl(config.siteUrl, DISCOVERY.apiCatalog.path)}>; rel="api-catalog"`;
  for (const file of [PAGES.home.htmlFile, API_INDEX.file, DISCOVERY.apiCatalog.file])
    rules.push({ path: `/${file}`, headers: { Link: catalogLink } });
  return rules;
}

/**
 * The files the rules are for: the site's (`files`, what renderSite wrote) and the snapshots, which the
 * build writes beside them (each dataset's, whether or not this build publishes it: a rule for a file that
 * is not there matches nothing).
 */
function ruledFiles(service: ServiceTables, files: readonly string[]): string[] {
  return [...new Set([...service.resources.flatMap((r) => r.snapshotFiles), ...files])];
}

/** Every path a static host answers from `files`: each file's own, a page's clean URL, and `/api` for the index. */
function servedPaths(files: readonly string[]): Array<{ path: string; file: string }> {
  return files.flatMap((file) => {
    const own = { path: `/${file}`, file };
    const clean = requestPath(own.path);
    const more = file === API_INDEX.file ? [{ path: API_INDEX.path, file }] : [];
    return [own, ...(clean === undefined ? [] : [{ path: clean, file }]), ...more];
  });
}

/**
 * The cache rule of every path of `files` (builders/contract/cache-rules.ts, the gateway's), for `_headers`, where
 * every rule that matches a path applies and two values of one header are joined: so each path is matched
 * by exactly one Cache-Control rule. A folder whose every path (its subfolders' included) has one value is
 * one splat rule (`/writings/*`, `/og/*`, `/cards/repos/*`), so the count does not grow with the
 * writings or the projects; the other paths have a rule each.
 */
export function cacheRules(service: ServiceTables, files: string[]): HeaderRule[] {
  const entries = servedPaths(ruledFiles(service, files)).map(({ path, file }) => ({
    path,
    value: fileCacheControl(service, file),
  }));
  const rule = (path: string, value: string): HeaderRule => ({ path, headers: { 'Cache-Control': value } });
  const fold = (folder: string, under: typeof entries): HeaderRule[] => {
    const values = new Set(under.map((e) => e.value));
    if (folder !== '/' && values.size === 1) return [rule(`${folder}*`, under[0]!.value)];
    const out: HeaderRule[] = [];
    const folders = new Map<string, typeof entries>();
    for (const e of under) {
      const rest = e.path.slice(folder.length);
      const slash = rest.indexOf('/');
      // A folder's own clean URL (`/dir/` for dir/index.html) is in the folder: `/dir/*` matches it.
      if (slash < 0) out.push(rule(e.path, e.value));
      else {
        const sub = `${folder}${rest.slice(0, slash + 1)}`;
        folders.set(sub, [...(folders.get(sub) ?? []), e]);
      }
    }
    for (const [sub, inner] of [...folders].sort(([a], [b]) => a.localeCompare(b))) out.push(...fold(sub, inner));
    return out;
  };
  return fold('/', entries);
}

/**
 * Every page, the 404 page included, with the browser security headers the gateway sends too (the
 * same policy as each page's meta element, from builders/contract/content-security-policy.ts).
 */
export function pageRules(config: Config, files: string[]): HeaderRule[] {
  const headers = pageResponseHeaders(feedPolicyOptions(liveFeedUrl(config)));
  return files
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((file) => ({ path: `/${file}`, headers: { ...headers } }));
}

/** The path a visitor requests for a file: hosts with clean URLs serve `/x.html` at `/x`, and `index.html` at its folder. */
function requestPath(filePath: string): string | undefined {
  if (filePath.endsWith('/index.html')) return filePath.slice(0, -'index.html'.length);
  if (filePath.endsWith('.html')) return filePath.slice(0, -'.html'.length);
  return undefined;
}

/** `/api` is the index file; each alias is served from its v1 file (same bytes, no redirect). */
export function rewrites(service: ServiceTables): Rewrite[] {
  return [
    { from: API_INDEX.path, to: `/${API_INDEX.file}` },
    ...service.resources.map((r) => ({ from: r.alias.path, to: r.v1.path })),
  ];
}

/**
 * A site built for a base path (`SITE_URL=https://you.github.io/portfolio`) links `/portfolio/assets/site.css`,
 * where `serve dist` has `/assets/site.css`: these rewrites serve the base path from dist/'s root, so the
 * same folder is whole at `/` and at `/portfolio/`. serve-handler applies one rewrite and then the rules
 * after it, and takes a rewritten path as a file exactly (no `.html` guessed, a folder is a 404): so a page
 * is named with its `.html` first (the top-level pages by name, a writing by its slug's characters, so
 * that `/writings/x.md` is no page), then everything else keeps its path, and `/api` and the aliases follow.
 */
export function basePathRewrites(siteUrl: string, files: string[]): Array<{ source: string; destination: string }> {
  const base = sitePath(siteUrl, '/').replace(/\/$/, '');
  if (base === '') return [];
  const pages = files
    .filter((f) => /^[a-z0-9-]+\.html$/.test(f) && f !== 'index.html')
    .map((f) => f.slice(0, -'.html'.length))
    .sort();
  return [
    { source: base, destination: '/index.html' },
    { source: `${base}/`, destination: '/index.html' },
    ...(pages.length === 0 ? [] : [{ source: `${base}/:page(${pages.join('|')})`, destination: '/:page.html' }]),
    ...(files.some((f) => f.startsWith('writings/') && f.endsWith('.html'))
      ? [{ source: `${base}/writings/:slug([a-z0-9-]+)`, destination: '/writings/:slug.html' }]
      : []),
    // serve-handler writes a parameter back percent-encoded (a `/` as %2F), so a path keeps its segments
    // one parameter each, to the deepest file the build wrote.
    ...Array.from({ length: Math.max(...files.map((f) => f.split('/').length)) }, (_, depth) => {
      const segments = Array.from({ length: depth + 1 }, (_, i) => `/:p${i}`).join('');
      return { source: `${base}${segments}`, destination: segments };
    }),
  ];
}

/**
 * serve.json for `serve dist` (serve-handler). Its header `source` is matched against the path of the
 * file served (after rewrites), with minimatch, whose globs skip dot-paths: so each rule names its file
 * exactly, including `/.well-known/api-catalog`, and the twins share one `**\/*.md` glob (the schema of
 * serve.json allows at most 50 header rules).
 */
export function serveJson(site: StaticSite, files: string[]): Record<string, unknown> {
  const { config } = site;
  // serve applies every matching rule in order, a later value of one header replacing an earlier one: the
  // default cache rule comes first, for every file, and each file whose rule differs names its own after.
  const merged = new Map<string, Record<string, string>>();
  for (const r of headerRules(site, files).filter((r) => !r.path.endsWith('.md')))
    merged.set(r.path, { ...merged.get(r.path), ...r.headers });
  for (const file of ruledFiles(site.service, files)) {
    const value = fileCacheControl(site.service, file);
    if (value !== DEFAULT_FILE_CACHE_CONTROL)
      merged.set(`/${file}`, { ...merged.get(`/${file}`), 'Cache-Control': value });
  }
  const rules = bracedRules(
    foldFolders(
      [...merged].map(([path, headers]) => ({ path, headers })),
      '**',
    ),
  );
  const toServe = (r: HeaderRule) => ({
    source: r.path,
    headers: Object.entries(r.headers).map(([key, value]) => ({ key, value })),
  });
  return {
    cleanUrls: true,
    directoryListing: false,
    rewrites: [
      ...basePathRewrites(config.siteUrl, files),
      ...rewrites(site.service).map((r) => ({ source: r.from, destination: r.to })),
    ],
    headers: [
      // `**` skips dot-paths, so /.well-known/ needs its own rule for the common headers and the cache's.
      ...['**', '/.well-known/**'].map((source) => ({
        source,
        headers: Object.entries({ ...COMMON_RESPONSE_HEADERS, 'Cache-Control': DEFAULT_FILE_CACHE_CONTROL }).map(
          ([key, value]) => ({ key, value }),
        ),
      })),
      ...rules.map(toServe),
      { source: '**/*.md', headers: [{ key: 'Content-Type', value: MARKDOWN_CONTENT_TYPE }] },
      // One glob for every page (pageRules), like the twins.
      {
        source: '**/*.html',
        headers: Object.entries(pageResponseHeaders(feedPolicyOptions(liveFeedUrl(config)))).map(([key, value]) => ({
          key,
          value,
        })),
      },
    ],
  };
}

/**
 * Netlify and Cloudflare Pages `_headers`: a path line, then indented `Name: value` lines. Header paths
 * match the request, so `/api` gets the index's headers as well as `/api/index.json`, and a page's rule
 * is repeated for its clean URL (`/` for `/index.html`, `/developers` for `/developers.html`).
 */
export function headersFile(site: StaticSite, files: string[]): string {
  const rules = [...headerRules(site, files), ...pageRules(site.config, files)];
  const index = {
    headers: Object.assign({}, ...rules.filter((r) => r.path === `/${API_INDEX.file}`).map((r) => r.headers)),
  };
  const cleanUrls = rules.flatMap((r) => {
    const path = requestPath(r.path);
    return path === undefined ? [] : [{ path, headers: r.headers }];
  });
  const all: HeaderRule[] = [
    { path: '/*', headers: { ...COMMON_RESPONSE_HEADERS } },
    ...rules,
    ...cleanUrls,
    { path: API_INDEX.path, headers: index.headers },
    // Already one rule per path, folded by folder where a folder shares one value.
    ...cacheRules(site.service, files),
  ];
  // One block per path: a page's own rule (the home page's Link), its page rule and its cache rule become one.
  const byPath = (list: readonly HeaderRule[]) => {
    const merged = new Map<string, Record<string, string>>();
    for (const r of list) merged.set(r.path, { ...merged.get(r.path), ...r.headers });
    return [...merged].map(([path, headers]) => ({ path, headers }));
  };
  return `${byPath(foldFolders(byPath(all), '*'))
    .map((r) => [r.path, r.headers] as const)
    .map(([path, headers]) => [path, ...Object.entries(headers).map(([k, v]) => `  ${k}: ${v}`)].join('\n'))
    .join('\n\n')}\n`;
}

/**
 * Cloudflare Pages reads at most 100 `_headers` rules (and serve.json's schema allows 50): the rules of
 * one folder's files (a writing's page, its clean path, its twin; a project's card) that carry the same
 * headers become one splat rule, `/writings/*` (and `/writings/*.md` for the twins, `/writings/tags/*.json`
 * for the tags' feeds), so that the count does not grow with the writings, their tags or the projects. A
 * splat also matches the folder's other files (a twin, a compressed copy) and its subfolders' (a tag's page),
 * so a group is folded only when no other rule it reaches sets one of its header names to another value
 * (hosts join two rules' values of one header with a comma, which would garble a type or a policy); a
 * subfolder's rule with the same headers is folded into it. Files of two folders or more (the projects' cards,
 * one folder per owner) fold into one splat at a folder above them, so that the count does not grow with the
 * owners either (serve refuses a serve.json of more than 50 rules and serves nothing).
 * A type is a kind of file's, so a splat that sets one names the files' extension (`/writings/*.md`,
 * `/writings/tags/*.json`): a bare `/writings/tags/*` would give a tag's page and its Atom feed the
 * type of the JSON feeds beside them.
 * (Netlify's splat also matches the bare folder path, `/writings`, the index page's clean URL, whose own rule
 * carries the same page headers: it gets each value twice, `P, P`, which a browser reads as `P`: two
 * identical policies enforce one, and Referrer-Policy takes its last token. Cloudflare's does not.)
 * `splat` is the host's any-path pattern: `*` in `_headers` (it spans `/`), `**` in serve.json (minimatch).
 */
export function foldFolders(rules: readonly HeaderRule[], splat: '*' | '**'): HeaderRule[] {
  const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
  // The folders above a file's own, below the root: /cards/repos/ for /cards/repos/o/p.svg, then /cards/.
  const ancestorsOf = (folder: string) => {
    const up: string[] = [];
    for (let f = folder.slice(0, folder.slice(0, -1).lastIndexOf('/') + 1); f !== '/';) {
      up.push(f);
      f = f.slice(0, f.slice(0, -1).lastIndexOf('/') + 1);
    }
    return up;
  };
  // A splat that sets a type keeps the files' extension (below).
  const extensionOf = (r: HeaderRule) =>
    'Content-Type' in r.headers ? (/\.[a-z0-9]+$/.exec(r.path.slice(r.path.lastIndexOf('/')))?.[0] ?? '') : '';
  // A file's own folder: `${folder}${splat}${extension}`. A folder above it must reach into every subfolder,
  // which minimatch's `**` does only as a segment of its own (`/cards/repos/**/*.svg`); `_headers`' `*` spans `/`.
  const patternAt = (folder: string, r: HeaderRule) =>
    folder === folderOf(r.path) || splat === '*'
      ? `${folder}${splat}${extensionOf(r)}`
      : `${folder}**/*${extensionOf(r)}`;
  const same = (a: HeaderRule, b: HeaderRule) => JSON.stringify(a.headers) === JSON.stringify(b.headers);
  const groups = new Map<string, { folder: string; members: HeaderRule[] }>();
  for (const r of rules) {
    if (folderOf(r.path) === '/' || r.path.includes('*')) continue;
    // Its own folder, and each above it: the projects' cards lie one folder per owner (/cards/repos/<owner>/),
    // and a rule per owner would grow with the owners a profile pins (serve.json holds at most 50).
    for (const folder of [folderOf(r.path), ...ancestorsOf(folderOf(r.path))]) {
      const key = `${patternAt(folder, r)}\n${JSON.stringify(r.headers)}`;
      const group = groups.get(key) ?? { folder, members: [] };
      group.members.push(r);
      groups.set(key, group);
    }
  }
  const folded = new Map<HeaderRule, HeaderRule>();
  // The shallowest folders first: a splat spans `/`, so `/writings/*.md` also reaches `/writings/tags/a.md`,
  // whose rule it then stands for when their headers are the same (two rules would send the type twice).
  const depth = (folder: string) => folder.split('/').length;
  const ordered = [...groups.values()].sort((a, b) => depth(a.folder) - depth(b.folder));
  for (const { folder, members: group } of ordered) {
    if (group.length < 2 || group.every((r) => folded.has(r))) continue;
    // A folder above the files' own is worth a splat only when they lie in two folders or more.
    if (new Set(group.map((r) => folderOf(r.path))).size < 2 && folder !== folderOf(group[0]!.path)) continue;
    const extension = extensionOf(group[0]!);
    const names = new Set(Object.keys(group[0]!.headers));
    const reached = rules.filter(
      (r) => !r.path.includes('*') && r.path.startsWith(folder) && (extension === '' || r.path.endsWith(extension)),
    );
    const clash = reached.some(
      (r) => (!same(r, group[0]!) || folded.has(r)) && Object.keys(r.headers).some((n) => names.has(n)),
    );
    if (clash) continue;
    const rule = { path: patternAt(folder, group[0]!), headers: group[0]!.headers };
    for (const r of reached) if (same(r, group[0]!)) folded.set(r, rule);
  }
  const out: HeaderRule[] = [];
  for (const r of rules) {
    const rule = folded.get(r) ?? r;
    if (!out.includes(rule)) out.push(rule);
  }
  return out;
}

/** serve's schema: at most this many characters in a rule's `source`. */
const SERVE_SOURCE_MAX = 100;

/**
 * serve.json's rules of single files that carry the same headers, as one minimatch brace pattern each
 * (`/{api/v1/github-streak,api/github-streak}`), of at most SERVE_SOURCE_MAX characters: serve refuses a
 * serve.json of more than 50 rules and serves nothing, and each dataset's paths and cards would add four.
 * A joined rule stands where the last of its files' rules stood: a rule only ever moves later, past rules
 * that set none of its headers for its files (foldFolders' splats never do), so every file keeps its values.
 */
export function bracedRules(rules: readonly HeaderRule[]): HeaderRule[] {
  const plain = (r: HeaderRule) => /^\/[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/.test(r.path);
  const chunks = new Map<HeaderRule, HeaderRule[]>();
  const open = new Map<string, HeaderRule[]>();
  const sourceOf = (members: readonly HeaderRule[]) =>
    members.length === 1 ? members[0]!.path : `/{${members.map((m) => m.path.slice(1)).join(',')}}`;
  for (const r of rules) {
    if (!plain(r)) continue;
    const key = JSON.stringify(r.headers);
    let chunk = open.get(key);
    if (chunk === undefined || sourceOf([...chunk, r]).length > SERVE_SOURCE_MAX) open.set(key, (chunk = []));
    chunk.push(r);
    chunks.set(r, chunk);
  }
  return rules.flatMap((r) => {
    const chunk = chunks.get(r);
    if (chunk === undefined) return [r];
    return chunk.at(-1) === r ? [{ path: sourceOf(chunk), headers: r.headers }] : [];
  });
}

/** Netlify and Cloudflare Pages `_redirects`: status 200 makes each line a rewrite, not a redirect. */
export function redirectsFile(service: ServiceTables): string {
  return `${rewrites(service)
    .map((r) => `${r.from} ${r.to} 200`)
    .join('\n')}\n`;
}

export function renderStaticHostConfig(site: StaticSite, files: string[]): Artifact[] {
  return [
    { file: 'serve.json', body: `${JSON.stringify(serveJson(site, files), null, 2)}\n` },
    { file: '_headers', body: headersFile(site, files) },
    { file: '_redirects', body: redirectsFile(site.service) },
    // GitHub Pages runs Jekyll unless told not to, and Jekyll drops dot-folders such as .well-known/.
    { file: '.nojekyll', body: '' },
  ];
}
