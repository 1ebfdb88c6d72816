// What an earlier build wrote into the output folder and this build did not: a writing turned back
// into a draft, a removed page. dist/ is published whole, so each would go out as current; the build
// removes them. It only ever removes files it wrote itself: each build records the files it wrote in a
// manifest kept outside the output folder (under .build/builds/, keyed by the folder's real path, so
// nothing of it is published; never under node_modules/, which `npm ci` deletes: the record also says
// what the folder was built from, which `build --if-stale` compares before `npm start` serves it), and
// the next build removes what that list has and its own lacks,
// plus the temporary files of its own targets that a killed build left. A file the build never wrote
// (someone's CNAME, a .git folder, a stray .env, a wrong DIST_DIR full of other files) is never
// removed; the build names it instead, since it would be published with the rest.
import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileHash } from './artifact.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { repoUrl } from '../lib/repo-url.ts';

/** The repository root: this module runs as builders/build/prune.ts or bundled as .build/build.mjs, one level down either way. */
const ROOT = fileURLToPath(repoUrl('', import.meta.url));
const CACHE_DIR = join(ROOT, '.build', 'builds');

/** The temporary name writeFileAtomic gives a target: `<target>.<pid>.<8 hex>.tmp`. */
const TEMPORARY = /^(.+)\.\d+\.[0-9a-f]{8}\.tmp$/;

export interface PruneResult {
  /** Files removed: written by the previous build and not by this one, or this build's own temporary files. */
  removed: string[];
  /** Files in the folder that no build wrote: left in place, and published with the rest. */
  foreign: string[];
}

/** Where the manifest of a build into `outDir` is kept. */
export async function manifestPath(outDir: string): Promise<string> {
  const key = createHash('sha256')
    .update(await realpath(outDir))
    .digest('hex')
    .slice(0, 24);
  return join(CACHE_DIR, `dist-${key}.json`);
}

/**
 * The settings a build writes into the site (absolute links, the account, the source's name, the
 * demo notice): a dist/ built with other values says other things than the gateway serving it.
 */
export type SiteIdentity = Record<string, string>;

export interface BuildRecord {
  files: Set<string>;
  /**
   * Each file's hash as the build wrote it (fileHash), so that `--if-stale` checks what it built and not
   * only from what: undefined for a record that kept none.
   */
  hashes: Map<string, string> | undefined;
  identity: SiteIdentity | undefined;
  /** The build's "now" (SOURCE_DATE_EPOCH or the clock), when the record says it. */
  builtAtMs: number | undefined;
}

/** What the previous build into `outDir` recorded; no files and no identity when it left no (readable) manifest. */
export async function previousBuild(outDir: string): Promise<BuildRecord> {
  try {
    const parsed = JSON.parse(await readFile(await manifestPath(outDir), 'utf8')) as {
      files?: unknown;
      identity?: unknown;
      builtAt?: unknown;
    };
    const listed = parsed.files;
    // Files as a list (earlier records) or as {file: hash}.
    const entries: Array<[string, unknown]> = Array.isArray(listed)
      ? listed.map((f) => [f, undefined])
      : listed !== null && typeof listed === 'object'
        ? Object.entries(listed)
        : [];
    const files = new Set(entries.map(([f]) => f).filter((f) => typeof f === 'string'));
    const hashes =
      entries.length > 0 && entries.every(([, h]) => typeof h === 'string')
        ? new Map(entries as Array<[string, string]>)
        : undefined;
    const identity =
      parsed.identity !== null && typeof parsed.identity === 'object' ? (parsed.identity as SiteIdentity) : undefined;
    const builtAtMs = typeof parsed.builtAt === 'string' ? Date.parse(parsed.builtAt) : NaN;
    return { files, hashes, identity, builtAtMs: Number.isFinite(builtAtMs) ? builtAtMs : undefined };
  } catch {
    return { files: new Set(), hashes: undefined, identity: undefined, builtAtMs: undefined };
  }
}

