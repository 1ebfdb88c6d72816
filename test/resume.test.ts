// The owner's résumé (docs/site.md#resumejson): site/resume.json judged against the JSON Resume schema of
// the npm registry, one line for the first fault; /resume, /resume.md and /resume.json from the fixture's
// full document; what is withheld unless the owner opts in; the home page's role, link and rel="me" links.
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseResume,
  publishedResume,
  RESUME_SCHEMA_VERSION,
  resumeSchema,
  type Resume,
} from '../builders/build/content/resume.ts';
import { currentRole, period, resumeMarkdownBody } from '../builders/build/pages/resume.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { contentCopy } from './helpers/hostile-content.ts';
import { avatarPng, pngClaiming, TINY_PNG } from './fakes/avatar.ts';
import { FIXTURE_SITE, runBuild, sharedSite, TEST_SITE_URL } from './helpers/site-dist.ts';
import { ROOT, upstreamEnv } from './helpers/run.ts';

const FIXTURE = JSON.parse(readFileSync(join(FIXTURE_SITE, 'resume.json'), 'utf8')) as Resume;
const withFixture = (change: (r: Resume) => void): string => {
  const copy = structuredClone(FIXTURE);
  change(copy);
  return JSON.stringify(copy);
};

/** The sections JSON Resume defines and the page's heading for each. */
const SECTIONS: Array<[keyof Resume, string]> = [
  ['work', 'Work'],
  ['projects', 'Projects'],
  ['volunteer', 'Volunteering'],
  ['education', 'Education'],
  ['awards', 'Awards'],
  ['certificates', 'Certificates'],
  ['publications', 'Publications'],
  ['skills', 'Skills'],
  ['languages', 'Languages'],
  ['interests', 'Interests'],
];

