// The languages dataset (builders/datasets/languages/README.md): the rule (order, ties, rounding, colours,
// names), the owner's site.json section, both sources against the dataset's own fake (GraphQL with a token,
// REST without: one list, at most 30 language answers a few at a time, forks and excluded repositories
// never asked), hostile answers, an empty account, --previous, the cards, and the gateway, MCP and the CLI.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CONTROL, dataResource } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { ConfigError, UpstreamError } from '../builders/lib/errors.ts';
import { loadConfig, readSiteFile } from '../builders/lib/config.ts';
import { failureReason } from '../builders/build/build.ts';
import { buildLanguages, languagesReuse, nameFault } from '../builders/datasets/languages/rule.ts';
import { languagesSettings } from '../builders/datasets/languages/settings.ts';
import { parseLanguagesAnswer } from '../builders/datasets/languages/graphql.ts';
import { legendEntries, percentOf, type GitHubLanguages } from '../builders/datasets/languages/view.ts';
import { languagesCard } from '../builders/datasets/languages/card.ts';
import { MAX_REST_REPOSITORIES, REST_CONCURRENCY } from '../builders/datasets/languages/rest.ts';
import {
  defaultLanguages,
  HOSTILE_NAME,
  type LanguagesFakeState,
  type LanguagesMode,
} from '../builders/datasets/languages/fake.ts';
import { contrastRatio, MIN_GRAPHICS_CONTRAST, THEME_NAMES, THEMES } from '../builders/render/themes.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, upstreamEnv } from './helpers/run.ts';
import { FIXTURE_SITE, listFiles, runBuild, sharedSite, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';
import { get, startTestGateway } from './helpers/gateway.ts';
import { runCli } from './helpers/cli-run.ts';
import { sourcesOf } from './helpers/sources.ts';

const LANGUAGES = dataResource(DEFAULT_SERVICE, 'languages');
const [V1, ALIAS] = LANGUAGES.snapshotFiles as [string, string];
const ASOF = new Date(TEST_SITE_CLOCK).toISOString();
const TOKEN = { GITHUB_TOKEN: 'test-token' };

/** What the default fake account publishes by §14 (builders/datasets/languages/fake.ts), worked out by hand. */
const EXPECTED: GitHubLanguages = {
  username: 'octocat',
  asOf: ASOF,
  // Seven own repositories: the fork is neither read nor counted.
  repositories: 7,
  totalBytes: 288200,
  languages: [
    { name: 'TypeScript', color: '#3178c6', bytes: 120000, percent: 41.64 },
    { name: 'Jupyter Notebook', color: '#da5b0b', bytes: 90000, percent: 31.23 },
    { name: 'Rust', color: '#dea584', bytes: 45000, percent: 15.61 },
    { name: 'JavaScript', color: '#f1e05a', bytes: 8000, percent: 2.78 },
    { name: 'Go', color: '#00add8', bytes: 7000, percent: 2.43 },
    { name: 'Shell', color: '#89e051', bytes: 5900, percent: 2.05 },
    { name: 'Python', color: '#3572a5', bytes: 4000, percent: 1.39 },
    { name: 'CSS', color: '#663399', bytes: 3500, percent: 1.21 },
    { name: 'HTML', color: '#e34c26', bytes: 2400, percent: 0.83 },
    { name: 'COBOL', color: null, bytes: 1500, percent: 0.52 },
    { name: 'Makefile', color: '#427819', bytes: 600, percent: 0.21 },
    { name: 'Dockerfile', color: '#384d54', bytes: 300, percent: 0.1 },
  ],
};

/** The twelve variants: every theme, light and dark. */
const THEMED = THEME_NAMES.flatMap((name) => [THEMES[name].light, THEMES[name].dark]);

let fake: FakeUpstreams;
let base: string;
const languages = () => fake.datasets.get('languages')!.state as LanguagesFakeState;
beforeAll(async () => {
  fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  base = await mkdtemp(join(tmpdir(), 'languages-'));
});
afterAll(async () => {
  await fake?.close();
  await rm(base, { recursive: true, force: true });
});

const env = (more: Record<string, string> = {}) => ({
  ...upstreamEnv(fake.url),
  SITE_URL: TEST_SITE_URL,
  UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
  SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
  ...more,
});

/** The tests' site content with `section` as site.json's "languages" (undefined: none). */
async function contentWith(name: string, section: unknown): Promise<{ content: string }> {
  const content = join(base, `content-${name}`);
  await cp(FIXTURE_SITE, content, { recursive: true });
  const site = JSON.parse(await readFile(join(content, 'site.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(content, 'site.json'), JSON.stringify({ ...site, languages: section }));
  return { content: `${content}/` };
}

/** The fake's languages as they start, then `setup` applied, and its call counts at zero. */
function resetLanguages(setup: (state: LanguagesFakeState) => void = () => {}) {
  Object.assign(languages(), { mode: 'ok', body: undefined, holdUntil: undefined, maxInFlight: 0, asked: [] });
  Object.assign(languages(), defaultLanguages());
  setup(languages());
  fake.resetCalls();
}

/** A build into a new folder with the fake's languages reset, then `setup` applied. */
async function buildWith(
  name: string,
  setup: (state: LanguagesFakeState) => void = () => {},
  more: Record<string, string> = {},
  site?: { content: string },
) {
  resetLanguages(setup);
  const dir = join(base, name);
  const result = await runBuild(dir, env(more), site);
  const read = (file: string) => readFile(join(dir, file), 'utf8');
  return { dir, result, read, files: () => listFiles(dir) };
}

const size = (name: unknown, bytes: unknown, color: unknown = null) => ({ name, bytes, color });
const none = { hide: new Set<string>() };

describe('the payload rule', () => {
  it('sums by name, largest first, ties by name in code-point order, shares rounded half-up', () => {
    const p = buildLanguages(
      'github-rest',
      'a',
      [
        { name: 'x', languages: [size('b', 1), size('a', 1), size('B', 1), size('Z', 29)] },
        { name: 'y', languages: [size('Z', 0), size('zero', 0)] },
      ],
      none,
      0,
    );
    // 1/32 = 3.125 % → 3.13; 29/32 = 90.625 % → 90.63 (half-up, not to even).
    expect(p.totalBytes).toBe(32);
    expect(p.languages.map((l) => [l.name, l.bytes, l.percent])).toEqual([
      ['Z', 29, 90.63],
      ['B', 1, 3.13],
      ['a', 1, 3.13],
      ['b', 1, 3.13],
    ]);
    expect(p.repositories).toBe(2);
    expect(percentOf(1, 8)).toBe(12.5);
    expect(percentOf(2, 3)).toBe(66.67);
    expect(percentOf(1, 3)).toBe(33.33);
  });

  it('lower-cases a colour, makes any other a null, and hides languages by name, any case', () => {
    const p = buildLanguages(
      'github-graphql',
      'a',
      [{ name: 'x', languages: [size('Go', 5, '#00ADD8'), size('Odd', 4, 'red'), size('Jupyter Notebook', 9)] }],
      { hide: new Set(['jupyter notebook']) },
      0,
    );
    expect(p.languages).toEqual([
      { name: 'Go', color: '#00add8', bytes: 5, percent: 55.56 },
      { name: 'Odd', color: null, bytes: 4, percent: 44.44 },
    ]);
  });

  it('no repository, or no bytes: a valid empty payload', () => {
    expect(buildLanguages('github-rest', 'a', [], none, 0)).toMatchObject({
      repositories: 0,
      totalBytes: 0,
      languages: [],
    });
    expect(buildLanguages('github-rest', 'a', [{ name: 'x', languages: [] }], none, 0)).toMatchObject({
      repositories: 1,
      totalBytes: 0,
      languages: [],
    });
  });

  it('refuses the whole answer for one bad count or name, quoting neither', () => {
    for (const bad of [-1, 1.5, '12', null, Number.MAX_SAFE_INTEGER + 2])
      expect(() => buildLanguages('github-rest', 'a', [{ name: 'x', languages: [size('Go', bad)] }], none, 0)).toThrow(
        /exact count/,
      );
    for (const name of ['', 'x'.repeat(101), 'Type\u202eScript', 'a\u200bb', 'a\u0007', 7, '   '])
      expect(nameFault(name), JSON.stringify(name)).toBeDefined();
    expect(nameFault('x'.repeat(100))).toBeUndefined();
    expect(nameFault('Jupyter Notebook')).toBeUndefined();
    try {
      buildLanguages('github-rest', 'a', [{ name: 'x', languages: [size(HOSTILE_NAME, 1)] }], none, 0);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as Error).message).not.toContain('<script');
    }
  });

  it('GraphQL: a null languages connection is a repository without bytes; a missing one is malformed', () => {
    const settings = { hide: new Set<string>(), exclude: new Set(['skip']) };
    const nodes = [
      { name: 'a', languages: null },
      { name: 'skip', languages: { edges: [{ size: 1, node: { name: 'Go', color: null } }] } },
    ];
    expect(parseLanguagesAnswer({ user: { repositories: { nodes } } }, settings)).toEqual([
      { name: 'a', languages: [] },
    ]);
    expect(() => parseLanguagesAnswer({ user: { repositories: { nodes: [{ name: 'a' }] } } }, settings)).toThrow(
      UpstreamError,
    );
    expect(() => parseLanguagesAnswer({ user: null }, settings)).toThrow(/not found/);
  });

  it('the legend: the eight largest, then "Other" with the share of its own bytes', () => {
    const entries = legendEntries(EXPECTED);
    expect(entries).toHaveLength(9);
    expect(entries.map((e) => e.name).slice(0, 8)).toEqual(EXPECTED.languages.slice(0, 8).map((l) => l.name));
    // HTML, COBOL, Makefile, Dockerfile: 4800 bytes of 288200.
    expect(entries[8]).toMatchObject({ name: 'Other', bytes: 4800, percent: 1.67, other: true });
  });

  it('reuses a snapshot of the same account up to 7 days old, that the rule could have written', () => {
    const snapshot = { ...EXPECTED, asOf: '2026-11-20T00:00:00.000Z' };
    const at = (iso: string, s: GitHubLanguages = snapshot, hide = new Set<string>()) =>
      languagesReuse(s, Date.parse(iso), { username: 'octocat', hide });
    expect(at('2026-11-26T23:00:00Z')).toMatchObject({ reusable: true });
    expect(at('2026-11-27T00:00:01Z')).toMatchObject({ reusable: false });
    expect(at('2026-11-19T00:00:00Z')).toMatchObject({ reusable: false });
    expect(at('2026-11-21T00:00:00Z', { ...snapshot, totalBytes: 1 })).toMatchObject({ reusable: false });
    const swapped = [EXPECTED.languages[1]!, EXPECTED.languages[0]!, ...EXPECTED.languages.slice(2)];
    expect(at('2026-11-21T00:00:00Z', { ...snapshot, languages: swapped })).toMatchObject({ reusable: false });
    expect(at('2026-11-21T00:00:00Z', snapshot, new Set(['rust']))).toMatchObject({ reusable: false });
  });
});

describe("the owner's site.json section", () => {
  const settings = (section: unknown) => languagesSettings({ site: { languages: section } as never });

  it('reads both lists, folded to lower case; none is empty', () => {
    const s = settings({ hide: ['Jupyter Notebook'], excludeRepositories: ['DotFiles'] });
    expect([...s.hide]).toEqual(['jupyter notebook']);
    expect([...s.exclude]).toEqual(['dotfiles']);
    expect(languagesSettings({ site: {} as never }).hide.size).toBe(0);
  });

  it.each([
    [{ hide: 'Go' }, /"languages\.hide" must be a list/],
    [{ hide: ['Go', 3] }, /"languages\.hide\[1\]"/],
    [
      { excludeRepositories: Array.from({ length: 101 }, (_, i) => `r${i}`) },
      /"languages\.excludeRepositories" has 101/,
    ],
    [{ hidden: [] }, /"languages\.hidden" is not a setting/],
    [['Go'], /"languages" must be an object/],
  ])('refuses %j naming site.json and the field', (section, message) => {
    expect(() => settings(section)).toThrow(ConfigError);
    expect(() => settings(section)).toThrow(/^site\/site\.json: /);
    expect(() => settings(section)).toThrow(message);
  });

  it('a mistake stops the build with exit 2 before any upstream is asked, naming the field', async () => {
    const b = await buildWith('bad-settings', () => {}, {}, await contentWith('bad', { hide: [1] }));
    expect(b.result.code).toBe(2);
    expect(b.result.stderr).toMatch(/site\.json.*"languages\.hide\[0\]"/);
    expect(Object.values(fake.calls).every((n) => n === 0)).toBe(true);
    // Nothing written: not even the output folder.
    expect(existsSync(b.dir)).toBe(false);
  });

  it.each([[{}], [TOKEN]])(
    'hidden languages and excluded repositories are honoured; an excluded one is never asked for (%j)',
    async (more) => {
      const site = await contentWith('choices', { hide: ['jupyter NOTEBOOK'], excludeRepositories: ['DOTFILES'] });
      const b = await buildWith('choices', () => {}, more, site);
      expect(b.result.code, b.result.stderr).toBe(0);
      const payload = JSON.parse(await b.read(V1)) as GitHubLanguages;
      expect(payload.repositories).toBe(6);
      expect(payload.languages.map((l) => l.name)).not.toContain('Jupyter Notebook');
      expect(payload.languages.find((l) => l.name === 'Shell')!.bytes).toBe(900);
      expect(payload.totalBytes).toBe(288200 - 90000 - 5000);
      expect(languages().asked).not.toContain('dotfiles');
    },
  );
});

describe('the build', () => {
  it('without a token: one list and one language answer per own repository, forks never asked', async () => {
    const b = await buildWith('rest');
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(JSON.parse(await b.read(V1))).toEqual(EXPECTED);
    expect(await b.read(ALIAS)).toBe(await b.read(V1));
    expect(fake.calls.languagesList).toBe(1);
    expect(fake.calls.languagesRepo).toBe(7);
    expect(fake.calls.languagesGraphql).toBe(0);
    expect(languages().asked).not.toContain('linguist');
    const pushed = defaultLanguages().repositories.filter((r) => !r.fork);
    expect([...languages().asked].sort()).toEqual(pushed.map((r) => r.name).sort());
  });

  it('with a token: one GraphQL query and the same payload', async () => {
    const b = await buildWith('graphql', () => {}, TOKEN);
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(JSON.parse(await b.read(V1))).toEqual(EXPECTED);
    expect(fake.calls.languagesGraphql).toBe(1);
    expect(fake.calls.languagesList! + fake.calls.languagesRepo!).toBe(0);
  });

  it(`without a token reads at most ${MAX_REST_REPOSITORIES} repositories, ${REST_CONCURRENCY} at a time`, async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      name: `repo-${i}`,
      fork: i % 10 === 3,
      languages: { Go: 10 },
    }));
    const b = await buildWith('many', (s) => {
      s.repositories = many;
      s.holdUntil = REST_CONCURRENCY;
    });
    expect(b.result.code, b.result.stderr).toBe(0);
    const payload = JSON.parse(await b.read(V1)) as GitHubLanguages;
    expect(payload.repositories).toBe(MAX_REST_REPOSITORIES);
    expect(payload.totalBytes).toBe(10 * MAX_REST_REPOSITORIES);
    expect(fake.calls.languagesList).toBe(1);
    expect(fake.calls.languagesRepo).toBe(MAX_REST_REPOSITORIES);
    // The answers were held until REST_CONCURRENCY were in flight together; never more than that.
    expect(languages().maxInFlight).toBe(REST_CONCURRENCY);
    // The first 30 own ones, in the list's order (most recently pushed first); no fork among them.
    const own = many.filter((r) => !r.fork).slice(0, MAX_REST_REPOSITORIES);
    expect([...languages().asked].sort()).toEqual(own.map((r) => r.name).sort());
  });

  it.each([[{}], [TOKEN]])('no repository at all: languages [], exit 0 (%j)', async (more) => {
    const b = await buildWith('empty', (s) => (s.repositories = []), more);
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(JSON.parse(await b.read(V1))).toEqual({ ...EXPECTED, repositories: 0, totalBytes: 0, languages: [] });
  });

  const hostile: Array<[LanguagesMode | 'body', Record<string, string>]> = (
    ['hostile-name', 'bad-size', 'malformed', 'unknown-account', 'server-error', 'body'] as const
  ).flatMap((mode) => [
    [mode, {}],
    [mode, TOKEN],
  ]);
  it.each(hostile)(
    'an unusable answer (%s, %j): the source refuses it, in a reason naming the upstream and quoting none of it',
    async (mode, more) => {
      resetLanguages((s) => {
        if (mode === 'body') s.body = JSON.stringify({ '<script>alert(1)</script>': 5 });
        else s.mode = mode;
      });
      const site = readSiteFile(new URL('site.json', pathToFileURL(FIXTURE_SITE)));
      const source = sourcesOf(loadConfig(env(more), site)).get(LANGUAGES.id)!;
      const error = await source.fetch(TEST_SITE_CLOCK).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UpstreamError);
      const reason = failureReason(error as Error);
      expect(reason).toMatch(/^github-(rest|graphql): /);
      expect(reason).not.toMatch(/<script>alert|alert\(1\)/);
      expect(reason).not.toContain('\u202e');
    },
  );

  // What the build makes of a refused answer does not depend on the answer: one of each transport.
  const built: typeof hostile = [
    ['body', {}],
    ['hostile-name', TOKEN],
  ];
  it.each(built)(
    'an unusable answer (%s, %j): exit 1, no languages snapshot, the rest written, no trace of it in dist/',
    async (mode, more) => {
      const b = await buildWith(
        `hostile-${mode}-${Object.keys(more).length}`,
        (s) => {
          if (mode === 'body') s.body = JSON.stringify({ '<script>alert(1)</script>': 5 });
          else s.mode = mode;
        },
        more,
      );
      expect(b.result.code, b.result.stderr).toBe(1);
      expect(b.result.stderr).toMatch(/^build: languages not written: github-(rest|graphql): /m);
      const files = await b.files();
      expect(files).not.toContain(V1);
      expect(files).not.toContain(ALIAS);
      for (const other of DEFAULT_SERVICE.resources.filter((r) => r.id !== LANGUAGES.id))
        expect(files).toContain(other.snapshotFiles[0]);
      for (const file of files.filter((f) => /\.(html|md|txt|json|svg|xml)$/.test(f) || f.startsWith('api/'))) {
        const text = await b.read(file);
        expect(text, file).not.toMatch(/<script>alert|alert\(1\)/);
        expect(text, file).not.toContain('\u202e');
      }
    },
  );

  it('draws its cards light and dark: well-formed, script-free, loading nothing, at most nine entries as text', async () => {
    // The run's default build, of the same content against the same fake data (test/global-setup.ts).
    const b = sharedSite();
    for (const card of [`cards/${LANGUAGES.card}.svg`, `cards/${LANGUAGES.card}-dark.svg`]) {
      const svg = await b.read(card);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg).not.toMatch(/<script|\son\w+=|href=|url\(|@import/i);
      expect(svg).toMatch(/as of 2026-11-23 15:00 UTC/);
      // One segment and one swatch per entry: the eight largest and Other.
      expect(svg.match(/<rect x="[\d.]+" y="48"/g)).toHaveLength(9);
      expect(svg.match(/<circle /g)).toHaveLength(9);
      for (const l of EXPECTED.languages.slice(0, 8)) expect(svg).toContain(`>${l.percent}%</text>`);
      expect(svg).toContain('>Other</text>');
      expect(svg).toContain('>1.67%</text>');
      expect(svg).not.toContain('>HTML</text>');
    }
  });

  it("draws each colour with an outline that meets 3:1 against the card's background, in every theme", () => {
    const payload: GitHubLanguages = {
      ...EXPECTED,
      totalBytes: 3,
      languages: [
        { name: 'Pale', color: '#f1e05a', bytes: 1, percent: 33.33 },
        { name: 'Deep', color: '#0d1117', bytes: 1, percent: 33.33 },
        { name: 'None', color: null, bytes: 1, percent: 33.33 },
      ],
    };
    for (const theme of THEMED) {
      const svg = languagesCard(payload, theme, false);
      const painted = [...svg.matchAll(/<(?:rect|circle) [^>]*fill="(#[0-9a-f]{6})"[^>]*>/g)].filter(
        // The frame's own background rectangle is not a language's.
        (m) => m[1] !== theme.background || m[0].includes('stroke-width="1"'),
      );
      expect(painted).toHaveLength(6);
      for (const [element, fill] of painted) {
        if (contrastRatio(fill!, theme.background) >= MIN_GRAPHICS_CONTRAST) continue;
        const stroke = /stroke="(#[0-9a-f]{6})"/.exec(element!)?.[1];
        expect(stroke, element).toBeDefined();
        expect(contrastRatio(stroke!, theme.background), element).toBeGreaterThanOrEqual(MIN_GRAPHICS_CONTRAST);
      }
    }
  });

  it('GitHub down with --previous: the languages snapshot is republished unchanged', async () => {
    const healthy = sharedSite();
    expect(healthy.result.code).toBe(0);
    const previous = join(base, 'healthy-copy');
    await cp(healthy.dir, previous, { recursive: true });
    resetLanguages((state) => (state.mode = 'down'));
    const dir = join(base, 'outage');
    const result = await runBuild(dir, env(), undefined, { previousDir: previous });
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(dir, V1), 'utf8')).toBe(await healthy.read(V1));
    expect(result.stderr).toMatch(/^build: languages not written: github-rest: /m);
  });
});

