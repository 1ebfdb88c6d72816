// The previous site's snapshots, for publishing through an upstream's outage (`npm run build -- --previous
// <dir>`, docs/deploying.md#publishing-through-an-outage). The Publish workflow first copies the live site's
// snapshots into a folder (fetchPrevious); when an upstream then gives no usable data, the build reads that
// dataset's snapshot back (reusablePrevious) and publishes its bytes unchanged while builders/domain/reuse.ts says it
// is still valid. `<dir>` is someone else's folder: only the known snapshot paths are read, no symbolic link
// is followed, and no file larger than PREVIOUS_MAX_BYTES is read past that size.
import { constants } from 'node:fs';
import { mkdir, open, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Config } from '../lib/config.ts';
import { BodyTooLarge, readCapped } from '../lib/capped-body.ts';
import { jsonBoundExceeded } from '../lib/json-bound.ts';
import { oneLine } from '../lib/text/one-line.ts';
import { dataResource, DISCOVERY, type DataResourceId, type ServiceTables } from '../contract/service.ts';
import { SchemaValidationError, type Validator } from '../contract/schemas.ts';
import type { Dataset } from '../datasets/dataset.ts';
import { provenanceFault } from '../domain/reuse.ts';
import { writeFileAtomic } from './atomic-write.ts';

/** Far above a real snapshot (the calendar is about 20 kB, the market about 7 kB), as for an upstream's answer. */
export const PREVIOUS_MAX_BYTES = 1024 * 1024;

/** The one file of a dataset read from the previous site: its v1 file (the alias holds the same bytes). */
export function previousFile(service: ServiceTables, id: DataResourceId): string {
  return dataResource(service, id).snapshotFiles[0]!;
}

export type PreviousSnapshot<T> =
  /** `body`: the file's bytes, as published; `ageMs`: how old its data are at most (builders/domain/reuse.ts). */
  | { reused: true; body: string; payload: T; ageMs: number }
  /**
   * `internalError`: judging it threw (a bug), which the build's exit status must say. `provenance`: the
   * previous site's data are simulated and this build's real, or the reverse (or it does not say which),
   * which is said even where the other refusals are not (`--if-stale`).
   */
  | { reused: false; reason: string; internalError?: Error; provenance?: true };

/**
 * The previous snapshot of `id` in `dir`, when it may be published again now: it is a regular file inside
 * `dir` of at most PREVIOUS_MAX_BYTES, UTF-8 JSON exactly as a build writes it (JSON.stringify of its
 * content, so nothing was added, reordered or padded), valid against its schema, and builders/domain/reuse.ts
 * finds it the configured dataset's, one the fresh rules could have written, and still valid at `nowMs`.
 * Otherwise the reason, for one line. Never throws: an exception while judging one dataset's snapshot
 * (someone else's bytes meeting a bug) must not cost the build the other dataset.
 */
export async function reusablePrevious<P>(
  dir: string,
  dataset: Dataset<P>,
  context: PreviousContext,
): Promise<PreviousSnapshot<P>> {
  try {
    return await judgePrevious(dir, dataset, context);
  } catch (thrown) {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    return {
      reused: false,
      reason: `judging it failed (an internal error): ${error.name}: ${error.message}`,
      internalError: error,
    };
  }
}

interface PreviousContext {
  config: Config;
  service: ServiceTables;
  nowMs: number;
  validator: Validator;
  /** Whether this build's data are simulated (a demo's): a previous site's must be the same. */
  simulated: boolean;
}