/**
 * Records what this build into `outDir` wrote (each file with the hash of its bytes, `fileHash`), and with
 * which settings, for the next build and `--if-stale`.
 */
export async function recordBuild(
  outDir: string,
  files: ReadonlyMap<string, string>,
  identity: SiteIdentity,
  builtAtMs?: number,
): Promise<void> {
  const record = {
    outDir: await realpath(outDir),
    ...(builtAtMs !== undefined ? { builtAt: new Date(builtAtMs).toISOString() } : {}),
    identity,
    files: Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  await writeFileAtomic(await manifestPath(outDir), `${JSON.stringify(record, null, 1)}\n`);
  await forgetRemovedFolders();
}

/** The settings that differ between two identities, as `NAME=value` of `current`; empty when they match. */
export function identityChanges(previous: SiteIdentity, current: SiteIdentity): string[] {
  return Object.keys(current)
    .filter((name) => previous[name] !== current[name])
    .map((name) => `${name}=${current[name]}`);
}

/**
 * The first file of `hashes` that `outDir` no longer holds with the bytes the build wrote: why it is
 * stale (`index.html is missing`, `index.html changed`), or undefined when every file is as written.
 */
export async function changedSinceBuilt(
  outDir: string,
  hashes: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  for (const [file, hash] of hashes) {
    let body: Buffer;
    try {
      body = await readFile(join(outDir, file));
    } catch {
      return `${file} is missing`;
    }
    if (fileHash(body) !== hash) return `${file} changed`;
  }
  return undefined;
}

/** Drops the manifests of output folders that no longer exist (temporary builds), so the cache stays small. */
async function forgetRemovedFolders(): Promise<void> {
  for (const name of await readdir(CACHE_DIR).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const path = join(CACHE_DIR, name);
    try {
      const { outDir } = JSON.parse(await readFile(path, 'utf8')) as { outDir?: unknown };
      if (
        typeof outDir === 'string' &&
        (await stat(outDir).then(
          () => false,
          () => true,
        ))
      )
        await rm(path, { force: true });
    } catch {
      await rm(path, { force: true }); // unreadable: it can only ever have meant "nothing to prune"
    }
  }
}

/**
 * Removes from `outDir` the files `previous` has and `current` lacks, and the temporary files of
 * `current` targets, then the folders that leaves empty. Links are removed, never followed. Every
 * other file stays and is reported as foreign.
 */
export async function pruneStale(
  outDir: string,
  previous: ReadonlySet<string>,
  current: ReadonlySet<string>,
): Promise<PruneResult> {
  const root = await realpath(outDir);
  const result: PruneResult = { removed: [], foreign: [] };
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await walk(path);
        continue;
      }
      if (current.has(path)) continue;
      const temporaryOf = TEMPORARY.exec(path)?.[1];
      if (previous.has(path) || (temporaryOf !== undefined && current.has(temporaryOf))) {
        const target = join(root, path);
        if (!target.startsWith(root + sep)) continue; // cannot happen with readdir names; kept as the invariant
        await rm(target, { force: true });
        result.removed.push(path);
        await removeEmptyParents(root, dirname(target));
      } else {
        result.foreign.push(path);
      }
    }
  };
  await walk('');
  result.removed.sort();
  result.foreign.sort();
  return result;
}

/** Removes `folder` and its parents up to (not including) `root` while they are empty. */
async function removeEmptyParents(root: string, folder: string): Promise<void> {
  for (let dir = folder; dir !== root && dir.startsWith(root + sep); dir = dirname(dir)) {
    try {
      await rmdir(dir);
    } catch {
      return; // not empty (or already gone): its parents are not empty either
    }
  }
}

/** At most `max` names, then how many more: a log line stays readable when a folder holds thousands. */
export function nameList(paths: readonly string[], max = 10): string {
  const shown = paths.slice(0, max).join(', ');
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}
