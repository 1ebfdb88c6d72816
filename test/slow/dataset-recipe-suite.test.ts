// docs/architecture.md's promise, tested as the issue states it: a dataset with an upstream of its own, added
// to a copy of the repository by its folder and one registry line (test/helpers/dataset-recipe.ts), turns
// red in the copy's fast suite only the one test that pins the registry's ids. Everything else iterates the
// registry, and the folder's fake.ts answers its upstream there (upstreamEnv points its origin at it). The
// suite runs the whole fast suite once more, so it runs in the `load` project, alone, after the slow suite.
import { execFileSync, spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/run.ts';
import { copyRepository } from '../helpers/repo-copy.ts';
import { addDataset } from '../helpers/dataset-recipe.ts';

describe("a dataset with an upstream of its own, by the recipe, in the copy's own fast suite", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await copyRepository('dataset-recipe-suite-');
    await addDataset(dir);
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the copy's fast suite fails only the test that pins the registry's ids", async () => {
    const report = join(dir, '.cache/vitest-report.json');
    // A checkout of its own, as a maintainer's is (the layering test reads `git ls-files`), without the linked node_modules.
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    await writeFile(join(dir, '.git/info/exclude'), 'node_modules\n');
    git('add', '-A');
    git('-c', 'user.name=recipe', '-c', 'user.email=recipe@example.com', 'commit', '-qm', 'the recipe');
    const env = Object.fromEntries(
      Object.entries(cleanEnv()).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'),
    );
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          'node_modules/vitest/vitest.mjs',
          'run',
          '--project',
          'shared',
          '--project',
          'isolated',
          '--reporter=json',
          `--outputFile=${report}`,
        ],
        { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
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
    expect(failed, run.stderr.slice(-2000)).toEqual([
      expect.stringMatching(/^test\/dataset-modules\.test\.ts > .*the registry holds the market/),
    ]);
    expect(run.code).toBe(1);
    expect(result.numTotalTests).toBeGreaterThan(1000);
  }, 900_000);
});