describe('resume.json is judged by the JSON Resume schema from the registry', () => {
  it('uses the schema the JSON Resume project publishes (draft-07, dates as YYYY, YYYY-MM or YYYY-MM-DD)', () => {
    const schema = resumeSchema();
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(Object.keys(schema.properties as object)).toEqual(
      expect.arrayContaining([...SECTIONS.map(([key]) => key), 'basics', 'references']),
    );
  });

  it('the docs and llms.txt name the schema version installed (node_modules/@jsonresume/schema/package.json)', async () => {
    const installed = (
      JSON.parse(readFileSync(join(ROOT, 'node_modules/@jsonresume/schema/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(RESUME_SCHEMA_VERSION).toBe(installed);
    const docs = readFileSync(join(ROOT, 'docs/site.md'), 'utf8');
    expect(docs).toContain(`\`@jsonresume/schema\` ${installed}, as installed`);
    expect(docs).not.toMatch(/schema 1\.0\.0/);
    expect(await sharedSite().read('llms.txt')).toContain(`the résumé as a JSON Resume ${installed} document`);
  });

  it('the full fixture document is valid', () => {
    expect(parseResume(JSON.stringify(FIXTURE)).document).toEqual(FIXTURE);
  });

  it.each([
    [
      'a date in words',
      withFixture((r) => (r.education![0]!.startDate = 'last spring')),
      /^resume\.json: \/education\/0\/startDate "last spring": expected .*2014-06-29 or 2023-04 \(JSON Resume schema\)$/,
    ],
    [
      'a URL that is not one',
      withFixture((r) => (r.basics!.profiles![0]!.url = 'not a url')),
      /^resume\.json: \/basics\/profiles\/0\/url "not a url": expected an absolute URL/,
    ],
    [
      'a list where an object belongs',
      withFixture((r) => ((r as Record<string, unknown>).basics = [])),
      /^resume\.json: \/basics \[\]: expected object/,
    ],
    [
      'a javascript: link, which the uri format lets through',
      withFixture((r) => (r.work![0]!.url = 'javascript:alert(1)')),
      /^resume\.json: \/work\/0\/url "javascript:alert\(1\)": expected an http: or https: URL$/,
    ],
    [
      'an unknown opt-in',
      withFixture((r) => (r.meta = { publish: ['address'] })),
      /^resume\.json: \/meta\/publish \["address"\]: expected a list of "phone" and\/or "references"$/,
    ],
    ['not JSON', '{"basics": ', /^resume\.json: is not JSON: /],
    ['JSON nested past the bound', `${'['.repeat(100)}${']'.repeat(100)}`, /^resume\.json: .*nest/],
  ])('%s: one line naming resume.json and the pointer', (_, text, line) => {
    expect(() => parseResume(text)).toThrow(line);
  });

  describe('through build(): exit 2, one line, no upstream asked, nothing written', () => {
    let fake: FakeUpstreams;
    let base: string;
    beforeAll(async () => {
      fake = await startFakeUpstreams();
      base = await mkdtemp(join(tmpdir(), 'resume-mistake-'));
    });
    afterAll(async () => {
      await fake?.close();
      if (base) await rm(base, { recursive: true, force: true });
    });

    it('education[0].startDate "last spring"', async () => {
      const content = await contentCopy({
        'resume.json': withFixture((r) => (r.education![0]!.startDate = 'last spring')),
      });
      const outDir = join(base, 'out');
      try {
        const result = await runBuild(outDir, upstreamEnv(fake.url), { content: content.dir });
        expect(result.code).toBe(2);
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          /^build: the site's content needs a fix: resume\.json: \/education\/0\/startDate "last spring": expected /,
        );
        expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
        await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
      } finally {
        await content.close();
      }
    });

    it('a site without resume.json publishes no résumé and links none', async () => {
      const content = await contentCopy({});
      await rm(join(content.dir, 'resume.json'));
      const outDir = join(base, 'none');
      try {
        const result = await runBuild(
          outDir,
          { ...upstreamEnv(fake.url), SITE_URL: TEST_SITE_URL },
          { content: content.dir },
        );
        expect(result.code, result.stderr).toBe(0);
        const files = await readdir(outDir);
        expect(files.filter((f) => f.startsWith('resume'))).toEqual([]);
        const home = readFileSync(join(outDir, 'index.html'), 'utf8');
        const llms = readFileSync(join(outDir, 'llms.txt'), 'utf8');
        const sitemap = readFileSync(join(outDir, 'sitemap.xml'), 'utf8');
        for (const text of [home, llms, sitemap]) expect(text).not.toMatch(/\/resume/);
      } finally {
        await content.close();
      }
    });
  });
});

describe('the published résumé (the fixture: a full JSON Resume document)', () => {
  const site = sharedSite();

  it('/resume.json is the document as validated, less the phone number and the references', async () => {
    const published = await site.json('resume.json');
    const { phone: _phone, ...basics } = FIXTURE.basics!;
    const { references: _references, ...rest } = FIXTURE;
    expect(published).toEqual({ ...rest, basics });
    expect(JSON.stringify(published)).not.toMatch(/555 0134|Jordan Lee/);
  });

  it('/resume and /resume.md show every non-empty section, and no phone or reference', async () => {
    const html = await site.read('resume.html');
    const md = await site.read('resume.md');
    for (const [, heading] of SECTIONS) {
      expect(html).toMatch(new RegExp(`<h2[^>]*>${heading}</h2>`));
      expect(md).toMatch(new RegExp(`^## ${heading}$`, 'm'));
    }
    // One entry of each, by a word of its own.
    for (const text of [
      'Northwind Transit Data',
      'public-data-preview',
      'Toronto Bike Union',
      'University of Waterloo',
      'Open Data Champion',
      'Certified Kubernetes Application Developer',
      'Static plus cron',
      'PostgreSQL',
      'Professional working proficiency',
      'bike repair',
    ]) {
      expect(html).toContain(text);
      expect(md).toContain(text);
    }
    // The page's text (a date sits in span.nowrap there, builders/render/html.ts keepPhrasesWhole) and the twin.
    for (const text of [html.replace(/<[^>]*>/g, ''), md]) {
      expect(text).not.toMatch(/555 0134|Jordan Lee|References/);
      // Dates as the site writes them: ISO 8601, as JSON Resume has them.
      expect(text).toContain('2022-03 – present');
      expect(text).toContain('2017-06-12 – 2022-02-28');
    }
    expect(md).toMatch(
      /^---\ntitle: Résumé\ndescription: Résumé of Ada Park, Staff Software Engineer\.\nurl: https:\/\/ada\.example\.org\/resume\n---\n\n# Ada Park\n/,
    );
    expect(html).toMatch(/<title>Résumé · Ada Park<\/title>/);
  });

  it('an empty section is left out', () => {
    const body = resumeMarkdownBody({ basics: { name: 'A' }, work: [], awards: [{ title: 'Prize' }] }, 'fallback');
    expect(body).not.toMatch(/## Work/);
    expect(body).toMatch(/## Awards\n\n### Prize/);
  });

  it('the phone number and the references are published when the owner lists them in meta.publish', () => {
    const loaded = parseResume(withFixture((r) => (r.meta = { publish: ['phone', 'references'] })));
    const published = publishedResume(loaded);
    expect(published.basics?.phone).toBe('+1 416 555 0134');
    expect(published.references).toEqual(FIXTURE.references);
    const body = resumeMarkdownBody(published, 'x');
    expect(body).toMatch(/\+1 416 555 0134/);
    expect(body).toMatch(/## References\n\n### Jordan Lee\n\nAda made our data trustworthy\./);
  });

  it('the owner’s text is Markdown-escaped: it renders as written, never as markup', () => {
    const body = resumeMarkdownBody({ basics: { name: '<img src=x onerror=alert(1)>', label: '*bold*' } }, 'x');
    expect(body).toMatch(/^# \\<img src=x onerror=alert\\\(1\\\)\\>/);
    expect(body).toContain('\\*bold\\*');
  });

  it('the current role is the latest work entry without an end date', () => {
    expect(currentRole(FIXTURE)).toEqual({ text: 'Staff Software Engineer at Northwind Transit Data' });
    expect(currentRole({ work: [{ name: 'Old', position: 'P', endDate: '2020' }] })).toBeNull();
    expect(period('2019', undefined)).toBe('2019 – present');
    expect(period(undefined, '2019')).toBe('2019');
  });

  it('the home page shows the current role and links /resume; basics.profiles join the links with rel="me"', async () => {
    const html = await site.read('index.html');
    expect(html).toMatch(
      /<p class="role"><span class="p-job-title">Staff Software Engineer at Northwind Transit Data<\/span> · <a href="\/resume">Résumé<\/a><\/p>/,
    );
    // each with its icon when its site is known (docs/site.md#profile-links)
    expect(html).toMatch(
      /<a class="u-url" href="https:\/\/hachyderm\.example\/@ada" rel="me" data-profile-site="mastodon"><svg [^>]+>.*?<\/svg>Mastodon<\/a>/,
    );
    expect(html).toContain('<a class="u-url" href="https://www.linkedin.example/in/ada-park" rel="me">LinkedIn</a>');
    expect(html).toMatch(
      /<a class="u-url" href="https:\/\/github\.com\/octocat" rel="me" data-profile-site="github"><svg [^>]+>.*?<\/svg>GitHub<\/a>/,
    );
    // A page of the site itself is no profile elsewhere.
    expect(html).toContain('<a href="/writings">Writings</a>');
    const profile = await site.json<{ links: Array<{ url: string }> }>('profile.json');
    expect(profile.links.map((l) => l.url)).toContain('https://hachyderm.example/@ada');
  });

  it('the sitemap and the llms files list /resume like the other pages', async () => {
    expect(await site.read('sitemap.xml')).toContain(`<loc>${TEST_SITE_URL}/resume</loc>`);
    const llms = await site.read('llms.txt');
    expect(llms).toContain(`- [Résumé](${TEST_SITE_URL}/resume.md)`);
    expect(llms).toContain(`(${TEST_SITE_URL}/resume.json)`);
    expect(await site.read('llms-full.txt')).toContain(`<!-- ${TEST_SITE_URL}/resume -->`);
  });
});

describe("basics.image is the owner's picture when profile.md names no avatar", () => {
  let fake: FakeUpstreams;
  let base: string;
  beforeAll(async () => {
    fake = await startFakeUpstreams();
    base = await mkdtemp(join(tmpdir(), 'resume-image-'));
  });
  afterAll(async () => {
    await fake?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  async function buildWithImage(
    image: string,
    files: Record<string, string> = {},
    pictures: Record<string, Uint8Array> = {},
    links: Record<string, string> = {},
  ) {
    const content = await contentCopy({ 'resume.json': withFixture((r) => (r.basics!.image = image)), ...files });
    for (const [name, bytes] of Object.entries(pictures)) await writeFile(join(content.dir, name), bytes);
    for (const [name, target] of Object.entries(links)) await symlink(target, join(content.dir, name));
    const outDir = join(base, `out-${Math.random().toString(36).slice(2)}`);
    const result = await runBuild(
      outDir,
      { ...upstreamEnv(fake.url), SITE_URL: TEST_SITE_URL },
      { content: content.dir },
    );
    return { result, outDir, close: content.close };
  }

  it('a file in site/: published by the site, shown on the home page, the JSON-LD image', async () => {
    const built = await buildWithImage('me.png', {}, { 'me.png': TINY_PNG });
    try {
      expect(built.result.code, built.result.stderr).toBe(0);
      expect(new Uint8Array(await readFile(join(built.outDir, 'assets/avatar.png')))).toEqual(TINY_PNG);
      const home = await readFile(join(built.outDir, 'index.html'), 'utf8');
      expect(home).toContain('src="/assets/avatar.png" alt="Ada Park"');
      const person = JSON.parse(/<script type="application\/ld\+json">([^<]*)<\/script>/.exec(home)![1]!);
      expect(person.image).toBe(`${TEST_SITE_URL}/assets/avatar.png`);
    } finally {
      await built.close();
    }
  });

  it("profile.md's avatar: wins over basics.image", async () => {
    const other = avatarPng(48);
    const profile = readFileSync(join(FIXTURE_SITE, 'profile.md'), 'utf8').replace(
      'links:\n',
      'avatar: mine.png\nlinks:\n',
    );
    const built = await buildWithImage('me.png', { 'profile.md': profile }, { 'me.png': TINY_PNG, 'mine.png': other });
    try {
      expect(built.result.code, built.result.stderr).toBe(0);
      expect(new Uint8Array(await readFile(join(built.outDir, 'assets/avatar.png')))).toEqual(other);
    } finally {
      await built.close();
    }
  });

  it.each([
    ['http://ada.example.org/me.png', /expected an https URL or the name of a picture file in site\//],
    ['missing.png', /site\/missing\.png is missing/],
    ['../outside.png', /must be github or the name of a picture file in site\/|expected an https URL or the name/],
  ])('%s: exit 2, one line naming resume.json and /basics/image, nothing fetched', async (image, reason) => {
    const built = await buildWithImage(image);
    try {
      expect(built.result.code).toBe(2);
      const lines = built.result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^build: the site's content needs a fix: resume\.json \/basics\/image /);
      expect(lines[0]).toMatch(reason);
    } finally {
      await built.close();
    }
  });

  it.each([
    [
      'a link out of site/',
      'me.png',
      /: site\/me\.png resolves to a file outside site\/ \(a symbolic link\); copy the file into site\/ instead$/,
    ],
    [
      'a picture claiming 30,000 × 30,000 pixels',
      'bomb.png',
      /: site\/bomb\.png is 30000 × 30000 pixels, more than 8192 a side or 50 megapixels in all; make it smaller$/,
    ],
  ])('%s: exit 2, one line naming resume.json and /basics/image, nothing of it in dist/', async (_, image, reason) => {
    const outside = await mkdtemp(join(tmpdir(), 'outside-site-'));
    await writeFile(join(outside, 'me.png'), TINY_PNG);
    fake.resetCalls();
    const built = await buildWithImage(
      image,
      {},
      { 'bomb.png': pngClaiming(30_000, 30_000) },
      { 'me.png': join(outside, 'me.png') },
    );
    try {
      expect(built.result.code, built.result.stderr).toBe(2);
      const lines = built.result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^build: the site's content needs a fix: resume\\.json /basics/image "${image}"`),
      );
      expect(lines[0]).toMatch(reason);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      await expect(readdir(built.outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await built.close();
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('an https URL that cannot be fetched: one line, the pages without a picture, the build otherwise whole', async () => {
    // Port 9 (discard) on loopback: nothing listens, so the fetch fails at once, offline.
    const built = await buildWithImage('https://127.0.0.1:9/me.png');
    try {
      expect(built.result.code, built.result.stderr).toBe(0);
      expect(built.result.stderr).toMatch(
        /^build: the résumé's picture \(basics\.image\) was not fetched: resume-image: GET https:\/\/127\.0\.0\.1:9\/me\.png failed; the pages go without one$/m,
      );
      expect((await readdir(join(built.outDir, 'assets'))).filter((f) => f.startsWith('avatar'))).toEqual([]);
      expect(await readFile(join(built.outDir, 'index.html'), 'utf8')).not.toMatch(/"image":/);
    } finally {
      await built.close();
    }
  });
});
