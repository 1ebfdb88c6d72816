// A previous snapshot meets the fresh build's rules before it is republished (builders/domain/reuse.ts,
// docs/data-rules.md#reusing-a-previous-snapshot): whoever serves the previous site chose its bytes. Builds run
// in-process through build(), an hour after the shared default build, with the market upstream answering 404
// and GitHub healthy, reading a folder that holds the shared build's market snapshot as it was or altered.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIOUS_MAX_BYTES } from '../builders/build/previous.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import { dataResource } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { buildWithPreviousMarket } from './helpers/previous-build.ts';
import { sharedSite, TEST_SITE_CLOCK } from './helpers/site-dist.ts';

const HOUR = 3_600_000;
const NOW = TEST_SITE_CLOCK + HOUR;
const MARKET = dataResource(DEFAULT_SERVICE, 'market').snapshotFiles;
const CALENDAR = dataResource(DEFAULT_SERVICE, 'contributions').snapshotFiles;
const validator = createValidator();
const first = sharedSite();

let fake: FakeUpstreams;
let base: string;
let valid: string;

beforeAll(async () => {
  expect(first.result.code, first.result.stderr).toBe(0);
  valid = await first.read(MARKET[0]!);
  fake = await startFakeUpstreams({ now: () => NOW });
  fake.market.mode = 'not-found';
  base = await mkdtemp(join(tmpdir(), 'previous-rules-'));
});
afterAll(async () => {
  await fake?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

/** A build at NOW, the market upstream failing, with `--previous` = a folder holding `market` as its snapshot. */
async function buildWith(name: string, market: string) {
  const built = await buildWithPreviousMarket({ base, name, fakeUrl: fake.url, nowMs: NOW, market });
  const exists = (file: string) =>
    stat(join(built.outDir, file)).then(
      () => true,
      () => false,
    );
  return { ...built, exists };
}

/** The shared build's market snapshot, changed by `edit`, as a build would write it (so only the rule decides). */
function altered(edit: (market: MarketData) => void): string {
  const market = JSON.parse(valid) as MarketData;
  edit(market);
  return JSON.stringify(market);
}
const alter = (edit: (market: MarketData) => void) => edit;

describe('a previous market snapshot that breaks the fresh rules, the market upstream down', () => {
  it.each([
    [
      'a point at time 1e300',
      alter((m) => void (m.points[m.points.length - 1]!.time = 1e300)),
      /: its point 169 of 169 \(time 1e\+300\) is later than now, 2026-11-23T16:00:00Z$/,
    ],
    [
      'a point in the year 3000',
      alter((m) => void (m.points[m.points.length - 1]!.time = Date.parse('3000-01-01T00:00:00Z') / 1000)),
      /: its point 169 of 169 \(time 32503680000\) is later than now/,
    ],
    [
      'a point dated a day after its asOf, on the hour',
      alter((m) => void (m.points[m.points.length - 1]!.time += 24 * 3600)),
      /: its point 169 of 169 \(time 1795532400\) is later than now/,
    ],
    [
      'a negative price (low following it)',
      alter((m) => {
        m.points[5]!.value = -0.03;
        m.low = -0.03;
      }),
      /: api\/v1\/mon-price: MarketData does not validate: \/points\/5\/value must be > 0; \/low must be > 0$/,
    ],
    [
      '33,000 points (low, high and change following them)',
      alter((m) => {
        const end = Math.floor(Date.parse(m.asOf) / 1000);
        m.points = Array.from({ length: 33_000 }, (_, i) => ({ time: end - 33_000 + i + 1, value: 1 }));
        Object.assign(m, { value: 1, low: 1, high: 1, changePercent: 0 });
      }),
      /: api\/v1\/mon-price: MarketData does not validate: \/points must NOT have more than 170 items$/,
    ],
    [
      'a point between two candles, off the hour',
      alter((m) => void (m.points[3]!.time += 60)),
      /: its point 4 of 169 \(time \d+\) is neither a candle's start on the hour nor its ticker point/,
    ],
    [
      'a high that its points do not give',
      alter((m) => void (m.high *= 2)),
      /: its high [\d.e-]+ is not what its points and value give \([\d.e-]+\)$/,
    ],
  ])('%s: refused in one line, the calendar still published, exit 1', async (name, edit, reason) => {
    const market = altered(edit);
    const size = Buffer.byteLength(market);
    expect(size).toBeLessThanOrEqual(PREVIOUS_MAX_BYTES); // the rule refuses it, not the size bound
    const { result, stderr, previous, outDir, exists } = await buildWith(name.replace(/\W+/g, '-'), market);
    expect(result.exitCode).toBe(1);
    expect(result.reused).toEqual([]);
    expect(stderr).toHaveLength(2);
    expect(stderr[0]).toMatch(/^build: market preview not written: coinbase: /);
    expect(stderr[1]).toMatch(
      new RegExp(
        `^build: market preview: no previous snapshot republished from ${previous}: .*`.replaceAll('/', '\\/'),
      ),
    );
    expect(stderr[1]).toMatch(reason);
    expect(stderr[1]!.length).toBeLessThan(800);
    for (const file of MARKET) expect(await exists(file), file).toBe(false);
    for (const file of CALENDAR) expect(await exists(file), file).toBe(true);
    validator.validate('GitHubContributions', JSON.parse(await readFile(join(outDir, CALENDAR[0]!), 'utf8')));
    expect(await exists('index.html')).toBe(true);
  });

  it('a valid snapshot within its age bound is still republished byte for byte, exit 0', async () => {
    const { result, stderr, outDir } = await buildWith('valid', valid);
    expect(result.exitCode).toBe(0);
    expect(result.reused).toEqual([{ resource: 'market', ageMs: NOW - Date.parse(JSON.parse(valid).asOf) }]);
    expect(stderr[1]).toMatch(/^build: market preview: republished the previous snapshot from .*, 1 h 0 min old/);
    for (const file of MARKET) expect(await readFile(join(outDir, file), 'utf8')).toBe(valid);
  });
});
