// The Worker's bundle, .build/edge/worker.mjs: gateway/worker/worker.ts and what it imports, compiled by esbuild for
// workerd, with the deployment's modules (gateway/worker/deployment.ts) given to it in memory; and its static
// assets folder. Each written whole under a temporary name and renamed into place: `wrangler deploy` never
// uploads half a file or half a folder.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Config } from '../../builders/lib/config.ts';
import { ConfigError } from '../../builders/lib/errors.ts';
import { deploymentModules } from './deployment.ts';
import { readWorkerFirst, workerFirstRoutes, writeWorkerFirst } from './worker-routes.ts';
import { repoUrl } from '../../builders/lib/repo-url.ts';

/** The repository root: this file runs bundled as .build/edge.mjs, or as source from gateway/worker/. */
const ROOT = fileURLToPath(repoUrl('', import.meta.url));
/** The configuration `wrangler deploy` reads; start:edge runs the Worker from it too. */
export const WRANGLER_CONFIG = `${ROOT}gateway/worker/wrangler.jsonc`;
/** The bundle `main` names in gateway/worker/wrangler.jsonc. */
export const WORKER_BUNDLE = `${ROOT}.build/edge/worker.mjs`;
/** The static assets folder `assets.directory` names in gateway/worker/wrangler.jsonc. */
export const WORKER_ASSETS = `${ROOT}.build/edge/assets`;

/**
 * Variables of the Node gateway that mean nothing in a Worker, refused rather than silently dropped
 * (docs/configuration.md#variables): a Worker opens no Redis connection, and on Cloudflare its client is
 * the CF-Connecting-IP that Cloudflare sets, never an address a proxy claims. Locally (`start:edge`,
 * `local`) TRUST_PROXY names the peers whose CF-Connecting-IP the front door believes (front.ts); the
 * bundle never carries it.
 */
export function refuseNodeOnly(config: Config, local: boolean): void {
  if (config.rateLimitRedisUrl !== undefined)
    throw new ConfigError(
      'RATE_LIMIT_REDIS_URL',
      'a Worker has no Redis link: its quota counts in a Durable Object (unset it for start:edge)',
    );
  if (config.trustProxy !== undefined && !local)
    throw new ConfigError(
      'TRUST_PROXY',
      "a deployed Worker trusts no proxy: its client is Cloudflare's CF-Connecting-IP (unset it for build:edge)",
    );
}

/** The bundle's code and the file it was also written to, and the folder of its static assets. */
export interface WorkerBundle {
  file: string;
  code: string;
  assets: string;
  /** The deployment's `run_worker_first` list. */
  routes: string[];
}

/**
 * Writes the bundle, and the static assets into `assets` (WORKER_ASSETS for `wrangler deploy`; start:edge
 * gives each process a folder of its own, as another start:edge of this checkout may run meanwhile).
 */
export async function bundleWorker(
  config: Config,
  env: Record<string, string | undefined>,
  assets = WORKER_ASSETS,
): Promise<WorkerBundle> {
  const modules = deploymentModules(config, env);
  const result = await esbuild.build({
    entryPoints: [`${ROOT}gateway/worker/worker.ts`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    // The export conditions wrangler itself bundles with.
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2024',
    minify: true,
    legalComments: 'none',
    // nodejs_compat (gateway/worker/wrangler.jsonc) provides these; the runtime provides cloudflare:workers.
    external: ['node:*', 'cloudflare:*'],
    // Modules that read files next to themselves name them from import.meta.url, which workerd leaves
    // undefined; the Worker reads no file, and the name must only parse.
    define: { 'import.meta.url': '"file:///worker/edge/worker.mjs"' },
    logLevel: 'warning',
    plugins: [
      {
        name: 'deployment',
        setup(build) {
          build.onResolve({ filter: /^edge:(deployment|validators)$/ }, (args) => ({
            path: args.path,
            namespace: 'deployment',
          }));
          build.onLoad({ filter: /.*/, namespace: 'deployment' }, (args) =>
            args.path === 'edge:deployment'
              ? { contents: modules.deployment, loader: 'json' }
              : // ajv's standalone code requires its runtime helpers and ajv-formats' formats by package name.
                { contents: modules.validators, loader: 'js', resolveDir: ROOT },
          );
        },
      },
    ],
  });
  const code = result.outputFiles[0]!.text;
  mkdirSync(`${ROOT}.build/edge`, { recursive: true });
  const temporary = `${WORKER_BUNDLE}.${process.pid}.tmp`;
  writeFileSync(temporary, code);
  renameSync(temporary, WORKER_BUNDLE);
  writeFolder(assets, modules.assets);
  return { file: WORKER_BUNDLE, code, assets, routes: modules.routes };
}

/** `folder` with exactly `files` in it, replaced whole: written beside it, then renamed into its place. */
function writeFolder(folder: string, files: ReadonlyArray<{ file: string; body: Uint8Array }>): void {
  const temporary = `${folder}.${process.pid}.tmp`;
  rmSync(temporary, { recursive: true, force: true });
  for (const { file, body } of files) {
    const path = join(temporary, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
  }
  rmSync(folder, { recursive: true, force: true });
  renameSync(temporary, folder);
}

/**
 * Puts the deployment's `run_worker_first` list (gateway/worker/worker-routes.ts) into
 * gateway/worker/wrangler.jsonc, the file `wrangler deploy` reads, when it holds another (a fork's
 * MARKET_PRODUCT, a new dataset). Returns whether it changed the file.
 */
export function writeWorkerRoutes(routes: string[], file = WRANGLER_CONFIG): boolean {
  const text = readFileSync(file, 'utf8');
  if (JSON.stringify(readWorkerFirst(text)) === JSON.stringify(routes)) return false;
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, writeWorkerFirst(text, routes));
  renameSync(temporary, file);
  return true;
}
