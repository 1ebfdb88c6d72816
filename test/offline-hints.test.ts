// What someone without network is told, beyond the failure lines themselves: `npm start` (build
// --if-stale) points to `npm run demo` when no upstream answered, and `npm run check:dist` after such a
// build says that its broken links are the files of the datasets the build left out, and which option
// checks the rest (docs/troubleshooting.md).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { listPhrase } from '../builders/contract/service.ts';
import { datasets, DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS } from '../builders/datasets/registry.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, runCheckDist, upstreamEnv } from './helpers/run.ts';
import { buildSite, runBuildMain, TEST_SITE_URL, type BuiltSite } from './helpers/site-dist.ts';

/** The datasets with an upstream of their own, by their title in running text. */
const SOURCED = datasets(DEFAULT_SERVICE_OPTIONS)
  .filter((d) => 'upstream' in d.origin)
  .map((d) => d.resource.title.toLowerCase());

const DEMO_HINT =
  'build: no upstream answered (offline?); npm run demo shows the whole site against a simulated provider, no network needed';

describe('npm start without network (build --if-stale)', () => {
  let fake: FakeUpstreams;
  let base: string;
  beforeAll(async () => {
    fake = await startFakeUpstreams();
    base = await mkdtemp(join(tmpdir(), 'offline-start-'));
  });
  afterAll(async () => {
    await fake?.close();
    await rm(base, { recursive: true, force: true });
  });
  // main(), as `node .build/build.mjs --if-stale` runs it, in this process.
  const start = (out: string) =>
    runBuildMain(['--out', out, '--if-stale'], {
      ...upstreamEnv(fake.url),
      UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
      PORT: '0',
    });

  it('says why each dataset is missing, then points to npm run demo, and still lets the gateway start', async () => {
    fake.allDown = true;
    onTestFinished(() => void (fake.allDown = false));
    const out = join(base, 'offline');
    const result = await start(out);
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    // The lines they mean: the first says what it does, one names each failed upstream, the hint comes last.
    expect(lines[0]).toBe(`build: ${out} is missing; building it first`);
    // One line per dataset with an upstream of its own, naming that upstream (`coinbase: …`).
    for (const title of SOURCED)
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^build: ${title} not written: [\\w-]+: `)));
    expect(lines.at(-1)).toBe(DEMO_HINT);
  });

  it('does not when one upstream answered: that is an upstream failing, not the network', async () => {
    fake.market.mode = 'down';
    fake.github.mode = 'ok';
    const result = await start(join(base, 'market-down'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^build: market preview not written: /m);
    expect(result.stderr).not.toContain('npm run demo');
  });
});

/** Every dataset, by its title in running text, as check:dist names what the build left out. */
const LEFT_OUT = listPhrase(DEFAULT_SERVICE.resources.map((r) => `the ${r.title.toLowerCase()}`));

describe('npm run check:dist after a build that left datasets out', () => {
  let site: BuiltSite | undefined;
  afterAll(() => site?.close());
  // main(), as `node .build/check-dist.mjs` runs it, in this process.
  const check = (dir: string, ...args: string[]) => runCheckDist(['--dir', dir, ...args], { SITE_URL: TEST_SITE_URL });

  it('says, on its failure line, that every broken link is a left-out dataset and names --allow-missing-data', async () => {
    site = await buildSite({
      setup: (fake) => void (fake.allDown = true),
      env: { UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS },
    });
    expect(site.result.code).toBe(1);
    const strict = await check(site.dir);
    expect(strict.code).toBe(1);
    const [first, ...listed] = strict.stderr.trimEnd().split('\n');
    expect(first).toMatch(
      new RegExp(
        `^check:dist: ${listed.length} broken: .*; all of them are files of ${LEFT_OUT}, which the build left out \\(an upstream gave no data\\): npm run check:dist -- --allow-missing-data checks the rest$`,
      ),
    );
    expect(listed.length).toBeGreaterThan(0);
    for (const line of listed) expect(line).toMatch(/\/(api\/(v1\/)?[\w-]+|cards\/[\w-]+\.svg): 404 /);
    const allowed = await check(site.dir, '--allow-missing-data');
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
  });

  it('counts them apart from a link that is really broken', async () => {
    // the same build, with a page gone that every page links
    await rm(join(site!.dir, 'skills.html'));
    const strict = await check(site!.dir);
    expect(strict.code).toBe(1);
    const [first, ...listed] = strict.stderr.trimEnd().split('\n');
    const data = listed.filter((line) => !line.startsWith(`  ${TEST_SITE_URL}/skills:`));
    expect(data.length).toBe(listed.length - 1);
    expect(first).toMatch(
      new RegExp(`^check:dist: ${listed.length} broken: .*; ${data.length} of them are files of ${LEFT_OUT},`),
    );
    const allowed = await check(site!.dir, '--allow-missing-data');
    expect(allowed.code).toBe(1);
    expect(allowed.stderr.split('\n')[0]).not.toContain('--allow-missing-data');
  });
});
