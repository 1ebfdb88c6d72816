// `npm run build`: fetch both upstreams, build and validate the snapshots, render the site, write dist/.
// Exit status (docs/configuration.md#commands): 0 all written; 1 an upstream gave no usable data (its snapshot is not
// written, everything else is) and, with `--previous <dir>`, no still-valid previous snapshot stood in for it;
// 2 a configuration or usage error, or a mistake in the site's content; 70 an internal error (builders/lib/run-main.ts).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, readSiteFile, SITE_FILE_URL, type Config } from '../lib/config.ts';
import { ConfigError, ContentError, UpstreamError } from '../lib/errors.ts';
import { oneLine } from '../lib/text/one-line.ts';
import { portIsTaken, portTakenReason } from '../lib/port-hint.ts';
import { dataResource, type DataResource, type DataResourceId, type ServiceTables } from '../contract/service.ts';
import {
  createDeployment,
  datasets,
  ownVariables,
  serviceTables,
  tablesOf,
  type Deployment,
} from '../datasets/registry.ts';
import { createValidator, loadSchemas, SchemaValidationError } from '../contract/schemas.ts';
import { EXIT_INTERNAL_ERROR, processIo, type MainIo } from '../lib/run-main.ts';
import { httpOptions } from '../upstreams/http.ts';
import type { Dataset } from '../datasets/dataset.ts';
import {
  fileHash,
  isStaged,
  type Artifact,
  type BuildCache,
  type DatasetOutcome,
  type PublishedAvatar,
} from './artifact.ts';
import { copyFileAtomic, writeFileAtomic } from './atomic-write.ts';
import { renderCli } from './cli-artifact.ts';
import { COMPRESSING_AT_ONCE, copiesOfArtifact, copyFiles, getsCopies } from './compressed-artifacts.ts';
import {
  changedSinceBuilt,
  identityChanges,
  nameList,
  previousBuild,
  pruneStale,
  recordBuild,
  type SiteIdentity,
} from './prune.ts';
import { notReusedLine, reusablePrevious, reusedLine } from './previous.ts';
import { renderSite } from './render-site.ts';
import { loadContent, SITE_DIR, type SiteContent } from './content/site-content.ts';
import { lastAvailableMs } from './last-available.ts';
import { calendarWindow } from '../domain/calendar.ts';
import { lookOf, type Look } from '../render/themes.ts';
import { fetchGithubAvatar, fetchPicture } from '../upstreams/github-avatar.ts';
import { publishedAvatar } from './content/avatar-file.ts';
import { publishPictures } from './content/published-pictures.ts';
import { openContentStore } from '../lib/cache/content-store.ts';
import { compressorIdentity } from '../lib/compressed-copies.ts';
import { drawerIdentity } from './pictures/rasterise.ts';
import { writingSearchIndexAside } from './pages/writings/writing-search.ts';
import { repoUrl } from '../lib/repo-url.ts';

export interface BuildOptions {
  outDir: string;
  /** The site's content folder (site.json, profile.md, skills.yaml, writings/); site/ by default. */
  contentDir?: URL;
  nowMs?: number;
  simulated?: boolean;
  log?: (line: string) => void;
  warn?: (line: string) => void;
  /** `--previous <dir>`: a copy of the last published site, whose snapshots stand in for a failed upstream's. */
  previousDir?: string;
  /** The configuration's datasets (builders/datasets/registry.ts), when the program has them already. */
  datasets?: readonly Dataset[];
  /**
   * The previous snapshots are the output folder's own (`--if-stale`): a reuse is said, but not why a
   * snapshot could not stand in, which the line of the failed upstream already covers.
   */
  quietPrevious?: boolean;
}

export interface BuildResult {
  /**
   * 1 when a dataset is missing: its upstream failed and no previous snapshot stood in for it; 2 when the
   * site's content holds a mistake (one line names the file and what to fix; nothing is fetched or written);
   * EXIT_INTERNAL_ERROR when building a dataset or judging its previous snapshot threw anything but an
   * upstream's or a schema's refusal: a bug (everything else is still written).
   */
  exitCode: 0 | 1 | 2 | typeof EXIT_INTERNAL_ERROR;
  failures: Array<{ resource: DataResourceId; error: Error }>;
  /** The failed datasets republished from `previousDir`, with their age. */
  reused: Array<{ resource: DataResourceId; ageMs: number }>;
  files: string[];
}

