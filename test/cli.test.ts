// The CLI reading a built dist/ served by the real `serve` package and by a gateway-less static server on
// loopback: in-process (builders/cli/run.ts's run(), as dist/cli.mjs calls it), and the built cli.mjs as a child process
// where the artifact itself is the point (its default site, its imports, a terminal, its memory). Exit statuses 0 (success), 1 (the site failed: one
// stderr line) and 2 (usage: usage on stderr), one JSON document with --json, no terminal control from a
// hostile site, and a file that imports only Node built-ins.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_DOCUMENTS } from '../builders/contract/pages.ts';
import { MAX_BODY_BYTES, WAIT_NOTICE_MS } from '../builders/cli/http.ts';
import { MAX_JSON_DEPTH } from '../builders/cli/json-body.ts';
import { API_INDEX, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { SIMULATED_NOTICE_TITLE } from '../builders/lib/simulated.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import {
  FIXTURE_ABOUT,
  FIXTURE_SKILLS,
  FIXTURE_WRITINGS,
  fixtureApiIndex,
  writeFixtureSite,
} from './helpers/cli-fixtures.ts';
import { runCli, spawnCli } from './helpers/cli-run.ts';
import {
  closedPort,
  startServe,
  startStaticSite,
  type CannedAnswer,
  type Site,
  type StaticSite,
} from './helpers/cli-servers.ts';
import { upstreamEnv, type RunResult } from './helpers/run.ts';
import { runBuild } from './helpers/site-dist.ts';

let fake: FakeUpstreams;
let dist: string;
let cli: string;
let buildResult: RunResult;
let staticSite: StaticSite;
let serveSite: Site;

beforeAll(async () => {
  fake = await startFakeUpstreams();
  dist = await mkdtemp(join(tmpdir(), 'cli-dist-'));
  cli = join(dist, 'cli.mjs');
  // The static server starts first so that its address can be the build's SITE_URL: the CLI's baked-in default.
  staticSite = await startStaticSite(dist);
  // The commands below read the build's own documents, nothing added: a document the build failed to write fails them.
  buildResult = await runBuild(dist, { ...upstreamEnv(fake.url), SITE_URL: staticSite.url });
  serveSite = await startServe(dist);
});

afterAll(async () => {
  await Promise.all([staticSite?.close(), serveSite?.close(), fake?.close()]);
  if (dist) await rm(dist, { recursive: true, force: true });
});

