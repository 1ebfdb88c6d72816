// The home page leads with the person (docs/site.md#the-home-page): the header (picture, name, role,
// links), then their projects as cards of HTML (the GitHub ones, then site/projects.yaml's), then the live
// data. The projects are the build's snapshot, said "as of" its time and current for as long as --previous
// may republish it (7 days), not stale after the market's 3 hours; the page script fetches nothing for
// them. The order, Tab and the page's weight in Chromium are test/slow/home-page.test.ts's.
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { buildSite, FIXTURE_SITE, sharedSite } from './helpers/site-dist.ts';
import { PROJECTS_REUSE_MAX_MS, type GitHubProjects } from '../builders/datasets/projects/rule.ts';
import { loadContent } from '../builders/build/content/site-content.ts';
import { datasets, DEFAULT_SERVICE_OPTIONS } from '../builders/datasets/registry.ts';

/** The stock deployment's datasets, in the registry's order. */
const DATASETS = datasets(DEFAULT_SERVICE_OPTIONS);

const PROJECTS_PATH = 'api/v1/github-projects';

/**
 * The elements under `root` that match `selector`: a chain of simple selectors (`section.work
 * li.project`), each a tag, classes and `[attribute]` or `[attribute="value"]` tests, or several such
 * chains separated by commas. Enough for these pages, without a selector engine among the dependencies.
 */
