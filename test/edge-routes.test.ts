// Where the Worker runs first (gateway/worker/worker-routes.ts, `assets.run_worker_first` in
// gateway/worker/wrangler.jsonc): the data paths, their aliases and /mcp, derived from the route table, and
// none of the static files, which Cloudflare serves before the Worker. Patterns are matched here as
// Cloudflare's asset router matches them (each `*` any characters, the whole path; `!/` patterns win).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkerFirst, workerFirstRoutes, writeWorkerFirst } from '../gateway/worker/worker-routes.ts';
import { writeWorkerRoutes } from '../gateway/worker/bundle.ts';
import { DEFAULT_SERVICE, serviceTables } from '../builders/datasets/registry.ts';
import { API_INDEX, DISCOVERY, type ServiceTables } from '../builders/contract/service.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { ROOT } from './helpers/run.ts';

const WRANGLER = `${ROOT}gateway/worker/wrangler.jsonc`;
const text = readFileSync(WRANGLER, 'utf8');

/** Whether Cloudflare's router sends `path` to the Worker before the assets, for these patterns. */
function runsFirst(patterns: readonly string[], path: string): boolean {
  const matches = (pattern: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((s) => s.replace(/[-/\\^$+?.()|[\]{}]/g, '\\$&'))
        .join('.*')}$`,
    ).test(path);
  if (patterns.filter((p) => p.startsWith('!/')).some((p) => matches(p.slice(1)))) return false;
  return patterns.filter((p) => p.startsWith('/')).some(matches);
}

describe("the repository's run_worker_first", () => {
  const list = readWorkerFirst(text)!;

  it('is a list of patterns, the one the route table gives the stock deployment', () => {
    expect(Array.isArray(list)).toBe(true);
    // A dataset added to the registry without `npm run build:edge` fails here, naming the command.
    expect(list, "gateway/worker/wrangler.jsonc is not the registry's: run npm run build:edge").toEqual(
      workerFirstRoutes(DEFAULT_SERVICE),
    );
    // Cloudflare's own limits: at most 100 rules, each under 100 characters, no duplicates.
    expect(list.length).toBeLessThanOrEqual(100);
    expect(new Set(list).size).toBe(list.length);
    for (const pattern of list) expect(pattern.length).toBeLessThan(100);
  });

  it.each([
    '/api/v1/mon-price',
    '/api/mon-price',
    '/api/v1/github-contributions',
    '/api/github-contributions',
    '/mcp',
    ...DEFAULT_SERVICE.resources.flatMap((r) => [r.v1.path, r.alias.path]),
  ])('runs the Worker first for %s', (path) => {
    expect(runsFirst(list, path)).toBe(true);
  });

  it.each([
    '/',
    '/index.html',
    '/developers',
    '/developers.html',
    ...DEFAULT_SERVICE.cards.map((c) => c.path),
    '/llms.txt',
    '/openapi.json',
    '/status.json',
    ...Object.values(DISCOVERY).map((d) => d.path),
    '/api',
    '/api/index.json',
  ])('serves %s before the Worker', (path) => {
    expect(runsFirst(list, path)).toBe(false);
  });
});

describe('the routes, from the route table', () => {
  /** Every data path of a deployment, and /mcp, run first; none of its static files. */
  const coversExactly = (service: ServiceTables) => {
    const list = workerFirstRoutes(service);
    for (const path of [...service.paths.keys(), '/mcp']) expect(runsFirst(list, path), path).toBe(true);
    for (const path of ['/', '/api', `/${API_INDEX.file}`, ...service.cards.map((c) => c.path)])
      expect(runsFirst(list, path), path).toBe(false);
  };

  it("cover MARKET_PRODUCT's market, and every path without it", () => {
    const btc = serviceTables(loadConfig({ MARKET_PRODUCT: 'BTC-USD' }));
    expect(btc.paths.has('/api/v1/btc-price')).toBe(true);
    coversExactly(btc);
    coversExactly(serviceTables(loadConfig({ MARKET_PRODUCT: 'off' })));
  });

  it("are every data path of every dataset in the registry, and /mcp: a new dataset's fall under them", () => {
    coversExactly(serviceTables(loadConfig({})));
    // The patterns name no dataset: a deployment with other datasets has the same list.
    expect(workerFirstRoutes(serviceTables(loadConfig({ MARKET_PRODUCT: 'BTC-USD' })))).toEqual(
      workerFirstRoutes(DEFAULT_SERVICE),
    );
  });

  it("npm run build:edge writes the deployment's list into the file, comments and all else unchanged", () => {
    const dir = mkdtempSync(join(tmpdir(), 'wrangler-'));
    try {
      const file = join(dir, 'wrangler.jsonc');
      writeFileSync(file, text);
      // The stock deployment: the file already says so, and is left alone.
      expect(writeWorkerRoutes(workerFirstRoutes(serviceTables(loadConfig({}))), file)).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe(text);
      const other = ['/api/*', '/elsewhere', '/mcp'];
      expect(writeWorkerRoutes(other, file)).toBe(true);
      const changed = readFileSync(file, 'utf8');
      expect(readWorkerFirst(changed)).toEqual(other);
      expect(changed.replace(/"run_worker_first": \[[^\]]*\]/, '')).toBe(
        text.replace(/"run_worker_first": \[[^\]]*\]/, ''),
      );
      // Written back, it is the repository's text again, byte for byte.
      expect(writeWorkerFirst(changed, workerFirstRoutes(DEFAULT_SERVICE))).toBe(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