describe('the gateway, MCP and the CLI', () => {
  it('answers 200 with the hourly cache rule at both paths, keeps the answer; MCP and the CLI give the payload', async () => {
    const b = sharedSite();
    resetLanguages();
    const gw = await startTestGateway(fake.url, b.dir, {}, { now: () => TEST_SITE_CLOCK });
    try {
      fake.resetCalls();
      for (const path of [LANGUAGES.v1.path, LANGUAGES.alias.path]) {
        const res = await get(gw.url, path);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=3600, stale-while-revalidate=300');
        expect(res.headers['cache-control']).toBe(CACHE_CONTROL.data('hourly'));
        expect(JSON.parse(res.text)).toEqual(EXPECTED);
      }
      // One read of the upstream for both requests: the answer is kept for the hour.
      expect(fake.calls.languagesList).toBe(1);
      const mcp = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'getV1GithubLanguages', arguments: {} },
        }),
      });
      const called = JSON.parse(mcp.text) as { result: { structuredContent: unknown } };
      expect(called.result.structuredContent).toEqual(EXPECTED);
      const cli = await runCli(['languages', '--json', '--base-url', gw.url]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toEqual(EXPECTED);
      const table = await runCli(['languages', '--base-url', gw.url], { COLUMNS: '80' });
      expect(table.code, table.stderr).toBe(0);
      for (const line of table.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
      expect(table.stdout).toContain('TypeScript');
      expect(table.stdout).toContain('41.64%');
      expect(table.stdout).toContain('Other');
      expect(table.stdout).toContain('120,000');
    } finally {
      await gw.close();
    }
  });

  it('names the dataset in the API index, llms.txt, status.json and the OpenAPI document', async () => {
    const b = sharedSite();
    const index = JSON.parse(await b.read('api/index.json')) as { routes: Array<{ path: string }> };
    expect(index.routes.map((r) => r.path)).toContain(LANGUAGES.v1.path);
    expect(await b.read('llms.txt')).toContain(LANGUAGES.v1.path);
    expect(await b.read('status.json')).toContain(LANGUAGES.v1.path);
    const openapi = JSON.parse(await b.read('openapi.json')) as {
      paths: Record<string, { get: { operationId: string } }>;
    };
    expect(openapi.paths[LANGUAGES.v1.path]!.get.operationId).toBe('getV1GithubLanguages');
    expect(openapi.paths[LANGUAGES.alias.path]!.get.operationId).toBe('getGithubLanguages');
    // The home page: its section after the projects'.
    const home = await b.read('index.html');
    expect(home.indexOf('data-preview="languages"')).toBeGreaterThan(home.indexOf('data-preview="projects"'));
    expect(home).toContain('41.64%');
  });
});