export async function build(config: Config, options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const log = options.log ?? ((line) => process.stdout.write(`${line}\n`));
  const warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
  const nowMs = options.nowMs ?? config.sourceDateEpochMs ?? Date.now();
  const simulated = options.simulated ?? config.demoSimulated;
  // The owner's content and look first (site/, site.json's theme and accent): a mistake there is theirs to
  // fix (exit 2), said at once, before any upstream is asked and before anything is written.
  // Ended once every source has answered: a request still running then (the ticker's half of a market
  // fetch whose candles failed) is one nobody waits for, and it stops instead of retrying on.
  const upstreamLifetime = new AbortController();
  let content: SiteContent;
  let look: Look;
  let deployment: Deployment;
  try {
    content = loadContent(options.contentDir, config.site, config.calendarTimeZone);
    look = lookOf(config.site);
    // The build's deployment, made once: everything below reads it. A dataset's folder checks its own
    // settings (its variables, its section of site.json) as its upstream connects: a mistake there is
    // the owner's too.
    deployment = createDeployment(
      config,
      {
        schemas: loadSchemas,
        validator: (schemas) => createValidator(schemas),
        http: httpOptions(config, upstreamLifetime.signal),
      },
      options.datasets,
    );
  } catch (error) {
    if (error instanceof ContentError) warn(contentErrorLine(error));
    else if (error instanceof ConfigError) warn(configErrorLine(error));
    else throw error;
    return { exitCode: 2, failures: [], reused: [], files: [] };
  }
  const { service, validator, sources } = deployment;

  // The owner's GitHub picture (`avatar: github`), asked beside the data; a failure leaves the pages
  // without a picture and is said in one line, the exit status is the datasets' to decide.
  // The résumé's `basics.image` as an https URL is fetched the same way (docs/site.md#resumejson).
  const pictureRequest = { siteUrl: config.siteUrl, timeoutMs: config.upstreamTimeoutMs };
  const source = content.avatar;
  const githubPicture = (
    source?.kind === 'github'
      ? fetchGithubAvatar({ ...pictureRequest, githubWebUrl: config.githubWebUrl, account: config.githubAccount })
      : source?.kind === 'url'
        ? fetchPicture(source.url, pictureRequest, 'resume-image')
        : null
  )?.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  // The writings' https pictures, asked beside the data too (published-pictures.ts); the search index made
  // meanwhile, on a thread of its own.
  const writingPictures = publishPictures(content.writings, pictureRequest, warn);
  const searchIndex = writingSearchIndexAside(config.siteUrl, content.writings);
  // Its failure is said where it is awaited, below, not as an unhandled rejection meanwhile.
  searchIndex.catch(() => undefined);
  const registered = deployment.datasets;
  const settle = async (dataset: Dataset, work: () => Promise<unknown>): Promise<unknown> => {
    try {
      const payload = await work();
      validator.validate(dataset.resource.schema, payload);
      return payload;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  // Every source at once; a dataset derived from another waits for what this build publishes of that one.
  const fetched = await Promise.all(
    registered.map((dataset) => {
      const source = sources.get(dataset.resource.id);
      return source === undefined ? null : settle(dataset, () => source.fetch(nowMs));
    }),
  );
  upstreamLifetime.abort();

  const failures: BuildResult['failures'] = [];
  const reused: BuildResult['reused'] = [];
  const internalErrors: Error[] = [];
  /** A dataset that failed: its line, and a bug (neither the upstream's fault nor its data's) kept for the exit status. */
  const failed = (resource: DataResource, error: Error) => {
    failures.push({ resource: resource.id, error });
    warn(failureLine(resource.title, error));
    if (!(error instanceof UpstreamError || error instanceof SchemaValidationError)) internalErrors.push(error);
  };
  const artifacts: Artifact[] = [];
  const payloads = new Map<DataResourceId, unknown>();
  const outcomes = new Map<DataResourceId, DatasetOutcome>();
  /**
   * Its snapshot files gone (an earlier build's would now be stale), once the time its data were last
   * available is read from them; its cards are drawn "unavailable" in place (builders/build/cards.ts).
   */
  const removeStale = async (resource: DataResource, reason: string) => {
    const last = await lastAvailableMs(
      [options.previousDir ?? options.outDir, options.outDir],
      resource,
      validator,
      simulated,
    );
    outcomes.set(resource.id, { state: 'missing', reason, ...(last !== undefined ? { lastAvailableMs: last } : {}) });
    // Its paths are the contract's own (docs/api.md#published-paths), so this holds even where no manifest
    // says a build wrote it (see prune.ts); and the compressed copies, which a static host would serve as current.
    await Promise.all(
      resource.snapshotFiles
        .flatMap((file) => [file, ...copyFiles(file)])
        .map((file) => rm(join(options.outDir, file), { force: true })),
    );
  };
  /** What this build publishes of a sourced dataset: its fresh payload, else (with --previous) its previous snapshot, else nothing. */
  const publish = async (dataset: Dataset, result: unknown): Promise<void> => {
    const { resource } = dataset;
    if (!(result instanceof Error)) {
      const body = JSON.stringify(result);
      for (const file of resource.snapshotFiles) artifacts.push({ file, body });
      payloads.set(resource.id, result);
      outcomes.set(resource.id, { state: 'fresh' });
      return;
    }
    failed(resource, result);
    if (options.previousDir !== undefined && dataset.reuse !== undefined) {
      const previous = await reusablePrevious(options.previousDir, dataset, {
        config,
        service,
        nowMs,
        validator,
        simulated,
      });
      if (previous.reused) {
        // Its bytes unchanged at every path of the snapshot; the pages and cards are drawn from it as from a fresh one.
        reused.push({ resource: resource.id, ageMs: previous.ageMs });
        warn(reusedLine(dataset, options.previousDir, previous));
        for (const file of resource.snapshotFiles) artifacts.push({ file, body: previous.body });
        payloads.set(resource.id, previous.payload);
        outcomes.set(resource.id, { state: 'reused', ageMs: previous.ageMs });
        return;
      }
      // A bug is said even where a refusal is not, and decides the exit status (builders/lib/run-main.ts); so is a
      // previous site whose data are simulated where this build's are real, or the reverse.
      if (previous.internalError !== undefined) internalErrors.push(previous.internalError);
      if (!options.quietPrevious || previous.internalError !== undefined || previous.provenance)
        warn(notReusedLine(dataset, options.previousDir, previous.reason));
    }
    await removeStale(resource, failureReason(result));
  };
  /**
   * A derived dataset: computed from what this build publishes of its origin, fresh or reused, and never
   * from anything else. Without its origin it is not published either; the origin's line said why.
   */
  const derive = async (
    dataset: Dataset,
    from: DataResourceId,
    rule: (payload: unknown, config: Config) => unknown,
  ) => {
    const origin = payloads.get(from);
    const result = origin === undefined ? null : await settle(dataset, async () => rule(origin, config));
    if (result !== null && !(result instanceof Error)) {
      await publish(dataset, result);
      // Derived from a republished origin, it is as old as that origin (status.json).
      const originOutcome = outcomes.get(from);
      if (originOutcome?.state === 'reused') outcomes.set(dataset.resource.id, originOutcome);
      return;
    }
    if (result instanceof Error) failed(dataset.resource, result);
    const originTitle = registered.find((d) => d.resource.id === from)?.resource.title ?? from;
    await removeStale(
      dataset.resource,
      result instanceof Error
        ? failureReason(result)
        : `${originTitle.toLowerCase()}, which it is derived from, is missing`,
    );
  };
  // One after the other, in the registry's order, so that the stderr lines keep the order of the datasets.
  for (const [i, dataset] of registered.entries()) {
    const { origin } = dataset;
    if (!('derivedFrom' in origin)) await publish(dataset, fetched[i]);
    else await derive(dataset, origin.derivedFrom, origin.derive);
  }

  let avatar: PublishedAvatar | null = null;
  if (content.avatar?.kind === 'file') avatar = publishedAvatar(content.avatar.picture);
  const picture = (await githubPicture) ?? null;
  if (picture instanceof Error)
    warn(
      `build: ${source?.kind === 'url' ? "the résumé's picture (basics.image)" : `the GitHub picture of ${config.githubAccount}`} was not fetched: ${failureReason(picture)}; the pages go without one`,
    );
  else if (picture !== null) avatar = publishedAvatar(picture);

  const context = {
    config,
    service,
    nowMs,
    datasets: registered,
    payloads,
    validator,
    simulated,
    contentDir: options.contentDir,
    outcomes,
    look,
    avatar,
    pictures: await writingPictures,
    searchIndex: await searchIndex,
    // The preview pictures wait here, not in memory, until they are written (builders/build/pages/sharing.ts).
    staging: await mkdtemp(join(tmpdir(), 'build-staging-')),
    cache: buildCache(config.buildCacheDir),
  };
  /** The files dist/ held before this build wrote (relative paths), read once before the first write. */
  let present: ReadonlySet<string> = new Set();
  /** Each folder of dist/ this build writes into, made once. */
  const folders = new Map<string, Promise<unknown>>();
  const folderOf = (file: string) => {
    const folder = dirname(file);
    let made = folders.get(folder);
    if (made === undefined) folders.set(folder, (made = mkdir(folder, { recursive: true })));
    return made;
  };

  /** Every file written, with the hash of the bytes written: the record `--if-stale` checks. */
  const hashes = new Map<string, string>();
  let files: string[];
  let copies: string[];
  try {
    ({ files, copies } = await renderAndWrite());
  } finally {
    await rm(context.staging, { recursive: true, force: true });
  }

  async function renderAndWrite(): Promise<{ files: string[]; copies: string[] }> {
    // Each artifact leaves the queue as it is written, so that its body can be collected while the rest
    // are: 3,000 writings' pages are 40 MB of text.
    const queue: Array<Artifact | undefined> = [
      ...artifacts.splice(0),
      ...(await Promise.all([renderSite(context, content), renderCli(context)])).flat(),
    ];
    const files = queue.map((a) => a!.file);
    // What dist/ holds before this build writes: only a copy an earlier build may have left is removed
    // (a fresh dist/ of 3,000 writings saved 18,000 removals of files that were not there).
    present = await filesIn(options.outDir);
    const placed: Array<Array<{ file: string; hash: string; bytes: number }>> = new Array(queue.length);
    let next = 0;
    // A few at once, each compressed as it is written: as many as may be compressing at once.
    await Promise.all(
      Array.from({ length: Math.min(COMPRESSING_AT_ONCE, queue.length) }, async () => {
        while (next < queue.length) {
          const i = next++;
          const artifact = queue[i]!;
          queue[i] = undefined;
          placed[i] = await place(artifact);
        }
      }),
    );
    // The record in the artifacts' order, whatever order the writes ended in.
    for (const { file, hash } of placed.flat()) hashes.set(file, hash);
    const copies = placed.flatMap((written) => written.slice(1));
    if (copies.length)
      log(
        `  ${`compressed copies beside them (.br, .gz): ${copies.length} files`.padEnd(44)} ${formatSize(copies.reduce((n, c) => n + c.bytes, 0)).padStart(9)}  ${Math.round(performance.now() - started)} ms`,
      );
    return { files, copies: copies.map((c) => c.file) };
  }

  /**
   * Writes one artifact, then its compressed copies beside it (made on the thread pool, written as soon as
   * made and then dropped: 3,000 writings' copies held until the end were 35 MB): the file first, then each
   * copy, with the hash of the bytes written.
   */
  async function place(artifact: Artifact): Promise<Array<{ file: string; hash: string; bytes: number }>> {
    const target = resolve(options.outDir, artifact.file);
    if (!target.startsWith(resolve(options.outDir) + '/'))
      throw new Error(`artifact path escapes the output folder: ${artifact.file}`);
    // An earlier build's .br/.gz beside this file would be served in its place by gzip_static hosts until the
    // new copies land (or for good, if this build dies first): they go before the file changes.
    if (getsCopies(artifact.file)) {
      await Promise.all(
        copyFiles(artifact.file)
          .filter((copy) => present.has(copy))
          .map((copy) => rm(resolve(options.outDir, copy), { force: true })),
      );
    }
    const { body } = artifact;
    let hash: string;
    const made = { folderMade: true };
    await folderOf(target);
    if (isStaged(body)) {
      // A staged picture is copied, never read back: 3,000 of them read were 120 MB of buffers to collect.
      await copyFileAtomic(body.staged, target, made);
      hash = body.hash;
    } else {
      await writeFileAtomic(target, body, made);
      hash = fileHash(body);
    }
    const bytes = isStaged(body) ? body.size : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    log(
      `  ${join(options.outDir, artifact.file).padEnd(44)} ${formatSize(bytes).padStart(9)}  ${Math.round(performance.now() - started)} ms`,
    );
    const written = [{ file: artifact.file, hash, bytes }];
    for (const copy of await copiesOfArtifact(artifact, context.cache?.copies)) {
      await writeFileAtomic(resolve(options.outDir, copy.file), copy.body, made);
      written.push({ file: copy.file, hash: fileHash(copy.body), bytes: Buffer.byteLength(copy.body) });
    }
    return written;
  }
  const written = [...files, ...copies];
  const { removed, foreign } = await pruneStale(
    options.outDir,
    (await previousBuild(options.outDir)).files,
    new Set(written),
  );
  await recordBuild(
    options.outDir,
    hashes,
    siteKey(config, context.simulated, { contentDir: options.contentDir, nowMs }),
    nowMs,
  );
  if (removed.length)
    log(`  removed what the previous build wrote and this one did not: ${oneLine(nameList(removed), 2000)}`);
  if (foreign.length)
    log(`  not written by a build, left in place and published with the rest: ${oneLine(nameList(foreign), 2000)}`);
  log(
    `built ${files.length} files in ${Math.round(performance.now() - started)} ms${failures.length ? `, ${failures.length} upstream(s) failed` : ''}${reused.length ? `, ${reused.length} previous snapshot(s) republished` : ''}`,
  );
  const exitCode = internalErrors.length ? EXIT_INTERNAL_ERROR : failures.length > reused.length ? 1 : 0;
  return { exitCode, failures, reused, files: written };
}

/** Every file under `dir` (links included, folders not), relative with forward slashes; none if it does not exist. */
async function filesIn(dir: string): Promise<Set<string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return new Set(
    entries.filter((e) => !e.isDirectory()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/')),
  );
}

/** The stores of BUILD_CACHE_DIR, one folder per kind of thing made; none for `off`. */
function buildCache(dir: string | undefined): BuildCache | undefined {
  if (dir === undefined) return undefined;
  return {
    pictures: openContentStore(join(dir, 'pictures'), drawerIdentity()),
    copies: openContentStore(join(dir, 'copies'), compressorIdentity()),
  };
}

/** The one stderr line of a setting that cannot be used: the variable or file, the field and why (builders/lib/errors.ts). */
export function configErrorLine(error: ConfigError): string {
  return `build: invalid configuration: ${oneLine(error.message, 1000)}`;
}

/** The one stderr line of a mistake in the site's content: the file and what to fix (builders/lib/errors.ts). */
export function contentErrorLine(error: ContentError): string {
  return `build: the site's content needs a fix: ${error.message}`;
}

/**
 * What this build writes into the site from the configuration (see prune.ts, SiteIdentity): the service's
 * settings, and each dataset's own variables (docs/architecture.md#add-a-dataset) but the origins of their
 * upstreams, which say where the data are read, not what they are. Unset is the empty string.
 */
export function siteIdentity(
  config: Config,
  simulated: boolean,
  list: readonly Dataset[] = datasets(config),
): SiteIdentity {
  const own = ownVariables(list);
  const origins = new Set(own.origins);
  return {
    ...Object.fromEntries(
      own.variables.filter((name) => !origins.has(name)).map((name) => [name, config.env[name]?.trim() ?? '']),
    ),
    SITE_URL: config.siteUrl,
    GITHUB_ACCOUNT: config.githubAccount,
    MARKET_SOURCE_NAME: config.marketSourceName,
    MARKET_PRODUCT: config.marketProduct ?? 'off',
    MARKET_WS_URL: config.marketWsUrl ?? 'off',
    CALENDAR_TIME_ZONE: config.calendarTimeZone,
    STREAK_REST_DAYS: config.streakRestDays.join(','),
    DEMO_SIMULATED: String(simulated),
  };
}

/** The repository root: this module runs as builders/build/build.ts or bundled as .build/build.mjs, one level down either way. */
const ROOT = fileURLToPath(repoUrl('', import.meta.url));
/**
 * The code a site is made from: the programs' sources (the build compiles the CLI and the page script
 * from them at build time, so the bundled build program alone would not cover them), the schemas, and
 * the locked dependencies (Markdown and YAML are read by packages).
 */
const CODE_PATHS = ['builders', 'schemas', 'package-lock.json'];

/** A SHA-256 over the files under `paths` (folders walked, names sorted): each relative name, then its bytes. */
export function filesHash(base: string, paths: readonly string[]): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    const full = join(base, path);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(full).sort()) add(`${path}/${name}`);
    } else if (stat.isFile()) {
      hash.update(`${path}\0${stat.size}\0`).update(readFileSync(full));
    }
  };
  for (const path of [...paths].sort()) add(path);
  return hash.digest('hex').slice(0, 16);
}

