// Text laid out in time linear in its length, and no further than what is drawn (render/text-width.ts,
// docs/site.md#how-long-a-text-may-be): a repository's description has no length limit upstream, and the
// owner's titles none but the bounds the build sets. Proven by counting the characters measured
// (measuredCharacters), never by a timing.
import { describe, expect, it } from 'vitest';
import { clampLines, clip, ellipsize, measuredCharacters, textWidth, wrapText } from '../render/text-width.ts';
import { sharePalette, shareImageSvg } from '../render/share-image.ts';
import { DEFAULT_LOOK } from '../render/themes.ts';
import { projectsCard, repositoryCard } from '../datasets/projects/card.ts';
import { projectCardHtml, MAX_SHOWN_DESCRIPTION } from '../render/project-card.ts';
import { CARD_MAX_BYTES } from '../render/card.ts';
import { LIGHT } from '../render/charts/theme.ts';
import type { GitHubProjects } from '../domain/projects.ts';

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

describe('ellipsize, wrapText, clampLines and clip read no further than the line they fill', () => {
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
      (t) => clip(t, MAX_SHOWN_DESCRIPTION),
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

  it('clip: at most the bound in characters, "…" only when cut', () => {
    expect(clip('abc', 3)).toBe('abc');
    expect(clip('abcd', 3)).toBe('ab…');
    expect(clip('😀😀😀😀', 3)).toBe('😀😀…');
    expect([...clip('x'.repeat(LONG), MAX_SHOWN_DESCRIPTION)]).toHaveLength(MAX_SHOWN_DESCRIPTION);
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
