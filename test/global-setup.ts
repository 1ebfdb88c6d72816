// Once per test run: compile the entry points, so tests that run the real programs as child processes
// find .build/; then make the default site build that read-only test files share (sharedSite() in
// test/helpers/site-dist.ts) instead of each running the same `npm run build` against the fakes.
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { bundle } from '../tools/bundle.mjs';
import { buildSite } from './helpers/site-dist.ts';

/**
 * Both projects of vitest.config.ts (shared and isolated) run this setup in the one main process: the
 * programs are compiled and the site built once for both, and removed when the last project is done.
 */
const state = ((globalThis as { __testGlobalSetup?: SharedSetup }).__testGlobalSetup ??= { users: 0 });
interface SharedSetup {
  users: number;
  once?: Promise<Awaited<ReturnType<typeof buildSite>>>;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Held on globalThis: vitest loads this module once per project, in the same process.
  state.users++;
  state.once ??= (async () => {
    await bundle();
    // The tests' own content (test/fixtures/site/), never the owner's site/: see test/helpers/site-dist.ts.
    const built = await buildSite();
    // The fake is only needed during the build; the outcome goes to the tests, which assert it (a failed
    // build here would otherwise stop the whole run with one error instead of failing the tests that read it).
    await built.fake.close();
    if (process.env.TEST_SETUP_LOG) process.stderr.write(`global setup: built ${built.dir}\n`);
    return built;
  })();
  const site = await state.once;
  project.provide('sharedSite', { dir: site.dir, result: site.result });
  return async () => {
    if (--state.users === 0) await rm(site.dir, { recursive: true, force: true });
  };
}