let codeHash: string | undefined;
/** The hash of CODE_PATHS, once per process: the code does not change under a running build. */
function codeFingerprint(): string {
  return (codeHash ??= filesHash(ROOT, CODE_PATHS));
}

/**
 * The Node.js flags the build runs with: `npm run build`, and `npm start`'s and `start:edge`'s
 * `build --if-stale` (package.json; test/slow/gateway-process.test.ts checks the start script against
 * this list). The build allocates fast and briefly (each writing rendered to HTML, Markdown, feed entries
 * and text, then compressed), and V8 grows a busy process's young generation to its largest semi-spaces
 * and keeps them: with 4 MiB semi-spaces, 3,000 writings peaked at 460 MiB instead of 525 MiB, for about
 * a tenth more CPU time (docs/performance.md#content-at-scale), as the gateway's own flag does
 * (gateway/node-flags.ts).
 */
export const BUILD_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** The keys of the record that are not settings, with the words the --if-stale line says them in. */
const SITE_CONTENT = 'SITE_CONTENT';
const BUILD_CODE = 'BUILD_CODE';
const CALENDAR_DAY = 'CALENDAR_DAY';

/**
 * Everything a built site depends on, as the record of a build keeps it and `--if-stale` compares it:
 * the settings (siteIdentity), the content folder's files, the code, and the calendar's day in its zone
 * (the day the snapshots and the pages were drawn for: a site built yesterday says yesterday's calendar).
 */