function selectAll(selector: string, root: ChildNode | ChildNode[]): Element[] {
  const simple = (part: string) => {
    const tag = /^[a-z][a-z0-9]*/.exec(part)?.[0];
    const classes = [...part.matchAll(/\.([\w-]+)/g)].map((m) => m[1]!);
    const attributes = [...part.matchAll(/\[([\w-]+)(?:([\^]?=)"([^"]*)")?\]/g)];
    return (el: Element) =>
      (tag === undefined || el.name === tag) &&
      classes.every((c) => (el.attribs.class ?? '').split(/\s+/).includes(c)) &&
      attributes.every(([, name, op, value]) => {
        const v = el.attribs[name!];
        return v !== undefined && (op === undefined || (op === '=' ? v === value : v.startsWith(value!)));
      });
  };
  const nodes = Array.isArray(root) ? root : [root];
  const found = new Set<Element>();
  for (const chain of selector.split(',')) {
    let scope = nodes;
    let matched: Element[] = [];
    for (const part of chain.trim().split(/\s+/)) {
      matched = DomUtils.findAll(simple(part), scope);
      scope = matched;
    }
    for (const el of matched) found.add(el);
  }
  return [...found];
}
const selectOne = (selector: string, root: ChildNode | ChildNode[]): Element | null =>
  selectAll(selector, root)[0] ?? null;
const textContent = (el: ChildNode) => DomUtils.textContent(el);
const getAttributeValue = (el: Element, name: string) => DomUtils.getAttributeValue(el, name);

function page(html: string) {
  const doc = parseDocument(html);
  const one = (selector: string) => selectOne(selector, doc.children);
  const all = (selector: string) => selectAll(selector, doc.children);
  return { doc, one, all };
}

describe('the home page of the shared build', () => {
  it('puts the person first, then the projects, then the live data, then About', async () => {
    const html = await sharedSite().read('index.html');
    const at = (needle: string) => {
      const i = html.indexOf(needle);
      expect(i, needle).toBeGreaterThan(-1);
      return i;
    };
    const person = at('<h1');
    const projects = at('<section class="work"');
    const live = at('<section class="preview" aria-label="Live data">');
    const about = at('<h2 id="about">');
    expect(person).toBeLessThan(projects);
    expect(projects).toBeLessThan(live);
    expect(live).toBeLessThan(about);
    const { one, all } = page(html);
    // every live figure is in the live section, the projects alone in the work section
    const ids = (work: boolean) => DATASETS.filter((d) => Boolean(d.home.work) === work).map((d) => d.resource.id);
    expect(ids(true)).toContain('projects');
    expect(all('section.work [data-preview]').map((f) => getAttributeValue(f, 'data-preview'))).toEqual(ids(true));
    expect(all('section.preview [data-preview]').map((f) => getAttributeValue(f, 'data-preview'))).toEqual(ids(false));
    expect(one('section.preview [data-preview="projects"]')).toBeNull();
  });

  it('draws a card per project, each linking to https://github.com/<owner>/<name>, then the owner projects.yaml', async () => {
    const site = sharedSite();
    const payload = await site.json<GitHubProjects>(PROJECTS_PATH);
    expect(payload.projects.length).toBeGreaterThan(1);
    const { all } = page(await site.read('index.html'));
    const cards = all('section.work [data-preview="projects"] li.project');
    const owned = loadContent(pathToFileURL(FIXTURE_SITE)).ownerProjects;
    expect(owned.length).toBeGreaterThan(0);
    expect(cards).toHaveLength(payload.projects.length + owned.length);
    const hrefs = cards.map((card) => {
      const links = selectAll('a[href]', card.children);
      // one link per card: Tab reaches each card once
      expect(links).toHaveLength(1);
      return getAttributeValue(links[0]!, 'href');
    });
    expect(hrefs).toEqual([
      ...payload.projects.map((p) => `https://github.com/${p.owner}/${p.name}`),
      ...owned.map((p) => p.url),
    ]);
    // a GitHub card: name, owner, description as text, language with its colour, stars and forks
    for (const [i, p] of payload.projects.entries()) {
      const card = cards[i]!;
      const text = (selector: string) => {
        const found = selectOne(selector, card.children);
        return found === null ? null : textContent(found);
      };
      expect(text('.project-name')).toBe(p.name);
      expect(text('.project-owner')).toBe(p.owner);
      expect(text('.project-description')).toBe(p.description);
      expect(text('.project-stars')).toMatch(/^[\d,]+ stars?$/);
      expect(text('.project-forks')).toMatch(/^[\d,]+ forks?$/);
      expect(text('.project-language')?.trim() ?? null).toBe(p.language);
      if (p.languageColor !== null)
        expect(getAttributeValue(selectOne('.language-dot circle', card.children)!, 'fill')).toBe(p.languageColor);
    }
    // the owner's: title and description, no language, stars or forks
    for (const [i, p] of owned.entries()) {
      const card = cards[payload.projects.length + i]!;
      expect(textContent(selectOne('.project-name', card.children)!)).toBe(p.title);
      expect(selectOne('.project-meta, .project-owner', card.children)).toBeNull();
    }
  });

  it("lists the projects in the home page's Markdown twin, in the page's order, each linked, descriptions as text", async () => {
    const site = sharedSite();
    const payload = await site.json<GitHubProjects>(PROJECTS_PATH);
    const twin = await site.read('index.md');
    const owned = loadContent(pathToFileURL(FIXTURE_SITE)).ownerProjects;
    // The projects' section: from its heading to the next one (the owner's projects.yaml follow its list).
    const start = twin.indexOf('## Projects\n');
    const section = twin.slice(start, twin.indexOf('\n## ', start + 1));
    expect(twin.indexOf('## Projects')).toBeGreaterThan(twin.indexOf(`# `));
    const items = section.split('\n').filter((l) => l.startsWith('- '));
    expect(items).toHaveLength(payload.projects.length + owned.length);
    for (const [i, p] of payload.projects.entries()) {
      expect(items[i]).toContain(`](https://github.com/${p.owner}/${p.name})`);
      expect(items[i]).toMatch(/\([^()]*[\d,]+ stars?, [\d,]+ forks?\)$/);
    }
    for (const [i, p] of owned.entries()) expect(items[payload.projects.length + i]).toContain(`](${p.url})`);
    // an upstream's <one> is escaped for Markdown: it renders as text, never as an element
    expect(section).toContain('Reads \\<one\\> tag at a time \\& never backtracks.');
    expect(section).not.toMatch(/(?<!\\)<one/);
  });

  it('shows a description of <one> as text, with no element of it', async () => {
    const html = await sharedSite().read('index.html');
    expect(html).toContain('Reads &lt;one&gt; tag at a time &amp; never backtracks.');
    expect(html).not.toContain('<one>');
    const { all } = page(html);
    expect(all('one')).toHaveLength(0);
  });

  it('says the projects "as of" their time, current for 7 days, and gives the page script nothing to fetch', async () => {
    const site = sharedSite();
    const payload = await site.json<GitHubProjects>(PROJECTS_PATH);
    const { one } = page(await site.read('index.html'));
    const figure = one('[data-preview="projects"]')!;
    expect(getAttributeValue(figure, 'data-source')).toBeUndefined();
    const asOf = Date.parse(payload.asOf);
    expect(getAttributeValue(figure, 'data-as-of')).toBe(new Date(asOf).toISOString());
    expect(getAttributeValue(figure, 'data-valid-until')).toBe(new Date(asOf + PROJECTS_REUSE_MAX_MS).toISOString());
    const status = textContent(selectOne('[data-preview-status]', figure.children)!);
    expect(status).toBe(`As of ${payload.asOf.slice(0, 16).replace('T', ' ')} UTC. API: /api/v1/github-projects`);
    expect(status).not.toMatch(/stale|Snapshot taken/);
    // the live figures keep their source and the market's three hours
    const market = one('[data-preview="market"]')!;
    expect(getAttributeValue(market, 'data-source')).toBe('/api/v1/mon-price');
    const marketAsOf = Date.parse(getAttributeValue(market, 'data-as-of')!);
    expect(Date.parse(getAttributeValue(market, 'data-valid-until')!) - marketAsOf).toBe(3 * 3_600_000);
  });
});

describe('the projects section of other builds', () => {
  it('GitHub down: says the projects are unavailable and claims no time; the owner projects stay', async () => {
    const site = await buildSite({ setup: (fake) => (fake.projects.mode = 'down') });
    try {
      expect(site.result.code).toBe(1);
      const { one, all } = page(await site.read('index.html'));
      const figure = one('[data-preview="projects"]')!;
      expect(textContent(figure)).toMatch(/Projects unavailable\./);
      expect(textContent(selectOne('[data-preview-status]', figure.children)!)).toBe(
        'This build published no snapshot of it.',
      );
      for (const attribute of ['data-source', 'data-as-of', 'data-valid-until'])
        expect(getAttributeValue(figure, attribute), attribute).toBeUndefined();
      expect(textContent(figure)).not.toMatch(/As of|UTC/);
      expect(all('section.work li.project')).toHaveLength(2);
      // The owner's own projects come first, under the heading; the unavailable note after them.
      const html = await site.read('index.html');
      const start = html.indexOf('data-preview="projects"');
      expect(html.indexOf('class="projects owner-projects"', start)).toBeGreaterThan(start);
      expect(html.indexOf('class="projects owner-projects"', start)).toBeLessThan(
        html.indexOf('Projects unavailable.', start),
      );
      expect(all('section.work a[href^="https://github.com/"]')).toHaveLength(0);
      const twin = await site.read('index.md');
      // The projects' section: from its heading to the next one.
      const heading = twin.indexOf('## Projects\n');
      const section = twin.slice(heading, twin.indexOf('\n## ', heading + 1));
      expect(section).toMatch(
        /^## Projects\n\n- \[[^\n]*(\n- [^\n]*)*\n\nProjects unavailable: This build published no snapshot of it\.\n/,
      );
      expect(section).not.toContain('](https://github.com/');
    } finally {
      await site.close();
    }
  });

  it('a demo build says its projects are simulated', async () => {
    const site = await buildSite({ env: { DEMO_SIMULATED: '1' } });
    try {
      const { one } = page(await site.read('index.html'));
      expect(textContent(one('[data-preview="projects"]')!)).toMatch(/simulated profile \(npm run demo\), not GitHub/);
    } finally {
      await site.close();
    }
  });
});
