// dist/cli.mjs as a user runs it: a child process reading a built dist/ served by the real `serve` package
// and by a gateway-less static server on loopback. Exit statuses 0 (success), 1 (the site failed: one
// stderr line) and 2 (usage: usage on stderr), one JSON document with --json, no terminal control from a
// hostile site, and a file that imports only Node built-ins.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../contract/pages.ts';
import { MAX_BODY_BYTES } from '../cli/http.ts';
import { API_INDEX, DATA_PATHS, DISCOVERY } from '../contract/service.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { FIXTURE_SKILLS, FIXTURE_WRITINGS, frontMatterValue, writeFixtureSite } from './helpers/cli-fixtures.ts';
import { runCli } from './helpers/cli-run.ts';
import {
  closedPort,
  startServe,
  startStaticSite,
  type CannedAnswer,
  type Site,
  type StaticSite,
} from './helpers/cli-servers.ts';
import { runProgram, upstreamEnv, type RunResult } from './helpers/run.ts';

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
  // The commands below read the build's own documents, nothing added: a twin the build failed to write fails them.
  buildResult = await runProgram('build', ['--out', dist], { ...upstreamEnv(fake.url), SITE_URL: staticSite.url });
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

/** Independent of the CLI's parser: what the twins on disk say. */
async function twinFacts() {
  const writings = (await readFile(join(dist, 'writings.md'), 'utf8')).split('\n').filter((l) => l.startsWith('- ['));
  const skills = (await readFile(join(dist, 'skills.md'), 'utf8')).split('\n').filter((l) => l.startsWith('## '));
  return {
    name: (await frontMatterValue(dist, 'index.md', 'name'))!,
    writings,
    groups: skills.map((l) => l.slice(3).trim()),
  };
}

