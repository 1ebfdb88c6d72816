// Simulated data never become real (docs/data-rules.md#reusing-a-previous-snapshot): a demo build's site
// says so in its status.json, and a real build, by `--previous` or by `npm start`'s rebuild (`--if-stale`,
// which reads the output folder's own snapshots), never republishes its calendar or streak; nor a
// simulated build a real site's. Each dataset is then unavailable, with one line saying why.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status } from '../builders/contract/payload-types.ts';
import { dataResource, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { SIMULATED_MARKET_SOURCE } from '../builders/lib/simulated.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, upstreamEnv, type RunResult } from './helpers/run.ts';
import { runBuild, runBuildMain, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';

const HOUR = 3_600_000;
const snapshots = (id: string) => dataResource(DEFAULT_SERVICE, id).snapshotFiles;
const CALENDAR_AND_STREAK = [...snapshots('contributions'), ...snapshots('streak')];
const SIMULATED_REFUSAL =
  'its data are simulated (its status.json says so: a demo build wrote it), and this build publishes real data only';
const REAL_REFUSAL =
  'its data are real, and this build is simulated (DEMO_SIMULATED=1): a demo never shows them as its own';

let fake: FakeUpstreams;
let base: string;
// An hour after the first build: the same calendar day in Toronto, so that only provenance can refuse it.
let clock = TEST_SITE_CLOCK;
beforeAll(async () => {
  fake = await startFakeUpstreams({ now: () => clock });
  base = await mkdtemp(join(tmpdir(), 'simulated-previous-'));
});
afterAll(async () => {
  await fake?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const env = (simulated: boolean, at: number) => ({
  ...upstreamEnv(fake.url),
  SITE_URL: TEST_SITE_URL,
  UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
  SOURCE_DATE_EPOCH: String(Math.floor(at / 1000)),
  PORT: '0',
  ...(simulated ? { DEMO_SIMULATED: '1' } : {}),
});
/** A healthy build into a new folder, simulated (as the demo's printed command builds) or real. */
async function healthy(name: string, simulated: boolean): Promise<string> {
  clock = TEST_SITE_CLOCK;
  fake.allDown = false;
  fake.market.mode = 'ok';
  fake.github = { mode: 'ok' };
  const dir = join(base, name);
  const result = await runBuild(dir, env(simulated, clock));
  expect(result.code, result.stderr).toBe(0);
  return dir;
}
/** Every upstream down, an hour later. */
function offline(): void {
  clock = TEST_SITE_CLOCK + HOUR;
  fake.allDown = true;
}
const exists = (dir: string, file: string) =>
  stat(join(dir, file)).then(
    () => true,
    () => false,
  );
const statusOf = async (dir: string) => JSON.parse(await readFile(join(dir, DISCOVERY.status.file), 'utf8')) as Status;
const lines = (result: RunResult) => result.stderr.trimEnd().split('\n');

async function expectCalendarUnavailable(dir: string): Promise<void> {
  for (const file of CALENDAR_AND_STREAK) expect(await exists(dir, file), file).toBe(false);
  const status = await statusOf(dir);
  for (const id of ['contributions', 'streak']) {
    const entry = status.datasets.find((d) => d.id === id)!;
    expect(entry.state, id).toBe('missing');
    // the demo's calendar does not even date the real site's unavailable one
    expect(entry, id).not.toHaveProperty('lastAvailableAt');
  }
  const home = await readFile(join(dir, 'index.html'), 'utf8');
  expect(home).not.toContain('data-source="/api/v1/github-contributions"');
}

describe('a real build after a simulated one', () => {
  it('marks every output of a simulated build: status.json says simulated, the market names the simulated provider', async () => {
    const demo = await healthy('demo-marked', true);
    expect((await statusOf(demo)).simulated).toBe(true);
    const market = JSON.parse(await readFile(join(demo, snapshots('market')[0]!), 'utf8')) as { source: string };
    expect(market.source).toBe(SIMULATED_MARKET_SOURCE);
  });

  it('--previous of it with the upstreams down: exit 1, no calendar or streak republished, one line for each refusal', async () => {
    const demo = await healthy('demo-previous', true);
    offline();
    const out = join(base, 'real-after-demo');
    const result = await runBuild(out, env(false, clock), undefined, { previousDir: demo });
    expect(result.code).toBe(1);
    expect(lines(result)).toContain(
      `build: contribution calendar: no previous snapshot republished from ${demo}: ${SIMULATED_REFUSAL}`,
    );
    expect(lines(result)).toContain(
      `build: market preview: no previous snapshot republished from ${demo}: ${SIMULATED_REFUSAL}`,
    );
    expect(result.stderr).not.toMatch(/republished the previous snapshot/);
    await expectCalendarUnavailable(out);
    expect((await statusOf(out)).simulated).toBe(false);
  });

  it("npm start's rebuild (--if-stale) over a simulated dist/ with the upstreams down: the calendar is unavailable, not the demo's", async () => {
    const dist = await healthy('demo-dist', true);
    offline();
    const result = await runBuildMain(['--out', dist, '--if-stale'], env(false, clock));
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result)[0]).toMatch(
      /was built for .*DEMO_SIMULATED=true; building it again for .*DEMO_SIMULATED=false$/,
    );
    // said even though --if-stale keeps the other refusals quiet
    expect(lines(result)).toContain(
      `build: contribution calendar: no previous snapshot republished from ${dist}: ${SIMULATED_REFUSAL}`,
    );
    await expectCalendarUnavailable(dist);
    expect((await statusOf(dist)).simulated).toBe(false);
    expect(await readFile(join(dist, 'index.html'), 'utf8')).not.toMatch(/Simulated data/);
  });
});

describe('a simulated build after a real one (the reverse)', () => {
  it('--if-stale with DEMO_SIMULATED=1 over a real dist/, the simulated provider down: no real calendar under the demo banner', async () => {
    const dist = await healthy('real-dist', false);
    offline();
    const result = await runBuildMain(['--out', dist, '--if-stale'], env(true, clock));
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result)).toContain(
      `build: contribution calendar: no previous snapshot republished from ${dist}: ${REAL_REFUSAL}`,
    );
    await expectCalendarUnavailable(dist);
    expect((await statusOf(dist)).simulated).toBe(true);
  });
});
