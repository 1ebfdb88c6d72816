// The projects dataset (docs/data-rules.md#projects): both sources against the fakes' profile page, GraphQL
// and REST answers; the payload's rules; a hostile owner; the build, its cards and --previous; the gateway's
// route and cache rule, MCP and the CLI.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CONTROL, dataResource } from '../builders/contract/service.ts';
import { datasets, DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS } from '../builders/datasets/registry.ts';
import {
  buildProjects,
  collapsedText,
  projectsReuse,
  type GitHubProjects,
} from '../builders/datasets/projects/rule.ts';
import { parsePageCount, parseProfileHtml } from '../builders/datasets/projects/profile-page.ts';
import { parseProjectsAnswer } from '../builders/datasets/projects/graphql.ts';
import { renderProfileHtml, signInPage } from './fakes/projects.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { UpstreamError } from '../builders/lib/errors.ts';
import { upstreamEnv } from './helpers/run.ts';
import { listFiles, runBuild, sharedSite, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';
import { get, startTestGateway } from './helpers/gateway.ts';
import { runCli } from './helpers/cli-run.ts';

const PROJECTS = dataResource(DEFAULT_SERVICE, 'projects');
const [V1, ALIAS] = PROJECTS.snapshotFiles as [string, string];
/**
 * The datasets of the registry that read the profile as the projects do, each once a build: the projects,
 * and a copy of their folder under another id (a sourced dataset of the same schema).
 */
const PROFILE_READERS = datasets(DEFAULT_SERVICE_OPTIONS)
  .filter((d) => 'upstream' in d.origin && d.resource.schema === PROJECTS.schema)
  .map((d) => d.resource.id);
/** The datasets a failed profile leaves unwritten: its readers and what is derived from them. */
const UNWRITTEN_WITHOUT_PROFILE = new Set(
  datasets(DEFAULT_SERVICE_OPTIONS)
    .filter(
      (d) =>
        PROFILE_READERS.includes(d.resource.id) ||
        ('derivedFrom' in d.origin && PROFILE_READERS.includes(d.origin.derivedFrom)),
    )
    .map((d) => d.resource.id),
);
const ASOF = new Date(TEST_SITE_CLOCK).toISOString();

/** What the default fake profile publishes, by the §11 rules (test/fakes/projects.ts). */
const EXPECTED: GitHubProjects = {
  username: 'octocat',
  selection: 'pinned',
  asOf: ASOF,
  projects: [
    {
      owner: 'octo-org',
      name: 'hello-world',
      url: 'https://github.com/octo-org/hello-world',
      description: 'My first repository on GitHub!',
      language: 'Python',
      languageColor: '#3572A5',
      stars: 2612,
      // The page says "12.3k": read exactly from REST.
      forks: 12345,
    },
    {
      owner: 'octocat',
      name: 'tiny-parser',
      url: 'https://github.com/octocat/tiny-parser',
      description: 'Reads <one> tag at a time & never backtracks.',
      language: 'Rust',
      languageColor: '#dea584',
      stars: 310,
      forks: 0,
    },
    {
      owner: 'octocat',
      name: 'static-plus-cron',
      url: 'https://github.com/octocat/static-plus-cron',
      description: 'A publisher that fetches on a schedule and serves JSON snapshots.',
      language: 'TypeScript',
      languageColor: '#3178c6',
      stars: 1234,
      forks: 56,
    },
  ],
};

let fake: FakeUpstreams;
let base: string;
beforeAll(async () => {
  fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  base = await mkdtemp(join(tmpdir(), 'projects-'));
});
afterAll(async () => {
  await fake?.close();
  await rm(base, { recursive: true, force: true });
});

const env = (more: Record<string, string> = {}) => ({
  ...upstreamEnv(fake.url),
  SITE_URL: TEST_SITE_URL,
  UPSTREAM_TIMEOUT_MS: '3000',
  SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
  ...more,
});

/** The fake's projects and calendar as they start, then `setup` applied, and its call counts at zero. */
async function resetProjects(setup: (f: FakeUpstreams) => void = () => {}) {
  const { defaultProjects } = await import('./fakes/projects.ts');
  fake.projects = defaultProjects('octocat');
  fake.github = { mode: 'ok' };
  setup(fake);
  fake.resetCalls();
}

/** A build into a new folder with the fake's projects reset, then `setup` applied. */
async function buildWith(
  name: string,
  setup: (f: FakeUpstreams) => void = () => {},
  more: Record<string, string> = {},
) {
  await resetProjects(setup);
  const dir = join(base, name);
  const result = await runBuild(dir, env(more));
  const read = (file: string) => readFile(join(dir, file), 'utf8');
  return { dir, result, read, files: () => listFiles(dir) };
}

describe('the payload rule', () => {
  it('collapses whitespace and drops control characters; an empty text is null', () => {
    expect(collapsedText('  a\n\t b  ')).toBe('a b');
    expect(collapsedText('a\u0001b\u001b[31m')).toBe('a b [31m');
    expect(collapsedText('   ')).toBeNull();
    expect(collapsedText(undefined)).toBeNull();
    // The bidi controls (Trojan Source), zero-width space, word joiner and BOM an upstream sends: dropped.
    expect(collapsedText('abc\u202Egnp.exe\u202C \u2066x\u2069\u200b\u200e\u061c\u2060\ufeff')).toBe('abcgnp.exe x');
    expect(collapsedText('\u202e\u202d')).toBeNull();
  });

  it('builds the URL from owner and name, keeps a colour only as # and six hex digits, and refuses a hostile item', () => {
    const item = {
      owner: 'a',
      name: 'b.c',
      description: null,
      language: 'Go',
      languageColor: 'red',
      stars: 1,
      forks: 2,
    };
    const p = buildProjects('github-profile', 'a', 'popular', [item], 0);
    expect(p.projects[0]).toMatchObject({ url: 'https://github.com/a/b.c', languageColor: null });
    for (const bad of [
      { owner: '<script>', name: 'x' },
      { owner: '-a', name: 'x' },
      { owner: 'a', name: '..' },
      { owner: 'a', name: 'x y' },
    ])
      expect(() => buildProjects('github-profile', 'a', 'pinned', [{ ...item, ...bad }], 0)).toThrow(UpstreamError);
    expect(() => buildProjects('github-profile', 'a', 'pinned', [{ ...item, stars: 1.5 }], 0)).toThrow(/exact count/);
    // The message never quotes the markup it refused.
    try {
      buildProjects('github-profile', 'a', 'pinned', [{ ...item, owner: '<img src=x>' }], 0);
    } catch (error) {
      expect((error as Error).message).not.toContain('<img');
    }
  });

  it('reads a page count: digits with commas exactly, an abbreviation as one to read from REST', () => {
    expect(parsePageCount(' 2,612 ')).toBe(2612);
    expect(parsePageCount('7')).toBe(7);
    expect(parsePageCount('12.3k')).toBe('abbreviated');
    expect(parsePageCount('1.2m')).toBe('abbreviated');
    expect(parsePageCount('about 3')).toBeUndefined();
  });

  it('reuses a snapshot of the same account up to 7 days old, never a later or an older one', () => {
    const snapshot = { ...EXPECTED, asOf: '2026-11-20T00:00:00.000Z' };
    const at = (iso: string) => projectsReuse(snapshot, Date.parse(iso), { username: 'octocat' });
    expect(at('2026-11-26T23:00:00Z')).toMatchObject({ reusable: true });
    expect(at('2026-11-27T00:00:01Z')).toMatchObject({ reusable: false });
    expect(at('2026-11-19T00:00:00Z')).toMatchObject({ reusable: false });
    expect(projectsReuse(snapshot, Date.parse('2026-11-21T00:00:00Z'), { username: 'other' })).toMatchObject({
      reusable: false,
    });
  });
});

describe('the profile page', () => {
  it("reads the section in the profile's order, the gist skipped, entities decoded, whitespace collapsed", () => {
    const { defaultProjects } = { defaultProjects: () => fake.projects };
    const section = parseProfileHtml(renderProfileHtml('octocat', defaultProjects()));
    expect(section.selection).toBe('pinned');
    expect(section.items.map((i) => `${i.owner}/${i.name}`)).toEqual([
      'octo-org/hello-world',
      'octocat/tiny-parser',
      'octocat/static-plus-cron',
    ]);
    expect(section.items[1]!.description).toContain('Reads <one> tag at a time & never backtracks.');
    expect(section.items[0]!.forks).toBe('abbreviated');
  });

  it('refuses a page with neither the section nor the no-repository sentence', () => {
    expect(() => parseProfileHtml('<html><body><h2>Something else</h2></body></html>')).toThrow(/markup changed/);
    expect(parseProfileHtml('<p>octocat doesn’t have any public repositories yet.</p>')).toEqual({
      selection: 'popular',
      items: [],
    });
    // Entities decoded and whitespace collapsed, across the page's elements, as a browser shows it.
    expect(
      parseProfileHtml('<div><strong>octocat</strong> doesn&rsquo;t have\n  any public repositories yet.</div>').items,
    ).toEqual([]);
  });

  const SENTENCE = 'octocat doesn’t have any public repositories yet.';
  it.each([
    ['an HTML comment', `<!-- <p>${SENTENCE}</p> -->`],
    ['a script', `<script>var s = "${SENTENCE}";</script>`],
    ['a style', `<style>p::after { content: "${SENTENCE}"; }</style>`],
    ['an attribute', `<input placeholder="${SENTENCE}"><p data-empty="${SENTENCE}"></p>`],
    ['a template', `<template><p>${SENTENCE}</p></template>`],
    ['the title', `<head><title>${SENTENCE}</title></head>`],
    ['a hidden element', `<div hidden><p>${SENTENCE}</p></div>`],
    ['a noscript', `<noscript>${SENTENCE}</noscript>`],
    ['the sign-in page', signInPage('octocat')],
  ])('reads the no-repository sentence only where the page shows it: not in %s', (_, html) => {
    expect(() => parseProfileHtml(`<html><body><h1>Sign in to GitHub</h1>${html}</body></html>`)).toThrow(
      /no "Pinned" or "Popular repositories" section found \(markup changed\?\)/,
    );
    // The same page with the sentence shown after the unseen part is an account with no repository.
    expect(parseProfileHtml(`<html><body>${html}<p>${SENTENCE}</p></body></html>`)).toEqual({
      selection: 'popular',
      items: [],
    });
  });

  it('GraphQL: pinned nodes (a gist as {}) else the popular ones', () => {
    const node = {
      name: 'x',
      owner: { login: 'a' },
      description: null,
      primaryLanguage: null,
      stargazerCount: 1,
      forkCount: 0,
    };
    expect(
      parseProjectsAnswer({ user: { pinnedItems: { nodes: [{}, node] }, repositories: { nodes: [] } } }),
    ).toMatchObject({
      selection: 'pinned',
      items: [{ owner: 'a', name: 'x' }],
    });
    expect(
      parseProjectsAnswer({ user: { pinnedItems: { nodes: [] }, repositories: { nodes: [node] } } }).selection,
    ).toBe('popular');
    expect(() => parseProjectsAnswer({ user: { repositories: { nodes: [] } } })).toThrow(UpstreamError);
  });
});

describe('the build', () => {
  it('without a token reads the profile page and publishes the payload; an abbreviated count is read from REST', async () => {
    const b = await buildWith('page');
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(JSON.parse(await b.read(V1))).toEqual(EXPECTED);
    expect(await b.read(ALIAS)).toBe(await b.read(V1));
    expect(fake.calls.profile).toBe(PROFILE_READERS.length);
    // Only hello-world's forks are abbreviated on the page.
    expect(fake.calls.repos).toBe(PROFILE_READERS.length);
    expect(fake.calls.graphqlProjects).toBe(0);
  });

  it('with a token GraphQL gives the same payload', async () => {
    const b = await buildWith('graphql', () => {}, { GITHUB_TOKEN: 'test-token' });
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(JSON.parse(await b.read(V1))).toEqual(EXPECTED);
    expect(fake.calls.graphqlProjects).toBe(PROFILE_READERS.length);
    expect(fake.calls.profile + fake.calls.repos).toBe(0);
  });

  it.each([[{}], [{ GITHUB_TOKEN: 'test-token' }]])(
    'no pins: the popular list; no public repository: projects [], exit 0 (%j)',
    async (more) => {
      const popular = await buildWith('popular', (f) => (f.projects.mode = 'no-pins'), more);
      expect(popular.result.code, popular.result.stderr).toBe(0);
      const payload = JSON.parse(await popular.read(V1)) as GitHubProjects;
      expect(payload.selection).toBe('popular');
      expect(payload.projects.map((p) => p.name)).toEqual(['static-plus-cron', 'tiny-parser', 'dotfiles']);
      expect(payload.projects[2]).toMatchObject({ description: null, language: null, languageColor: null, stars: 0 });
      const none = await buildWith('none', (f) => (f.projects.mode = 'no-repos'), more);
      expect(none.result.code, none.result.stderr).toBe(0);
      expect(JSON.parse(await none.read(V1))).toEqual({ ...EXPECTED, selection: 'popular', projects: [] });
    },
  );

  it.each([[{}], [{ GITHUB_TOKEN: 'test-token' }]])(
    'U+202E and the other bidi controls in an upstream description or language never reach the payload (%j)',
    async (more) => {
      const b = await buildWith(
        `bidi-${Object.keys(more).length}`,
        (f) => {
          f.projects.pinned[0]!.description = 'My first\u202E repository\u2066 on GitHub!\u2069';
          f.projects.pinned[0]!.language = { name: 'Py\u202Dthon', color: '#3572A5' };
        },
        more,
      );
      expect(b.result.code, b.result.stderr).toBe(0);
      const text = await b.read(V1);
      expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]|\\u202[a-e]|\\u206[6-9]/i);
      expect((JSON.parse(text) as GitHubProjects).projects[0]).toMatchObject({
        description: 'My first repository on GitHub!',
        language: 'Python',
      });
    },
  );

  it('the sign-in page where the profile should be: exit 1, no projects snapshot, the other datasets written', async () => {
    const b = await buildWith('sign-in', (f) => (f.projects.page = signInPage('octocat')));
    expect(b.result.code).toBe(1);
    expect(b.result.stderr.trimEnd().split('\n')).toContainEqual(
      'build: projects not written: github-profile: no "Pinned" or "Popular repositories" section found (markup changed?)',
    );
    const files = await b.files();
    expect(files).not.toContain(V1);
    expect(files).not.toContain(ALIAS);
    for (const other of DEFAULT_SERVICE.resources.filter((r) => !UNWRITTEN_WITHOUT_PROFILE.has(r.id)))
      expect(files).toContain(other.snapshotFiles[0]);
    expect(fake.calls.profile).toBe(PROFILE_READERS.length);
  });

  it.each([[{}], [{ GITHUB_TOKEN: 'test-token' }]])(
    'a hostile owner: exit 1, no projects snapshot, the other datasets written, no trace of the markup (%j)',
    async (more) => {
      const hostile = '"><script>alert(1)</script>';
      const b = await buildWith('hostile', (f) => (f.projects.pinned[0]!.owner = hostile), more);
      expect(b.result.code).toBe(1);
      const lines = b.result.stderr.trimEnd().split('\n');
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^build: projects not written: github-(profile|graphql): repository 1: (its owner is not a GitHub login|its link is not \/<owner>\/<name>)$/,
        ),
      );
      const files = await b.files();
      expect(files).not.toContain(V1);
      expect(files).not.toContain(ALIAS);
      // What fails is what reads the hostile repository, for that reason alone; every other dataset is written.
      const failed = lines.filter((line) => / not written: /.test(line));
      for (const line of failed) expect(line).toMatch(/: repository 1: /);
      const written = DEFAULT_SERVICE.resources.filter(
        (r) => !failed.some((line) => line.startsWith(`build: ${r.title.toLowerCase()} not written: `)),
      );
      expect(written.map((r) => r.id)).not.toContain(PROJECTS.id);
      expect(written.length).toBeGreaterThan(0);
      for (const other of written) expect(files).toContain(other.snapshotFiles[0]);
      for (const file of files.filter((f) => /\.(html|md|txt|json|svg|xml)$/.test(f)))
        expect(await b.read(file), file).not.toMatch(/<script>alert|alert\(1\)/);
    },
  );

  it('draws the list card and one card per project, light and dark: well-formed, script-free, loading nothing, escaped', async () => {
    // The run's default build, of the same content against the same fake data (test/global-setup.ts).
    const b = sharedSite();
    const files = await b.files();
    const cards = [
      'cards/github-projects.svg',
      'cards/github-projects-dark.svg',
      ...EXPECTED.projects.flatMap((p) => [
        `cards/repos/${p.owner.toLowerCase()}/${p.name.toLowerCase()}.svg`,
        `cards/repos-dark/${p.owner.toLowerCase()}/${p.name.toLowerCase()}.svg`,
      ]),
    ];
    for (const card of cards) {
      expect(files).toContain(card);
      const svg = await b.read(card);
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg).not.toMatch(/<script|\son\w+=|href=|url\(|@import/i);
      // Read when: "as of" the payload's time.
      expect(svg).toMatch(/as of 2026-11-23 15:00 UTC/);
    }
    const parser = await b.read('cards/repos/octocat/tiny-parser.svg');
    expect(parser).toContain('Reads &lt;one&gt; tag at a time &amp; never backtracks.');
    expect(parser).not.toContain('<one>');
  });

  it('repositories foo and foo-dark pinned: four card files, each holding its own repository', async () => {
    const repo = (name: string, description: string) => ({
      owner: 'octocat',
      name,
      description,
      language: null,
      stars: 1,
      forks: 0,
    });
    const b = await buildWith('foo-dark', (f) => {
      f.projects.pinned = [repo('foo', 'The repository foo.'), repo('foo-dark', 'The repository foo-dark.')];
      f.projects.gist = false;
    });
    expect(b.result.code, b.result.stderr).toBe(0);
    const cards = (await b.files()).filter((f) => /^cards\/repos(-dark)?\/.*\.svg$/.test(f));
    expect(cards.sort()).toEqual([
      'cards/repos-dark/octocat/foo-dark.svg',
      'cards/repos-dark/octocat/foo.svg',
      'cards/repos/octocat/foo-dark.svg',
      'cards/repos/octocat/foo.svg',
    ]);
    for (const card of cards) {
      const name = /\/([^/]+)\.svg$/.exec(card)![1]!;
      const svg = await b.read(card);
      expect(svg, card).toContain(`The repository ${name}.`);
      expect(svg, card).not.toContain(`The repository ${name === 'foo' ? 'foo-dark' : 'foo'}.`);
    }
    // The dark card is drawn in the dark variant: it differs from the light one of the same repository.
    expect(await b.read('cards/repos-dark/octocat/foo.svg')).not.toBe(await b.read('cards/repos/octocat/foo.svg'));
  });

  it('GitHub down with --previous: the projects snapshot is republished unchanged', async () => {
    const healthy = sharedSite();
    expect(healthy.result.code).toBe(0);
    const previous = join(base, 'healthy-copy');
    await cp(healthy.dir, previous, { recursive: true });
    await resetProjects((f) => (f.projects.mode = 'down'));
    const dir = join(base, 'outage');
    const result = await runBuild(dir, env(), undefined, { previousDir: previous });
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(dir, V1), 'utf8')).toBe(await healthy.read(V1));
    expect(result.stderr).toMatch(/^build: projects not written: github-profile: /m);
  });
});