const ANSI = /\u001b\[/;
/** Every C0 control but tab and line feed, DEL and every C1 control. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const json = (r: RunResult) => JSON.parse(r.stdout) as Record<string, unknown>;
const expectOneErrorLine = (r: RunResult, code: number) => {
  expect(r.code).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
};
const problemBody = (status: number, title: string, detail: string, code: string) =>
  JSON.stringify({
    type: `${staticSite.url}/developers#${code.replace(/_/g, '-')}`,
    title,
    status,
    detail,
    code,
    resolution: 'Retry later.',
  });

const { feed: FEED, profile: PROFILE, skills: SKILLS } = CONTENT_DOCUMENTS;
const distJson = async <T>(file: string) => JSON.parse(await readFile(join(dist, file), 'utf8')) as T;

/** Independent of the CLI: what the content documents on disk say. */
async function contentFacts() {
  const feed = await distJson<{ items: Array<{ url: string; title: string }> }>(FEED.file);
  const skills = await distJson<{ groups: Array<{ name: string }> }>(SKILLS.file);
  return {
    name: (await distJson<{ name: string }>(PROFILE.file)).name,
    writings: feed.items,
    groups: skills.groups.map((g) => g.name),
  };
}

describe('the cli.mjs artifact', () => {
  it('is written by the build, which prints its size', async () => {
    expect(buildResult.code).toBe(0);
    expect(buildResult.stdout).toMatch(/cli\.mjs\s+[\d.]+ (kB|B)/);
    expect((await stat(cli)).isFile()).toBe(true);
  });

  it('reads documents that the same build wrote: the content documents, the API index and both discovery documents', async () => {
    const files = [
      PROFILE.file,
      FEED.file,
      SKILLS.file,
      API_INDEX.file,
      DISCOVERY.openapi.file,
      DISCOVERY.apiCatalog.file,
    ];
    for (const file of files) expect((await stat(join(dist, file))).isFile(), file).toBe(true);
    expect((await contentFacts()).writings.length).toBeGreaterThan(0);
  });

  it('reads JSON only: no command requests a Markdown document', async () => {
    const before = staticSite.requests.length;
    for (const args of [['profile'], ['writings'], ['skills'], ['api'], ['catalog']]) {
      const r = await runCli([...args, '--base-url', staticSite.url]);
      expect(r.code, r.stderr).toBe(0);
    }
    const slug = (await contentFacts()).writings[0]!.url.split('/').pop()!;
    expect((await runCli(['writings', slug, '--base-url', staticSite.url])).code).toBe(0);
    const asked = staticSite.requests.slice(before);
    expect(asked.length).toBeGreaterThan(5);
    expect(asked.filter((path) => path.endsWith('.md'))).toEqual([]);
  });

  it('starts with a node shebang and stays small: 70 kB, and 5 kB per dataset', async () => {
    const text = await readFile(cli, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    // About 68 kB of its own: help per command, "did you mean", `price --watch`'s live tick rule and its
    // WebSocket client (the feed read from the site's API index), fitting every line to the terminal, the
    // résumé command, the profile's role and the owner's projects, the line that says a wait past 2 s.
    // Each dataset adds its command, its picture module and its schemas (never its upstream,
    // builders/build/cli-artifact.ts): up to 5 kB (the projects about 5). esbuild names each lazy module
    // by its path.
    expect(Buffer.byteLength(text)).toBeLessThan(70_000 + 5_000 * DEFAULT_SERVICE.resources.length);
  });

  it('imports nothing but Node built-ins (static imports, require and dynamic import, parsed by esbuild)', async () => {
    const seen: Array<{ path: string; kind: string }> = [];
    await esbuild.build({
      entryPoints: [cli],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      logLevel: 'silent',
      plugins: [
        {
          name: 'record-imports',
          setup(b) {
            b.onResolve({ filter: /.*/ }, (args) => {
              if (args.kind === 'entry-point') return undefined;
              seen.push({ path: args.path, kind: args.kind });
              return { path: args.path, external: true };
            });
          },
        },
      ],
    });
    const builtins = new Set(builtinModules);
    const foreign = seen.filter(({ path }) => !(path.startsWith('node:') || builtins.has(path)));
    expect(foreign).toEqual([]);
    // What a parser cannot resolve: computed specifiers and a home-made require.
    const text = await readFile(cli, 'utf8');
    expect(text).not.toMatch(/\bimport\s*\(\s*[^'"`\s]/);
    expect(text).not.toMatch(/\brequire\s*\(/);
    expect(text).not.toMatch(/createRequire/);
  });

  // The one spawn of the artifact for a command: it runs with no dependency, its default site baked in.
  it("runs as a program with the build's SITE_URL as its default site", async () => {
    const r = await spawnCli(cli, ['profile', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(staticSite.requests).toContain(PROFILE.path);
    expect((await spawnCli(cli, ['--help'])).stdout).toContain(staticSite.url);
  });
});

describe.each([
  ['serve dist', () => serveSite],
  ['a gateway-less static server', () => staticSite as Site],
])('every command against %s', (_name, siteOf) => {
  const run = (args: string[], env?: Record<string, string>) => runCli([...args, '--base-url', siteOf().url], env);

  it('profile prints the name, aligned facts and links; --json prints the profile object', async () => {
    const facts = await contentFacts();
    const text = await run(['profile']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(facts.name);
    expect(text.stdout).not.toMatch(ANSI);
    const doc = json(await run(['profile', '--json']));
    expect(doc.name).toBe(facts.name);
    expect(Object.keys(doc)).toEqual([
      'url',
      'name',
      'tagline',
      'location',
      'github',
      'description',
      'about',
      'role',
      'ownerProjects',
      'links',
    ]);
    expect(Array.isArray(doc.about) && Array.isArray(doc.links)).toBe(true);
    for (const link of doc.links as Array<{ label: string; url: string }>) expect(text.stdout).toContain(link.url);
  });

  it("profile shows the role the home page shows (the résumé's current position)", async () => {
    const text = await run(['profile']);
    expect(text.code).toBe(0);
    // test/fixtures/site/resume.json: the work entry with no end date.
    expect(text.stdout.split('\n')[1]).toBe('Staff Software Engineer at Northwind Transit Data');
    expect(json(await run(['profile', '--json'])).role).toBe('Staff Software Engineer at Northwind Transit Data');
  });

  it('projects lists what the home page lists: the GitHub projects, then those of projects.yaml', async () => {
    const owned = (
      await distJson<{ ownerProjects: Array<{ title: string; url: string; description: string | null }> }>(PROFILE.file)
    ).ownerProjects;
    expect(owned.length).toBeGreaterThan(0);
    const text = await run(['projects'], { COLUMNS: '80' });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const more = lines.indexOf('More projects');
    expect(more).toBeGreaterThan(lines.findIndex((l) => l.includes(`${fake.projects.pinned[0]!.owner}/`)));
    for (const p of owned) {
      expect(text.stdout).toContain(p.title);
      expect(text.stdout).toContain(p.url);
    }
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    // --json stays the payload itself (docs/cli.md).
    expect(Object.keys(json(await run(['projects', '--json'])))).toEqual(['username', 'selection', 'asOf', 'projects']);
  });

  it('resume prints the résumé; --json prints /resume.json exactly as published', async () => {
    const published = await distJson<{ basics: { name: string; label: string }; work: Array<{ position: string }> }>(
      'resume.json',
    );
    const text = await run(['resume'], { COLUMNS: '80' });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([published.basics.name, published.basics.label]);
    for (const w of published.work) expect(text.stdout).toContain(w.position);
    for (const title of ['Work', 'Education', 'Skills']) expect(text.stdout.split('\n')).toContain(title);
    for (const line of text.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(json(await run(['resume', '--json']))).toEqual(published);
  });

  it('writings lists every published writing newest first; --json gives slug, title, date, summary, url', async () => {
    const facts = await contentFacts();
    const text = await run(['writings']);
    expect(text.code).toBe(0);
    const doc = json(await run(['writings', '--json']));
    const writings = doc.writings as Array<Record<string, string>>;
    expect(writings).toHaveLength(facts.writings.length);
    for (const w of writings) {
      expect(Object.keys(w)).toEqual(['slug', 'title', 'date', 'summary', 'url']);
      expect(w.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(text.stdout).toContain(w.title);
      expect(text.stdout).toContain(`writings ${w.slug}`);
    }
    const dates = writings.map((w) => w.date!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('writings <slug> prints one writing; --json gives its text and HTML', async () => {
    const list = json(await run(['writings', '--json'])).writings as Array<Record<string, string>>;
    expect(list.length).toBeGreaterThan(0);
    const { slug, title } = list[0]!;
    const text = await run(['writings', slug!]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(title);
    const doc = json(await run(['writings', slug!, '--json']));
    expect(doc).toMatchObject({ slug, title });
    expect(Object.keys(doc)).toEqual(['slug', 'title', 'date', 'summary', 'url', 'text', 'html']);
    expect(doc.text).not.toBe('');
    expect(doc.html).toMatch(/^<p>/);
  });

  it('skills prints every group; --json gives groups of {name, note?}', async () => {
    const facts = await contentFacts();
    const text = await run(['skills']);
    expect(text.code).toBe(0);
    for (const g of facts.groups) expect(text.stdout).toContain(g);
    const doc = json(await run(['skills', '--json']));
    const groups = doc.groups as Array<{ name: string; skills: Array<{ name: string; note?: string }> }>;
    expect(groups.map((g) => g.name)).toEqual(facts.groups);
    expect(groups.flatMap((g) => g.skills).length).toBeGreaterThan(0);
  });

  it('api shows authentication none and every data operation of the deployment', async () => {
    const text = await run(['api']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Authentication\s+none/);
    const doc = json(await run(['api', '--json']));
    expect(doc.authentication).toBe('none');
    const paths = (doc.operations as Array<{ path: string }>).map((o) => o.path);
    for (const path of DEFAULT_SERVICE.paths.keys()) {
      expect(paths).toContain(path);
      expect(text.stdout).toContain(path);
    }
    expect(typeof doc.index).toBe('object');
  });

  it('catalog lists the linkset anchors and the data endpoints', async () => {
    const text = await run(['catalog']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const doc = json(await run(['catalog', '--json']));
    const linkset = doc.linkset as Array<{ anchor: string; links: Array<{ rel: string; href: string }> }>;
    expect(linkset.length).toBeGreaterThan(0);
    const hrefs = linkset.flatMap((c) => c.links.map((l) => l.href));
    expect(hrefs.some((h) => h.endsWith('/api/v1/mon-price'))).toBe(true);
    // each anchor named, as its path on the site's own origin
    for (const c of linkset) expect(text.stdout).toContain(new URL(c.anchor).pathname);
  });

  it('catalog groups the links by relation: each relation and each target said once, every line within 80 columns', async () => {
    const text = await run(['catalog'], { COLUMNS: '80' });
    expect(text.code, text.stderr).toBe(0);
    const doc = json(await run(['catalog', '--json']));
    const linkset = doc.linkset as Array<{ anchor: string; links: Array<{ rel: string; href: string }> }>;
    const lines = text.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    const rels = [...new Set(linkset.flatMap((c) => c.links.map((l) => l.rel)))];
    for (const rel of rels)
      expect(
        lines.filter((l) => l === rel),
        rel,
      ).toHaveLength(1);
    const targets = new Set(linkset.flatMap((c) => c.links.map((l) => `${l.rel} ${l.href}`)));
    // one line for each target, one for what it is, one or two for where it is linked from
    expect(lines.length).toBeLessThan(2 + 2 * rels.length + 4 * targets.size);
    // the contract, linked from every anchor, is said once (as its path when the site is the catalog's origin)
    expect(lines.filter((l) => /^ {2}\S*\/openapi\.json$/.test(l))).toHaveLength(1);
  });

  it('reads the same site with and without a trailing slash on --base-url', async () => {
    const bare = await runCli(['skills', '--json', '--base-url', siteOf().url]);
    const slashed = await runCli(['skills', '--json', `--base-url=${siteOf().url}/`]);
    expect(bare.code).toBe(0);
    expect(slashed.stdout).toBe(bare.stdout);
  });

  it('an unknown writing is exit 1 with one line naming the 404', async () => {
    const r = await run(['writings', 'no-such-writing']);
    expectOneErrorLine(r, 1);
    expect(r.stderr).toMatch(/no published writing "no-such-writing" in \S+\/feed\.json/);
  });
});

describe('failures against the static server', () => {
  const run = (args: string[], env?: Record<string, string>) => runCli([...args, '--base-url', staticSite.url], env);
  const answering = async (path: string, answer: CannedAnswer, work: () => Promise<void>) => {
    staticSite.answers.set(path, answer);
    try {
      await work();
    } finally {
      staticSite.answers.delete(path);
    }
  };

  it('a 502 problem answer is exit 1 with its title and detail on one line, nothing on stdout', async () => {
    const body = problemBody(
      502,
      'Upstream data unavailable',
      'The market source gave no usable data.',
      'upstream_unavailable',
    );
    await answering(PROFILE.path, { status: 502, contentType: 'application/problem+json', body }, async () => {
      for (const args of [['profile'], ['profile', '--json']]) {
        const r = await run(args);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain('502');
        expect(r.stderr).toContain('Upstream data unavailable');
        expect(r.stderr).toContain('The market source gave no usable data.');
      }
    });
  });

  it('a 404 problem answer is exit 1 with its title', async () => {
    const body = problemBody(404, 'Not found', 'No page at /skills.json.', 'page_not_found');
    await answering(SKILLS.path, { status: 404, contentType: 'application/problem+json', body }, async () => {
      const r = await run(['skills']);
      expectOneErrorLine(r, 1);
      expect(r.stderr).toMatch(/404: Not found: No page at \/skills\.json\./);
    });
  });

  it('a plain 404 is exit 1 naming the URL and the status', async () => {
    await answering(
      '/.well-known/api-catalog',
      { status: 404, contentType: 'text/plain', body: 'Not found' },
      async () => {
        const r = await run(['catalog', '--json']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain(`${staticSite.url}/.well-known/api-catalog answered 404`);
      },
    );
  });

  it('a problem on /api is reported as it is, not papered over by the index file', async () => {
    const body = problemBody(502, 'Upstream data unavailable', 'Try later.', 'upstream_unavailable');
    await answering('/api', { status: 502, contentType: 'application/problem+json', body }, async () => {
      const r = await run(['api']);
      expectOneErrorLine(r, 1);
      expect(r.stderr).toContain('Upstream data unavailable');
    });
  });

  it('a body that is not what was expected is exit 1: HTML for a document, JSON that is not a linkset', async () => {
    await answering(
      PROFILE.path,
      { status: 200, contentType: 'text/html', body: '<!doctype html><title>Home</title>' },
      async () => {
        const r = await run(['profile']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain('profile.json is not what was expected: the Profile document is not JSON');
      },
    );
    await answering(
      '/.well-known/api-catalog',
      { status: 200, contentType: 'application/linkset+json', body: '{"links":[]}' },
      async () => {
        const r = await run(['catalog']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain('linkset');
      },
    );
    await answering(
      FEED.path,
      {
        status: 200,
        contentType: 'application/feed+json',
        body: JSON.stringify({ version: 'https://jsonfeed.org/version/1', title: 'An older feed', items: [] }),
      },
      async () => {
        const r = await run(['writings', '--json']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain('is not a valid JsonFeed document: / must have the member "home_page_url"');
      },
    );
  });

  it('follows a redirect within the site', async () => {
    const skills = await readFile(join(dist, SKILLS.file), 'utf8');
    const direct = await run(['skills', '--json']);
    expect(direct.code).toBe(0);
    await answering(
      SKILLS.path,
      { status: 301, contentType: 'text/plain', body: '', headers: { location: '/moved/skills.json' } },
      () =>
        answering('/moved/skills.json', { status: 200, contentType: 'application/json', body: skills }, async () => {
          const r = await run(['skills', '--json']);
          expect(r.code, r.stderr).toBe(0);
          expect(JSON.parse(r.stdout)).toEqual(JSON.parse(direct.stdout));
          expect(staticSite.requests).toContain('/moved/skills.json');
        }),
    );
  });

  it('refuses a redirect to another origin without asking it: exit 1 naming the origin to use instead', async () => {
    const other = await startStaticSite(dist);
    try {
      await answering(
        SKILLS.path,
        { status: 302, contentType: 'text/plain', body: '', headers: { location: `${other.url}/skills.json` } },
        async () => {
          const r = await run(['skills']);
          expectOneErrorLine(r, 1);
          expect(r.stderr).toContain(
            `redirected to another origin (${other.url}); to read that site, pass --base-url ${other.url}`,
          );
        },
      );
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('refuses a body larger than any document of the site: exit 1, without printing it', async () => {
    await answering(
      SKILLS.path,
      { status: 200, contentType: 'application/json', body: `{"url":"${'x'.repeat(MAX_BODY_BYTES)}"}` },
      async () => {
        const r = await run(['skills']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain(`more than the ${MAX_BODY_BYTES}`);
      },
    );
  });

  it('an unreachable origin is exit 1 with one line', async () => {
    const port = await closedPort();
    const r = await runCli(['profile', '--base-url', `http://127.0.0.1:${port}`]);
    expectOneErrorLine(r, 1);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}/profile.json`);
  });

  it('at COLUMNS=80 and 40 that error fits: wrapped at word boundaries, a URL too long for a line shortened with an ellipsis', async () => {
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}/a-site/under/a/path/long/enough/that/its/url/cannot/fit/on/one/line`;
    const whole = await runCli(['profile', '--base-url', base]);
    expectOneErrorLine(whole, 1);
    const words = whole.stderr.trim().split(' ');
    expect(words.some((w) => w.length > 80)).toBe(true);
    for (const columns of [80, 40]) {
      const r = await runCli(['profile', '--base-url', base], { COLUMNS: String(columns) });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
      // the continuation lines are indented under the first; no word is cut at the edge
      expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
      const rejoined = lines.map((l) => l.trim()).join(' ');
      for (const word of words.filter((w) => w.length <= columns - 2)) expect(rejoined.split(' ')).toContain(word);
      expect(rejoined).toContain('\u2026');
    }
  });

  it('a site that never answers is exit 1 once the request timeout expires', async () => {
    staticSite.hang.add(SKILLS.path);
    try {
      const r = await run(['skills', '--timeout', '0.3']);
      expectOneErrorLine(r, 1);
      expect(r.stderr).toContain('timed out');
    } finally {
      staticSite.hang.delete(SKILLS.path);
    }
  });

  it('a wait past 2 s is said on stderr at once, before the timeout, within COLUMNS; a shorter timeout says only the timeout', async () => {
    staticSite.hang.add(SKILLS.path);
    try {
      const r = await runCli(
        ['skills', '--timeout', '2.5', '--base-url', staticSite.url],
        { COLUMNS: '80' },
        {
          waitNoticeMs: WAIT_NOTICE_MS,
        },
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const said = r.stderr
        .trimEnd()
        .split('\n')
        .map((l) => l.trim())
        .join(' ');
      // The wait first, then the timeout: two messages, each wrapped to the terminal.
      expect(said).toMatch(
        /^cli\.mjs: waiting for http:\/\/\S+\/skills\.json \(no answer yet; giving up after 2\.5 s\) cli\.mjs: .*timed out/,
      );
      for (const line of r.stderr.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
      const quick = await runCli(
        ['skills', '--timeout', '0.3', '--base-url', staticSite.url],
        {},
        {
          waitNoticeMs: WAIT_NOTICE_MS,
        },
      );
      expectOneErrorLine(quick, 1);
      expect(quick.stderr).not.toContain('waiting for');
    } finally {
      staticSite.hang.delete(SKILLS.path);
    }
  });

  it('an answer outside the schema it claims is exit 1 with one line naming the member, nothing shown', async () => {
    const market = JSON.parse(await readFile(join(dist, 'api/v1/mon-price'), 'utf8')) as Record<string, unknown>;
    const cases: Array<[string[], string, unknown, string]> = [
      [
        ['price'],
        '/api/v1/mon-price',
        { ...market, value: '0.03' },
        'not a valid MarketData document: /value must be number, not string',
      ],
      [['price', '--json'], '/api/v1/mon-price', { ...market, high: null }, '/high must be number, not null'],
      [['price'], '/api/v1/mon-price', { ...market, extra: 1 }, '/ must not have the member "extra"'],
      [['price'], '/api/v1/mon-price', { ...market, asOf: 'yesterday' }, '/asOf must be a date-time'],
      [
        ['profile'],
        PROFILE.path,
        { ...(await distJson<object>(PROFILE.file)), github: 'not a url' },
        'not a valid Profile document: /github must be a uri',
      ],
      [
        ['skills'],
        SKILLS.path,
        { url: 'https://x.example/skills', groups: [{ name: 'G', skills: [{ note: 'n' }] }] },
        '/groups/0/skills/0 must have the member "name"',
      ],
    ];
    for (const [args, path, body, reason] of cases)
      await answering(path, { status: 200, contentType: 'application/json', body: JSON.stringify(body) }, async () => {
        const r = await run(args);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain(`${staticSite.url}${path} is not what was expected`);
        expect(r.stderr).toContain(reason);
      });
  });

  // Four million nested arrays: JSON.parse builds them all (the CLI reached 514 MB of memory on this answer).
  const NESTED = `${'['.repeat(MAX_BODY_BYTES / 2)}${']'.repeat(MAX_BODY_BYTES / 2)}`;

  it('a deeply nested answer of 8 MiB is refused before it is parsed: exit 1, one line', async () => {
    await answering('/api/v1/mon-price', { status: 200, contentType: 'application/json', body: NESTED }, async () => {
      for (const args of [['price'], ['price', '--json']]) {
        const r = await run(args);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain(`is refused unparsed: it nests deeper than ${MAX_JSON_DEPTH} levels`);
      }
    });
    // The same bound on an error answer, whose problem document the CLI would quote.
    await answering(
      '/api/v1/mon-price',
      { status: 502, contentType: 'application/problem+json', body: NESTED },
      async () => {
        const r = await run(['price']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain('answered 502');
      },
    );
  });

  const hasGnuTime = (() => {
    try {
      execFileSync('/usr/bin/time', ['-v', 'true'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  // Memory, not time: the peak resident set of the CLI process as GNU time reports it. Measured on Node 20
  // and 24: 97 to 120 MiB with the bound (a fetch alone takes about 85), 517 to 591 MiB without it.
  it.skipIf(!hasGnuTime)('reading that answer keeps the CLI under 256 MiB of memory', async () => {
    await answering('/api/v1/mon-price', { status: 200, contentType: 'application/json', body: NESTED }, async () => {
      const { stderr } = await promisify(execFile)(
        '/usr/bin/time',
        ['-v', process.execPath, cli, 'price', '--base-url', staticSite.url],
        {
          encoding: 'utf8',
        },
      ).catch((error: { stderr: string; code: number }) => {
        expect(error.code).toBe(1);
        return error;
      });
      const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]);
      expect(kb).toBeGreaterThan(0);
      expect(kb / 1024).toBeLessThan(256);
    });
  });
});

describe('a demo site (its API index says simulated: true)', () => {
  const run = (args: string[]) => runCli([...args, '--base-url', staticSite.url], { COLUMNS: '100' });
  const CLAIM = "Source: GitHub's public contribution calendar.";
  beforeAll(async () => {
    const index = JSON.parse(await readFile(join(dist, API_INDEX.file), 'utf8')) as Record<string, unknown>;
    const demo = { status: 200, contentType: 'application/json', body: JSON.stringify({ ...index, simulated: true }) };
    for (const path of [API_INDEX.path, `/${API_INDEX.file}`]) staticSite.answers.set(path, demo);
  });
  afterAll(() => {
    for (const path of [API_INDEX.path, `/${API_INDEX.file}`]) staticSite.answers.delete(path);
  });

  it.each([['profile'], ['api'], ['contributions']])('%s opens with the simulated-data notice', async (command) => {
    const r = await run([command]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith(SIMULATED_NOTICE_TITLE)).toBe(true);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('not from a real market or GitHub');
  });

  it("contributions does not claim GitHub's calendar as the source of simulated data", async () => {
    const r = await run(['contributions']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(CLAIM);
  });

  it('a real site gets no notice, and contributions names its source', async () => {
    staticSite.answers.delete(API_INDEX.path);
    staticSite.answers.delete(`/${API_INDEX.file}`);
    try {
      for (const command of ['profile', 'api', 'contributions']) {
        const r = await run([command]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout, command).not.toContain(SIMULATED_NOTICE_TITLE);
      }
      expect((await run(['contributions'])).stdout).toContain(CLAIM);
    } finally {
      const index = JSON.parse(await readFile(join(dist, API_INDEX.file), 'utf8')) as Record<string, unknown>;
      const demo = {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ ...index, simulated: true }),
      };
      for (const path of [API_INDEX.path, `/${API_INDEX.file}`]) staticSite.answers.set(path, demo);
    }
  });
});

describe('a site under a path prefix', () => {
  let prefixed: StaticSite;
  beforeAll(async () => {
    prefixed = await startStaticSite(dist, { prefix: '/portfolio' });
  });
  afterAll(() => prefixed.close());

  it('is read with and without a trailing slash on --base-url', async () => {
    for (const base of [prefixed.url, `${prefixed.url}/`]) {
      const r = await runCli(['writings', '--json', '--base-url', base]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(prefixed.requests).toEqual(['/portfolio/feed.json', '/portfolio/feed.json']);
  });
});

describe('usage', () => {
  // Every way of asking for help is parseArgs' table in test/cli-unit.test.ts; what run() prints for it, here.
  it.each([[['--help'], 'option']])('%j prints the help on stdout, exit 0, in one screen (%s)', async (args) => {
    const r = await runCli(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const word of ['profile', 'writings <slug>', 'skills', 'api', 'catalog', 'price', 'streak', '--json'])
      expect(r.stdout).toContain(word);
    for (const word of ['--base-url', 'Exit status', 'help <command>', 'NO_COLOR']) expect(r.stdout).toContain(word);
    // One screen: at most 40 lines of at most 80 columns (runCli's COLUMNS is unset: 80) for the stock five
    // datasets, a line for each: 35 lines for the rest, one more per dataset of the registry.
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(35 + DEFAULT_SERVICE.resources.length);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('help <command> and <command> --help say what it reads and the --json fields', async () => {
    const expected: Record<string, string[]> = {
      profile: ['/profile.json', 'tagline'],
      writings: ['/feed.json', 'writings', 'summary', '<slug>', 'html'],
      skills: ['groups'],
      api: ['operations'],
      catalog: ['/.well-known/api-catalog', 'linkset'],
      price: ['/api/v1/mon-price', 'changePercent', '[--watch]', '--watch  '],
    };
    for (const [command, words] of Object.entries(expected)) {
      const [viaHelp, viaOption] = await Promise.all([runCli(['help', command]), runCli([command, '--help'])]);
      expect(viaHelp.code).toBe(0);
      expect(viaOption.stdout).toBe(viaHelp.stdout);
      for (const word of words) expect(viaHelp.stdout).toContain(word);
      expect(Math.max(...viaHelp.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    }
  });

  it('a near miss exits 2 with "did you mean", every stderr line within COLUMNS at word boundaries', async () => {
    for (const [args, hint] of [
      [['prices'], 'did you mean "price"?'],
      [['price', '--bse-url', 'http://127.0.0.1:9'], 'did you mean "--base-url"?'],
    ] as const) {
      for (const columns of ['80', '40']) {
        const r = await runCli([...args], { COLUMNS: columns });
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.replace(/\n\s*/g, ' ')).toContain(hint);
        const lines = r.stderr.trimEnd().split('\n');
        expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(Number(columns));
        // Cut at spaces only: every command name stays whole on one line.
        expect(lines.join(' ')).toContain('contributions');
      }
    }
  });

  it('--help --json prints the reference as one JSON document', async () => {
    const r = await runCli(['--help', '--json']);
    expect(r.code).toBe(0);
    const doc = json(r);
    expect((doc.commands as Array<{ name: string }>).map((c) => c.name)).toEqual([
      'profile',
      'resume',
      'writings',
      'writings <slug>',
      'skills',
      'api',
      'catalog',
      // Then each dataset's command, in the registry's order.
      ...DEFAULT_SERVICE.resources.map((r) => r.command.name),
    ]);
  });

  // Every usage error is parseArgs' table in test/cli-unit.test.ts; what run() prints for one, here.
  it.each([
    [['bogus'], 'unknown command "bogus"'],
    [['profile', '--base-url', 'http://reader:hunter2@127.0.0.1:9'], 'must not carry a user name or password'],
  ])('%j is a usage error: exit 2, the reason and the usage on stderr, nothing on stdout', async (args, reason) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(reason);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).toContain('Usage: node cli.mjs <command> [--json] [--base-url <url>]');
  });
});

describe('terminal output', () => {
  const run = (args: string[], env?: Record<string, string>) => runCli([...args, '--base-url', staticSite.url], env);

  it('wraps to COLUMNS when stdout is not a terminal (80 by default)', async () => {
    for (const [env, width] of [
      [{}, 80],
      [{ COLUMNS: '44' }, 44],
    ] as const) {
      for (const command of [['profile'], ['writings'], ['skills'], ['api'], ['--help']]) {
        const r = await run(command, env);
        expect(r.code).toBe(0);
        // a line may only overflow when it is one unbreakable word (a URL) after its indentation and label
        for (const line of r.stdout.split('\n'))
          if (line.length > width) expect(line.trim().split(/\s+/).at(-1)!.length, line).toBeGreaterThan(width / 3);
      }
    }
  });

  const hasScript = (() => {
    try {
      execFileSync('script', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  // `script` gives the child a pseudo-terminal, so stdout.isTTY is true as in a user's shell.
  const inTerminal = (args: string[], env: Record<string, string>) => {
    const command = [process.execPath, cli, ...args, '--base-url', staticSite.url].map((a) => `'${a}'`).join(' ');
    const childEnv: Record<string, string | undefined> = { ...process.env, TERM: 'xterm', ...env };
    if (!('NO_COLOR' in env)) delete childEnv.NO_COLOR;
    // asynchronous: the static server answering the child lives in this process
    return promisify(execFile)('script', ['-qec', command, '/dev/null'], { env: childEnv, encoding: 'utf8' }).then(
      (r) => r.stdout,
    );
  };

  it.skipIf(!hasScript)('colours on a terminal, and never with NO_COLOR set', async () => {
    expect(await inTerminal(['skills'], {})).toMatch(ANSI);
    expect(await inTerminal(['skills'], { NO_COLOR: '1' })).not.toMatch(ANSI);
  });

  describe('a hostile site', () => {
    // Every document the CLI reads, carrying terminal controls: clear screen and cursor moves (CSI), an
    // OSC 8 link whose target is not its text, an OSC 52 clipboard write, a DCS string, 8-bit C1 CSI,
    // BEL, backspace and a carriage return that would overwrite the line.
    const E = '\u001b';
    const B = '\u0007';
    const hostileName = `Mal${E}[2J${E}[Hlory`;
    const hostileGithub = 'https://github.com/m%9b31m';
    const jsonAnswer = (contentType: string, body: unknown) => ({ contentType, body: JSON.stringify(body) });
    // Valid against their schemas: the controls sit in free-text members, which a schema cannot refuse.
    const documents: Record<string, { contentType: string; body: string }> = {
      [PROFILE.path]: jsonAnswer('application/json', {
        url: 'https://evil.example/',
        name: hostileName,
        tagline: `${E}]52;c;cm0gLXJmIH4K${B}Friendly tagline`,
        location: `${E}]8;;https://evil.example${B}Toronto${E}]8;;${B}`,
        github: hostileGithub,
        description: `d\u009b31m`,
        about: [`Para ${E}[31mred${E}[0m ${E}P+q${E}\\done.\rOVERWRITE\b\b`],
        links: [{ label: `Click${E}[8m hidden`, url: 'https://evil.example/' }],
      }),
      [FEED.path]: jsonAnswer('application/feed+json', {
        version: 'https://jsonfeed.org/version/1.1',
        title: `W${E}[2J`,
        home_page_url: 'https://evil.example/writings',
        feed_url: 'https://evil.example/feed.json',
        description: 'd',
        language: 'en',
        authors: [{ name: `A${B}`, url: 'https://evil.example/' }],
        items: [
          {
            id: 'https://evil.example/writings/evil',
            url: 'https://evil.example/writings/evil',
            title: `Evil ${E}[5mblink`,
            summary: `sum${B}mary ${E}]0;title${B}`,
            date_published: '2026-01-01T00:00:00-05:00',
            content_html: `<p>${E}[2J</p>`,
            content_text: `Body ${E}[2J\n\n    code ${E}c\n\n> quote ${E}[?1049h\n\n• item \u009b2J`,
          },
        ],
      }),
      [SKILLS.path]: jsonAnswer('application/json', {
        url: 'https://evil.example/skills',
        groups: [{ name: `Lang${E}[2J`, skills: [{ name: 'Go', note: `${E}]52;c;AAAA${B}fast` }] }],
      }),
      [API_INDEX.path]: jsonAnswer('application/json', {
        ...fixtureApiIndex('https://evil.example'),
        name: `API${E}[8m`,
        description: `d${E}]8;;https://evil.example${B}`,
      }),
      [DISCOVERY.openapi.path]: jsonAnswer('application/json', {
        info: { title: `API${E}]8;;https://evil.example${B}`, version: '1' },
        paths: { '/api/v1/x': { get: { operationId: `op\u009b2J`, summary: `sum${E}[1A` } } },
      }),
      [DISCOVERY.apiCatalog.path]: jsonAnswer('application/linkset+json', {
        linkset: [
          {
            anchor: `https://evil.example/api${E}[2J`,
            item: [{ href: 'https://evil.example/x', title: `t${B}`, type: `a${E}\\` }],
          },
        ],
      }),
    };
    const commands = [['profile'], ['writings'], ['writings', 'evil'], ['skills'], ['api'], ['catalog']];
    beforeAll(() => {
      for (const [path, answer] of Object.entries(documents)) staticSite.answers.set(path, { status: 200, ...answer });
    });
    afterAll(() => {
      for (const path of Object.keys(documents)) staticSite.answers.delete(path);
    });

    it.each(commands)(
      'cannot reach the terminal through %s: every control is stripped, the text stays',
      async (...args) => {
        const r = await run(args);
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout).not.toMatch(CONTROL);
        expect(r.stdout.length).toBeGreaterThan(0);
      },
    );

    it('prints what the site meant to show, and --json keeps the exact strings JSON-escaped', async () => {
      const profile = await run(['profile']);
      expect(profile.stdout.split('\n')[0]).toBe('Mallory');
      for (const text of ['Friendly tagline', 'Toronto', 'Para red done.OVERWRITE', 'Click hidden'])
        expect(profile.stdout).toContain(text);
      const raw = await run(['profile', '--json']);
      expect(raw.stdout).not.toMatch(CONTROL);
      expect(json(raw).name).toBe(hostileName);
      expect(json(raw).description).toBe('d\u009b31m');
      expect(raw.stdout).toContain('"description": "d\\u009b31m"');
      const writing = await run(['writings', 'evil']);
      for (const text of ['Evil blink', 'Body', '    code', 'quote', '• item']) expect(writing.stdout).toContain(text);
    });

    it('an error line quoting a hostile problem carries no control either', async () => {
      const body = JSON.stringify({ title: `Bad${E}]52;c;AAAA${B}`, detail: `x${E}[2J\u009b1Ay`, status: 502 });
      staticSite.answers.set(SKILLS.path, {
        status: 502,
        contentType: 'application/problem+json',
        body,
      });
      try {
        const r = await run(['skills']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).not.toMatch(CONTROL);
        expect(r.stderr).toContain('502: Bad: xy');
      } finally {
        staticSite.answers.set(SKILLS.path, { status: 200, ...documents[SKILLS.path]! });
      }
    });

    // A terminal as the program sees one (stdout.isTTY, TERM), in-process: that the program reads its real
    // terminal so is the pseudo-terminal test above.
    it("on a terminal, the only escapes are the CLI's own colours", async () => {
      for (const args of commands) {
        const { stdout: out } = await runCli([...args, '--base-url', staticSite.url], { TERM: 'xterm' }, { tty: true });
        expect(out).toMatch(ANSI);
        // the CLI's own styles are SGR (ESC [ n m)
        expect(out.replace(/\u001b\[\d+m/g, ''), args.join(' ')).not.toMatch(CONTROL);
      }
    });
  });
});

describe('a site of hand-written fixture documents in the published shapes', () => {
  // Pins every field to an exact value, whatever content the site generator currently publishes.
  let fixtureDir: string;
  let site: StaticSite;
  beforeAll(async () => {
    fixtureDir = await mkdtemp(join(tmpdir(), 'cli-fixture-'));
    site = await startStaticSite(fixtureDir);
    await writeFixtureSite(fixtureDir, site.url);
  });
  afterAll(async () => {
    await site?.close();
    if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
  });
  const read = async (...args: string[]) => {
    const r = await runCli([...args, '--json', '--base-url', site.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return json(r);
  };

  it('gives every field its exact value', async () => {
    expect(await read('profile')).toEqual({
      url: `${site.url}/`,
      name: 'Ada Park',
      tagline: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
      location: 'Toronto, Canada',
      github: 'https://github.com/octocat',
      description: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
      about: FIXTURE_ABOUT,
      links: [
        { label: 'GitHub', url: 'https://github.com/octocat' },
        { label: 'Writings', url: `${site.url}/writings` },
        { label: 'Developers', url: `${site.url}/developers` },
      ],
    });
    expect(await read('writings')).toEqual({
      url: `${site.url}/writings`,
      writings: FIXTURE_WRITINGS.map((w) => ({
        slug: w.slug,
        title: w.title,
        date: w.date,
        summary: w.summary,
        url: `${site.url}/writings/${w.slug}`,
      })),
    });
    const w = FIXTURE_WRITINGS[0];
    expect(await read('writings', w.slug)).toEqual({
      slug: w.slug,
      title: w.title,
      date: w.date,
      summary: w.summary,
      url: `${site.url}/writings/${w.slug}`,
      text: w.text,
      html: w.html,
    });
    expect(await read('skills')).toEqual({
      url: `${site.url}/skills`,
      groups: FIXTURE_SKILLS,
    });
    const api = await read('api');
    expect(api).toMatchObject({
      url: `${site.url}/api`,
      title: 'Public Data Preview API',
      version: '1.0.0',
      authentication: 'none',
      openapi: `${site.url}/openapi.json`,
    });
    expect((api.operations as unknown[]).length).toBe(DEFAULT_SERVICE.paths.size);
    const catalog = await read('catalog');
    expect((catalog.linkset as Array<{ anchor: string }>).map((c) => c.anchor)).toEqual([`${site.url}/api`]);
  });

  it('renders one writing for a terminal: title, date line, wrapped body, verbatim code', async () => {
    const w = FIXTURE_WRITINGS[0];
    const r = await runCli(['writings', w.slug, '--base-url', site.url], {
      COLUMNS: '60',
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(w.title);
    expect(lines[1]).toBe(`${w.date}  ${site.url}/writings/${w.slug}`);
    expect(lines).toContain('    npm run build');
    expect(lines).toContain('What the build does');
    // links read as "text <url>", list items keep their bullet
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      '• validates every payload against the JSON Schemas <https://json-schema.org/>;',
    );
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });
});
