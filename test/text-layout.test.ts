// Text laid out in time linear in its length, and no further than what is drawn (builders/render/text-width.ts,
// docs/site.md#how-long-a-text-may-be): a repository's description has no length limit upstream, and the
// owner's titles none but the bounds the build sets. Proven by counting the characters measured
// (measuredCharacters), never by a timing.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampLines, ellipsize, measuredCharacters, textWidth, wrapText } from '../builders/render/text-width.ts';
import { sharePalette, shareImageSvg } from '../builders/render/share-image.ts';
import { DEFAULT_LOOK } from '../builders/render/themes.ts';
import { projectsCard, repositoryCard } from '../builders/datasets/projects/card.ts';
import { MAX_SHOWN_DESCRIPTION, projectCardHtml, shownDescription } from '../builders/render/project-card.ts';
import { CARD_MAX_BYTES } from '../builders/render/card.ts';
import { LIGHT } from '../builders/render/charts/theme.ts';
import type { GitHubProjects } from '../builders/datasets/projects/rule.ts';
import { dataResource } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { defaultProjects } from './fakes/projects.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { contentCopy } from './helpers/hostile-content.ts';
import { upstreamEnv } from './helpers/run.ts';
import {
  FIXTURE_SITE,
  listFiles,
  runBuild,
  runBuildMain,
  TEST_SITE_CLOCK,
  TEST_SITE_URL,
} from './helpers/site-dist.ts';

const LONG = 200_000;
/** Every shape a long text takes: one word, words, blanks between, wide letters, pairs of UTF-16 units. */
const SHAPES: Array<[string, (n: number) => string]> = [
  ['one word', (n) => 'x'.repeat(n)],
  ['words', (n) => 'word '.repeat(n / 5)],
  ['wide letters and spaces', (n) => 'W '.repeat(n / 2)],
  ['blanks', (n) => `a${' '.repeat(n - 2)}b`],
  ['emoji', (n) => '😀'.repeat(n / 2)],
];

/** How many characters `work` measured. */
function measured(work: () => unknown): number {
  const before = measuredCharacters();
  work();
  return measuredCharacters() - before;
}

describe('ellipsize, wrapText and clampLines read no further than the line they fill', () => {
  it.each(SHAPES)('%s: 200,000 characters cost what 2,000 of them cost', (_, shape) => {
    const text = shape(LONG);
    const short = shape(2_000);
    const layouts: Array<(t: string) => unknown> = [
      (t) => ellipsize(t, 400, 12),
      (t) => ellipsize(t, 400, 12, true),
      (t) => clampLines(t, 1040, 68, 3, true),
      (t) => clampLines(t, 368, 12, 3),
      (t) => wrapText(t, 400, 12, ' ', 3),
      (t) => wrapText(t, 400, 12, ' · ', 3),
    ];
    for (const layout of layouts) {
      const work = measured(() => layout(text));
      expect(work).toBe(measured(() => layout(short)));
      // A 400-pixel line at 12 px holds at most 400 / (0.33 × 12) ≈ 101 characters: a few lines' tests.
      expect(work).toBeLessThan(20_000);
    }
  });

  it('a whole wrap is linear: twice the text, at most twice the work', () => {
    const short = measured(() => wrapText('word '.repeat(10_000), 400, 12));
    const long = measured(() => wrapText('word '.repeat(20_000), 400, 12));
    expect(long).toBeLessThanOrEqual(2 * short + 100);
    // Each character is measured a bounded number of times (its line's tests), never once per character dropped.
    expect(long).toBeLessThan(20 * 5 * 20_000);
  });

  it('cuts where the old one-character-at-a-time loop cut', () => {
    expect(ellipsize('a short one', 400, 12)).toBe('a short one');
    const cut = ellipsize('word '.repeat(100), 200, 12);
    expect(cut).toMatch(/^word word.*[^ ]…$/);
    expect(textWidth(cut, 12)).toBeLessThanOrEqual(200);
    const xs = ellipsize('x'.repeat(100), 200, 12, true);
    expect(textWidth(xs, 12, true)).toBeLessThanOrEqual(200);
    expect(textWidth(`x${xs}`, 12, true)).toBeGreaterThan(200);
    expect(ellipsize('W'.repeat(10), 5, 12)).toBe('…');
    // A pair of UTF-16 units is never split.
    expect(ellipsize('😀'.repeat(100), 100, 12)).toBe(`${'😀'.repeat(10)}…`);
  });

  it('wrapText with a bound gives the first lines of the whole wrap', () => {
    for (const text of ['a bb ccc dddd eeeee '.repeat(20), `x · ${'y'.repeat(300)} · z w v · u`.repeat(5)])
      for (const separator of [' ', ' · '])
        for (const max of [1, 2, 3, 7])
          expect(wrapText(text, 120, 12, separator, max)).toEqual(wrapText(text, 120, 12, separator).slice(0, max));
  });

  it('a shown description: at most MAX_SHOWN_DESCRIPTION characters, "…" only when cut', () => {
    const exact = '😀'.repeat(MAX_SHOWN_DESCRIPTION);
    expect(shownDescription(exact)).toBe(exact);
    expect(shownDescription(`${exact}x`)).toBe(`${'😀'.repeat(MAX_SHOWN_DESCRIPTION - 1)}…`);
    expect(shownDescription(`${'a'.repeat(MAX_SHOWN_DESCRIPTION - 2)} bcd`)).toBe(
      `${'a'.repeat(MAX_SHOWN_DESCRIPTION - 2)}…`,
    );
    expect([...shownDescription('x'.repeat(LONG))]).toHaveLength(MAX_SHOWN_DESCRIPTION);
  });
});

