// `npm run start:edge`: the gateway as a Cloudflare Worker in local workerd (miniflare, offline), after
// `build --if-stale` has built dist/ (package.json). `npm run build:edge` (`--bundle-only`) stops after the
// bundle, for `npx wrangler deploy`. The only place that prints startup failures and picks exit statuses,
// as gateway/main.ts does for `npm start`: 2 for an invalid variable, 1 when it cannot start, 0 after a
// clean shutdown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../builders/lib/config.ts';
import { ConfigError } from '../../builders/lib/errors.ts';
import { oneLine } from '../../builders/lib/text/one-line.ts';
import { listenRefusal, portTakenReason } from '../../builders/lib/port-hint.ts';
import { errorMessage, runServer } from '../../builders/lib/run-main.ts';
import { parseTrustProxy } from '../quota/ip-ranges.ts';
import { bundleWorker, refuseNodeOnly, WRANGLER_CONFIG, writeWorkerRoutes } from './bundle.ts';
import { startLocalWorker, type LocalWorker } from './local.ts';
import { workerSecrets } from './deployment.ts';
import { connectSources, datasets } from '../../builders/datasets/registry.ts';
import { httpOptions } from '../../builders/upstreams/http.ts';

const MAX_LINE = 300;
const err = (line: string) => void process.stderr.write(`edge: ${oneLine(line, MAX_LINE)}\n`);

/** CONTRACT: SIGTERM stops everything within 8 s; workerd is given most of it, then the program exits anyway. */
const STOP_DEADLINE_MS = 6_000;

async function main(): Promise<number | undefined> {
  let config: Config;
  try {
    config = loadConfig(process.env);
    refuseNodeOnly(config, !process.argv.includes('--bundle-only'));
    // Read by the local front door alone (front.ts); checked here, before anything is built.
    parseTrustProxy(config.trustProxy);
    // The datasets' own variables, which their folders check as their upstreams connect (no request is
    // made), as the Node programs do at their start: a refused one never reaches the bundle.
    connectSources(datasets(config), config, httpOptions(config));
  } catch (error) {
    if (error instanceof ConfigError) {
      err(`invalid configuration: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (process.argv.includes('--bundle-only')) {
    // The file `wrangler deploy` reads names the deployment's own routes; start:edge passes them to workerd itself.
    const bundle = await bundleWorker(config, process.env);
    if (writeWorkerRoutes(bundle.routes))
      process.stdout.write(`wrote this deployment's run_worker_first into ${WRANGLER_CONFIG}\n`);
    process.stdout.write(`bundled ${bundle.file} and ${bundle.assets}/ for ${WRANGLER_CONFIG}\n`);
    return 0;
  }
  // A folder of this process's own for the static assets, removed when it stops.
  const assets = mkdtempSync(join(tmpdir(), 'edge-assets-'));
  process.once('exit', () => rmSync(assets, { recursive: true, force: true }));
  const bundle = await bundleWorker(config, process.env, assets);

  // workerd says why it cannot listen only after seconds, and in wrangler's words: asked first, as the
  // Node gateway answers (docs/configuration.md): a HOST not of this machine is an invalid value.
  const refusal = await listenRefusal(config.host, config.port);
  if (refusal === 'EADDRNOTAVAIL' || refusal === 'ENOTFOUND') {
    err(`invalid configuration: HOST "${config.host}" is not an address of this machine (${refusal})`);
    return 2;
  }
  if (refusal === 'EADDRINUSE') {
    err(`cannot start: ${portTakenReason(config.host, config.port).replace(/npm start\)$/, 'npm run start:edge)')}`);
    return 1;
  }

  let worker: LocalWorker;
  try {
    worker = await startLocalWorker(config, bundle, {
      // Secrets stay out of the bundle: the Worker reads them from its bindings, as `wrangler secret put` sets them.
      secrets: Object.fromEntries(
        workerSecrets(datasets(config)).flatMap((name) => {
          const value = name === 'GITHUB_TOKEN' ? config.githubToken : config.env[name]?.trim();
          return value ? [[name, value]] : [];
        }),
      ),
      stderr: (chunk) => process.stderr.write(chunk),
    });
  } catch (error) {
    err(`cannot start: ${errorMessage(error)}`);
    return 1;
  }
  process.stdout.write(`listening on ${worker.url}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
    worker.close().then(
      () => process.exit(0),
      (error: unknown) => {
        err(`shutdown failed: ${errorMessage(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return undefined;
}

runServer(main, err);
