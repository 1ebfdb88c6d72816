// What the Worker's bundle carries of one deployment, made on Node by `npm run build:edge` (and
// `start:edge`): the configuration's values, the site file, the schemas, the validators compiled to code,
// and the table of the files the gateway serves; and the Worker's static assets, those files' bytes. The
// table is made by the Node gateway's own code (readSiteFiles, staticTable, NODE_CODEC), so every header
// and ETag the Worker answers with is the one `npm start` serves; the Worker keeps only lengths, tags and
// the asset behind each body, read on first use. The assets are the served files alone, the gateway's own
// /openapi.json (with /mcp) in place of the static one, plus dist/'s `_headers` and `_redirects`: no
// snapshot (data paths are answered live), no compressed copy (Cloudflare compresses), no dot-file but
// /.well-known/ and no other host's configuration.
import { workerFirstRoutes } from './worker-routes.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, liveFeedUrl, type Config } from '../../builders/lib/config.ts';
import { loadSchemas, standaloneValidators } from '../../builders/contract/schemas.ts';
import { datasets, ownVariables, tablesOf, type Deployment } from '../../builders/datasets/registry.ts';
import { readSiteFiles } from '../http/static-files.ts';
import { gatewayOpenApiFile } from '../http/openapi-document.ts';
import { NODE_CODEC } from '../http/node-codec.ts';
import { staticTable } from '../core/http/static-table.ts';
import type { Baked, BakedFile } from './baked.ts';
import type { Dataset } from '../../builders/datasets/dataset.ts';

/** Variables the Worker never takes from the bundle: a secret, what refuseNodeOnly refuses, and the build's own folders and clock. */
const NOT_BAKED = new Set([
  'GITHUB_TOKEN',
  'RATE_LIMIT_REDIS_URL',
  'TRUST_PROXY',
  'DIST_DIR',
  'BUILD_CACHE_DIR',
  'SOURCE_DATE_EPOCH',
]);

/** What the bundle carries of `env`: the service's variables and the datasets' own, neither secrets nor Node-only ones. */
export function bakedEnv(list: readonly Dataset[], env: Record<string, string | undefined>): Record<string, string> {
  const secrets = new Set(workerSecrets(list));
  return Object.fromEntries(
    [...CONFIG_VARIABLES, ...ownVariables(list).variables]
      .filter((name) => !NOT_BAKED.has(name) && !secrets.has(name) && env[name] !== undefined)
      .map((name) => [name, env[name]!]),
  );
}

/** The secrets a Worker of these datasets reads from its bindings, never from its bundle. */
export function workerSecrets(list: readonly Dataset[]): string[] {
  return [...new Set(['GITHUB_TOKEN', ...ownVariables(list).secrets])];
}

/** The header and rewrite rules the build writes for static hosts (builders/build/static-host.ts), which Workers' assets read too. */
const HOST_RULE_FILES = ['_headers', '_redirects'];

/** One file of the Worker's static assets folder, relative to it. */
export interface AssetFile {
  file: string;
  body: Uint8Array;
}

export interface DeploymentModules {
  /** The bundle's `edge:deployment` module (Baked, as JSON) and `edge:validators` (ajv's standalone code). */
  deployment: string;
  validators: string;
  /** The Worker's static assets (`assets.directory` in gateway/worker/wrangler.jsonc). */
  assets: AssetFile[];
  /** The paths the Worker answers before the assets (`assets.run_worker_first`, gateway/worker/worker-routes.ts). */
  routes: string[];
}

export function deploymentModules(config: Config, env: Record<string, string | undefined>): DeploymentModules {
  const list = datasets(config);
  const service = tablesOf(list);
  const schemas = loadSchemas(service);
  const served = servedFiles({ config, datasets: list, service, schemas });
  const baked: Baked = {
    env: bakedEnv(list, env),
    secrets: workerSecrets(list),
    site: config.site,
    schemas: [...schemas.values()],
    files: served.map(({ file, body, tag }) => ({ file, body: { length: body.length, asset: `/${file}` }, tag })),
  };
  const rules = HOST_RULE_FILES.filter((f) => existsSync(join(config.distDir, f))).map((file) => ({
    file,
    body: readFileSync(join(config.distDir, file)),
  }));
  return {
    deployment: JSON.stringify(baked),
    validators: standaloneValidators(schemas),
    assets: [...served.map(({ file, body }) => ({ file, body })), ...rules],
    routes: workerFirstRoutes(service),
  };
}

/**
 * The files the gateway's static table serves, with the Node gateway's tag of each: the Worker rebuilds
 * the table from them (gateway/worker/worker-static.ts). No compressed copy: Cloudflare hands the Worker
 * `Accept-Encoding: br, gzip` whatever the client said and codes answers itself, so the Worker always
 * answers with the identity bytes (gateway/worker/worker.ts).
 */
function servedFiles(
  deployment: Pick<Deployment, 'config' | 'datasets' | 'service' | 'schemas'>,
): Array<Pick<BakedFile, 'file' | 'tag'> & { body: Uint8Array }> {
  const { config, service } = deployment;
  const files = readSiteFiles(config.distDir, (found) => [gatewayOpenApiFile(deployment, found)]).map((f) => ({
    file: f.file,
    body: f.body,
    copies: { br: undefined, gzip: undefined },
  }));
  const table = staticTable(files, service, NODE_CODEC, liveFeedUrl(config));
  const served = new Set([...table.routes.values(), ...(table.notFound ? [table.notFound] : [])].map((e) => e.file));
  return files
    .filter((f) => served.has(f.file))
    .map((f) => ({ file: f.file, body: f.body, tag: NODE_CODEC.tag(f.body) }));
}
