// `npm run build`: exit statuses, snapshots on disk, nothing partial (docs/configuration.md#commands). The build
// runs in-process (build(), and main() for the arguments and --if-stale, as the program calls them); one
// spawned build per exit status proves the program around them.
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { buildArgs, siteIdentity, staleness } from '../builders/build/build.ts';
import { identityChanges, manifestPath, recordBuild } from '../builders/build/prune.ts';
import { datasets } from '../builders/datasets/registry.ts';
import type { Dataset } from '../builders/datasets/dataset.ts';
import { loadConfig, readSiteFile } from '../builders/lib/config.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import {
  noCalls,
  startFakeUpstreams,
  type FakeUpstreams,
  type GithubMode,
  type MarketMode,
} from './fakes/upstreams.ts';
import { listFiles } from './helpers/files.ts';
import { runProgram, upstreamEnv } from './helpers/run.ts';
import { FIXTURE_SITE, runBuild, runBuildMain } from './helpers/site-dist.ts';

const validator = createValidator();
let fake: FakeUpstreams;
let out: string;

// The upstreams' clock and, unless a test dates its build otherwise, every build's: no test here reads the real
// clock. Monday 2026-11-23 15:00 UTC, 10:00 in Toronto.
const CLOCK = Date.parse('2026-11-23T15:00:00Z');
let clock = CLOCK;

beforeAll(async () => {
  fake = await startFakeUpstreams({ slowMs: 5000, now: () => clock });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  clock = CLOCK;
  fake.market.mode = 'ok';
  fake.github = { mode: 'ok' };
  fake.resetCalls();
  out = await mkdtemp(join(tmpdir(), 'dist-'));
  return () => rm(out, { recursive: true, force: true });
});

const buildEnv = (env: Record<string, string | undefined>) => ({
  ...upstreamEnv(fake.url),
  // Generous: no test here waits for it (the deadline itself: upstream-failures.test.ts), and a loaded
  // machine must not turn a healthy fake's answer into a failure.
  UPSTREAM_TIMEOUT_MS: '10000',
  SOURCE_DATE_EPOCH: String(Math.floor(clock / 1000)),
  ...env,
});
const build = (env: Record<string, string | undefined> = {}) => runBuild(out, buildEnv(env));
/** The same build as the program, `node .build/build.mjs --out <out>`, a child process. */
const spawnBuild = (env: Record<string, string | undefined> = {}, args = ['--out', out]) =>
  runProgram('build', args, buildEnv(env));

const readJson = async (file: string) => JSON.parse(await readFile(join(out, file), 'utf8')) as Record<string, unknown>;
const exists = (file: string) =>
  stat(join(out, file)).then(
    () => true,
    () => false,
  );