describe('the pictures and cards of a 200,000-character text', () => {
  const palette = sharePalette(DEFAULT_LOOK);
  const text = { site: 'Site', title: 'A title', subtitle: 'A description.', footer: 'example.test' };

  it.each(SHAPES)('a share picture of a %s title and description: bounded work, at most three lines', (_, shape) => {
    const long = shape(LONG);
    const short = measured(() => shareImageSvg({ ...text, site: 'Site', title: 'word', subtitle: 'word' }, palette));
    let svg = '';
    const work = measured(() => (svg = shareImageSvg({ ...text, site: long, title: long, subtitle: long }, palette)));
    expect(work - short).toBeLessThan(5_000);
    const lines = [...svg.matchAll(/font-size="68"/g)].length;
    expect(lines).toBeGreaterThanOrEqual(1);
    expect(lines).toBeLessThanOrEqual(3);
    expect(svg.length).toBeLessThan(5_000);
  });

  it.each(SHAPES)("a repository's %s description: its cards and page card are bounded, the text cut", (_, shape) => {
    const long = shape(LONG);
    const project = {
      owner: 'octo-org',
      name: 'hello-world',
      url: 'https://github.com/octo-org/hello-world',
      description: long,
      language: 'Python',
      languageColor: '#3572A5',
      stars: 1,
      forks: 2,
    };
    const payload: GitHubProjects = {
      username: 'octocat',
      selection: 'pinned',
      asOf: '2026-11-22T14:03:07.000Z',
      projects: [project, project, project, project, project, project],
    };
    let cards: string[] = [];
    const work = measured(() => {
      cards = [projectsCard(payload, LIGHT, false), repositoryCard(payload, project, LIGHT, false)];
    });
    expect(work).toBeLessThan(20_000);
    for (const card of cards) expect(Buffer.byteLength(card)).toBeLessThan(CARD_MAX_BYTES);
    const html = projectCardHtml({ name: project.name, href: project.url, description: long });
    expect(html.length).toBeLessThan(MAX_SHOWN_DESCRIPTION * 10);
  });
});

