// The Worker in local workerd, through miniflare's API with the very configuration `wrangler deploy` reads
// (gateway/worker/wrangler.jsonc, turned into miniflare's options by wrangler's own reader): the same compatibility
// date and flags, Durable Objects, migration and static assets as in production, and nothing reaching
// the network (no Request.cf download, no telemetry, no update check, no login). workerd listens on a
// loopback port of its own; HOST:PORT is the front door (front.ts), which sets CF-Connecting-IP.
import { dirname } from 'node:path';
import type { Config } from '../../builders/lib/config.ts';
import { parseTrustProxy } from '../quota/ip-ranges.ts';
import { WRANGLER_CONFIG, type WorkerBundle } from './bundle.ts';
import { startFrontDoor } from './front.ts';

export interface LocalWorker {
  /** http://host:port with the actual port. */
  url: string;
  /** Stops workerd and removes its temporary files. */
  close(): Promise<void>;
}

export interface LocalOptions {
  /** Bindings that are secrets in production (`wrangler secret put`). */
  secrets: Record<string, string>;
  /** Where the Worker's own log lines go (its console.error on an upstream failure). */
  stderr: (chunk: string) => void;
}

/** The signals on which miniflare would exit the process itself; the program keeps its own shutdown. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function startLocalWorker(
  config: Config,
  bundle: WorkerBundle,
  options: LocalOptions,
): Promise<LocalWorker> {
  // Set before either package is loaded: wrangler reads them when its modules initialise.
  process.env.WRANGLER_SEND_METRICS = 'false';
  process.env.WRANGLER_SEND_ERROR_REPORTS = 'false';
  process.env.WRANGLER_HIDE_BANNER = 'true';
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
  const [{ unstable_getMiniflareWorkerOptions, unstable_readConfig }, { Miniflare, convertV4MiniflareOptions }] =
    await Promise.all([import('wrangler'), import('miniflare')]);
  // The file as `wrangler deploy` reads it, with this deployment's own routes (the file holds those of the
  // variables `npm run build:edge` last ran with) and this process's own assets folder.
  const wrangler = unstable_readConfig({ config: WRANGLER_CONFIG });
  wrangler.assets = { ...wrangler.assets!, run_worker_first: bundle.routes };
  const { workerOptions } = unstable_getMiniflareWorkerOptions(wrangler, undefined, {
    overrides: { assets: { directory: bundle.assets } },
  });
  // One bundled module: no module rules to apply (and miniflare 5 cannot take v4's).
  delete (workerOptions as { modulesRules?: unknown }).modulesRules;
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          ...workerOptions,
          name: 'gateway',
          modules: true,
          // The code as this program made it, not the file: another start:edge of this checkout, with
          // other variables, may replace the file meanwhile.
          script: bundle.code,
          scriptPath: bundle.file,
          // Module names are paths below this folder; the bundle is not below gateway/worker/wrangler.jsonc's own.
          modulesRoot: dirname(bundle.file),
          bindings: { ...(workerOptions.bindings as Record<string, unknown>), ...options.secrets },
        },
      ],
      host: '127.0.0.1',
      port: 0,
      cf: false,
      telemetry: { enabled: false },
      logRequests: false,
      handleStructuredLogs: ({ message }: { message: string }) => options.stderr(`${message}\n`),
      // wrangler's options are typed by its own copy of miniflare's declarations.
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  );
  // miniflare exits the process at once on these signals (status 128 + n); the program's own handler
  // disposes of workerd and exits 0, as `npm start` does. Its 'exit' hook stays: workerd never outlives us.
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal))
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  let ready: URL;
  try {
    ready = await mf.ready;
  } catch (error) {
    await mf.dispose().catch(() => {});
    throw error;
  }
  let front;
  try {
    front = await startFrontDoor(config.host, config.port, ready, parseTrustProxy(config.trustProxy), (line) =>
      options.stderr(`edge: ${line}\n`),
    );
  } catch (error) {
    await mf.dispose().catch(() => {});
    throw error;
  }
  return {
    url: front.url,
    close: async () => {
      await front.close();
      await mf.dispose();
    },
  };
}