describe('npm run build', () => {
  it('writes both snapshots at the v1 and alias paths, schema-valid and byte-identical, and exits 0', async () => {
    const result = await build();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const market = await readJson('api/v1/mon-price');
    validator.validate('MarketData', market);
    expect(await readFile(join(out, 'api/mon-price'), 'utf8')).toBe(
      await readFile(join(out, 'api/v1/mon-price'), 'utf8'),
    );
    const calendar = await readJson('api/v1/github-contributions');
    validator.validate('GitHubContributions', calendar);
    expect(calendar.username).toBe('octocat');
    expect(await readFile(join(out, 'api/github-contributions'), 'utf8')).toBe(
      await readFile(join(out, 'api/v1/github-contributions'), 'utf8'),
    );
    // one progress line per artifact, with its size
    expect(result.stdout).toMatch(/api\/v1\/mon-price\s+[\d.]+ (kB|B)/);
    expect(
      fake.requests.every((r) => typeof r.headers['user-agent'] === 'string' && r.headers['user-agent'].length > 0),
    ).toBe(true);
  });

  it('uses SOURCE_DATE_EPOCH as now', async () => {
    const epoch = Math.floor(CLOCK / 1000) - 3 * 86_400;
    clock = epoch * 1000; // the provider's clock agrees with it
    const result = await build({ SOURCE_DATE_EPOCH: String(epoch) });
    expect(result.code).toBe(0);
    const market = await readJson('api/v1/mon-price');
    const points = market.points as Array<{ time: number }>;
    // the candles and the ticker end at the epoch
    expect(points.at(-1)!.time).toBeLessThanOrEqual(epoch);
    expect(points[0]!.time).toBeGreaterThanOrEqual(epoch - 604_800);
    const calendar = await readJson('api/v1/github-contributions');
    expect(calendar.endDate).toBe('2026-11-20');
  });

  it("a provider's ticker three days after SOURCE_DATE_EPOCH (later than now plus 5 minutes): exit 1, no market", async () => {
    const epoch = Math.floor(CLOCK / 1000) - 3 * 86_400;
    const result = await build({ SOURCE_DATE_EPOCH: String(epoch) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/coinbase: ticker time \S+ is later than now plus 5 minutes/);
    expect(await exists('api/v1/mon-price')).toBe(false);
    expect((await readJson('api/v1/github-contributions')).endDate).toBe('2026-11-20');
  });

  it('reads the GraphQL source when GITHUB_TOKEN is set, and gives the same payload as the HTML source', async () => {
    expect((await build()).code).toBe(0);
    const fromHtml = await readJson('api/v1/github-contributions');
    expect(fake.calls.html).toBe(1);
    expect(fake.calls.graphql).toBe(0);
    expect((await build({ GITHUB_TOKEN: 'test-token' })).code).toBe(0);
    expect(fake.calls.graphql).toBe(1);
    const graphqlRequest = fake.requests.find((r) => r.url === '/graphql')!;
    expect(graphqlRequest.headers.authorization).toBe('bearer test-token');
    expect(await readJson('api/v1/github-contributions')).toEqual(fromHtml);
  });

  // Every failure mode of each upstream is an UpstreamError naming it (test/upstream-failures.test.ts);
  // what the build does with one is the same whatever the mode, so one mode per upstream runs here, one
  // that is not retried (a retry's backoff would only add waiting).
  it.each<MarketMode>(['bad-price'])(
    'market upstream %s: exit 1, no market snapshot, the calendar still written',
    async (mode) => {
      fake.market.mode = mode;
      const result = await build();
      expect(result.code).toBe(1);
      expect(await exists('api/v1/mon-price')).toBe(false);
      expect(await exists('api/mon-price')).toBe(false);
      validator.validate('GitHubContributions', await readJson('api/v1/github-contributions'));
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/coinbase/);
      expect((await listFiles(out)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    },
  );

  it.each<GithubMode>(['markup-drift'])(
    'HTML calendar %s: exit 1, no calendar snapshot, the market still written',
    async (mode) => {
      fake.github.mode = mode;
      const result = await build();
      expect(result.code).toBe(1);
      expect(await exists('api/v1/github-contributions')).toBe(false);
      expect(await exists('api/github-contributions')).toBe(false);
      validator.validate('MarketData', await readJson('api/v1/mon-price'));
      // The calendar's line, and no other dataset's.
      const unwritten = result.stderr.split('\n').filter((line) => line.includes(' not written: '));
      expect(unwritten).toEqual([expect.stringMatching(/^build: contribution calendar not written: github-html/)]);
    },
  );

  it('GraphQL calendar with a rejected token: exit 1 naming github-graphql, the token nowhere', async () => {
    fake.github.mode = 'bad-token';
    const result = await build({ GITHUB_TOKEN: 'test-token' });
    expect(result.code).toBe(1);
    expect(await exists('api/v1/github-contributions')).toBe(false);
    expect(result.stderr).toMatch(/github-graphql/);
    expect(result.stderr).not.toContain('test-token');
    expect(result.stdout).not.toContain('test-token');
  });

  it.each([
    [
      'market',
      (): void => void (fake.market.mode = 'bad-price'),
      ['api/v1/mon-price', 'api/mon-price'],
      'api/v1/github-contributions',
    ],
    [
      'calendar',
      (): void => void (fake.github.mode = 'markup-drift'),
      ['api/v1/github-contributions', 'api/github-contributions'],
      'api/v1/mon-price',
    ],
  ] as const)(
    'removes the %s snapshot left by an earlier build when its upstream now fails; the other is written',
    async (_name, fail, gone, kept) => {
      expect((await build()).code).toBe(0);
      fail();
      expect((await build()).code).toBe(1);
      for (const file of gone) expect(await exists(file), file).toBe(false);
      expect(await exists(kept)).toBe(true);
    },
  );
});

describe('arguments', () => {
  // What a refusal prints and that it exits 2 having asked nothing: main() below, and the spawned program.
  it.each([[['--bogus']], [['--out']], [['--out', '  ']], [['extra']]])('%j is refused', (args) => {
    expect(() => buildArgs(args, { distDir: out })).toThrow();
  });

  it('an unknown argument: exit 2, one line naming the usage, nothing written, no upstream asked', async () => {
    const result = await runBuildMain(['--bogus', '--out', out], buildEnv({}));
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('usage: npm run build [-- --out <dir>] [--if-stale]');
    expect(await listFiles(out)).toEqual([]);
    expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
  });

  it('--out <dir> and --if-stale are read; without --out, DIST_DIR is the folder', () => {
    expect(buildArgs(['--out', 'x', '--if-stale'], { distDir: out })).toMatchObject({ ifStale: true });
    expect(buildArgs([], { distDir: out })).toEqual({ outDir: out, ifStale: false, previousDir: undefined });
  });

  it('--content <dir> names a content folder with a site.json (the demo builds a copy of site/); else refused', () => {
    expect(buildArgs(['--content', FIXTURE_SITE], { distDir: out }).contentDir).toBe(FIXTURE_SITE.replace(/\/$/, ''));
    expect(() => buildArgs(['--content', out], { distDir: out })).toThrow(/'--content <dir>': .* has no site\.json/);
  });
});

describe('the program, one spawned build per exit status', () => {
  it('exit 0: both snapshots written, nothing on stderr, one progress line per artifact', async () => {
    const result = await spawnBuild();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    validator.validate('MarketData', await readJson('api/v1/mon-price'));
    validator.validate('GitHubContributions', await readJson('api/v1/github-contributions'));
    expect(result.stdout).toMatch(/api\/v1\/mon-price\s+[\d.]+ (kB|B)/);
  });

  it('exit 1: an upstream without usable data, one stderr line naming it, the other snapshot written', async () => {
    fake.market.mode = 'bad-price';
    const result = await spawnBuild();
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^build: market preview not written: coinbase/),
    ]);
    expect(await exists('api/v1/mon-price')).toBe(false);
    validator.validate('GitHubContributions', await readJson('api/v1/github-contributions'));
  });

  // Every refused value of every variable: loadConfig's table in test/config.test.ts; an unknown argument: above.
  it('exit 2 on a refused variable: one line naming it, nothing written, no upstream asked', async () => {
    const result = await spawnBuild({ GITHUB_ACCOUNT: 'bad/name' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('GITHUB_ACCOUNT');
    expect(await listFiles(out)).toEqual([]);
    expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
  });
});

describe('--if-stale, as npm start runs it before the gateway', () => {
  const startBuild = (env: Record<string, string | undefined> = {}) =>
    runBuildMain(['--out', out, '--if-stale'], {
      ...upstreamEnv(fake.url),
      // Offline: every upstream fails, and a short deadline ends the retries of a closed connection sooner.
      UPSTREAM_TIMEOUT_MS: '300',
      SOURCE_DATE_EPOCH: String(Math.floor(clock / 1000)),
      PORT: '0',
      ...env,
    });

  it('offline, rebuilding for a missing snapshot keeps the other one while it is still valid', async () => {
    // the content main() reads, so that only the missing snapshot makes it build again
    expect((await runBuild(out, buildEnv({}))).code).toBe(0);
    const calendar = await readFile(join(out, 'api/v1/github-contributions'), 'utf8');
    for (const file of ['api/v1/mon-price', 'api/mon-price']) await rm(join(out, file));
    fake.market.mode = 'down';
    fake.github.mode = 'down';
    clock += 3_600_000; // an hour later, the same day in Toronto
    const result = await startBuild();
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/lacks the market preview snapshot/);
    expect(result.stderr).toMatch(/contribution calendar: republished the previous snapshot/);
    expect(await readFile(join(out, 'api/v1/github-contributions'), 'utf8')).toBe(calendar);
    expect(await exists('cards/github-contributions.svg')).toBe(true);
    expect(await exists('api/v1/mon-price')).toBe(false);
  });

  it('a taken PORT is said before anything is built: one line, exit 1, nothing written', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const result = await startBuild({ PORT: String(port), HOST: '127.0.0.1' });
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        `build: nothing built: port ${port} on 127.0.0.1 is taken (EADDRINUSE); stop what listens there or set PORT to another port (PORT=${port + 1} npm start)`,
      ]);
      expect(await listFiles(out)).toEqual([]);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('--if-stale: the record of what dist/ was built from (staleness())', () => {
  let content: string;
  beforeEach(async () => {
    // A copy of the tests' content, to edit as a fork's owner would.
    content = `${await mkdtemp(join(tmpdir(), 'content-'))}/`;
    await cp(FIXTURE_SITE, content, { recursive: true });
    return () => rm(content, { recursive: true, force: true });
  });
  const contentDir = () => pathToFileURL(content);
  const configFor = (env: Record<string, string | undefined> = {}) =>
    loadConfig(buildEnv(env), readSiteFile(new URL('site.json', contentDir())));
  const verdict = (env: Record<string, string | undefined> = {}, nowMs = clock) =>
    staleness(configFor(env), out, { contentDir: contentDir(), nowMs });

  it('with nothing changed, one line says the folder is up to date, when and for whom it was built', async () => {
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    expect(await verdict()).toEqual({
      stale: false,
      line: `build: ${out} is up to date: built 2026-11-23 15:00 UTC for octocat at http://localhost:8080`,
    });
    // the record is kept with the build's output, never under node_modules/ (which npm ci deletes)
    expect(await manifestPath(out)).toMatch(/\/\.build\/builds\/dist-[0-9a-f]{24}\.json$/);
    expect(await manifestPath(out)).not.toContain('node_modules');
  });

  it('another account, product or zone: builds again, naming what it was built for and what it is built for now', async () => {
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    expect(await verdict({ GITHUB_ACCOUNT: 'bob' })).toEqual({
      stale: true,
      line: `build: ${out} was built for GITHUB_ACCOUNT=octocat; building it again for GITHUB_ACCOUNT=bob`,
    });
    expect((await verdict({ MARKET_PRODUCT: 'BTC-USD' })).line).toContain(
      'was built for MARKET_PRODUCT=MON-USD; building it again for MARKET_PRODUCT=BTC-USD',
    );
    expect((await verdict({ CALENDAR_TIME_ZONE: 'Asia/Tokyo' })).line).toContain(
      'building it again for CALENDAR_TIME_ZONE=Asia/Tokyo',
    );
  });

  it("a dataset's own variable is part of what the site was built for; the origin of its upstream is not", () => {
    const [first] = datasets(configFor()) as [Dataset];
    const downloads = {
      ...first,
      origin: {
        upstream: {
          connect: () => ({ fetch: () => Promise.reject(new Error('not asked')) }),
          variables: ['DOWNLOADS_API_URL', 'DOWNLOADS_PACKAGE'],
          originVariable: 'DOWNLOADS_API_URL',
        },
      },
    } as unknown as Dataset;
    const identity = (env: Record<string, string>) => siteIdentity(configFor(env), false, [downloads]);
    const built = identity({ DOWNLOADS_PACKAGE: 'left-pad', DOWNLOADS_API_URL: 'http://127.0.0.1:9' });
    expect(built).toMatchObject({ DOWNLOADS_PACKAGE: 'left-pad' });
    expect(built).not.toHaveProperty('DOWNLOADS_API_URL');
    expect(identityChanges(built, identity({ DOWNLOADS_PACKAGE: 'is-odd' }))).toEqual(['DOWNLOADS_PACKAGE=is-odd']);
    expect(identityChanges(built, identity({ DOWNLOADS_PACKAGE: ' left-pad ' }))).toEqual([]);
    expect(identity({}).DOWNLOADS_PACKAGE).toBe('');
  });

  it('an edit of the content (profile.md, site.json) builds again', async () => {
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    await writeFile(
      join(content, 'profile.md'),
      `${await readFile(join(content, 'profile.md'), 'utf8')}\nOne more line.\n`,
    );
    expect(await verdict()).toEqual({
      stale: true,
      line: `build: ${content} changed since ${out} was built (2026-11-23 15:00 UTC); building it again`,
    });
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    expect((await verdict()).stale).toBe(false);
    // site.json's fields that no variable overrides here (GITHUB_ACCOUNT is set) are content too
    const site = JSON.parse(await readFile(join(content, 'site.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(content, 'site.json'), JSON.stringify({ ...site, title: 'Another title' }));
    expect((await verdict()).line).toContain(`build: ${content} changed since`);
  });

  it("the next day in the calendar's zone builds again; later the same day does not", async () => {
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    // 10:00 in Toronto; 23:59 there is still the same day, 00:00 the next
    expect((await verdict({}, Date.parse('2026-11-24T04:59:00Z'))).stale).toBe(false);
    expect(await verdict({}, Date.parse('2026-11-24T05:00:00Z'))).toEqual({
      stale: true,
      line: `build: ${out} holds the calendar of 2026-11-23 in America/Toronto, and it is 2026-11-24 there; building it again`,
    });
  });

  it('a page deleted or replaced since the build, or a compressed copy changed, builds again naming it', async () => {
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    expect((await verdict()).stale).toBe(false);
    await rm(join(out, 'index.html'));
    expect(await verdict()).toEqual({
      stale: true,
      line: `build: ${out}/index.html is missing since it was built (2026-11-23 15:00 UTC); building it again`,
    });
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    expect((await verdict()).stale).toBe(false);
    const page = await readFile(join(out, 'developers.html'), 'utf8');
    await writeFile(join(out, 'developers.html'), page.replace('</body>', '<p>defaced</p></body>'));
    expect((await verdict()).line).toBe(
      `build: ${out}/developers.html changed since it was built (2026-11-23 15:00 UTC); building it again`,
    );
    expect((await runBuild(out, buildEnv({}), { content })).code).toBe(0);
    await writeFile(join(out, 'index.html.gz'), 'not the page');
    expect((await verdict()).line).toContain('/index.html.gz changed since it was built');
  });

  it("a folder no build recorded is built again rather than served as someone's site", async () => {
    expect(await verdict()).toEqual({
      stale: true,
      line: `build: ${out} has no record of the build that wrote it; building it again`,
    });
  });

  it('main() as npm start runs it: account A, then B serves B and says why; then one up-to-date line and no upstream call', async () => {
    // main() reads the content it is given, as the program reads site/; account B has its own fake.
    expect((await runBuild(out, buildEnv({ GITHUB_ACCOUNT: 'octocat' }), { content })).code).toBe(0);
    const fakeB = await startFakeUpstreams({ account: 'account-b', now: () => clock });
    onTestFinished(() => fakeB.close());
    const start = () =>
      runBuildMain(
        ['--out', out, '--if-stale'],
        {
          ...buildEnv({ PORT: '0' }),
          ...upstreamEnv(fakeB.url),
          GITHUB_ACCOUNT: 'account-b',
        },
        { content },
      );
    const first = await start();
    expect(first.code).toBe(0);
    expect(first.stderr.trimEnd().split('\n')).toEqual([
      `build: ${out} was built for GITHUB_ACCOUNT=octocat; building it again for GITHUB_ACCOUNT=account-b`,
    ]);
    expect((await readJson('api/v1/github-contributions')).username).toBe('account-b');
    fakeB.resetCalls();
    const second = await start();
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(
      new RegExp(`^build: ${out} is up to date: built 2026-11-23 15:00 UTC for account-b at http://localhost:\\d+\\n$`),
    );
    expect(noCalls(fakeB.calls), JSON.stringify(fakeB.calls)).toBe(true);
    // npm start after dist/index.html is deleted rebuilds the site (issue 41).
    await rm(join(out, 'index.html'));
    const third = await start();
    expect(third.code).toBe(0);
    expect(third.stderr).toBe(
      `build: ${out}/index.html is missing since it was built (2026-11-23 15:00 UTC); building it again\n`,
    );
    expect(await exists('index.html')).toBe(true);
  });
});

describe('what an earlier build left behind', () => {
  const plant = async (files: Record<string, string>) => {
    for (const [file, body] of Object.entries(files)) {
      await mkdir(dirname(join(out, file)), { recursive: true });
      await writeFile(join(out, file), body);
    }
  };

  it('removes what the previous build wrote and this one did not, and the temporary files of a killed build', async () => {
    expect((await build()).code).toBe(0);
    const first = await listFiles(out);
    // As if the previous build had also published a writing that is now a draft again.
    await plant({
      'writings/back-to-draft.html': '<p>old</p>',
      'writings/back-to-draft.md': 'old',
      'old/nested/page.html': 'old',
    });
    await recordBuild(
      out,
      new Map(
        [...first, 'writings/back-to-draft.html', 'writings/back-to-draft.md', 'old/nested/page.html'].map((f) => [
          f,
          '',
        ]),
      ),
      {},
    );
    // and a killed build had left the temporary file of one of its targets
    await plant({ 'index.html.4242.abcd1234.tmp': 'partial' });
    const result = await build();
    expect(result.code).toBe(0);
    expect(await listFiles(out)).toEqual(first);
    expect(await exists('old')).toBe(false); // the folders it emptied go too
    expect(result.stdout).toContain(
      'removed what the previous build wrote and this one did not: index.html.4242.abcd1234.tmp, old/nested/page.html, writings/back-to-draft.html, writings/back-to-draft.md',
    );
    expect(result.stdout).not.toContain('not written by a build');
  });

  it('never removes a file no build wrote, however many builds run; it names them instead', async () => {
    const foreign = {
      CNAME: 'data.example.org\n',
      '.env': 'SECRET=x\n',
      'photos/cat.jpg': 'not ours',
      '.git/HEAD': 'ref: refs/heads/gh-pages\n',
    };
    await plant(foreign);
    await symlink('/etc/hostname', join(out, 'hostname.txt'));
    for (let run = 0; run < 2; run++) {
      const result = await build();
      expect(result.code).toBe(0);
      for (const [file, body] of Object.entries(foreign))
        expect(await readFile(join(out, file), 'utf8'), file).toBe(body);
      expect(await exists('hostname.txt')).toBe(true);
      expect(result.stdout).toContain(
        'not written by a build, left in place and published with the rest: .env, .git/HEAD, CNAME, hostname.txt, photos/cat.jpg',
      );
    }
  });
});