async function judgePrevious<P>(
  dir: string,
  dataset: Dataset<P>,
  context: PreviousContext,
): Promise<PreviousSnapshot<P>> {
  const { resource, reuse } = dataset;
  if (reuse === undefined) return { reused: false, reason: `${resource.title} is derived, not republished` };
  const file = previousFile(context.service, resource.id);
  const read = await readInside(dir, file);
  if (typeof read === 'string') return { reused: false, reason: `${file} ${read}` };
  // The calendar and the streak carry nothing that tells a demo's from GitHub's: the site's status.json does.
  const fault = provenanceFault(await previousSimulated(dir), context.simulated);
  if (fault !== undefined) return { reused: false, reason: fault, provenance: true };
  const parsed = parseSnapshotText(read);
  if (typeof parsed === 'string') return { reused: false, reason: `${file} ${parsed}` };
  const { text, payload } = parsed;
  if (JSON.stringify(payload) !== text)
    return { reused: false, reason: `${file} is not a snapshot as a build writes it (its bytes were changed)` };
  try {
    context.validator.validate(resource.schema, payload);
  } catch (error) {
    if (!(error instanceof SchemaValidationError)) throw error;
    return { reused: false, reason: `${file}: ${error.message}` };
  }
  const decision = reuse.check(payload as P, context.nowMs, context.config, context.service);
  if (!decision.reusable) return { reused: false, reason: decision.reason };
  return { reused: true, body: text, payload: payload as P, ageMs: decision.ageMs };
}

/**
 * What the site in `dir` says of its data in its status.json (DISCOVERY.status): true for a demo's
 * (simulated), false for real ones, or why it says neither (the file missing, unreadable, or written by a
 * build older than the field).
 */
export async function previousSimulated(dir: string): Promise<boolean | string> {
  const file = DISCOVERY.status.file;
  const read = await readInside(dir, file);
  if (typeof read === 'string') return `${file} ${read}`;
  const parsed = parseSnapshotText(read);
  if (typeof parsed === 'string') return `${file} ${parsed}`;
  const { payload } = parsed;
  const simulated =
    payload !== null && typeof payload === 'object' ? (payload as { simulated?: unknown }).simulated : undefined;
  return typeof simulated === 'boolean' ? simulated : `${file} has no boolean "simulated"`;
}

/**
 * A snapshot file's bytes as text and JSON value, or why not. The nesting and size bound (builders/lib/json-bound.ts)
 * is checked before JSON.parse: everything after it (JSON.stringify, the schema's validator, the reuse
 * rules) walks the value recursively, and a file nested 500,000 deep would overflow the stack there.
 */
export function parseSnapshotText(bytes: Uint8Array): { text: string; payload: unknown } | string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 JSON';
  }
  const exceeded = jsonBoundExceeded(text);
  if (exceeded !== null) return `is refused unparsed: ${exceeded}, unlike any snapshot a build writes`;
  try {
    return { text, payload: JSON.parse(text) as unknown };
  } catch {
    return 'is not UTF-8 JSON';
  }
}

/**
 * `file` (a relative path from the route table) under `dir`, or why not: missing, reached through a
 * symbolic link, not a regular file (a FIFO is opened without blocking and refused), or too large.
 */
