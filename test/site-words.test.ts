// The owner's words for the pages, from site/ (docs/site.md#site-content-site): the header's links
// (site.json `nav`, the résumé among them when there is one), the Writings page's description (its lede, meta,
// share picture and feeds: site.json `writings.description`), and one place for the skills (skills.yaml, else
// the résumé's). The stock words are the stock site's files, here the tests' copy, test/fixtures/site/.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sitePagesOf } from '../builders/build/content/site-pages.ts';
import { ContentError } from '../builders/lib/errors.ts';
import type { SiteFile } from '../builders/lib/config.ts';
import { contentCopy } from './helpers/hostile-content.ts';
import { buildSite, FIXTURE_SITE, sharedSite } from './helpers/site-dist.ts';

const FIXTURE_SITE_FILE = JSON.parse(readFileSync(join(FIXTURE_SITE, 'site.json'), 'utf8')) as SiteFile &
  Record<string, unknown>;
const siteWith = (fields: Record<string, unknown>): SiteFile => ({ ...FIXTURE_SITE_FILE, ...fields }) as SiteFile;
/** The header's links of a page, as label → href. */
const headerOf = (html: string): Array<[string, string]> => {
  const nav = /<nav class="site-nav" aria-label="Site"><ul>(.*?)<\/ul><\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[2]!, m[1]!]);
};
const PAGES_OF_THE_SITE = ['index.html', 'writings.html', 'skills.html', 'developers.html', 'resume.html', '404.html'];

describe('the header links what site.json says, the résumé among them when there is one', () => {
  it('the stock site: Home, Writings, Résumé, Skills, Developers on every page; the current one marked', async () => {
    const site = sharedSite();
    for (const file of PAGES_OF_THE_SITE)
      expect(headerOf(await site.read(file)), file).toEqual([
        ['Home', '/'],
        ['Writings', '/writings'],
        ['Résumé', '/resume'],
        ['Skills', '/skills'],
        ['Developers', '/developers'],
      ]);
    expect(await site.read('resume.html')).toContain('<a href="/resume" aria-current="page">Résumé</a>');
    expect(await site.read('writings.html')).toContain('<a href="/writings" aria-current="page">Writings</a>');
  });

  it('without a résumé, its link is left out; with none in site.json, the pages titles stand in', () => {
    expect(sitePagesOf(siteWith({}), false).header.map((l) => l.path)).toEqual([
      '/',
      '/writings',
      '/skills',
      '/developers',
    ]);
    const { nav: _nav, writings: _writings, ...older } = FIXTURE_SITE_FILE;
    expect(sitePagesOf(older as SiteFile, true).header.map((l) => l.label)).toEqual([
      'Home',
      'Writings',
      'Résumé',
      'Skills',
      'Developers',
    ]);
    expect(sitePagesOf(older as SiteFile, false).writingsDescription).toBe('Writings by Ada Park.');
  });

  it.each([
    [
      { nav: [{ label: 'Blog', path: '/blog' }] },
      /"nav\[0\]\.path" "\/blog" is not a page of the site; the header links \//,
    ],
    [{ nav: [{ label: '', path: '/' }] }, /"nav\[0\]\.label" must be a non-empty string/],
    [{ nav: [{ label: 'Home', path: '/', icon: 'x' }] }, /"nav\[0\]" has no field "icon"/],
    [{ nav: [] }, /"nav" must be a list of 1 to 8 links/],
    [
      {
        nav: [
          { label: 'A', path: '/' },
          { label: 'B', path: '/' },
        ],
      },
      /"nav" links \/ twice/,
    ],
    [{ writings: { description: 'two\nlines' } }, /"writings\.description" must fit on one line/],
    [{ writings: 'Notes' }, /"writings" must be an object/],
  ])('refuses %j naming site.json and the field', (fields, reason) => {
    expect(() => sitePagesOf(siteWith(fields), true)).toThrow(ContentError);
    expect(() => sitePagesOf(siteWith(fields), true)).toThrow(reason);
    expect(() => sitePagesOf(siteWith(fields), true)).toThrow(/^site\.json: /);
  });
});

