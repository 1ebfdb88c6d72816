// `npm run build -- --previous <dir>`: publishing through an upstream's outage (docs/deploying.md#publishing-through-an-outage,
// docs/data-rules.md#reusing-a-previous-snapshot). Three builds in a row on one fake's clock, each reading a copy of
// the one before as the previous site: the shared default build (healthy, Monday 10:00 in Toronto), an hour later
// with the market down, the next day with GitHub down, and three hours after the first with the market down again.
// The tests only read them; the refusals that need no build are checked on the reading function itself.
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAge, PREVIOUS_MAX_BYTES, reusablePrevious, reusedLine } from '../builders/build/previous.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { formatInstant } from '../builders/render/format.ts';
import { dataResource, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS, datasets } from '../builders/datasets/registry.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, runCheckDist, upstreamEnv, type RunResult } from './helpers/run.ts';
import { runBuild, runBuildMain, sharedSite, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';

const HOUR = 3_600_000;
const MARKET = dataResource(DEFAULT_SERVICE, 'market').snapshotFiles;
const CALENDAR = dataResource(DEFAULT_SERVICE, 'contributions').snapshotFiles;
const cardsOf = (id: 'market' | 'contributions') =>
  DEFAULT_SERVICE.cards.filter((c) => c.resource === id).map((c) => c.file);
const validator = createValidator();

let fake: FakeUpstreams;
let base: string;
let clock = TEST_SITE_CLOCK;
/** The first build: the run's shared default one (healthy, at TEST_SITE_CLOCK), never written into. */
const first = sharedSite();

interface Built {
  dir: string;
  previous: string;
  result: RunResult;
}
const built: Record<'hourLater' | 'nextDay' | 'tooOld', Built> = {} as never;

/** A build at `at` with `--previous` = a fresh copy of `from`, after `fail` set the fake's failures. */
async function buildAfter(name: string, at: number, from: string, fail: (fake: FakeUpstreams) => void): Promise<Built> {
  clock = at;
  fake.allDown = false;
  fake.market.mode = 'ok';
  fake.github = { mode: 'ok' };
  fail(fake);
  fake.resetCalls();
  const previous = join(base, `${name}-previous`);
  const dir = join(base, name);
  await cp(from, previous, { recursive: true });
  // build() in-process, as `npm run build -- --out <dir> --previous <previous>` runs it (the program's
  // own edge, a missing --previous folder, is the spawned test below).
  const result = await runBuild(
    dir,
    {
      ...upstreamEnv(fake.url),
      SITE_URL: TEST_SITE_URL,
      UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
      SOURCE_DATE_EPOCH: String(Math.floor(at / 1000)),
    },
    undefined,
    { previousDir: previous },
  );
  return { dir, previous, result };
}

const read = (dir: string, file: string) => readFile(join(dir, file));
const exists = (dir: string, file: string) =>
  stat(join(dir, file)).then(
    () => true,
    () => false,
  );
const lines = (result: RunResult) => result.stderr.trim().split('\n');
/** The stderr lines about the market, the dataset these builds fail: each line is matched for what it means. */
const marketLines = (result: RunResult) => lines(result).filter((line) => line.startsWith('build: market preview'));

beforeAll(async () => {
  expect(first.result.code, first.result.stderr).toBe(0);
  fake = await startFakeUpstreams({ now: () => clock });
  base = await mkdtemp(join(tmpdir(), 'build-previous-'));
  built.hourLater = await buildAfter('hour-later', TEST_SITE_CLOCK + HOUR, first.dir, (f) => (f.market.mode = 'down'));
  built.nextDay = await buildAfter(
    'next-day',
    TEST_SITE_CLOCK + 24 * HOUR,
    built.hourLater.dir,
    (f) => (f.github = { mode: 'down' }),
  );
  // From the hour-later build's copy: the market snapshot it republished keeps its first asOf, so it ages.
  built.tooOld = await buildAfter(
    'too-old',
    TEST_SITE_CLOCK + 3 * HOUR + 60_000,
    built.hourLater.dir,
    (f) => (f.market.mode = 'server-error'),
  );
}, 120_000);
afterAll(async () => {
  await fake?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe('an hour later, the market down, --previous = the last published site', () => {
  it('exits 0 and republishes the market snapshot byte for byte, at the v1 path and the alias', async () => {
    const { result, dir } = built.hourLater;
    expect(result.code, result.stderr).toBe(0);
    const before = await read(first.dir, MARKET[0]!);
    for (const file of MARKET) expect((await read(dir, file)).equals(before), file).toBe(true);
    expect(result.stdout).toMatch(/1 upstream\(s\) failed, 1 previous snapshot\(s\) republished/);
  });

  it('says so on stderr: the upstream that failed, then the dataset republished and its age', async () => {
    const { result } = built.hourLater;
    const asOf = (JSON.parse(await first.read(MARKET[0]!)) as MarketData).asOf;
    expect(marketLines(result)).toHaveLength(2);
    expect(marketLines(result)[0]).toMatch(/^build: market preview not written: coinbase: /);
    expect(marketLines(result)[1]).toBe(
      `build: market preview: republished the previous snapshot from ${built.hourLater.previous}, 1 h 0 min old (as of ${asOf})`,
    );
  });

  it('builds the calendar fresh from GitHub', async () => {
    const { dir, result } = built.hourLater;
    expect(result.stderr).not.toMatch(/contribution calendar/);
    const calendar = JSON.parse((await read(dir, CALENDAR[0]!)).toString()) as { endDate: string };
    validator.validate('GitHubContributions', calendar);
    expect(calendar.endDate).toBe('2026-11-23');
    expect((await read(dir, CALENDAR[1]!)).equals(await read(dir, CALENDAR[0]!))).toBe(true);
  });

  it('draws the market cards and the home page from the republished snapshot, as from a fresh one', async () => {
    const { dir } = built.hourLater;
    for (const card of cardsOf('market'))
      expect((await read(dir, card)).equals(await read(first.dir, card))).toBe(true);
    const market = JSON.parse(await first.read(MARKET[0]!)) as MarketData;
    expect((await read(dir, 'index.html')).toString()).toContain(market.asOf.slice(0, 10));
  });
});

describe('the next calendar day, GitHub down', () => {
  it('exits 1 and publishes no calendar: its previous snapshot ended yesterday', async () => {
    const { result, dir } = built.nextDay;
    expect(result.code).toBe(1);
    for (const file of CALENDAR) {
      for (const copy of [file, `${file}.br`, `${file}.gz`]) expect(await exists(dir, copy), copy).toBe(false);
    }
    // Its cards say unavailable, with the day the previous site's data were read.
    for (const card of cardsOf('contributions'))
      expect((await read(dir, card)).toString(), card).toContain('Last available: 2026-11-23 05:00 UTC');
    expect(lines(result)).toEqual([
      expect.stringMatching(/^build: contribution calendar not written: github-html: /),
      `build: contribution calendar: no previous snapshot republished from ${built.nextDay.previous}: it ends on 2026-11-23, and today is 2026-11-24 in America/Toronto`,
    ]);
  });

  it('publishes the market fresh, and everything else', async () => {
    const { dir } = built.nextDay;
    const market = JSON.parse((await read(dir, MARKET[0]!)).toString()) as MarketData;
    validator.validate('MarketData', market);
    expect(Date.parse(market.asOf)).toBeGreaterThan(TEST_SITE_CLOCK + 23 * HOUR);
    expect(await exists(dir, 'index.html')).toBe(true);
  });

  it('passes npm run check:dist -- --allow-missing-data, naming the dataset left out, and without it', async () => {
    const { dir } = built.nextDay;
    const allowed = await runCheckDist(['--dir', dir, '--allow-missing-data'], { SITE_URL: TEST_SITE_URL });
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('check:dist: contribution calendar not published (the build left it out)');
    // No document links the calendar's data paths while it is missing (builders/build/artifact.ts,
    // publishedDatasets); its cards stand, drawn unavailable.
    const strict = await runCheckDist(['--dir', dir], { SITE_URL: TEST_SITE_URL });
    expect(strict.stderr).toBe('');
    expect(strict.code).toBe(0);
    expect(strict.stdout).toContain('check:dist: ok:');
  });
});

describe('the market down three hours and a minute after its last fresh snapshot', () => {
  it('exits 1 with no market snapshot, its cards unavailable: a republished snapshot ages from its own asOf', async () => {
    const { result, dir } = built.tooOld;
    expect(result.code).toBe(1);
    for (const file of MARKET) expect(await exists(dir, file), file).toBe(false);
    const asOf = (JSON.parse(await first.read(MARKET[0]!)) as MarketData).asOf;
    for (const card of cardsOf('market')) {
      const svg = (await read(dir, card)).toString();
      expect(svg, card).toContain('<title id="card-title">Market preview: unavailable</title>');
      expect(svg, card).toContain(`Last available: ${formatInstant(asOf)}`);
    }
    expect(marketLines(result)).toHaveLength(2);
    expect(marketLines(result)[1]).toMatch(
      /^build: market preview: no previous snapshot republished from .*: its asOf \S+ is more than 3 h old$/,
    );
    validator.validate('GitHubContributions', JSON.parse((await read(dir, CALENDAR[0]!)).toString()));
  });
});

describe('a previous snapshot nested 500,000 deep, both upstreams down (builders/lib/json-bound.ts)', () => {
  /** 500,000 nested arrays: 1,000,000 bytes, under PREVIOUS_MAX_BYTES, and deeper than any recursion can walk. */
  const NESTED = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
  const refusal = (file: string) =>
    `${file} is refused unparsed: it nests deeper than 64 levels, unlike any snapshot a build writes`;

  /** A build an hour after the first with both upstreams down, from a copy of the first whose `nested` files are NESTED. */
  const buildNested = async (name: string, nested: string[]) => {
    clock = TEST_SITE_CLOCK + HOUR;
    fake.market.mode = 'down';
    fake.github = { mode: 'down' };
    const previous = join(base, `${name}-previous`);
    const dir = join(base, name);
    await cp(first.dir, previous, { recursive: true });
    for (const file of nested) await writeFile(join(previous, file), NESTED);
    const result = await runBuild(
      dir,
      {
        ...upstreamEnv(fake.url),
        SITE_URL: TEST_SITE_URL,
        UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
        SOURCE_DATE_EPOCH: String(Math.floor(clock / 1000)),
      },
      undefined,
      { previousDir: previous },
    );
    return { dir, previous, result };
  };

  it('the market nested: exit 1, the market refused in one line, the intact calendar republished, the site written', async () => {
    const { dir, previous, result } = await buildNested('nested-market', [MARKET[0]!]);
    expect(result.code, result.stderr).toBe(1);
    expect(lines(result)).toEqual([
      expect.stringMatching(/^build: market preview not written: coinbase: /),
      `build: market preview: no previous snapshot republished from ${previous}: ${refusal(MARKET[0]!)}`,
      expect.stringMatching(/^build: contribution calendar not written: github-html: /),
      expect.stringMatching(/^build: contribution calendar: republished the previous snapshot from /),
    ]);
    for (const file of MARKET) expect(await exists(dir, file), file).toBe(false);
    for (const file of CALENDAR) expect((await read(dir, file)).equals(await read(first.dir, file)), file).toBe(true);
    expect(await exists(dir, 'index.html')).toBe(true);
  });

  it('both nested: exit 1, both refused, the site written without either', async () => {
    const { dir, previous, result } = await buildNested('nested-both', [MARKET[0]!, CALENDAR[0]!]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(lines(result)).toContain(
      `build: contribution calendar: no previous snapshot republished from ${previous}: ${refusal(CALENDAR[0]!)}`,
    );
    for (const file of [...MARKET, ...CALENDAR]) expect(await exists(dir, file), file).toBe(false);
    for (const file of ['index.html', 'status.json', 'api/index.json'])
      expect(await exists(dir, file), file).toBe(true);
  });
});

describe('reading the previous site (builders/build/previous.ts)', () => {
  const config = loadConfig({ GITHUB_ACCOUNT: 'octocat' });
  const anHourLater = { config, service: DEFAULT_SERVICE, nowMs: TEST_SITE_CLOCK + HOUR, validator, simulated: false };
  let dir: string;
  let text: { market: string; calendar: string; status: string };
  beforeAll(async () => {
    text = {
      market: await first.read(MARKET[0]!),
      calendar: await first.read(CALENDAR[0]!),
      status: await first.read(DISCOVERY.status.file),
    };
  });
  /** Into the current folder. */
  const put = async (file: string, body: string | Buffer) => {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), body);
  };
  /** Into a new folder, which becomes the current one, beside the last build's status.json (real data). */
  const plant = async (file: string, body: string | Buffer) => {
    dir = await mkdtemp(join(base, 'plant-'));
    await put(DISCOVERY.status.file, text.status);
    await put(file, body);
  };
  /** The default deployment's dataset of this id (builders/datasets/registry.ts). */
  const datasetOf = (id: string) => datasets(DEFAULT_SERVICE_OPTIONS).find((d) => d.resource.id === id)!;
  const refusal = async (id: 'market' | 'contributions', context = anHourLater) => {
    const previous = await reusablePrevious(dir, datasetOf(id), context);
    expect(previous.reused).toBe(false);
    return (previous as { reason: string }).reason;
  };

  it('republishes the snapshots of the last build as they are', async () => {
    await plant(MARKET[0]!, text.market);
    const market = await reusablePrevious(dir, datasetOf('market'), anHourLater);
    expect(market).toMatchObject({ reused: true, body: text.market });
    await plant(CALENDAR[0]!, text.calendar);
    // 11:00 in Toronto: the day began eleven hours ago
    const calendar = await reusablePrevious(dir, datasetOf('contributions'), anHourLater);
    expect(calendar).toMatchObject({ reused: true, body: text.calendar, ageMs: 11 * HOUR });
    expect(
      reusedLine(datasetOf('contributions'), dir, calendar as { payload: GitHubContributions; ageMs: number }),
    ).toBe(
      `build: contribution calendar: republished the previous snapshot from ${dir}, at most 11 h 0 min old (it ends today, 2026-11-23 in America/Toronto)`,
    );
    expect([40_000, 59 * 60_000 + 59_999, 2 * HOUR + 5 * 60_000].map(formatAge)).toEqual([
      '40 s',
      '59 min',
      '2 h 5 min',
    ]);
  });

  it('refuses another account, another source, and the market once it is more than 3 h old or in the future', async () => {
    await plant(CALENDAR[0]!, text.calendar);
    expect(await refusal('contributions', { ...anHourLater, config: loadConfig({ GITHUB_ACCOUNT: 'hubot' }) })).toBe(
      `it is the account "octocat"'s, not "hubot"'s`,
    );
    await plant(MARKET[0]!, text.market);
    const other = loadConfig({ GITHUB_ACCOUNT: 'octocat', MARKET_SOURCE_NAME: 'Another Exchange' });
    expect(await refusal('market', { ...anHourLater, config: other })).toMatch(/its source is "Coinbase Exchange"/);
    const asOfMs = Date.parse((JSON.parse(text.market) as MarketData).asOf);
    expect(await refusal('market', { ...anHourLater, nowMs: asOfMs + 3 * HOUR + 1 })).toMatch(/more than 3 h old/);
    expect(await refusal('market', { ...anHourLater, nowMs: asOfMs - 1 })).toMatch(/later than now/);
    expect(
      await reusablePrevious(dir, datasetOf('market'), { ...anHourLater, nowMs: asOfMs + 3 * HOUR }),
    ).toMatchObject({
      reused: true,
      ageMs: 3 * HOUR,
    });
  });

  it('refuses bytes that are not a build’s own: reformatted, outside the schema, or inconsistent', async () => {
    const market = JSON.parse(text.market) as MarketData;
    await plant(MARKET[0]!, JSON.stringify(market, null, 2));
    expect(await refusal('market')).toMatch(/bytes were changed/);
    await plant(MARKET[0]!, `${text.market}\n`);
    expect(await refusal('market')).toMatch(/bytes were changed/);
    await plant(MARKET[0]!, JSON.stringify({ ...market, product: 'BTC-USD' }));
    expect(await refusal('market')).toMatch(/MarketData does not validate/);
    await plant(MARKET[0]!, JSON.stringify({ ...market, value: market.value * 2 }));
    expect(await refusal('market')).toMatch(/^its changePercent \S+ is not what its points and value give \(\S+\)$/);
    await plant(MARKET[0]!, Buffer.from([0xff, 0xfe, 0x7b]));
    expect(await refusal('market')).toMatch(/not UTF-8 JSON/);
    const calendar = JSON.parse(text.calendar) as { days: Array<{ count: number }> };
    calendar.days[3]!.count += 1; // the total no longer adds up
    await plant(CALENDAR[0]!, JSON.stringify(calendar));
    expect(await refusal('contributions')).toMatch(/^its totalContributions \d+ is not the sum of its days \(\d+\)$/);
  });

  it("refuses a simulated site's snapshots in a real build, a real site's in a simulated one, and a site that does not say", async () => {
    const status = JSON.parse(text.status) as { simulated: boolean };
    expect(status.simulated).toBe(false);
    await plant(CALENDAR[0]!, text.calendar);
    expect(await reusablePrevious(dir, datasetOf('contributions'), { ...anHourLater, simulated: true })).toEqual({
      reused: false,
      reason: 'its data are real, and this build is simulated (DEMO_SIMULATED=1): a demo never shows them as its own',
      provenance: true,
    });
    // the same calendar, its site marked simulated: the calendar itself cannot tell
    await put(DISCOVERY.status.file, JSON.stringify({ ...status, simulated: true }));
    expect(await reusablePrevious(dir, datasetOf('contributions'), anHourLater)).toEqual({
      reused: false,
      reason:
        'its data are simulated (its status.json says so: a demo build wrote it), and this build publishes real data only',
      provenance: true,
    });
    expect(await reusablePrevious(dir, datasetOf('contributions'), { ...anHourLater, simulated: true })).toMatchObject({
      reused: true,
      body: text.calendar,
    });
    // no word either way: a status.json of a build older than the field, or none at all
    const { simulated: _, ...older } = status;
    await put(DISCOVERY.status.file, JSON.stringify(older));
    expect(await refusal('contributions')).toBe(
      `its site does not say whether its data are simulated (status.json has no boolean "simulated"), so it is not republished as real data`,
    );
    await rm(join(dir, DISCOVERY.status.file));
    expect(await refusal('contributions')).toBe(
      'its site does not say whether its data are simulated (status.json is missing), so it is not republished as real data',
    );
  });

  it('never throws: a bug while judging is a refusal that carries the error, for the exit status', async () => {
    await plant(MARKET[0]!, text.market);
    const bug = new TypeError("Cannot read properties of undefined (reading 'time')");
    const throwing = {
      validate: () => {
        throw bug;
      },
    };
    expect(await reusablePrevious(dir, datasetOf('market'), { ...anHourLater, validator: throwing })).toEqual({
      reused: false,
      reason: "judging it failed (an internal error): TypeError: Cannot read properties of undefined (reading 'time')",
      internalError: bug,
    });
  });

  it('reads only a regular file inside the folder, of bounded size, through no symbolic link', async () => {
    dir = await mkdtemp(join(base, 'empty-'));
    expect(await refusal('market')).toBe(`${MARKET[0]} is missing`);
    // the file: a link to a good snapshot beside it
    await put('elsewhere/mon-price', text.market);
    await mkdir(join(dir, dirname(MARKET[0]!)), { recursive: true });
    await symlink(join(dir, 'elsewhere/mon-price'), join(dir, MARKET[0]!));
    expect(await refusal('market')).toBe(`${MARKET[0]} is a symbolic link`);
    // a folder on the way: a link to the last build's
    dir = await mkdtemp(join(base, 'linked-'));
    await symlink(join(first.dir, 'api'), join(dir, 'api'));
    expect(await refusal('market')).toBe(`${MARKET[0]} is reached through a symbolic link`);
    await plant(MARKET[0]!, Buffer.alloc(PREVIOUS_MAX_BYTES + 1, 0x20));
    expect(await refusal('market')).toBe(`${MARKET[0]} is larger than ${PREVIOUS_MAX_BYTES} bytes`);
    await rm(join(dir, MARKET[0]!));
    await mkdir(join(dir, MARKET[0]!));
    expect(await refusal('market')).toBe(`${MARKET[0]} is not a regular file`);
    // a FIFO nobody writes to: opened without waiting for a writer, and refused
    await rm(join(dir, MARKET[0]!), { recursive: true });
    execFileSync('mkfifo', [join(dir, MARKET[0]!)]);
    expect(await refusal('market')).toBe(`${MARKET[0]} is not a regular file`);
  });
});

describe('arguments', () => {
  it('--previous naming no folder: exit 2 with one line naming the option, nothing written, no upstream asked', async () => {
    fake.resetCalls();
    const out = join(base, 'not-built');
    const missing = join(base, 'no-such-folder');
    const result = await runBuildMain(['--out', out, '--previous', missing], upstreamEnv(fake.url));
    expect(result.code).toBe(2);
    expect(lines(result)).toEqual([
      `build: option '--previous <dir>': "${missing}" is not a folder (usage: npm run build [-- --out <dir>] [--if-stale] [--previous <dir>] [--content <dir>])`,
    ]);
    expect(await exists(out, '')).toBe(false);
    expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
  });
});
