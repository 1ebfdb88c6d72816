// A fork's site on GitHub Pages lives under /<repo>/ and Pages does no rewrites. Built with a sub-path
// SITE_URL against the fake upstreams, every link of every published document must answer 200 from a
// Pages-like host (real HTTP on loopback) mounted under that sub-path: `npm run check:dist`, which the
// publish workflow runs before it deploys, and the host it uses, which must itself behave like Pages.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDist } from '../builders/build/dist-check/check.ts';
import { classifyLink, extractLinks } from '../builders/build/dist-check/links.ts';
import { startPagesHost, type PagesHost } from '../builders/build/dist-check/pages-host.ts';
import { API_INDEX, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { buildSite, type BuiltSite } from './helpers/site-dist.ts';
import { runProgram } from './helpers/run.ts';

const FORK_URL = 'https://ada.github.io/my-fork';

describe('a Pages-like host (the one npm run check:dist serves dist/ from)', () => {
  let dir: string;
  let host: PagesHost;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pages-host-'));
    await mkdir(join(dir, 'both'), { recursive: true });
    await mkdir(join(dir, 'folder'), { recursive: true });
    await mkdir(join(dir, 'api/v1'), { recursive: true });
    await mkdir(join(dir, '.well-known'), { recursive: true });
    for (const [file, body] of Object.entries({
      'index.html': 'home',
      '404.html': 'the 404 page',
      'file.html': 'file',
      'both.html': 'both as a file',
      'both/child.html': 'child',
      'folder/index.html': 'folder index',
      'api/index.json': '{}',
      'api/v1/mon-price': '{}',
      '.well-known/api-catalog': '{"linkset":[]}',
    }))
      await writeFile(join(dir, file), body);
    host = await startPagesHost(dir, '/my-fork');
  });
  afterAll(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(new URL(path, host.url), { redirect: 'manual' });

  it('serves /x from x.html, even when a folder x/ exists, and never /x/ for a file', async () => {
    expect(await (await get('/my-fork/file')).text()).toBe('file');
    expect(await (await get('/my-fork/both')).text()).toBe('both as a file');
    expect(await (await get('/my-fork/both/child')).text()).toBe('child');
    expect((await get('/my-fork/file/')).status).toBe(404);
  });

  it('redirects a folder with an index.html to its slash, and the site root too', async () => {
    const folder = await get('/my-fork/folder');
    expect(folder.status).toBe(301);
    expect(folder.headers.get('location')).toBe('/my-fork/folder/');
    expect(await (await get('/my-fork/folder/')).text()).toBe('folder index');
    expect((await get('/my-fork')).headers.get('location')).toBe('/my-fork/');
    expect(await (await get('/my-fork/')).text()).toBe('home');
  });

  it('does no rewrites: /api is a 404 while /api/index.json and the extension-less files are there', async () => {
    const api = await get('/my-fork/api');
    expect(api.status).toBe(404);
    expect(await api.text()).toBe('the 404 page');
    expect((await get('/my-fork/api/index.json')).status).toBe(200);
    const snapshot = await get('/my-fork/api/v1/mon-price');
    expect(snapshot.status).toBe(200);
    expect(snapshot.headers.get('content-type')).toBe('application/octet-stream');
    expect((await get('/my-fork/.well-known/api-catalog')).status).toBe(200);
  });

  it('serves nothing outside the base path or above the folder', async () => {
    expect((await get('/file')).status).toBe(404);
    expect((await get('/index.html')).status).toBe(404);
    expect((await get('/my-fork/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });
});

describe('link extraction', () => {
  it('finds attribute links, Markdown targets, autolinks, sitemap locations and URLs in running text', () => {
    expect(
      extractLinks('html', '<a href="/my-fork/x?a=1&amp;b=2">x</a><img src=\'/y.svg\'><p>see https://s.org/z.</p>'),
    ).toEqual(['/my-fork/x?a=1&b=2', '/y.svg', 'https://s.org/z']);
    expect(
      extractLinks('markdown', '[a](https://s.org/a) <https://s.org/b>\n```sh\ncurl https://s.org/c\n```'),
    ).toEqual(['https://s.org/a', 'https://s.org/b', 'https://s.org/c']);
    expect(extractLinks('xml', '<url><loc>https://s.org/a</loc></url>')).toEqual(['https://s.org/a']);
    expect(extractLinks('json', '{"a":{"b":["https://s.org/a","see https://s.org/b"]},"path":"/api"}')).toEqual([
      'https://s.org/a',
      'https://s.org/b',
    ]);
  });

  it('tells links into the site from links to its origin outside the base path and external ones', () => {
    const doc = `${FORK_URL}/developers`;
    expect(classifyLink('/my-fork/api/index.json', doc, FORK_URL)).toEqual({ kind: 'site', path: '/api/index.json' });
    expect(classifyLink(`${FORK_URL}/`, doc, FORK_URL)).toEqual({ kind: 'site', path: '/' });
    expect(classifyLink('/assets/site.css', doc, FORK_URL)).toEqual({
      kind: 'outside-base',
      url: 'https://ada.github.io/assets/site.css',
    });
    expect(classifyLink('https://github.com/octocat', doc, FORK_URL)).toEqual({ kind: 'external' });
    expect(classifyLink('data:image/svg+xml,x', doc, FORK_URL)).toEqual({ kind: 'not-http' });
  });
});

describe('a site built for a sub-path SITE_URL, on a Pages-like host under that sub-path', () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildSite({ env: { SITE_URL: FORK_URL } });
    expect(site.result.code, site.result.stderr).toBe(0);
  });
  afterAll(() => site?.close());

  it('resolves every link of every published document with 200', async () => {
    const report = await checkDist(site.dir, FORK_URL);
    expect(report.failures).toEqual([]);
    // It did look: pages, twins, the llms files, the sitemap, the catalog, the API index, the snapshots.
    const files = await site.files();
    expect(report.documents).toBeGreaterThanOrEqual(files.filter((f) => /\.(html|md|txt|xml)$/.test(f)).length);
    expect(report.checked).toBeGreaterThan(20);
  });

  it('does not request /mcp, which the documents link as gateway only', async () => {
    expect(await site.read(DISCOVERY.llms.file)).toContain(`](${FORK_URL}/mcp)`);
    const report = await checkDist(site.dir, FORK_URL);
    expect(report.failures.filter((f) => f.url.endsWith('/mcp'))).toEqual([]);
  });

  it('links the API index at a file every host serves, never at /api, which Pages cannot', async () => {
    const published = [
      'index.html',
      'developers.html',
      'developers.md',
      DISCOVERY.llms.file,
      DISCOVERY.apiCatalog.file,
      API_INDEX.file,
      DISCOVERY.openapi.file,
    ];
    for (const file of published) {
      const text = await site.read(file);
      expect(text, file).not.toMatch(new RegExp(`${FORK_URL}/api(?=["'\\s)<>\`]|$)`, 'm'));
      expect(text, file).not.toMatch(/href="\/my-fork\/api"/);
    }
    expect(await site.read('index.html')).toContain(`href="/my-fork/${API_INDEX.file}"`);
    expect(await site.read(DISCOVERY.llms.file)).toContain(`${FORK_URL}/${API_INDEX.file}`);
  });

  it('npm run check:dist passes on it and names what it checked', async () => {
    const result = await runProgram('check-dist', ['--dir', site.dir], { SITE_URL: FORK_URL });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^check:dist: ok: \d+ site URLs linked from \d+ documents/);
  });

  it('npm run check:dist fails, naming the link and its documents, when a link breaks', async () => {
    // A file the documents link goes missing (run last: it changes the shared build): the llms files
    // and the catalog link the alias snapshot.
    const removed = DEFAULT_SERVICE.resources[0]!.alias.path;
    await rm(join(site.dir, removed.slice(1)));
    const result = await runProgram('check-dist', ['--dir', site.dir], { SITE_URL: FORK_URL });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${FORK_URL}${removed}: 404 on a Pages-like host (linked from `);
    expect(result.stderr).toMatch(/linked from [^\n]*llms\.txt/);
  });
});