describe('the cli.mjs artifact', () => {
  it('is written by the build, which prints its size', async () => {
    expect(buildResult.code).toBe(0);
    expect(buildResult.stdout).toMatch(/cli\.mjs\s+[\d.]+ (kB|B)/);
    expect((await stat(cli)).isFile()).toBe(true);
  });

  it('reads documents that the same build wrote: every twin, the API index and both discovery documents', async () => {
    const writings = await readFile(join(dist, PAGES.writings.markdownFile), 'utf8');
    const slugs = [...writings.matchAll(/^- \[.*\]\(.*\/writings\/([^/)]+)\)/gm)].map((m) => m[1]!);
    expect(slugs.length).toBeGreaterThan(0);
    const files = [
      PAGES.home.markdownFile,
      PAGES.writings.markdownFile,
      PAGES.skills.markdownFile,
      ...slugs.map((slug) => PAGES.writing(slug).markdownFile),
      API_INDEX.file,
      DISCOVERY.openapi.file,
      DISCOVERY.apiCatalog.file,
    ];
    for (const file of files) expect((await stat(join(dist, file))).isFile(), file).toBe(true);
  });

  it('starts with a node shebang and stays small (< 60 kB)', async () => {
    const text = await readFile(cli, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(60_000);
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

  it("has the build's SITE_URL as its default site", async () => {
    const r = await runCli(cli, ['profile', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(staticSite.requests).toContain('/index.md');
    expect((await runCli(cli, ['--help'])).stdout).toContain(staticSite.url);
  });
});

describe.each([
  ['serve dist', () => serveSite],
  ['a gateway-less static server', () => staticSite as Site],
])('every command against %s', (_name, siteOf) => {
  const run = (args: string[], env?: Record<string, string>) => runCli(cli, [...args, '--base-url', siteOf().url], env);

  it('profile prints the name, aligned facts and links; --json prints the profile object', async () => {
    const facts = await twinFacts();
    const text = await run(['profile']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(facts.name);
    expect(text.stdout).not.toMatch(ANSI);
    const doc = json(await run(['profile', '--json']));
    expect(doc.name).toBe(facts.name);
    expect(Object.keys(doc)).toEqual(['url', 'name', 'tagline', 'location', 'github', 'description', 'about', 'links']);
    expect(Array.isArray(doc.about) && Array.isArray(doc.links)).toBe(true);
    for (const link of doc.links as Array<{ label: string; url: string }>) expect(text.stdout).toContain(link.url);
  });

  it('writings lists every published writing newest first; --json gives slug, title, date, summary, url', async () => {
    const facts = await twinFacts();
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

  it('writings <slug> prints one writing; --json gives its Markdown', async () => {
    const list = json(await run(['writings', '--json'])).writings as Array<Record<string, string>>;
    expect(list.length).toBeGreaterThan(0);
    const { slug, title } = list[0]!;
    const text = await run(['writings', slug!]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(title);
    const doc = json(await run(['writings', slug!, '--json']));
    expect(doc).toMatchObject({ slug, title });
    expect(doc.markdown).toMatch(new RegExp(`^# ${title!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('skills prints every group; --json gives groups of {name, note}', async () => {
    const facts = await twinFacts();
    const text = await run(['skills']);
    expect(text.code).toBe(0);
    for (const g of facts.groups) expect(text.stdout).toContain(g);
    const doc = json(await run(['skills', '--json']));
    const groups = doc.groups as Array<{ name: string; skills: Array<{ name: string; note: string | null }> }>;
    expect(groups.map((g) => g.name)).toEqual(facts.groups);
    expect(groups.flatMap((g) => g.skills).length).toBeGreaterThan(0);
  });

  it('api shows authentication none and the four data operations', async () => {
    const text = await run(['api']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Authentication\s+none/);
    const doc = json(await run(['api', '--json']));
    expect(doc.authentication).toBe('none');
    const paths = (doc.operations as Array<{ path: string }>).map((o) => o.path);
    for (const path of DATA_PATHS.keys()) {
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
    for (const c of linkset) expect(text.stdout).toContain(c.anchor);
  });

  it('reads the same site with and without a trailing slash on --base-url', async () => {
    const bare = await runCli(cli, ['skills', '--json', '--base-url', siteOf().url]);
    const slashed = await runCli(cli, ['skills', '--json', `--base-url=${siteOf().url}/`]);
    expect(bare.code).toBe(0);
    expect(slashed.stdout).toBe(bare.stdout);
  });

  it('an unknown writing is exit 1 with one line naming the 404', async () => {
    const r = await run(['writings', 'no-such-writing']);
    expectOneErrorLine(r, 1);
    expect(r.stderr).toMatch(/no published writing "no-such-writing".*404/);
  });
});

describe('failures against the static server', () => {
  const run = (args: string[]) => runCli(cli, [...args, '--base-url', staticSite.url]);
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
    await answering('/index.md', { status: 502, contentType: 'application/problem+json', body }, async () => {
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
    const body = problemBody(404, 'Not found', 'No page at /skills.md.', 'page_not_found');
    await answering('/skills.md', { status: 404, contentType: 'application/problem+json', body }, async () => {
      const r = await run(['skills']);
      expectOneErrorLine(r, 1);
      expect(r.stderr).toMatch(/404: Not found: No page at \/skills\.md\./);
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

  it('a body that is not what was expected is exit 1: HTML for a twin, JSON that is not a linkset', async () => {
    await answering(
      '/index.md',
      { status: 200, contentType: 'text/html', body: '<!doctype html><title>Home</title>' },
      async () => {
        const r = await run(['profile']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain('index.md is not what was expected');
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
      '/writings.md',
      {
        status: 200,
        contentType: 'text/markdown',
        body: '---\ntitle: Writings\n---\n# Writings\n\n- a list line of the wrong shape\n',
      },
      async () => {
        const r = await run(['writings', '--json']);
        expectOneErrorLine(r, 1);
      },
    );
  });

  it('follows a redirect within the site', async () => {
    const skills = await readFile(join(dist, 'skills.md'), 'utf8');
    const direct = await run(['skills', '--json']);
    expect(direct.code).toBe(0);
    await answering(
      '/skills.md',
      { status: 301, contentType: 'text/plain', body: '', headers: { location: '/moved/skills.md' } },
      () =>
        answering(
          '/moved/skills.md',
          { status: 200, contentType: 'text/markdown; charset=utf-8', body: skills },
          async () => {
            const r = await run(['skills', '--json']);
            expect(r.code, r.stderr).toBe(0);
            expect(JSON.parse(r.stdout)).toEqual(JSON.parse(direct.stdout));
            expect(staticSite.requests).toContain('/moved/skills.md');
          },
        ),
    );
  });

  it('refuses a redirect to another origin without asking it: exit 1 naming the origin to use instead', async () => {
    const other = await startStaticSite(dist);
    try {
      await answering(
        '/skills.md',
        { status: 302, contentType: 'text/plain', body: '', headers: { location: `${other.url}/skills.md` } },
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
      '/skills.md',
      { status: 200, contentType: 'text/markdown; charset=utf-8', body: `# Skills\n${'x'.repeat(MAX_BODY_BYTES)}` },
      async () => {
        const r = await run(['skills']);
        expectOneErrorLine(r, 1);
        expect(r.stderr).toContain(`more than the ${MAX_BODY_BYTES}`);
      },
    );
  });

  it('an unreachable origin is exit 1 with one line', async () => {
    const port = await closedPort();
    const r = await runCli(cli, ['profile', '--base-url', `http://127.0.0.1:${port}`]);
    expectOneErrorLine(r, 1);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}/index.md`);
  });

  it('a site that never answers is exit 1 once the request timeout expires', async () => {
    staticSite.hang.add('/skills.md');
    try {
      const r = await run(['skills', '--timeout', '0.3']);
      expectOneErrorLine(r, 1);
      expect(r.stderr).toContain('timed out');
    } finally {
      staticSite.hang.delete('/skills.md');
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
      const r = await runCli(cli, ['writings', '--json', '--base-url', base]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expect(prefixed.requests).toEqual(['/portfolio/writings.md', '/portfolio/writings.md']);
  });
});

describe('usage', () => {
  it.each([
    [['--help'], 'option'],
    [['-h'], 'short option'],
    [['help'], 'command'],
    [['profile', '--help'], 'option after a command'],
  ])('%j prints the help on stdout, exit 0 (%s)', async (args) => {
    const r = await runCli(cli, args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const word of [
      'profile',
      'writings <slug>',
      'skills',
      'api',
      'catalog',
      '--json',
      '--base-url',
      'Exit status',
      '/index.md',
      '/.well-known/api-catalog',
    ]) {
      expect(r.stdout).toContain(word);
    }
    // the --json field names of every command
    for (const field of [
      'tagline',
      'writings: {slug, title, date, summary, url}[]',
      'groups:',
      'operations:',
      'linkset:',
      'markdown',
    ])
      expect(r.stdout).toContain(field);
  });

  it('--help --json prints the reference as one JSON document', async () => {
    const r = await runCli(cli, ['--help', '--json']);
    expect(r.code).toBe(0);
    const doc = json(r);
    expect((doc.commands as Array<{ name: string }>).map((c) => c.name)).toEqual([
      'profile',
      'writings',
      'writings <slug>',
      'skills',
      'api',
      'catalog',
      'price',
      'contributions',
    ]);
  });

  it.each([
    [['bogus'], 'unknown command "bogus"'],
    [['profile', '--verbose'], 'unknown option "--verbose"'],
    [['--base-url'], 'option --base-url needs a value'],
    [['profile', '--base-url', '--json'], 'option --base-url needs a value'],
    [['profile', '--base-url', 'ftp://example.test'], 'must be an http or https URL'],
    [['profile', '--base-url', 'http://reader:hunter2@127.0.0.1:9'], 'must not carry a user name or password'],
    [['profile', 'extra'], 'unexpected argument "extra"'],
    [['writings', '../etc'], 'is not a writing slug'],
    [[], 'missing command'],
  ])('%j is a usage error: exit 2, the reason and the usage on stderr, nothing on stdout', async (args, reason) => {
    const r = await runCli(cli, args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(reason);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).toContain('Usage: node cli.mjs <command> [--json] [--base-url <url>]');
  });
});

describe('terminal output', () => {
  const run = (args: string[], env?: Record<string, string>) =>
    runCli(cli, [...args, '--base-url', staticSite.url], env);

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
    const fm = (fields: Record<string, string>) =>
      ['---', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), '---', ''].join('\n');
    const md = 'text/markdown; charset=utf-8';
    const hostileName = `Mal${E}[2J${E}[Hlory`;
    const documents: Record<string, { contentType: string; body: string }> = {
      [`/${PAGES.home.markdownFile}`]: {
        contentType: md,
        body:
          fm({
            title: 'M',
            description: 'd',
            url: 'https://evil.example/',
            name: hostileName,
            tagline: `${E}]52;c;cm0gLXJmIH4K${B}Friendly tagline`,
            location: `${E}]8;;https://evil.example${B}Toronto${E}]8;;${B}`,
            github: 'https://github.com/m\u009b31m',
          }) +
          `\n# Mallory\n\n## About\n\nPara ${E}[31mred${E}[0m ${E}P+q${E}\\done.\rOVERWRITE\b\b\n\n## Links\n\n- [Click${E}[8m hidden](https://evil.example/${E}[1m)\n`,
      },
      [`/${PAGES.writings.markdownFile}`]: {
        contentType: md,
        body:
          fm({ title: 'W', description: 'd', url: 'https://evil.example/writings' }) +
          `\n# Writings\n\n- [Evil ${E}[5mblink](https://evil.example/writings/evil) \u2014 2026-01-01: sum${B}mary\n`,
      },
      [`/${PAGES.writing('evil').markdownFile}`]: {
        contentType: md,
        body:
          fm({
            title: 'E',
            description: 'd',
            url: 'https://evil.example/writings/evil',
            date: '2026-01-01',
            summary: `s${E}]0;title${B}`,
          }) + `\n# Evil${E}[2J\n\n\`\`\`\ncode ${E}c\n\`\`\`\n\n> quote ${E}[?1049h\n`,
      },
      [`/${PAGES.skills.markdownFile}`]: {
        contentType: md,
        body:
          fm({ title: 'S', description: 'd', url: 'https://evil.example/skills' }) +
          `\n# Skills\n\n## Lang${E}[2J\n\n- Go: ${E}]52;c;AAAA${B}fast\n`,
      },
      [API_INDEX.path]: {
        contentType: 'application/json',
        body: JSON.stringify({ authentication: `none${E}[8m`, routes: [] }),
      },
      [DISCOVERY.openapi.path]: {
        contentType: 'application/json',
        body: JSON.stringify({
          info: { title: `API${E}]8;;https://evil.example${B}`, version: '1' },
          paths: { '/api/v1/x': { get: { operationId: `op\u009b2J`, summary: `sum${E}[1A` } } },
        }),
      },
      [DISCOVERY.apiCatalog.path]: {
        contentType: 'application/linkset+json',
        body: JSON.stringify({
          linkset: [
            {
              anchor: `https://evil.example/api${E}[2J`,
              item: [{ href: 'https://evil.example/x', title: `t${B}`, type: `a${E}\\` }],
            },
          ],
        }),
      },
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
      expect(json(raw).github).toBe('https://github.com/m\u009b31m');
    });

    it('an error line quoting a hostile problem carries no control either', async () => {
      const body = JSON.stringify({ title: `Bad${E}]52;c;AAAA${B}`, detail: `x${E}[2J\u009b1Ay`, status: 502 });
      staticSite.answers.set(`/${PAGES.skills.markdownFile}`, {
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
        staticSite.answers.set(`/${PAGES.skills.markdownFile}`, {
          status: 200,
          ...documents[`/${PAGES.skills.markdownFile}`]!,
        });
      }
    });

    it.skipIf(!hasScript)("on a terminal, the only escapes are the CLI's own colours", async () => {
      for (const args of commands) {
        const out = await inTerminal(args, {});
        expect(out).toMatch(ANSI);
        // the CLI's own styles are SGR (ESC [ n m); the pseudo-terminal adds nothing but CR LF line ends
        expect(out.replace(/\u001b\[\d+m/g, '').replace(/\r\n/g, '\n'), args.join(' ')).not.toMatch(CONTROL);
      }
    });
  });
});

describe('a site of hand-written fixture documents in the twin format', () => {
  // Pins every field to an exact value, whatever content the site generator currently publishes.
  let fixtureDir: string;
  let site: StaticSite;
  beforeAll(async () => {
    fixtureDir = await mkdtemp(join(tmpdir(), 'cli-fixture-'));
    site = await startStaticSite(fixtureDir);
    await writeFixtureSite(fixtureDir, site.url);
    await copyFile(cli, join(fixtureDir, 'cli.mjs'));
  });
  afterAll(async () => {
    await site?.close();
    if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
  });
  const read = async (...args: string[]) => {
    const r = await runCli(join(fixtureDir, 'cli.mjs'), [...args, '--json', '--base-url', site.url]);
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
      about: [
        'I build services that publish public data as precomputed JSON, with a small gateway in front when the data must be live.',
        'This site is one of them: its market preview and contribution calendar are rebuilt on a schedule.',
      ],
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
      markdown: `${w.body}\n`,
    });
    expect(await read('skills')).toEqual({
      url: `${site.url}/skills`,
      groups: FIXTURE_SKILLS.map((g) => ({ name: g.name, skills: g.skills.map(([name, note]) => ({ name, note })) })),
    });
    const api = await read('api');
    expect(api).toMatchObject({
      url: `${site.url}/api`,
      title: 'Public Data Preview API',
      version: '1.0.0',
      authentication: 'none',
      openapi: `${site.url}/openapi.json`,
    });
    expect((api.operations as unknown[]).length).toBe(4);
    const catalog = await read('catalog');
    expect((catalog.linkset as Array<{ anchor: string }>).map((c) => c.anchor)).toEqual([`${site.url}/api`]);
  });

  it('renders one writing for a terminal: title, date line, wrapped body, verbatim code', async () => {
    const w = FIXTURE_WRITINGS[0];
    const r = await runCli(join(fixtureDir, 'cli.mjs'), ['writings', w.slug, '--base-url', site.url], {
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
