// An internal error (an exception main lets out, a bug while building a dataset or judging its previous snapshot) has its own exit
// status, EXIT_INTERNAL_ERROR (builders/lib/run-main.ts, docs/configuration.md#npm-run-build): 1 means "a dataset is
// missing, the rest written", which the Publish workflow deploys; a bug must not pass for that. Here judging
// the market's previous snapshot throws (builders/domain/reuse.ts replaced, in a module graph of its own, by one whose
// marketReuse throws, as a bug would), so does building it fresh (buildMarketData, in a module graph of its own), and one spawned build
// cannot write its output folder.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dataResource } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { EXIT_INTERNAL_ERROR, exitStatus } from '../builders/lib/run-main.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { buildWithPreviousMarket } from './helpers/previous-build.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, runProgram, upstreamEnv } from './helpers/run.ts';
import { sharedSite, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';

const NOW = TEST_SITE_CLOCK + 3_600_000;
const MARKET = dataResource(DEFAULT_SERVICE, 'market').snapshotFiles;
const CALENDAR = dataResource(DEFAULT_SERVICE, 'contributions').snapshotFiles;
let fake: FakeUpstreams;
let base: string;

beforeAll(async () => {
  fake = await startFakeUpstreams({ now: () => NOW });
  base = await mkdtemp(join(tmpdir(), 'internal-error-'));
});
afterAll(async () => {
  await fake?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe('the exit status of a program (builders/lib/run-main.ts)', () => {
  it("is main's own, or 70 with one line naming the error when main throws", async () => {
    const lines: string[] = [];
    expect(await exitStatus('build', async () => 1, lines.push.bind(lines))).toBe(1);
    expect(lines).toEqual([]);
    const error = new RangeError('Invalid time value\n    at render (site.ts:1:1)');
    expect(EXIT_INTERNAL_ERROR).toBe(70);
    expect(await exitStatus('build', () => Promise.reject(error), lines.push.bind(lines))).toBe(70);
    expect(lines).toEqual(['build: internal error: RangeError: Invalid time value at render (site.ts:1:1)']);
  });
});

describe('a bug while judging the market previous snapshot, the market upstream down', () => {
  it.each([
    ['--previous', false],
    ['--if-stale, which keeps refusals quiet', true],
  ])('%s: says it in one line, still writes the calendar, build() gives 70', async (_mode, quietPrevious) => {
    fake.market.mode = 'not-found';
    // builders/domain/reuse.ts is loaded before this file's mocks (by the test setup, through the dataset registry):
    // a new module graph sees this one.
    vi.resetModules();
    vi.doMock('../builders/domain/reuse.ts', async (original) => ({
      ...(await original<typeof import('../builders/domain/reuse.ts')>()),
      marketReuse: () => {
        throw new RangeError('Invalid time value');
      },
    }));
    const { buildWithPreviousMarket: buildAnew } = await import('./helpers/previous-build.ts');
    vi.doUnmock('../builders/domain/reuse.ts');
    const { result, stderr, previous, outDir } = await buildAnew({
      base,
      name: `quiet-${quietPrevious}`,
      fakeUrl: fake.url,
      nowMs: NOW,
      market: await sharedSite().read(MARKET[0]!),
      quietPrevious,
    });
    expect(result.exitCode).toBe(EXIT_INTERNAL_ERROR);
    expect(stderr).toEqual([
      expect.stringMatching(/^build: market preview not written: coinbase: /),
      `build: market preview: no previous snapshot republished from ${previous}: judging it failed (an internal error): RangeError: Invalid time value`,
    ]);
    for (const file of MARKET) expect(await exists(join(outDir, file)), file).toBe(false);
    for (const file of CALENDAR) expect(await exists(join(outDir, file)), file).toBe(true);
    expect(await exists(join(outDir, 'index.html'))).toBe(true);
  });
});

describe('a bug while building the market fresh, the market upstream healthy', () => {
  it('says it in the failure line, still writes the calendar, build() gives 70', async () => {
    fake.market.mode = 'ok';
    // builders/domain/market.ts is loaded before this file's mocks (by the test setup): a new module graph sees this one.
    vi.resetModules();
    vi.doMock('../builders/domain/market.ts', async (original) => ({
      ...(await original<typeof import('../builders/domain/market.ts')>()),
      buildMarketData: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'close')");
      },
    }));
    const { buildWithPreviousMarket: buildAnew } = await import('./helpers/previous-build.ts');
    const { result, stderr, outDir } = await buildAnew({
      base,
      name: 'fresh-bug',
      fakeUrl: fake.url,
      nowMs: NOW,
      market: '',
      quietPrevious: true,
    });
    vi.doUnmock('../builders/domain/market.ts');
    expect(result.exitCode).toBe(EXIT_INTERNAL_ERROR);
    expect(stderr).toEqual([
      "build: market preview not written: TypeError: Cannot read properties of undefined (reading 'close')",
    ]);
    for (const file of MARKET) expect(await exists(join(outDir, file)), file).toBe(false);
    for (const file of CALENDAR) expect(await exists(join(outDir, file)), file).toBe(true);
  });

  it('an upstream that fails is no bug: exit 1', async () => {
    fake.market.mode = 'garbage';
    const { result, stderr } = await buildWithPreviousMarket({
      base,
      name: 'upstream-garbage',
      fakeUrl: fake.url,
      nowMs: NOW,
      market: '',
      quietPrevious: true,
    });
    expect(stderr).toEqual([expect.stringMatching(/^build: market preview not written: coinbase: /)]);
    expect(result.exitCode).toBe(1);
  });
});

describe('npm run build whose output folder cannot be written', () => {
  it('exits 70 with one line and no stack, not 1', async () => {
    fake.market.mode = 'ok';
    const file = join(base, 'a-file');
    await writeFile(file, 'not a folder');
    const result = await runProgram('build', ['--out', join(file, 'dist')], {
      ...upstreamEnv(fake.url),
      SITE_URL: TEST_SITE_URL,
      UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
      SOURCE_DATE_EPOCH: String(NOW / 1000),
    });
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(/^build: internal error: Error: ENOTDIR: not a directory, [^\n]*\n$/);
  });
});