describe('the build, against the fakes', () => {
  let fake: FakeUpstreams;
  let base: string;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
    base = await mkdtemp(join(tmpdir(), 'long-text-'));
  });
  afterAll(async () => {
    await fake?.close();
    await rm(base, { recursive: true, force: true });
  });

  const env = (more: Record<string, string> = {}) => ({
    ...upstreamEnv(fake.url),
    SITE_URL: TEST_SITE_URL,
    UPSTREAM_TIMEOUT_MS: '20000',
    SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
    ...more,
  });

  /** A build whose first pinned repository has `description`, and the characters its layout measured. */
  async function buildDescribed(name: string, description: string, more: Record<string, string> = {}) {
    fake.projects = defaultProjects('octocat');
    fake.projects.pinned[0]!.description = description;
    const dir = join(base, name);
    const before = measuredCharacters();
    const result = await runBuild(dir, env(more));
    return { dir, result, work: measuredCharacters() - before };
  }

  it.each([
    ['the profile page', 100_000, {}],
    ['GraphQL', 200_000, { GITHUB_TOKEN: 'test-token' }],
  ])(
    'a %s description of %i characters: exit 0, whole in the payload, laid out as a short one is',
    async (source, length, more) => {
      const short = await buildDescribed(`short-${length}`, 'A short description.', more);
      expect(short.result.code, short.result.stderr).toBe(0);
      const long = 'word '.repeat(length / 5).trim();
      const b = await buildDescribed(`long-${length}`, long, more);
      expect(b.result.code, b.result.stderr).toBe(0);
      const payload = JSON.parse(
        await readFile(join(b.dir, dataResource(DEFAULT_SERVICE, 'projects').snapshotFiles[0]!), 'utf8'),
      ) as GitHubProjects;
      expect(payload.projects[0]!.description).toBe(long);
      // The layout of every card and picture costs a few lines' more, never a measure per character.
      expect(b.work - short.work).toBeLessThan(20_000);
      const cards = (await listFiles(b.dir)).filter((f) => f.startsWith('cards/') && f.endsWith('.svg'));
      expect(cards.length).toBeGreaterThan(4);
      for (const card of cards) expect((await stat(join(b.dir, card))).size, card).toBeLessThan(CARD_MAX_BYTES);
      // The home page shows the description's first MAX_SHOWN_DESCRIPTION characters (builders/render/project-card.ts).
      const home = async (dir: string) => (await readFile(join(dir, 'index.html'), 'utf8')).length;
      expect((await home(b.dir)) - (await home(short.dir))).toBeLessThan(MAX_SHOWN_DESCRIPTION * 2);
    },
  );

  it.each([
    ['site.json', 'title', (site: string) => site.replace('"title": "', `"title": "${'W'.repeat(20_000)}`)],
    [
      'writings/midnight-in-toronto.md',
      'title',
      (writing: string) => writing.replace(/^title: /m, `title: ${'word '.repeat(4_000)}`),
    ],
    [
      'writings/midnight-in-toronto.md',
      'summary',
      (writing: string) => writing.replace(/^summary: /m, `summary: ${'word '.repeat(4_000)}`),
    ],
    ['profile.md', 'name', (profile: string) => profile.replace(/^name: /m, `name: ${'W'.repeat(20_000)}`)],
  ])('a 20,000-character %s %s: exit 2 naming the file and the field, nothing written', async (file, field, edit) => {
    const original = await readFile(join(FIXTURE_SITE, file), 'utf8');
    const edited = edit(original);
    expect(edited).not.toBe(original);
    const content = await contentCopy({ [file]: edited });
    try {
      fake.resetCalls();
      const out = join(base, `bound-${file.replace(/\W/g, '-')}-${field}`);
      const result = await runBuildMain(['--out', out], env(), { content: content.dir });
      expect(result.code, result.stderr).toBe(2);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(file.replace(/^.*\//, ''));
      expect(lines[0]).toMatch(new RegExp(`"${field}" is \\d+ characters long, more than \\d+; shorten it`));
      expect(lines[0]!.length).toBeLessThan(400);
      await expect(stat(out)).rejects.toThrow(/ENOENT/);
    } finally {
      await content.close();
    }
  });
});
