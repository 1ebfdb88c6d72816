// The site's pages and their Markdown twins, read from a real build (docs/api.md#published-paths, builders/build/content/twins.ts).
// The exact texts are those of the tests' own content, test/fixtures/site/; the repository's site/ is the
// owner's, and its build is checked only for what holds for any content (the last block), as is a second,
// deliberately different content (test/fixtures/other-site/).
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDist } from '../builders/build/dist-check/check.ts';
import { loadContent, parseWriting } from '../builders/build/content/site-content.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import type { MarketData } from '../builders/domain/market.ts';
import { readSiteFile } from '../builders/lib/config.ts';
import { ROOT } from './helpers/run.ts';
import { buildSite, sharedSite, TEST_SITE_URL, type BuiltSite, type SiteFiles } from './helpers/site-dist.ts';
import { datasets } from '../builders/datasets/registry.ts';
import { DEFAULT_SERVICE_OPTIONS } from '../builders/datasets/registry.ts';

const HTML_PAGES = [
  'index.html',
  'writings.html',
  'skills.html',
  'developers.html',
  'writings/static-plus-cron.html',
  'writings/midnight-in-toronto.html',
];
const DRAFT = {
  slug: 'unfinished-thoughts-on-ledgers',
  marker: 'DRAFT-MARKER-7f3a',
  title: 'Unfinished thoughts on ledgers',
};

/** The twins' front matter: `---`, one `key: value` per line, `---`. */
function frontMatter(markdown: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(markdown);
  expect(match, 'twin starts with a front-matter block').not.toBeNull();
  return Object.fromEntries(
    match![1]!.split('\n').map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
  );
}

