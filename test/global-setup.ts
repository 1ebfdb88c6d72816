// Once per test run: make the run's temporary folder; compile the entry points, so tests that run the real
// programs as child processes find .build/; and make the default site build that read-only test files share
// (sharedSite() in test/helpers/site-dist.ts) instead of each running the same `npm run build` against the fakes.
import { mkdtempSync, statfsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundle } from '../builders/tools/bundle.mjs';
import { buildSite } from './helpers/site-dist.ts';

/** statfs's type of a tmpfs (TMPFS_MAGIC, linux/magic.h). */
const TMPFS = 0x01021994;

/**
 * The run's temporary folder: every test file and every program they spawn finds it as os.tmpdir() (TMPDIR,
 * set here before the forks start), and it goes with the run, with whatever a failed test left in it. The
 * tests create and remove thousands of small files (a build writes about 120), and on a disk that cost the
 * fast suite a tenth of its CPU time in the kernel (this machine's ext4 has no journal, and then scans the
 * inodes freed in the last seconds before it hands out one). So, unless TMPDIR names a folder, it is made in
 * memory, on /dev/shm, when that is a tmpfs with 2 GiB free; elsewhere under os.tmpdir().
 */
function runTemporaryFolder(): string {
  const inMemory = (() => {
    try {
      const fs = statfsSync('/dev/shm');
      return fs.type === TMPFS && fs.bavail * fs.bsize >= 2 * 2 ** 30;
    } catch {
      return false;
    }
  })();
  const base = process.env.TMPDIR === undefined && inMemory ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, 'public-data-preview-tests-'));
}

/**
 * Both projects of vitest.config.ts (shared and isolated) run this setup in the one main process: the
 * programs are compiled and the site built once for both, and removed when the last project is done.
 */
const state = ((globalThis as { __testGlobalSetup?: SharedSetup }).__testGlobalSetup ??= { users: 0 });
interface SharedSetup {
  users: number;
  once?: Promise<Awaited<ReturnType<typeof buildSite>>>;
  temporary?: string;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Held on globalThis: vitest loads this module once per project, in the same process.
  state.users++;
  state.once ??= (async () => {
    state.temporary = runTemporaryFolder();
    process.env.TMPDIR = state.temporary;
    // The run's builds share one folder of what they made (builders/lib/cache/content-store.ts), made
    // afresh for the run: no run reads what an earlier one left, and none writes into the repository.
    process.env.BUILD_CACHE_DIR = join(state.temporary, 'build-cache');
    // Side by side: esbuild compiles the programs in its own process while this one builds the site. The
    // tests' own content (test/fixtures/site/), never the owner's site/: see test/helpers/site-dist.ts.
    const [, built] = await Promise.all([bundle(), buildSite()]);
    // The fake is only needed during the build; the outcome goes to the tests, which assert it (a failed
    // build here would otherwise stop the whole run with one error instead of failing the tests that read it).
    await built.fake.close();
    if (process.env.TEST_SETUP_LOG) process.stderr.write(`global setup: built ${built.dir}\n`);
    return built;
  })();
  const site = await state.once;
  project.provide('sharedSite', { dir: site.dir, result: site.result });
  return async () => {
    if (--state.users === 0) await rm(state.temporary!, { recursive: true, force: true });
  };
}