export async function readInside(dir: string, file: string): Promise<Uint8Array | string> {
  let folder: string;
  try {
    const root = await realpath(dir);
    const expected = dirname(join(root, file));
    folder = await realpath(expected);
    // A folder on the way that is a link (to elsewhere, or even within `dir`) is not followed.
    if (folder !== expected) return 'is reached through a symbolic link';
  } catch {
    return 'is missing';
  }
  let handle;
  try {
    handle = await open(join(folder, basename(file)), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'is missing';
    if (code === 'ELOOP') return 'is a symbolic link';
    return `cannot be read (${code ?? 'error'})`;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return 'is not a regular file';
    if (stats.size > PREVIOUS_MAX_BYTES) return `is larger than ${PREVIOUS_MAX_BYTES} bytes`;
    // Read one byte past the cap: a file that grew after stat is refused rather than cut.
    const buffer = Buffer.alloc(PREVIOUS_MAX_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > PREVIOUS_MAX_BYTES) return `is larger than ${PREVIOUS_MAX_BYTES} bytes`;
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** "2 h 5 min", "59 min", "40 s": an age as the build's stderr line gives it. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The one stderr line of a dataset republished from `dir`: which, from where, and how old. */
export function reusedLine<P>(dataset: Dataset<P>, dir: string, previous: { payload: P; ageMs: number }): string {
  const age = dataset.reuse!.age(previous.payload, formatAge(previous.ageMs));
  return `build: ${dataset.resource.title.toLowerCase()}: republished the previous snapshot from ${oneLine(dir, 300)}, ${age}`;
}

/** The one stderr line of a dataset whose previous snapshot could not be republished. */
export function notReusedLine(dataset: Dataset, dir: string, reason: string): string {
  return `build: ${dataset.resource.title.toLowerCase()}: no previous snapshot republished from ${oneLine(dir, 300)}: ${oneLine(reason, 500)}`;
}

export interface FetchedPrevious {
  file: string;
  url: string;
  /** fetched: written into the folder; absent: the site answered 404 (a first deploy); failed: anything else. */
  outcome: 'fetched' | 'absent' | 'failed';
  /** The size written, or why nothing was. */
  detail: string;
}

/**
 * The files of the previous site a build reads: the snapshot of each resource it may republish (a derived
 * dataset is derived again instead), then status.json, which says whether they are simulated.
 */
function previousFiles(list: readonly Dataset[]): string[] {
  return [...list.flatMap((d) => (d.reuse ? [d.resource.snapshotFiles[0]!] : [])), DISCOVERY.status.file];
}

/**
 * Copies the live site's snapshots (each dataset's previousFile, from `siteUrl`) and its status.json into `dir`, for a build
 * with `--previous <dir>`. Each answer is bounded by PREVIOUS_MAX_BYTES and `timeoutMs`; a redirect is not
 * followed. A 404 (nothing published yet) or any failure leaves no file at that path: the build then has
 * no previous snapshot of that dataset, exactly as on a first deploy. Never throws for an answer.
 */
export async function fetchPrevious(options: {
  siteUrl: string;
  /** The deployment's datasets (MARKET_PRODUCT=off has no market to fetch). */
  datasets: readonly Dataset[];
  dir: string;
  timeoutMs: number;
  userAgent: string;
}): Promise<FetchedPrevious[]> {
  const root = resolve(options.dir);
  await mkdir(root, { recursive: true });
  return Promise.all(
    previousFiles(options.datasets).map(async (file): Promise<FetchedPrevious> => {
      const url = `${options.siteUrl}/${file}`;
      const target = resolve(root, file);
      if (!target.startsWith(root + sep)) throw new Error(`snapshot path escapes the folder: ${file}`);
      const none = async (outcome: 'absent' | 'failed', detail: string): Promise<FetchedPrevious> => {
        await rm(target, { force: true });
        return { file, url, outcome, detail };
      };
      try {
        const response = await fetch(url, {
          redirect: 'manual',
          headers: { 'user-agent': options.userAgent },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (response.status !== 200) {
          void response.body?.cancel().catch(() => undefined);
          if (response.status === 404) return await none('absent', 'not published (404)');
          const location = response.headers.get('location');
          return await none(
            'failed',
            `answered ${response.status}${location ? ` (to ${oneLine(location, 200)})` : ''}`,
          );
        }
        const body = await readCapped(response, PREVIOUS_MAX_BYTES);
        await writeFileAtomic(target, body);
        return { file, url, outcome: 'fetched', detail: `${body.byteLength} bytes` };
      } catch (error) {
        const reason =
          error instanceof BodyTooLarge
            ? `answer larger than ${PREVIOUS_MAX_BYTES} bytes`
            : (error as Error).name === 'TimeoutError'
              ? `timed out after ${options.timeoutMs} ms`
              : `failed: ${(error as Error).message}${(error as Error).cause instanceof Error ? ` (${((error as Error).cause as Error).message})` : ''}`;
        return none('failed', oneLine(reason, 500));
      }
    }),
  );
}