describe('a normal build', () => {
  let site: SiteFiles;
  beforeAll(async () => {
    site = sharedSite();
    expect(site.result.stderr).toBe('');
    expect(site.result.code).toBe(0);
  });
  afterAll(() => site.close());

  it('writes every HTML page with a Markdown twin at its path plus .md, whose front matter names title, description and absolute url', async () => {
    const files = await site.files();
    for (const html of HTML_PAGES) {
      expect(files).toContain(html);
      const twinFile = html.replace(/\.html$/, '.md');
      expect(files).toContain(twinFile);
      const fields = frontMatter(await site.read(twinFile));
      expect(fields.title).toBeTruthy();
      expect(fields.description).toBeTruthy();
      const path = html === 'index.html' ? '/' : `/${html.replace(/\.html$/, '')}`;
      expect(fields.url).toBe(path === '/' ? `${TEST_SITE_URL}/` : `${TEST_SITE_URL}${path}`);
      const page = await site.read(html);
      expect(page).toMatch(/^<!doctype html>/);
      expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(page).toContain(`<link rel="alternate" type="text/markdown" href="/${twinFile}">`);
    }
    expect(files).toContain('404.html');
    expect(files).not.toContain('404.md');
  });

  it('/index.md is the profile: name, tagline, location, github keys; # name, tagline, the current role, ## Projects, ## About, ## Links', async () => {
    const md = await site.read('index.md');
    const fields = frontMatter(md);
    expect(fields).toMatchObject({
      name: 'Ada Park',
      location: 'Toronto, Canada',
      github: 'https://github.com/octocat',
    });
    expect(fields.tagline).toMatch(/Software engineer/);
    const body = md.replace(/^---\n[\s\S]*?\n---\n/, '');
    expect(body).toMatch(
      /^\n# Ada Park\n\nSoftware engineer[^\n]+\n\nStaff Software Engineer at Northwind Transit Data · \[Résumé\]\(https:\/\/ada\.example\.org\/resume\)\n\n## Projects\n\n[\s\S]+\n## About\n\n[\s\S]+\n## Links\n\n(- \[[^\]]+\]\(https?:\/\/[^)]+\)\n)+$/,
    );
  });

  it('/writings.md lists published writings newest first, one exact line each', async () => {
    const md = await site.read('writings.md');
    const lines = md.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([
      `- [Midnight in Toronto](${TEST_SITE_URL}/writings/midnight-in-toronto) \u2014 2026-05-02: A rolling 365-day calendar, one time zone, and the labels you must never shift.`,
      `- [Static plus cron: a data API without a server](${TEST_SITE_URL}/writings/static-plus-cron) \u2014 2026-03-14: Why a scheduled build that writes JSON files beats a server for most public previews, and what it cannot do.`,
    ]);
    expect(md).toContain('\n# Writings\n');
  });

  it('each writing twin carries date, summary and slug, and its body starts with # Title', async () => {
    const md = await site.read('writings/static-plus-cron.md');
    const fields = frontMatter(md);
    expect(fields).toMatchObject({
      date: '2026-03-14',
      slug: 'static-plus-cron',
      title: 'Static plus cron: a data API without a server',
    });
    expect(fields.summary).toMatch(/^Why a scheduled build/);
    expect(md.replace(/^---\n[\s\S]*?\n---\n\n/, '')).toMatch(/^# Static plus cron: a data API without a server\n/);
  });

  it('/skills.md has ## groups of `- Skill` or `- Skill: note` lines', async () => {
    const body = (await site.read('skills.md')).replace(/^---\n[\s\S]*?\n---\n\n/, '');
    expect(body).toMatch(/^# Skills\n/);
    const sections = body.split(/\n## /).slice(1);
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) {
      const [heading, ...rest] = section.trim().split('\n').filter(Boolean);
      expect(heading).toBeTruthy();
      for (const line of rest) expect(line).toMatch(/^- [^:]+(: .+)?$/);
    }
    expect(body).toContain('- TypeScript: Node.js services, CLIs and build tools');
    expect(body).toContain('- Python\n');
  });

  it('never publishes the draft writing anywhere in dist/', async () => {
    const files = await site.files();
    expect(files.filter((f) => f.includes(DRAFT.slug))).toEqual([]);
    for (const file of files) {
      // The build's compressed copies are read decoded: compressed text would never match.
      const bytes = await readFile(join(site.dir, file));
      const text = (
        file.endsWith('.br') ? brotliDecompressSync(bytes) : file.endsWith('.gz') ? gunzipSync(bytes) : bytes
      ).toString('utf8');
      expect(text, file).not.toContain(DRAFT.marker);
      expect(text, file).not.toContain(DRAFT.slug);
      expect(text, file).not.toContain(DRAFT.title);
    }
  });

  it('draws the sparkline and the heatmap from the snapshots, with value, change, range, asOf and the no-advice notice', async () => {
    const html = await site.read('index.html');
    const market = await site.json<MarketData>('api/v1/mon-price');
    const calendar = await site.json<GitHubContributions>('api/v1/github-contributions');
    expect(html).toMatch(
      new RegExp(`<svg class="sparkline sparkline-(up|down)"[^>]*data-points="${market.points.length}"`),
    );
    const path = /<path class="sparkline-line" d="([^"]+)"/.exec(html)![1]!;
    expect(path.split(/ (?=L)/)).toHaveLength(market.points.length);
    // value, low and high printed exactly, with one number of decimals for all three
    const shown = (field: string) => new RegExp(`<data value="[^"]+" data-field="${field}">([\\d.]+)`).exec(html)![1]!;
    const decimals = new Set(['value', 'low', 'high'].map((f) => shown(f).split('.')[1]!.length));
    expect(decimals.size).toBe(1);
    expect(Number(shown('value'))).toBe(market.value);
    expect(Number(shown('low'))).toBe(market.low);
    expect(Number(shown('high'))).toBe(market.high);
    expect(html).toMatch(new RegExp(`<data value="${market.value}" data-field="value">[\\d.]+ USD</data>`));
    // the chart's day axis and its low and high labels, HTML on the card's background that a contrast
    // checker can judge (builders/render/charts/label.ts), none of the charts' words SVG text
    expect(
      [...html.matchAll(/<foreignObject [^>]+><div [^>]*class="chart-label [^"]*chart-day[ "]/g)].length,
    ).toBeGreaterThanOrEqual(3);
    expect(html).toMatch(/data-field="high">High [\d.]+<\/div><\/foreignObject>/);
    expect(html).toMatch(/data-field="low">Low [\d.]+<\/div><\/foreignObject>/);
    expect(html).not.toMatch(/<text[ >]/);
    expect(html).toContain(`<data value="${market.changePercent}" data-field="changePercent"`);
    expect(html).toContain(`<data value="${market.low}" data-field="low">`);
    expect(html).toContain(`<data value="${market.high}" data-field="high">`);
    // HTML's datetime allows three digits of fractions of a second; the provider sends six.
    expect(html).toContain(`<time datetime="${market.asOf.replace(/(\.\d{3})\d+/, '$1')}" data-field="asOf">`);
    expect(html).not.toMatch(/datetime="[^"]*\.\d{4,}/);
    expect(html).toMatch(/not a trading recommendation or financial advice/);
    expect(html).toContain('<svg class="heatmap heatmap-wide"');
    // the wide drawing (one band) and the narrow one (two bands) hold the same days
    const cells = [...html.matchAll(/<rect [^>]*data-date="([\d-]+)" data-count="(\d+)" data-level="(\d)"/g)];
    expect(cells).toHaveLength(2 * calendar.days.length);
    cells.splice(calendar.days.length);
    expect(cells.map((c) => c[1])).toEqual(calendar.days.map((d) => d.date));
    expect(cells.map((c) => Number(c[2]))).toEqual(calendar.days.map((d) => d.count));
    expect(html).toContain(
      `data-field="totalContributions">${calendar.totalContributions.toLocaleString('en-US')}</strong>`,
    );
    expect(html).toContain('<script defer src="/assets/preview.js"></script>');
    expect(html).not.toContain('data-simulated');
  });

  it('ships the page script and the stylesheet (with print rules) as files', async () => {
    const script = await site.read('assets/preview.js');
    expect(script).toContain('fetch(');
    expect(script).toContain('[data-preview-body]');
    // About 20 kB of charts, readouts and the lazy wrappers of the datasets' views (datasets/<id>/view.ts),
    // plus about 7.5 kB of the live feed (site/scripts/live-feed.ts: the tick rule with its bounds, the
    // reconnection rule, the 4-a-second throttle, the table's changed rows), and about 1 kB keeping dates
    // and "as of" whole on a line in what it writes (builders/render/html.ts keepPhrasesWhole), plus about 2 kB of
    // the projects' cards (builders/datasets/projects/view.ts): 26 kB, and 2 kB a dataset's view.
    expect(script.length).toBeLessThan(26_000 + 2_000 * datasets(DEFAULT_SERVICE_OPTIONS).length);
    // Every dataset's view rides along, reached by its id alone (site/scripts/preview.ts).
    for (const { resource } of datasets(DEFAULT_SERVICE_OPTIONS))
      expect(script).toContain(`builders/datasets/${resource.id}/view.ts`);
    expect(script).not.toMatch(/console\.(log|error|warn)/);
    const css = await site.read('assets/site.css');
    expect(css).toContain('@media print');
  });
});

describe('builds whose upstream failed, and the demo build', () => {
  it('says the market preview is unavailable and draws no sparkline when the market upstream failed', async () => {
    const site = await buildSite({ setup: (fake) => (fake.market.mode = 'server-error') });
    try {
      expect(site.result.code).toBe(1);
      const html = await site.read('index.html');
      expect(html).toContain('data-unavailable="market"');
      expect(html).toMatch(/Market data unavailable/);
      expect(html).not.toContain('class="sparkline');
      // the other preview is still drawn from its own snapshot
      expect(html).toContain('<svg class="heatmap heatmap-wide"');
      expect(html).not.toContain('data-unavailable="contributions"');
    } finally {
      await site.close();
    }
  });

  it('says the calendar is unavailable and draws no heatmap when the GitHub upstream failed', async () => {
    const site = await buildSite({ setup: (fake) => (fake.github.mode = 'markup-drift') });
    try {
      expect(site.result.code).toBe(1);
      const html = await site.read('index.html');
      expect(html).toContain('data-unavailable="contributions"');
      expect(html).not.toContain('<svg class="heatmap');
      expect(html).toContain('class="sparkline');
      // the developer page documents only what the build published: no calendar route, no invented example
      const developers = await site.read('developers.md');
      expect(developers).not.toContain('/api/v1/github-contributions');
      expect(developers).toContain('/api/v1/mon-price');
    } finally {
      await site.close();
    }
  });

  it("docs/cli.md's size of cli.mjs is the build's, within a tenth", async () => {
    const guide = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const said = Number(/prints its size, about (\d+) kB/.exec(guide)?.[1]) * 1000;
    const built = (await readFile(join(sharedSite().dir, 'cli.mjs'))).length;
    expect(
      Math.abs(said - built) / built,
      `docs/cli.md says about ${said / 1000} kB; the build wrote ${built} bytes`,
    ).toBeLessThanOrEqual(0.1);
  });

  it("docs/site.md's dist/ layout names every file the build writes, and no file it does not", async () => {
    const guide = readFileSync(join(ROOT, 'docs/site.md'), 'utf8');
    const block = /## `dist\/` layout\n\n```\n([\s\S]*?)```/.exec(guide)![1]!;
    // the paths of the block: the first column's words that name a file (a dot or a slash in them)
    const named = block
      .split('\n')
      .flatMap((line) => line.split(/ {3,}/)[0]!.split(/\s+/))
      .filter((word) => /[./_]/.test(word) && !word.startsWith('/'));
    const patterns = named.map(
      (path) =>
        new RegExp(
          `^${path
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace('<slug>', '[a-z0-9-]+')
            // One line for every dataset of the registry: its snapshot pair, its card pair.
            .replace('<dataset>', '[a-z0-9-]+')
            .replace('<card>', '[a-z0-9-]+')
            .replace('<folder>', '[a-z0-9-]+')
            .replace('<owner>', '[a-z0-9-]+')
            .replace('<name>', '[a-z0-9._-]+')
            .replace('<file>', '.+')}$`,
        ),
    );
    const files = await sharedSite().files();
    for (const file of files)
      expect(
        patterns.some((p) => p.test(file)),
        `${file} is not in the layout`,
      ).toBe(true);
    for (const [i, path] of named.entries())
      expect(
        files.some((file) => patterns[i]!.test(file)),
        `${path} is in the layout but not built`,
      ).toBe(true);
  });

  it('/developers opens with a table of contents of every section and subsection, and links no empty query', async () => {
    const html = await sharedSite().read('developers.html');
    const contents = /<h2 id="contents">Contents<\/h2>\s*<ul>([\s\S]*?)<\/ul>\s*<h2/.exec(html);
    expect(contents).not.toBeNull();
    const listed = [...contents![1]!.matchAll(/<a href="#([^"]+)">/g)].map((m) => m[1]);
    const headings = [...html.matchAll(/<h[23] id="([^"]+)">/g)].map((m) => m[1]).filter((id) => id !== 'contents');
    expect(listed).toEqual(headings);
    expect(listed).toEqual(expect.arrayContaining(['endpoints', 'problem-types', 'upstream-unavailable']));
    // before the first section: at the top
    expect(html.indexOf('id="contents"')).toBeLessThan(html.indexOf('id="endpoints"'));
    // no link whose query names a parameter and no value (the shields.io badge's address is code, not a link)
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.filter((href) => /[?&][^=&#]+=(?:&|#|$)/.test(href))).toEqual([]);
  });

  it('puts a "simulated data (demo)" notice on every HTML page of a demo build, first inside <main>', async () => {
    const site = await buildSite({ env: { DEMO_SIMULATED: '1' } });
    try {
      for (const file of [...HTML_PAGES, '404.html']) {
        // Inside a landmark (axe's "region" rule), where "Skip to content" lands.
        expect(await site.read(file), file).toMatch(
          /<main id="content">\s*<p class="notice" role="note" data-simulated="true"><strong>Simulated data \(demo\)\.<\/strong>/,
        );
      }
      // a demo is never published by the Publish workflow: status.json names no next run
      expect((await site.json<{ nextRunAt: unknown }>('status.json')).nextRunAt).toBeNull();
      // the developer page's examples are this build's snapshots: simulated ones, and said so
      const developers = await site.read('developers.md');
      expect(developers).not.toMatch(/real snapshot/i);
      expect(developers.match(/A simulated snapshot from this demo build \(not real data\)/g)).toHaveLength(
        datasets(DEFAULT_SERVICE_OPTIONS).length,
      );
    } finally {
      await site.close();
    }
  });
});

/**
 * What every build publishes of its content, whatever the content says: read from the content folder
 * itself with the build's own parser, then found in the pages, the twins, the feeds, the sitemap and
 * llms.txt, with every link resolving on a Pages-like host.
 */
async function expectContentPublished(site: BuiltSite, contentDir: string) {
  expect(site.result.stderr).toBe('');
  expect(site.result.code).toBe(0);
  const content = loadContent(pathToFileURL(contentDir));
  const siteFile = readSiteFile(pathToFileURL(join(contentDir, 'site.json')));
  const files = await site.files();
  const slugs = content.writings.map((w) => w.slug);
  const tags = [...new Set(content.writings.flatMap((w) => w.tags))];
  const pages = [
    'index',
    'writings',
    'skills',
    'developers',
    ...slugs.map((slug) => `writings/${slug}`),
    ...tags.map((tag) => `writings/tags/${tag}`),
  ];
  for (const page of pages) {
    expect(files, page).toContain(`${page}.html`);
    expect(files, page).toContain(`${page}.md`);
  }
  expect(files).toContain('404.html');
  // a draft is published nowhere: no file, no sitemap entry, no feed item
  const drafts = readdirSync(join(contentDir, 'writings'))
    .filter((f) => f.endsWith('.md'))
    .filter((f) => parseWriting(readFileSync(join(contentDir, 'writings', f), 'utf8'), `writings/${f}`) === null)
    .map((f) => f.slice(0, -'.md'.length));
  for (const draft of drafts) {
    expect(files.filter((f) => f.includes(draft))).toEqual([]);
    expect(await site.read('sitemap.xml')).not.toContain(draft);
  }

  // the profile as given in profile.md, the title as given in site.json
  const twin = await site.read('index.md');
  expect(twin).toContain(`\nname: ${content.profile.name}\n`);
  expect(twin).toContain(`\nlocation: ${content.profile.location}\n`);
  expect(twin).toContain(`\n# ${content.profile.name}\n`);
  const profile = await site.json<{ name: string; location: string }>('profile.json');
  expect(profile).toMatchObject({ name: content.profile.name, location: content.profile.location });
  expect((await site.read('llms.txt')).split('\n')[0]).toBe(`# ${siteFile.title}`);
  const skills = await site.json<{ groups: Array<{ name: string; skills: Array<{ name: string }> }> }>('skills.json');
  expect(skills.groups.map((g) => [g.name, g.skills.map((k) => k.name)])).toEqual(
    content.skills.map((g) => [g.group, g.skills.map((k) => k.name)]),
  );

  // the writings newest first, in the list, the feed and the sitemap
  const list = (await site.read('writings.md')).split('\n').filter((l) => l.startsWith('- '));
  expect(list.map((l) => /\]\(([^)]+)\)/.exec(l)?.[1])).toEqual(
    slugs.map((slug) => `${TEST_SITE_URL}/writings/${slug}`),
  );
  const feed = await site.json<{ items: Array<{ url: string; title: string }> }>('feed.json');
  expect(feed.items.map((i) => [i.url, i.title])).toEqual(
    content.writings.map((w) => [`${TEST_SITE_URL}/writings/${w.slug}`, w.title]),
  );
  const locs = [...(await site.read('sitemap.xml')).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect([...locs].sort()).toEqual(
    pages
      .filter((p) => p !== 'index')
      .map((p) => `${TEST_SITE_URL}/${p}`)
      .concat(`${TEST_SITE_URL}/`)
      .sort(),
  );

  const report = await checkDist(site.dir, TEST_SITE_URL);
  expect(report.failures).toEqual([]);
}

describe('whatever content an owner writes under site/', () => {
  it("builds the repository's own site/ completely: every page, its writings, its profile and title, no draft, every link resolving", async () => {
    const site = await buildSite({ site: 'repository' });
    try {
      await expectContentPublished(site, `${ROOT}site/`);
    } finally {
      await site.close();
    }
  });

  it('holds for content unlike the stock site (test/fixtures/other-site/): other names, accents, fewer writings, a draft of its own', async () => {
    const content = `${ROOT}test/fixtures/other-site/`;
    const site = await buildSite({ site: { content } });
    try {
      await expectContentPublished(site, content);
      expect(await site.read('index.md')).toContain('\nname: Zoë Nakamura-O’Brien\n');
      for (const file of await site.files())
        if (!/\.(br|gz)$/.test(file)) expect(await site.read(file), file).not.toContain('OTHER-DRAFT-9c1e');
    } finally {
      await site.close();
    }
  });
});