export function siteKey(
  config: Config,
  simulated: boolean,
  options: { contentDir?: URL; nowMs: number },
): SiteIdentity {
  return {
    ...siteIdentity(config, simulated),
    [SITE_CONTENT]: filesHash(fileURLToPath(options.contentDir ?? SITE_DIR), ['.']),
    [BUILD_CODE]: codeFingerprint(),
    [CALENDAR_DAY]: calendarWindow(options.nowMs, config.calendarTimeZone).endDate,
  };
}

/**
 * The one stderr line of a snapshot that could not be built (docs/configuration.md#commands: it names the upstream and
 * the reason). An UpstreamError's message already starts with its upstream; any other error (a schema
 * violation, a bug) is named as such. The message may quote upstream text: one line (builders/lib/text/one-line.ts).
 */
export function failureLine(title: string, error: Error): string {
  return `build: ${title.toLowerCase()} not written: ${failureReason(error)}`;
}

/** Why a snapshot could not be built, in one line (also status.json's `reason`). */
export function failureReason(error: Error): string {
  return oneLine(error instanceof UpstreamError ? error.message : `${error.name}: ${error.message}`, 1000);
}

export function formatSize(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
}

export interface BuildArgs {
  outDir: string;
  ifStale: boolean;
  /** `--previous <dir>`, resolved: a folder that exists (an empty one is a first deploy). */
  previousDir: string | undefined;
  /** `--content <dir>`, resolved: a content folder to build instead of site/ (the demo's copy); absent: site/. */
  contentDir?: string;
}

