// site/projects.yaml (docs/site.md#projectsyaml): the owner's projects beyond GitHub, each a title, an
// https URL and an optional description. Every mistake is the owner's: exit 2 at once, one line naming the
// file and the field, no upstream asked, nothing written.
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadContent,
  MAX_OWNER_PROJECTS,
  parseOwnerProjects,
  PROJECTS_FILE,
} from '../builders/build/content/site-content.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { FIXTURE_SITE, runBuild } from './helpers/site-dist.ts';
import { upstreamEnv } from './helpers/run.ts';
import { contentCopy } from './helpers/hostile-content.ts';

const entry = (fields: string) => `projects:\n  - ${fields.trim().split('\n').join('\n    ')}\n`;

describe('parseOwnerProjects', () => {
  it('reads title, url and an optional description in the file order; comments only is no projects', () => {
    expect(
      parseOwnerProjects(
        'projects:\n  - title: " Tides "\n    url: https://tides.example.org/fundy/\n    description: Tables.\n  - title: B\n    url: https://b.example.org\n',
      ),
    ).toEqual([
      { title: 'Tides', url: 'https://tides.example.org/fundy/', description: 'Tables.' },
      { title: 'B', url: 'https://b.example.org', description: null },
    ]);
    expect(parseOwnerProjects('# nothing yet\n')).toEqual([]);
    expect(parseOwnerProjects('projects:\n')).toEqual([]);
  });

  it('the fixture holds two projects, and a content folder without the file none', async () => {
    const fixture = loadContent(pathToFileURL(FIXTURE_SITE));
    expect(fixture.ownerProjects.map((p) => p.title)).toEqual(['Fundy tide tables', 'A reading list on timekeeping']);
    const content = await contentCopy({});
    try {
      await rm(join(content.dir, PROJECTS_FILE));
      expect(loadContent(pathToFileURL(content.dir)).ownerProjects).toEqual([]);
    } finally {
      await content.close();
    }
  });

  it.each([
    [
      'http://tides.example.org/',
      /"projects\[0\]\.url" "http:\/\/tides\.example\.org\/" must be an absolute https: URL/,
    ],
    ['javascript:alert(1)', /"projects\[0\]\.url" "javascript:alert\(1\)" must be an http:, https: or mailto: URL/],
    ['/writings', /"projects\[0\]\.url" "\/writings" must be an absolute https: URL/],
    ['mailto:ada@example.org', /"projects\[0\]\.url" "mailto:ada@example\.org" must be an absolute https: URL/],
    ['https:tides.example.org', /"projects\[0\]\.url" "https:tides\.example\.org" must be an absolute https: URL/],
    ['https://ada:pw@tides.example.org/', /"projects\[0\]\.url" .* without a user name/],
    ['https://tides.example.org/{v}', /"projects\[0\]\.url" .* is not a valid URL: "\{" has no place in one unescaped/],
  ])('url %s is refused naming the field', (url, reason) => {
    expect(() => parseOwnerProjects(entry(`title: T\nurl: "${url}"`))).toThrow(reason);
    expect(() => parseOwnerProjects(entry(`title: T\nurl: "${url}"`))).toThrow(/^projects\.yaml: /);
  });

  it('refuses a missing or long title, a long description, an unknown field, too many projects, other shapes', () => {
    const url = 'url: https://a.example.org/';
    expect(() => parseOwnerProjects(entry(url))).toThrow(/^projects\.yaml: "projects\[0\]\.title" is missing/);
    expect(() => parseOwnerProjects(entry(`title: "${'x'.repeat(101)}"\n${url}`))).toThrow(
      /"projects\[0\]\.title" is 101 characters long, more than 100/,
    );
    expect(() => parseOwnerProjects(entry(`title: T\n${url}\ndescription: "${'x'.repeat(301)}"`))).toThrow(
      /"projects\[0\]\.description" is 301 characters long, more than 300/,
    );
    expect(() => parseOwnerProjects(entry(`title: T\n${url}\ndescription: 3`))).toThrow(
      /"projects\[0\]\.description" must be a non-empty string/,
    );
    expect(() => parseOwnerProjects(entry(`title: T\n${url}\ndescripton: D`))).toThrow(
      /^projects\.yaml: "projects\[0\]" has no field "descripton"; the fields are title, url, description$/,
    );
    expect(() => parseOwnerProjects(`projekts: []\n`)).toThrow(/^projects\.yaml: has no field "projekts"/);
    expect(() => parseOwnerProjects('- title: T\n')).toThrow(/^projects\.yaml: expected a mapping/);
    expect(() => parseOwnerProjects('projects: T\n')).toThrow(/^projects\.yaml: "projects" must be a list/);
    expect(() => parseOwnerProjects('projects:\n  - T\n')).toThrow(/"projects\[0\]" must be a mapping/);
    const many = `projects:\n${Array.from({ length: MAX_OWNER_PROJECTS + 1 }, (_, i) => `  - title: P${i}\n    ${url}\n`).join('')}`;
    expect(() => parseOwnerProjects(many)).toThrow(/"projects" lists 13 projects, more than 12/);
    expect(() => parseOwnerProjects(`projects:\n  - title: T\n    ${url}\n  - title: U\n    url: "ftp://x"\n`)).toThrow(
      /^projects\.yaml: "projects\[1\]\.url"/,
    );
  });
});

