// Builds a real dist/ for the site tests: `npm run build`'s build(), in-process, against the fake
// upstreams on loopback, into a temporary folder. A test file that needs its own configuration or upstream
// failure builds its own (buildSite); one that only reads the default build uses the run's shared one
// (sharedSite), built once by test/global-setup.ts. The program around build() (its exit statuses, its
// arguments) is run as a program by test/build.test.ts.
//
// Both build the tests' own site content, test/fixtures/site/ (a copy of the stock site/ as it was
// published), never the repository's site/: that is the owner's to edit (README step 6), and an edit of
// a profile or a writing must not turn the suite red. build()'s `contentDir` names the content folder;
// the page script and stylesheet stay the repository's (code, the same for every content).
// `site: 'repository'` builds site/ itself, for the test that checks what holds for any content.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';
import { build, main, type BuildOptions } from '../../builders/build/build.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { loadConfig, readSiteFile } from '../../builders/lib/config.ts';
import { listFiles } from './files.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, collectedIo, ROOT, runMainInProcess, upstreamEnv, type RunResult } from './run.ts';

export { listFiles };

export const TEST_SITE_URL = 'https://ada.example.org';

/** The site tests' clock, the upstreams' and the build's alike: Monday 2026-11-23 15:00 UTC, 10:00 in Toronto. */
export const TEST_SITE_CLOCK = Date.parse('2026-11-23T15:00:00Z');

/** A built dist/ and the build's outcome, to read. */
export interface SiteFiles {
  dir: string;
  result: RunResult;
  read(file: string): Promise<string>;
  json<T = Record<string, unknown>>(file: string): Promise<T>;
  /** Every file in dist/, relative, with forward slashes, dot-files included. */
  files(): Promise<string[]>;
  close(): Promise<void>;
}

export interface BuiltSite extends SiteFiles {
  /** The fake the build read, still running, with its call counters. */
  fake: FakeUpstreams;
}

/** The tests' own site content: site.json, profile.md, skills.yaml, writings/ (a draft among them). */
export const FIXTURE_SITE = `${ROOT}test/fixtures/site/`;

/** Whose content to build: the fixture (default), the repository's own site/, or a content folder ending in `/`. */
export type SiteContentChoice = 'fixture' | 'repository' | { content: string };

function contentFolder(site: SiteContentChoice = 'fixture'): string {
  return site === 'fixture' ? FIXTURE_SITE : site === 'repository' ? `${ROOT}site/` : site.content;
}

export interface BuildSiteOptions {
  env?: Record<string, string | undefined>;
  /** Prepare the fake before the build, e.g. to make an upstream fail. */
  setup?: (fake: FakeUpstreams) => void;
  site?: SiteContentChoice;
}

export async function buildSite(options: BuildSiteOptions = {}): Promise<BuiltSite> {
  const fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  options.setup?.(fake);
  const dir = await mkdtemp(join(tmpdir(), 'site-dist-'));
  const result = await runBuild(
    dir,
    {
      ...upstreamEnv(fake.url),
      SITE_URL: TEST_SITE_URL,
      UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
      SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
      ...options.env,
    },
    options.site,
  );
  return {
    ...siteFiles(dir, result),
    fake,
    close: async () => {
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `npm run build -- --out <outDir>` without a process: the program's build() with the configuration
 * `env` alone gives (no variable of this process reaches it), its stdout and stderr lines collected,
 * its exit status 0 or 1. (Status 2, a refused variable, is loadConfig's: test/config.test.ts.)
 */
export async function runBuild(
  outDir: string,
  env: Record<string, string | undefined>,
  site?: SiteContentChoice,
  more: Pick<BuildOptions, 'previousDir'> = {},
): Promise<RunResult> {
  const output = collectedIo(env);
  const contentDir = pathToFileURL(contentFolder(site));
  const result = await build(loadConfig(env, readSiteFile(new URL('site.json', contentDir))), {
    ...more,
    outDir,
    contentDir,
    log: (line) => void output.stdout.write(`${line}\n`),
    warn: (line) => void output.stderr.write(`${line}\n`),
  });
  return output.result(result.exitCode);
}

/**
 * `node .build/build.mjs <args>` without a process: the program's main() as runMainInProcess runs it, on
 * the content `site` (the tests' own unless named) where the program reads site/. The program itself, one
 * spawn per exit status, is run by test/build.test.ts.
 */
export function runBuildMain(
  args: string[],
  env: Record<string, string | undefined>,
  site?: SiteContentChoice,
): Promise<RunResult> {
  const siteFile = new URL('site.json', pathToFileURL(contentFolder(site)));
  return runMainInProcess('build', env, (io) => main(args, siteFile, io));
}

function siteFiles(dir: string, result: RunResult): SiteFiles {
  const read = (file: string) => readFile(join(dir, file), 'utf8');
  return {
    dir,
    result,
    read,
    json: async <T>(file: string) => JSON.parse(await read(file)) as T,
    files: () => listFiles(dir),
    close: async () => {},
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** buildSite()'s default build, made once per run by test/global-setup.ts. */
    sharedSite: { dir: string; result: RunResult };
  }
}

/**
 * The build buildSite() makes with no options (TEST_SITE_URL, the fake healthy, real clock), shared by
 * every test file of the run. Read it, never write into it: other files read it at the same time.
 * close() leaves it in place; the global setup removes it after the run.
 */
export function sharedSite(): SiteFiles {
  const shared = inject('sharedSite');
  if (shared === undefined)
    throw new Error('no shared site: test/global-setup.ts did not run (vitest.config.ts globalSetup)');
  return siteFiles(shared.dir, shared.result);
}
