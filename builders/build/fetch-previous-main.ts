// The Publish workflow's step before the build: copies the live site's snapshots (from SITE_URL) into
// `--out <dir>` for `npm run build -- --previous <dir>` (docs/deploying.md#publishing-through-an-outage).
// usage: node .build/fetch-previous.mjs --out <dir>   (SITE_URL and UPSTREAM_TIMEOUT_MS as the build reads them)
// Exit 0 whatever the site answered (a 404 is a first deploy; a failure only leaves that dataset with no
// previous snapshot, and the build says so), 2 on a usage or configuration error.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../lib/config.ts';
import { ConfigError } from '../lib/errors.ts';
import { oneLine } from '../lib/text/one-line.ts';
import { runMain } from '../lib/run-main.ts';
import { userAgent } from '../upstreams/http.ts';
import { fetchPrevious } from './previous.ts';
import { datasets as registered } from '../datasets/registry.ts';
import type { Dataset } from '../datasets/dataset.ts';

async function main(argv = process.argv.slice(2)): Promise<number> {
  let siteUrl: string;
  let timeoutMs: number;
  let dir: string;
  let datasets: readonly Dataset[];
  try {
    const config = loadConfig();
    ({ siteUrl, upstreamTimeoutMs: timeoutMs } = config);
    datasets = registered(config);
    const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
    const out = values.out?.trim();
    if (out === undefined || out === '') throw new Error("option '--out <dir>' needs a folder");
    dir = resolve(out);
  } catch (error) {
    const message = oneLine((error as Error).message, 1000);
    process.stderr.write(
      error instanceof ConfigError
        ? `fetch-previous: invalid configuration: ${message}\n`
        : `fetch-previous: ${message} (usage: fetch-previous --out <dir>)\n`,
    );
    return 2;
  }
  for (const { url, outcome, detail } of await fetchPrevious({
    siteUrl,
    datasets,
    dir,
    timeoutMs,
    userAgent: userAgent(siteUrl),
  })) {
    const line = `fetch-previous: ${oneLine(url, 500)}: ${outcome === 'fetched' ? `${detail}, into ${dir}` : detail}\n`;
    if (outcome === 'failed') process.stderr.write(line);
    else process.stdout.write(line);
  }
  return 0;
}

runMain('fetch-previous', () => main());
