// Builds a real dist/ for the site tests: `npm run build`'s program, against the fake upstreams on
// loopback, into a temporary folder. A test file that needs its own configuration or upstream failure
// builds its own (buildSite); one that only reads the default build uses the run's shared one
// (sharedSite), built once by test/global-setup.ts.
//
// Both build the tests' own site content, test/fixtures/site/ (a copy of the stock site/ as it was
// published), never the repository's site/: that is the owner's to edit (README step 6), and an edit of
// a profile or a writing must not turn the suite red. The compiled build reads site/ next to its own
// folder (lib/config.ts SITE_FILE_URL, `../site/site.json` from .build/build.mjs), so the fixture is
// built from a site root of its own: a temporary folder holding a copy of .build/build.mjs, the fixture
// as site/ (with the repository's page script and stylesheet) and links to what else the build reads.
// `site: 'repository'` builds site/ itself, for the test that checks what holds for any content.
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../../fakes/upstreams.ts';
import { listFiles } from './files.ts';
import { cleanEnv, ROOT, runNode, upstreamEnv, type RunResult } from './run.ts';

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

/** The parts of the repository the compiled build reads beside site/, relative to its folder's parent. */
const BUILD_READS = ['schemas', 'cli', 'package.json', 'node_modules'];
/** What site/ holds besides its content: code, the same for every content (test/workflows.test.ts). */
const SITE_CODE = ['scripts', 'styles'];

/**
 * A site root whose build reads `content` as its site/: a temporary folder (ending in `/`) that the
 * caller removes. Needs .build/build.mjs compiled (test/global-setup.ts does it first).
 */
export async function makeSiteRoot(content: string = FIXTURE_SITE): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'site-root-'));
  await mkdir(join(root, '.build'));
  await copyFile(`${ROOT}.build/build.mjs`, join(root, '.build/build.mjs'));
  for (const name of BUILD_READS) await symlink(`${ROOT}${name}`, join(root, name));
  await cp(content, join(root, 'site'), { recursive: true });
  for (const name of SITE_CODE) await symlink(`${ROOT}site/${name}`, join(root, 'site', name));
  return `${root}/`;
}

export interface BuildSiteOptions {
  env?: Record<string, string | undefined>;
  /** Prepare the fake before the build, e.g. to make an upstream fail. */
  setup?: (fake: FakeUpstreams) => void;
  /**
   * Whose content to build: the fixture (default, the run's site root from test/global-setup.ts), the
   * repository's own site/, or a site root made by makeSiteRoot().
   */
  site?: 'fixture' | 'repository' | { root: string };
}

/** `npm run build`'s program reading `root`'s site/ (the run's fixture root by default), as runProgram runs it. */
export function runSiteBuild(
  args: string[],
  env: Record<string, string | undefined>,
  root: string = fixtureRoot(),
): Promise<RunResult> {
  return runNode(`${root}.build/build.mjs`, args, cleanEnv(env), 60_000);
}

export async function buildSite(options: BuildSiteOptions = {}): Promise<BuiltSite> {
  const site = options.site ?? 'fixture';
  const root = site === 'fixture' ? fixtureRoot() : site === 'repository' ? ROOT : site.root;
  const fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  options.setup?.(fake);
  const dir = await mkdtemp(join(tmpdir(), 'site-dist-'));
  const result = await runSiteBuild(
    ['--out', dir],
    {
      ...upstreamEnv(fake.url),
      SITE_URL: TEST_SITE_URL,
      UPSTREAM_TIMEOUT_MS: '3000',
      SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
      ...options.env,
    },
    root,
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
    /** makeSiteRoot()'s root for test/fixtures/site/, made once per run by test/global-setup.ts. */
    fixtureRoot: string;
  }
}

/** The run's site root for the fixture content (test/global-setup.ts). */
function fixtureRoot(): string {
  const root = inject('fixtureRoot');
  if (root === undefined)
    throw new Error('no fixture site root: test/global-setup.ts did not run (vitest.config.ts globalSetup)');
  return root;
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