describe('projects.yaml mistakes through build(): exit 2 at once, one line, no upstream asked, nothing written', () => {
  let fake: FakeUpstreams;
  let base: string;
  beforeAll(async () => {
    fake = await startFakeUpstreams();
    base = await mkdtemp(join(tmpdir(), 'owner-projects-'));
  });
  afterAll(async () => {
    await fake?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  async function refused(setup: (dir: string) => Promise<void>, line: string): Promise<void> {
    const content = await contentCopy({});
    await setup(content.dir);
    const outDir = join(base, String(Math.random()).slice(2));
    fake.resetCalls();
    try {
      const result = await runBuild(outDir, upstreamEnv(fake.url), { content: content.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`build: the site's content needs a fix: ${line}\n`);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await content.close();
    }
  }

  it('an http: URL in the third project', async () => {
    const yaml = `projects:\n${['https://a.example.org/', 'https://b.example.org/', 'http://c.example.org/']
      .map((url, i) => `  - title: P${i}\n    url: ${url}\n`)
      .join('')}`;
    await refused(
      (dir) => writeFile(join(dir, PROJECTS_FILE), yaml),
      'projects.yaml: "projects[2].url" "http://c.example.org/" must be an absolute https: URL (https://host/path), without a user name',
    );
  });

  it('a right-to-left override in a description, and a zero-width space in a title', async () => {
    await refused(
      (dir) =>
        writeFile(
          join(dir, PROJECTS_FILE),
          entry('title: T\nurl: https://a.example.org/\ndescription: "exe.\u202Etxt"'),
        ),
      'projects.yaml: line 4 contains an invisible formatting character (U+202E); remove it',
    );
    await refused(
      (dir) => writeFile(join(dir, PROJECTS_FILE), entry('title: "A\u200Bb"\nurl: https://a.example.org/')),
      'projects.yaml: line 2 contains an invisible formatting character (U+200B); remove it',
    );
  });

  it('a symbolic link to a file outside site/', async () => {
    const outside = join(base, 'elsewhere.yaml');
    await writeFile(outside, entry('title: Secret\nurl: https://a.example.org/'));
    await refused(async (dir) => {
      await rm(join(dir, PROJECTS_FILE));
      await symlink(outside, join(dir, PROJECTS_FILE));
    }, 'projects.yaml: resolves to a file outside site/ (a symbolic link); copy the file into site/ instead');
  });
});
