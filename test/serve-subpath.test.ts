// dist/ built for a project site (SITE_URL with a path, https://you.github.io/portfolio) served whole by a
// plain `npx serve dist` (docs/site.md#dist-layout): its pages link /portfolio/..., and serve.json's
// rewrites serve that base path from the folder's root, so every page, stylesheet, script, picture, twin and
// snapshot a page links answers, at / and at /portfolio/ alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basePathRewrites } from '../builders/build/static-host.ts';
import { buildSite, type BuiltSite } from './helpers/site-dist.ts';
import { startServeCli, type StaticServer } from './helpers/site-serve.ts';

const SUB_PATH_URL = 'https://you.github.io/portfolio';

let site: BuiltSite;
let server: StaticServer;

beforeAll(async () => {
  site = await buildSite({ env: { SITE_URL: SUB_PATH_URL } });
  expect(site.result.code, site.result.stderr).toBe(0);
  server = await startServeCli(site.dir);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await site?.close();
});

const get = (path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });

/** Every root-relative link (href, src) of a page. */
const localLinks = (html: string): string[] =>
  [...html.matchAll(/\s(?:href|src)="(\/[^"#?]*)/g)].map((m) => m[1]!).filter((l) => !l.startsWith('//'));

describe('serve dist of a sub-path build', () => {
  it('the pages link under the base path', async () => {
    const home = await site.read('index.html');
    expect(home).toContain('<link rel="stylesheet" href="/portfolio/assets/site.css">');
  });

  it.each([
    ['/', 'text/html'],
    ['/portfolio', 'text/html'],
    ['/portfolio/', 'text/html'],
    ['/portfolio/writings', 'text/html'],
    ['/portfolio/writings/static-plus-cron', 'text/html'],
    ['/portfolio/writings/static-plus-cron.md', 'text/markdown'],
    ['/portfolio/skills', 'text/html'],
    ['/portfolio/resume', 'text/html'],
    ['/portfolio/developers', 'text/html'],
    ['/portfolio/assets/site.css', 'text/css'],
    ['/portfolio/assets/preview.js', 'javascript'],
    ['/portfolio/api', 'application/json'],
    ['/portfolio/api/mon-price', 'application/json'],
    ['/portfolio/api/v1/github-contributions', 'application/json'],
    ['/portfolio/feed.atom', 'application/atom+xml'],
    ['/portfolio/cards/mon-price.svg', 'image/svg+xml'],
  ])('%s: 200 %s', async (path, type) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    await res.arrayBuffer();
  });

  it('every local link of every page answers 200, the same bytes as the file', async () => {
    const pages = (await site.files()).filter((f) => f.endsWith('.html') && f !== '404.html');
    const links = new Set<string>();
    for (const page of pages) for (const link of localLinks(await site.read(page))) links.add(link);
    expect(links.size).toBeGreaterThan(20);
    const failed: string[] = [];
    for (const link of links) {
      expect(link.startsWith('/portfolio'), link).toBe(true);
      const res = await get(link);
      await res.arrayBuffer();
      if (res.status !== 200) failed.push(`${link} ${res.status}`);
    }
    expect(failed).toEqual([]);
    // A rewritten asset is the file itself, with the headers serve.json gives its file.
    const css = await get('/portfolio/assets/site.css');
    expect(await css.text()).toBe(await site.read('assets/site.css'));
    expect(css.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('a path that is no file stays a 404', async () => {
    for (const path of ['/portfolio/nothing-here', '/portfolio/writings/nothing-here', '/portfolio/assets/none.css'])
      expect((await get(path)).status, path).toBe(404);
  });
});

describe('basePathRewrites', () => {
  it('a site at a host root needs none', () => {
    expect(basePathRewrites('https://ada.example.org', ['index.html', 'writings.html'])).toEqual([]);
  });
  it('pages by name and writings by slug first, then every path as it is', () => {
    expect(basePathRewrites(SUB_PATH_URL, ['index.html', 'writings.html', 'skills.html', 'writings/a.html'])).toEqual([
      { source: '/portfolio', destination: '/index.html' },
      { source: '/portfolio/', destination: '/index.html' },
      { source: '/portfolio/:page(skills|writings)', destination: '/:page.html' },
      { source: '/portfolio/writings/:slug([a-z0-9-]+)', destination: '/writings/:slug.html' },
      { source: '/portfolio/:p0', destination: '/:p0' },
      { source: '/portfolio/:p0/:p1', destination: '/:p0/:p1' },
    ]);
  });
});