export const BUILD_USAGE = 'npm run build [-- --out <dir>] [--if-stale] [--previous <dir>] [--content <dir>]';

/**
 * The command line: `--out <dir>` (else DIST_DIR as loadConfig read it), `--if-stale` and `--previous <dir>`.
 * Throws on any other argument, and when the previous site's folder is not there: a typo there would
 * otherwise pass for a first deploy and silently drop a dataset through an outage.
 */
export function buildArgs(argv: string[], config: Pick<Config, 'distDir'>): BuildArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: 'string' },
      'if-stale': { type: 'boolean' },
      previous: { type: 'string' },
      content: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const ifStale = values['if-stale'] === true;
  let previousDir: string | undefined;
  if (values.previous !== undefined) {
    const previous = values.previous.trim();
    if (previous === '') throw new Error("option '--previous <dir>' needs a folder");
    previousDir = resolve(previous);
    if (!statSync(previousDir, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`option '--previous <dir>': ${JSON.stringify(oneLine(previousDir, 300))} is not a folder`);
  }
  let contentDir: string | undefined;
  if (values.content !== undefined) {
    contentDir = resolve(values.content.trim() || '.');
    if (!statSync(join(contentDir, 'site.json'), { throwIfNoEntry: false })?.isFile())
      throw new Error(`option '--content <dir>': ${JSON.stringify(oneLine(contentDir, 300))} has no site.json`);
  }
  const more = contentDir === undefined ? {} : { contentDir };
  if (values.out === undefined) return { outDir: config.distDir, ifStale, previousDir, ...more };
  const out = values.out.trim();
  if (out === '') throw new Error("option '--out <dir>' needs a folder");
  return { outDir: resolve(out), ifStale, previousDir, ...more };
}