describe("the owner's own words, built", () => {
  const DESCRIPTION = 'Field notes on tides, ferries and the data that schedule them.';

  it('a Writings description and a header of their own reach the page, its meta, share picture, twin and feeds', async () => {
    const content = await contentCopy({
      'site.json': JSON.stringify(
        siteWith({
          nav: [
            { label: 'Start', path: '/' },
            { label: 'Résumé', path: '/resume' },
            { label: 'Notes', path: '/writings' },
          ],
          writings: { description: DESCRIPTION },
        }),
      ),
    });
    await rm(join(content.dir, 'resume.json'));
    const site = await buildSite({ site: { content: content.dir } });
    try {
      expect(site.result.code, site.result.stderr).toBe(0);
      const html = await site.read('writings.html');
      expect(html).toContain(`<meta name="description" content="${DESCRIPTION}">`);
      expect(html).toContain(`<meta property="og:description" content="${DESCRIPTION}">`);
      expect(html).toContain(`<p class="lede">${DESCRIPTION}</p>`);
      expect(html).toContain(`<meta property="og:image:alt" content="Writings: ${DESCRIPTION}">`);
      expect(html).not.toContain('Notes on data pipelines');
      expect(await site.read('writings.md')).toContain(DESCRIPTION);
      expect((await site.json<{ description: string }>('feed.json')).description).toBe(DESCRIPTION);
      expect(await site.read('feed.atom')).toContain(`<subtitle>${DESCRIPTION}</subtitle>`);
      // No résumé: its link is left out of the owner's header, the rest in the owner's order and words.
      for (const file of ['index.html', 'writings.html', 'skills.html'])
        expect(headerOf(await site.read(file)), file).toEqual([
          ['Start', '/'],
          ['Notes', '/writings'],
        ]);
    } finally {
      await site.close();
      await content.close();
    }
  }, 120_000);

  it('a header link to no page of the site: exit 2, one line naming site.json and the field', async () => {
    const content = await contentCopy({
      'site.json': JSON.stringify(siteWith({ nav: [{ label: 'Blog', path: '/blog' }] })),
    });
    const site = await buildSite({ site: { content: content.dir } });
    try {
      expect(site.result.code).toBe(2);
      expect(site.result.stderr).toMatch(
        /^build: the site's content needs a fix: site\.json: "nav\[0\]\.path" "\/blog" is not a page of the site[^\n]*\n$/,
      );
      expect(await site.files()).toEqual([]);
    } finally {
      await site.close();
      await content.close();
    }
  }, 120_000);
});

describe('one place for the skills (docs/site.md#skills)', () => {
  it("without skills.yaml, the skills page and skills.json are the résumé's skills", async () => {
    const content = await contentCopy({});
    await rm(join(content.dir, 'skills.yaml'));
    const site = await buildSite({ site: { content: content.dir } });
    try {
      expect(site.result.code, site.result.stderr).toBe(0);
      const skills = await site.json<{ groups: Array<{ name: string; skills: Array<{ name: string }> }> }>(
        'skills.json',
      );
      expect(skills.groups).toEqual([
        { name: 'Backend', skills: [{ name: 'TypeScript' }, { name: 'Node.js' }, { name: 'PostgreSQL' }] },
        { name: 'Data', skills: [{ name: 'Kafka' }, { name: 'dbt' }] },
      ]);
      expect(await site.read('skills.html')).toContain('Kafka');
    } finally {
      await site.close();
      await content.close();
    }
  }, 120_000);

  it('skills.yaml, when there is one, wins over the résumé (the stock site)', async () => {
    const skills = await sharedSite().json<{ groups: Array<{ name: string }> }>('skills.json');
    expect(skills.groups.map((g) => g.name)).toContain('HTTP and APIs');
    expect(skills.groups.map((g) => g.name)).not.toContain('Backend');
  });

  it('neither skills.yaml nor résumé skills: exit 2 naming skills.yaml and both places', async () => {
    const content = await contentCopy({});
    await rm(join(content.dir, 'skills.yaml'));
    await rm(join(content.dir, 'resume.json'));
    const site = await buildSite({ site: { content: content.dir } });
    try {
      expect(site.result.code).toBe(2);
      expect(site.result.stderr).toBe(
        `build: the site's content needs a fix: skills.yaml: is missing; list your skills there, or in resume.json's "skills" (docs/site.md#skills)\n`,
      );
    } finally {
      await site.close();
      await content.close();
    }
  }, 120_000);
});
