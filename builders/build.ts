// `npm run build`: fetch both upstreams, build and validate the snapshots, render the site, write dist/.
// Exit status (CONTRACT §1): 0 all written; 1 an upstream gave no usable data (its snapshot is not
// written, everything else is); 2 a configuration error.
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../core/config.ts';
import type { GitHubContributions } from '../core/contributions.ts';
import { ConfigError, printable, UpstreamError } from '../core/errors.ts';
import type { MarketData } from '../core/market.ts';
import { CARDS, dataResource, type DataResourceId } from '../core/routes.ts';
import { createValidator } from '../core/schemas.ts';
import { createSources, fetchContributions, fetchMarketData } from '../core/sources.ts';
import type { Artifact } from './artifact.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { renderCli } from './cli-artifact.ts';
import { nameList, previousBuild, pruneStale, recordBuild, type SiteIdentity } from './prune.ts';
import { renderSite } from './site/index.ts';

export interface BuildOptions {
  outDir: string;
  nowMs?: number;
  simulated?: boolean;
  log?: (line: string) => void;
  warn?: (line: string) => void;
}

export interface BuildResult {
  exitCode: 0 | 1;
  failures: Array<{ resource: DataResourceId; error: Error }>;
  files: string[];
}

export async function build(config: Config, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? ((line) => process.stdout.write(`${line}\n`));
  const warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
  const nowMs = options.nowMs ?? config.sourceDateEpochMs ?? Date.now();
  const validator = createValidator();
  const sources = createSources(config);

  const settle = async <T>(resource: DataResourceId, work: () => Promise<T>): Promise<T | Error> => {
    try {
      const payload = await work();
      validator.validate(dataResource(resource).schema, payload);
      return payload;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  const [market, contributions] = await Promise.all([
    settle<MarketData>('market', () => fetchMarketData(sources, config, nowMs)),
    settle<GitHubContributions>('contributions', () => fetchContributions(sources, config, nowMs)),
  ]);

  const failures: BuildResult['failures'] = [];
  const artifacts: Artifact[] = [];
  for (const [id, result] of [
    ['market', market],
    ['contributions', contributions],
  ] as const) {
    const resource = dataResource(id);
    if (result instanceof Error) {
      failures.push({ resource: id, error: result });
      warn(failureLine(resource.title, result));
      // A snapshot left from an earlier build would now be stale: remove it rather than publish it as
      // current. Its paths are the contract's own (CONTRACT §5), so this holds even where no manifest
      // says a build wrote it (see prune.ts).
      // Its cards picture the same data: they go too (builders/site/cards.ts does not draw them).
      const stale = [...resource.snapshotFiles, ...CARDS.filter((c) => c.resource === id).map((c) => c.file)];
      await Promise.all(stale.map((file) => rm(join(options.outDir, file), { force: true })));
      continue;
    }
    const body = JSON.stringify(result);
    for (const file of resource.snapshotFiles) artifacts.push({ file, body });
  }

  const context = {
    config,
    nowMs,
    market: market instanceof Error ? null : market,
    contributions: contributions instanceof Error ? null : contributions,
    validator,
    simulated: options.simulated ?? config.demoSimulated,
  };
  const [site, cli] = await Promise.all([renderSite(context), renderCli(context)]);
  artifacts.push(...site, ...cli);

  for (const artifact of artifacts) {
    const target = resolve(options.outDir, artifact.file);
    if (!target.startsWith(resolve(options.outDir) + '/'))
      throw new Error(`artifact path escapes the output folder: ${artifact.file}`);
    await writeFileAtomic(target, artifact.body);
    const bytes = typeof artifact.body === 'string' ? Buffer.byteLength(artifact.body) : artifact.body.byteLength;
    log(
      `  ${join(options.outDir, artifact.file).padEnd(44)} ${formatSize(bytes).padStart(9)}  ${Math.round(performance.now() - started)} ms`,
    );
  }
  const written = artifacts.map((a) => a.file);
  const { removed, foreign } = await pruneStale(
    options.outDir,
    (await previousBuild(options.outDir)).files,
    new Set(written),
  );
  await recordBuild(options.outDir, written, siteIdentity(config, context.simulated));
  if (removed.length)
    log(`  removed what the previous build wrote and this one did not: ${printable(nameList(removed), 2000)}`);
  if (foreign.length)
    log(`  not written by a build, left in place and published with the rest: ${printable(nameList(foreign), 2000)}`);
  log(
    `built ${artifacts.length} files in ${Math.round(performance.now() - started)} ms${failures.length ? `, ${failures.length} upstream(s) failed` : ''}`,
  );
  return { exitCode: failures.length ? 1 : 0, failures, files: written };
}

/** What this build writes into the site from the configuration (see prune.ts, SiteIdentity). */
export function siteIdentity(config: Config, simulated: boolean): SiteIdentity {
  return {
    SITE_URL: config.siteUrl,
    GITHUB_ACCOUNT: config.githubAccount,
    MARKET_SOURCE_NAME: config.marketSourceName,
    DEMO_SIMULATED: String(simulated),
  };
}

/**
 * The one stderr line of a snapshot that could not be built (CONTRACT §1: it names the upstream and
 * the reason). An UpstreamError's message already starts with its upstream; any other error (a schema
 * violation, a bug) is named as such. The message may quote upstream text: one printable line.
 */
export function failureLine(title: string, error: Error): string {
  const reason = error instanceof UpstreamError ? error.message : `${error.name}: ${error.message}`;
  return `build: ${title.toLowerCase()} not written: ${printable(reason, 1000)}`;
}

export function formatSize(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
}

/** `--out <dir>`, else DIST_DIR as loadConfig read it (default dist/ in the working directory). Throws on any other argument. */
export function outDirFrom(argv: string[], config: Pick<Config, 'distDir'>): string {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  if (values.out === undefined) return config.distDir;
  const out = values.out.trim();
  if (out === '') throw new Error("option '--out <dir>' needs a folder");
  return resolve(out);
}

export async function main(argv = process.argv.slice(2)): Promise<number> {
  let config: Config;
  let outDir: string;
  try {
    config = loadConfig();
    outDir = outDirFrom(argv, config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`build: invalid configuration: ${printable(error.message, 1000)}\n`);
      return 2;
    }
    // parseArgs' own messages name the option ("Unknown option '--bogus'"); a usage error, like a bad variable.
    process.stderr.write(
      `build: ${printable((error as Error).message, 1000)} (usage: npm run build [-- --out <dir>])\n`,
    );
    return 2;
  }
  const result = await build(config, { outDir, simulated: config.demoSimulated });
  return result.exitCode;
}