/** A folder as the lines name it: relative to the working folder when inside it (`dist`), else whole. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/** An instant as the --if-stale line says it: `2026-11-26 19:41 UTC`. */
function builtAt(ms: number | undefined): string {
  return ms === undefined ? 'at an unknown time' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface Staleness {
  stale: boolean;
  /** The one line `--if-stale` prints: why it builds, or that the folder is up to date, when and for whom. */
  line: string;
}

/**
 * Whether `outDir` must be built before it is served, and the line that says so. It must when it is
 * missing; when no build recorded what it was made from (a record lost, or a folder no build wrote: a
 * gateway would serve it without knowing whose site it is); when its record names other settings (SITE_URL,
 * the account, the product...), another content of `site/`, other code, or an earlier calendar day in the
 * calendar's zone; or when it lacks a data snapshot, which the last build could not fetch and which this one
 * may (an offline first start would otherwise leave the cards missing and the home page saying
 * "unavailable" until someone runs the build by hand); or when a file the build wrote is gone or holds
 * other bytes than it wrote (its record keeps their hashes).
 */
export async function staleness(
  config: Config,
  outDir: string,
  options: { contentDir?: URL; nowMs?: number; service?: ServiceTables } = {},
): Promise<Staleness> {
  const dir = shownPath(outDir);
  const rebuild = (why: string): Staleness => ({ stale: true, line: `build: ${why}` });
  if (!existsSync(outDir)) return rebuild(`${dir} is missing; building it first`);
  const record = await previousBuild(outDir);
  const { identity } = record;
  if (identity === undefined) return rebuild(`${dir} has no record of the build that wrote it; building it again`);
  const nowMs = options.nowMs ?? config.sourceDateEpochMs ?? Date.now();
  const current = siteKey(config, config.demoSimulated, { contentDir: options.contentDir, nowMs });
  const when = builtAt(record.builtAtMs);
  const changed = identityChanges(identity, current).map((change) => change.slice(0, change.indexOf('=')));
  const settings = changed.filter((name) => name !== SITE_CONTENT && name !== BUILD_CODE && name !== CALENDAR_DAY);
  if (settings.length) {
    const was = settings.map((name) => `${name}=${identity[name] ?? '(none)'}`).join(', ');
    const now = settings.map((name) => `${name}=${current[name]}`).join(', ');
    return rebuild(`${dir} was built for ${oneLine(was, 500)}; building it again for ${oneLine(now, 500)}`);
  }
  if (changed.includes(SITE_CONTENT)) {
    const content = shownPath(fileURLToPath(options.contentDir ?? SITE_DIR)).replace(/\/?$/, '/');
    return rebuild(`${content} changed since ${dir} was built (${when}); building it again`);
  }
  if (changed.includes(BUILD_CODE))
    return rebuild(`the code changed since ${dir} was built (${when}); building it again`);
  if (changed.includes(CALENDAR_DAY))
    return rebuild(
      `${dir} holds the calendar of ${identity[CALENDAR_DAY]} in ${config.calendarTimeZone}, and it is ${current[CALENDAR_DAY]} there; building it again`,
    );
  const missing = missingSnapshots(options.service ?? serviceTables(config), outDir).map((r) => r.title.toLowerCase());
  if (missing.length)
    return rebuild(
      `${dir} lacks the ${missing.join(' and ')} snapshot${missing.length > 1 ? 's' : ''}; building it again`,
    );
  // What it built, not only from what: a page deleted or replaced since is built again.
  if (record.hashes === undefined)
    return rebuild(`${dir} has no record of the bytes its build wrote; building it again`);
  const changedFile = await changedSinceBuilt(outDir, record.hashes);
  if (changedFile !== undefined)
    return rebuild(`${dir}/${oneLine(changedFile, 300)} since it was built (${when}); building it again`);
  return {
    stale: false,
    line: `build: ${dir} is up to date: built ${when} for ${config.githubAccount} at ${config.siteUrl}`,
  };
}

/** The data resources with a snapshot file absent from `outDir`; their paths are the contract's own. */
export function missingSnapshots(service: ServiceTables, outDir: string): DataResource[] {
  return service.resources.filter((r) => r.snapshotFiles.some((file) => !existsSync(join(outDir, file))));
}

/**
 * `npm run build`. With `--if-stale` (what `npm start` runs before the gateway) it builds only when
 * staleness() says so (one line either way), and an upstream without usable data does not fail it: that snapshot is left out
 * and reported in one line, and the gateway fetches the resource live (docs/configuration.md#commands: a fresh clone builds
 * first, then serves whatever could be built).
 */
export async function main(
  argv = process.argv.slice(2),
  siteFile: URL = SITE_FILE_URL,
  io: MainIo = processIo(),
): Promise<number> {
  let config: Config;
  let args: BuildArgs;
  try {
    config = loadConfig(io.env, readSiteFile(siteFile));
    args = buildArgs(argv, config);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`${configErrorLine(error)}\n`);
      return 2;
    }
    // parseArgs' own messages name the option ("Unknown option '--bogus'"); a usage error, like a bad variable.
    io.stderr.write(`build: ${oneLine((error as Error).message, 1000)} (usage: ${BUILD_USAGE})\n`);
    return 2;
  }
  const { outDir, ifStale, previousDir } = args;
  // The content beside the site file (site/ itself unless a caller names another site file or --content).
  if (args.contentDir !== undefined) {
    siteFile = pathToFileURL(join(args.contentDir, 'site.json'));
    try {
      config = loadConfig(io.env, readSiteFile(siteFile));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      io.stderr.write(`build: invalid configuration: ${oneLine(error.message, 1000)}\n`);
      return 2;
    }
  }
  const contentDir = new URL('./', siteFile);
  const log = (line: string) => void io.stdout.write(`${line}\n`);
  const warn = (line: string) => void io.stderr.write(`${line}\n`);
  if (ifStale) {
    // `npm start` builds, then listens: a taken port is said before any build rewrites dist/ for it.
    if (config.port !== 0 && (await portIsTaken(config.host, config.port))) {
      warn(`build: nothing built: ${portTakenReason(config.host, config.port)}`);
      return 1;
    }
    // The program's datasets, once: the staleness check, the build and the line below read them.
    const registered = datasets(config);
    const verdict = await staleness(config, outDir, { contentDir, service: tablesOf(registered) });
    if (!verdict.stale) {
      log(verdict.line);
      return 0;
    }
    warn(verdict.line);
    // Offline, a rebuild keeps what dist/ already holds while it is still valid (the --previous rules),
    // rather than removing a snapshot because its upstream cannot be reached now.
    const result = await build(config, {
      outDir,
      contentDir,
      simulated: config.demoSimulated,
      log: () => {},
      warn,
      previousDir: previousDir ?? outDir,
      quietPrevious: previousDir === undefined,
      datasets: registered,
    });
    // A mistake in the content stops `npm start` too: a gateway serving the site without it would hide it.
    if (result.exitCode === 2) return 2;
    // No upstream answered and something is missing: most likely no network at all, where the demo is
    // the way to see the whole site.
    const sourced = registered.filter((d) => !('derivedFrom' in d.origin)).length;
    if (result.exitCode === 1 && result.failures.length >= sourced)
      warn(
        'build: no upstream answered (offline?); npm run demo shows the whole site against a simulated provider, no network needed',
      );
    return 0;
  }
  const result = await build(config, { outDir, contentDir, simulated: config.demoSimulated, previousDir, log, warn });
  return result.exitCode;
}
