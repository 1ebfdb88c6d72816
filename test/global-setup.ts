// Once per test run: compile the entry points, so tests that run the real programs as child processes
// find .build/; then make the default site build that read-only test files share (sharedSite() in
// test/helpers/site-dist.ts) instead of each running the same `npm run build` against the fakes.
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { bundle } from '../tools/bundle.mjs';
import { buildSite } from './helpers/site-dist.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await bundle();
  // The tests' own content (test/fixtures/site/), never the owner's site/: see test/helpers/site-dist.ts.
  const site = await buildSite();
  // The fake is only needed during the build; the outcome goes to the tests, which assert it (a failed
  // build here would otherwise stop the whole run with one error instead of failing the tests that read it).
  await site.fake.close();
  project.provide('sharedSite', { dir: site.dir, result: site.result });
  return () => rm(site.dir, { recursive: true, force: true });
}
