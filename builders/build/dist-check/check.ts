// Checks a built dist/ the way a visitor of a plain static host meets it: serves it from a Pages-like
// host under SITE_URL's base path, collects every link of every published document (pages, Markdown
// twins, llms files, sitemap, catalog, API index, OpenAPI, snapshots) that points into the site, and
// requests each one. Anything but a direct 200 is a failure, named with the documents that link to it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DISCOVERY,
  isSnapshotFile,
  MCP_ENDPOINT,
  type DataResourceId,
  type ServiceTables,
} from '../../contract/service.ts';
import { DEFAULT_SERVICE } from '../../datasets/registry.ts';
import { classifyLink, documentKind, extractLinks } from './links.ts';
import { startPagesHost } from './pages-host.ts';

export interface LinkFailure {
  /** The link as the site publishes it (absolute, from SITE_URL). */
  url: string;
  /** The status the Pages-like host answered, or the reason the link cannot resolve there. */
  problem: string;
  /** dist/ files that hold the link. */
  from: string[];
  /** The dataset the link belongs to when the build left that dataset out whole (see `absentData`). */
  absentDataset?: DataResourceId;
}

export interface DistCheckReport {
  documents: number;
  /** Datasets whose snapshot the build left out, their links not requested (only with `allowMissingData`). */
  missingData: DataResourceId[];
  /** Datasets none of whose snapshot files is in the folder, with or without `allowMissingData`. */
  absentData: DataResourceId[];
  /** Distinct site URLs requested. */
  checked: number;
  failures: LinkFailure[];
}

/** Extension-less files that are JSON documents (docs/api.md#published-paths). */
const JSON_FILES: Pick<ReadonlySet<string>, 'has'> = {
  has: (file) => isSnapshotFile(file) || file === DISCOVERY.apiCatalog.file,
};
/** Host configuration for `serve`, not a published document (its paths are rewrite rules, not links). */
const NOT_DOCUMENTS: ReadonlySet<string> = new Set(['serve.json']);
const CONCURRENCY = 8;
/** Paths the documents name as "gateway only" (docs/api.md#published-paths): no static host serves them, by design. */
const GATEWAY_ONLY: ReadonlySet<string> = new Set([MCP_ENDPOINT.path]);

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? listFiles(dir, `${prefix}${e.name}/`) : Promise.resolve([`${prefix}${e.name}`]),
    ),
  );
  return nested.flat().sort();
}

/** The path a file is requested at: pages at their clean URL (`/writings` for writings.html, `/` for index.html). */
export function publicPath(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  if (file.endsWith('.html')) return `/${file.slice(0, -'.html'.length)}`;
  return `/${file}`;
}

export interface DistCheckOptions {
  /**
   * A dataset the build left out (its upstream failed, exit 1: none of its snapshot files is in the folder)
   * is not a broken link: a static host answers its paths with 404, as documented
   * (docs/deploying.md#static-host-configuration). Its links are then not requested; its cards are
   * (the build draws them "unavailable"). A dataset with only some of its files is still a failure.
   */
  allowMissingData?: boolean;
  /** The deployment's datasets and cards (MARKET_PRODUCT); the defaults' when not given. */
  service?: ServiceTables;
}

/** `siteUrl`: origin plus optional base path, without a trailing slash (builders/lib/config.ts). */
export async function checkDist(
  distDir: string,
  siteUrl: string,
  options: DistCheckOptions = {},
): Promise<DistCheckReport> {
  const base = new URL(siteUrl).pathname.replace(/\/+$/, '');
  const absolute = (path: string) => `${siteUrl}${path === '/' ? '/' : path}`;
  /** Site path (below the base path) → files linking to it. */
  const targets = new Map<string, Set<string>>();
  const failures: LinkFailure[] = [];
  const outside = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, file: string) =>
    (map.get(key) ?? map.set(key, new Set()).get(key)!).add(file);

  const service = options.service ?? DEFAULT_SERVICE;
  const files = await listFiles(distDir);
  const documents = files.filter((f) => !NOT_DOCUMENTS.has(f) && documentKind(f, JSON_FILES) !== undefined);
  const absentData = service.resources.filter((r) => r.snapshotFiles.every((f) => !files.includes(f))).map((r) => r.id);
  const missingData = options.allowMissingData ? absentData : [];
  /** Site path → the absent dataset it belongs to: its snapshot files and its cards. */
  const absentPaths = new Map<string, DataResourceId>(
    [
      ...service.resources.flatMap((r) => r.snapshotFiles.map((f) => [publicPath(f), r.id] as const)),
      ...service.cards.map((c) => [publicPath(c.file), c.resource] as const),
    ].filter(([, id]) => absentData.includes(id)),
  );
  const leftOut = new Set([...absentPaths].filter(([, id]) => missingData.includes(id)).map(([path]) => path));
  for (const file of documents) {
    if (file !== '404.html') add(targets, publicPath(file), file); // the document is reachable itself
    const kind = documentKind(file, JSON_FILES)!;
    let links: string[];
    try {
      links = extractLinks(kind, await readFile(join(distDir, file), 'utf8'));
    } catch (error) {
      failures.push({ url: absolute(publicPath(file)), problem: `unreadable ${kind}: ${String(error)}`, from: [file] });
      continue;
    }
    for (const link of links) {
      const target = classifyLink(link, absolute(publicPath(file)), siteUrl);
      if (target.kind === 'site') {
        if (!GATEWAY_ONLY.has(target.path) && !leftOut.has(target.path)) add(targets, target.path, file);
      } else if (target.kind === 'outside-base') add(outside, target.url, file);
    }
  }
  for (const [url, from] of outside)
    failures.push({ url, problem: `outside the site's base path ${base || '/'}`, from: [...from].sort() });

  const host = await startPagesHost(distDir, base);
  try {
    const queue = [...targets.keys()].sort();
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const res = await fetch(new URL(`.${path}`, host.url), { redirect: 'manual' });
        await res.arrayBuffer();
        if (res.status !== 200) {
          const where = res.status >= 300 && res.status < 400 ? ` to ${res.headers.get('location')}` : '';
          const dataset = absentPaths.get(path);
          failures.push({
            url: absolute(path),
            problem: `${res.status}${where} on a Pages-like host`,
            from: [...targets.get(path)!].sort(),
            ...(dataset === undefined ? {} : { absentDataset: dataset }),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await host.close();
  }
  failures.sort((a, b) => a.url.localeCompare(b.url));
  return { documents: documents.length, missingData, absentData, checked: targets.size, failures };
}
