// docs/architecture.md's promise, tested as the issue states it: a dataset with an upstream of its own, added
// to a copy of the repository by its folder and one registry line (test/helpers/dataset-recipe.ts), turns
// red in the copy's fast suite only the one test that pins the registry's ids; so does a copy of the
// projects' folder under a new id (test/helpers/dataset-recipe.ts, copyProjects). Everything else iterates the
// registry, and the folder's fake.ts answers its upstream there (upstreamEnv points its origin at it). The
// suite runs the whole fast suite once more, so it runs in the `load` project, alone, after the slow suite.
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyRepository, runIn } from '../helpers/repo-copy.ts';
import { addDataset, copyProjects } from '../helpers/dataset-recipe.ts';

/** Runs the fast suite of the copy at `dir` (a checkout of its own) and gives the names of the tests that failed. */
async function copySuiteFailures(
  dir: string,
): Promise<{ failed: string[]; code: number | null; total: number; stderr: string }> {
  const report = join(dir, '.cache/vitest-report.json');
  // A checkout of its own, as a maintainer's is (the layering test reads `git ls-files`), without the linked node_modules.
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  await writeFile(join(dir, '.git/info/exclude'), 'node_modules\n');
  git('add', '-A');
  git('-c', 'user.name=recipe', '-c', 'user.email=recipe@example.com', 'commit', '-qm', 'the recipe');
  const run = await runIn(dir, [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--project',
    'shared',
    '--project',
    'isolated',
    '--reporter=json',
    `--outputFile=${report}`,
  ]);
  const result = JSON.parse(await readFile(report, 'utf8')) as {
    numTotalTests: number;
    testResults: { name: string; message: string; assertionResults: { fullName: string; status: string }[] }[];
  };
  const failed = result.testResults.flatMap((file) => [
    ...(file.assertionResults.length === 0 && file.message ? [`${file.name}: ${file.message.slice(0, 300)}`] : []),
    ...file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `${file.name.slice(dir.length + 1)} > ${t.fullName}`),
  ]);
  return { failed, code: run.code, total: result.numTotalTests, stderr: run.stderr };
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("a dataset added by its folder and one registry line, in the copy's own fast suite", () => {
  it.each([
    ['a dataset with an upstream of its own, by the recipe', addDataset],
    ["a copy of the projects' folder under a new id", copyProjects],
  ] as const)(
    "%s: only the test that pins the registry's ids fails",
    async (_, add) => {
      const dir = await copyRepository('dataset-recipe-suite-');
      dirs.push(dir);
      await add(dir);
      const run = await copySuiteFailures(dir);
      expect(run.failed, run.stderr.slice(-2000)).toEqual([
        expect.stringMatching(/^test\/dataset-modules\.test\.ts > .*the registry holds the market/),
      ]);
      expect(run.code).toBe(1);
      expect(run.total).toBeGreaterThan(1000);
    },
    900_000,
  );
});