describe('the gateway, MCP and the CLI', () => {
  it('answers 200 with the hourly cache rule, keeps the answer, and 405 for POST; MCP returns the payload', async () => {
    const b = sharedSite();
    await resetProjects();
    const gw = await startTestGateway(fake.url, b.dir, {}, { now: () => TEST_SITE_CLOCK });
    try {
      fake.resetCalls();
      for (const path of [PROJECTS.v1.path, PROJECTS.alias.path]) {
        const res = await get(gw.url, path);
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=3600, stale-while-revalidate=300');
        expect(res.headers['cache-control']).toBe(CACHE_CONTROL.data('hourly'));
        expect(JSON.parse(res.text)).toEqual(EXPECTED);
      }
      // One read of the upstream for both requests: the answer is kept for the hour.
      expect(fake.calls.profile).toBe(1);
      const post = await get(gw.url, PROJECTS.v1.path, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers['content-type']).toBe('application/problem+json');
      const mcp = await get(gw.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: PROJECTS.v1.operationId, arguments: {} },
        }),
      });
      const called = JSON.parse(mcp.text) as { result: { structuredContent: unknown } };
      expect(called.result.structuredContent).toEqual(EXPECTED);
      const cli = await runCli(['projects', '--json', '--base-url', gw.url]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toEqual(EXPECTED);
      const table = await runCli(['projects', '--base-url', gw.url], { COLUMNS: '80' });
      expect(table.code, table.stderr).toBe(0);
      for (const line of table.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
      expect(table.stdout).toContain('octo-org/hello-world');
      expect(table.stdout).toContain('12,345');
    } finally {
      await gw.close();
    }
  });

  it('names the dataset in the API index, llms.txt and the OpenAPI document', async () => {
    const b = sharedSite();
    const index = JSON.parse(await b.read('api/index.json')) as { routes: Array<{ path: string }> };
    expect(index.routes.map((r) => r.path)).toContain(PROJECTS.v1.path);
    expect(await b.read('llms.txt')).toContain(PROJECTS.v1.path);
    const openapi = JSON.parse(await b.read('openapi.json')) as {
      paths: Record<string, { get: { operationId: string } }>;
    };
    expect(openapi.paths[PROJECTS.v1.path]!.get.operationId).toBe('getV1GithubProjects');
    expect(openapi.paths[PROJECTS.alias.path]!.get.operationId).toBe('getGithubProjects');
  });
});
