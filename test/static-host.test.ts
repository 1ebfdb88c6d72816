// dist/ on a plain static host: the real `serve` package serving the built folder with the serve.json
// the build writes there, plus the shape of the Netlify/Cloudflare files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_INDEX_LINK, CACHE_CONTROL, contentSecurityPolicy } from '../builders/contract/service.ts';
import { DEFAULT_MARKET_WS_URL } from '../builders/lib/config.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { sharedSite, TEST_SITE_CLOCK, type SiteFiles } from './helpers/site-dist.ts';
import { fileCacheControl } from '../builders/contract/cache-rules.ts';
import { servablePath } from '../gateway/core/http/static-table.ts';
import { startFakeUpstreams } from './fakes/upstreams.ts';
import { get as gatewayGet, startTestGateway } from './helpers/gateway.ts';
import { startServeCli, type StaticServer } from './helpers/site-serve.ts';

/** The shared build is the default deployment's: its pages subscribe to Coinbase Exchange's feed. */
const DEFAULT_POLICY = contentSecurityPolicy(DEFAULT_MARKET_WS_URL);

let site: SiteFiles;
let server: StaticServer;

beforeAll(async () => {
  site = sharedSite();
  expect(site.result.code).toBe(0);
  server = await startServeCli(site.dir);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
});

const get = (path: string, method = 'GET') => fetch(`${server.url}${path}`, { method, redirect: 'manual' });

describe('serve dist (the real serve package)', () => {
  it.each(
    DEFAULT_SERVICE.resources.flatMap(
      (r) =>
        [
          [r.v1.path, r.id],
          [r.alias.path, r.id],
        ] as const,
    ),
  )('%s: 200 application/json with the snapshot bytes and its Cache-Control', async (path, id) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe(
      CACHE_CONTROL.staticSnapshot(DEFAULT_SERVICE.resources.find((r) => r.id === id)!.cache),
    );
    const resource = DEFAULT_SERVICE.resources.find((r) => r.id === id)!;
    expect(await res.text()).toBe(await site.read(resource.snapshotFiles[0]!));
  });

  it('answers HEAD on a snapshot with the GET headers and no body', async () => {
    const res = await get('/api/v1/github-contributions', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
  });

  it('serves the catalog at /.well-known/api-catalog as application/linkset+json with the RFC 9727 profile', async () => {
    const res = await get('/.well-known/api-catalog');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    expect(Object.keys((await res.json()) as object)).toEqual(['linkset']);
  });

  it('rewrites /api to the index, JSON with Cache-Control public, max-age=3600', async () => {
    const res = await get('/api');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe(CACHE_CONTROL.apiIndex);
    expect(((await res.json()) as { authentication: string }).authentication).toBe('none');
  });

  it('serves the index at the file the published documents link, with the same bytes and headers as /api', async () => {
    const [api, file] = [await get('/api'), await get(API_INDEX_LINK)];
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(api.headers.get('content-type'));
    expect(file.headers.get('cache-control')).toBe(CACHE_CONTROL.apiIndex);
    expect(await file.text()).toBe(await api.text());
  });

  it.each([
    ['/openapi.json', /^application\/json/],
    ['/developers', /^text\/html/],
    ['/developers.md', /^text\/markdown; charset=utf-8$/],
    ['/index.md', /^text\/markdown; charset=utf-8$/],
    ['/writings/static-plus-cron.md', /^text\/markdown; charset=utf-8$/],
    ['/writings/static-plus-cron', /^text\/html/],
    ['/llms.txt', /^text\/plain; charset=utf-8$/],
    ['/llms-full.txt', /^text\/plain; charset=utf-8$/],
    ['/sitemap.xml', /^application\/xml/],
    ['/robots.txt', /^text\/plain/],
    ['/', /^text\/html/],
  ])('%s: 200 with %s', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    await res.arrayBuffer();
  });

  it.each(['/api/v1/mon-price', '/api/github-contributions', '/api', '/.well-known/api-catalog', '/openapi.json', '/'])(
    '%s: readable from any origin (Access-Control-Allow-Origin: *) and nosniff, as from the gateway',
    async (path) => {
      const res = await get(path, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it.each(['/', '/developers', '/writings/static-plus-cron'])(
    '%s: the CSP (with frame-ancestors) and Referrer-Policy, as from the gateway',
    async (path) => {
      const r = await get(path);
      expect(r.headers.get('content-security-policy')).toBe(DEFAULT_POLICY);
      expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    },
  );

  it('links the catalog from the home page with rel="api-catalog"', async () => {
    const res = await get('/');
    expect(res.headers.get('link')).toMatch(/<[^>]+\/\.well-known\/api-catalog>; rel="api-catalog"/);
    await res.arrayBuffer();
  });

  it('answers an unknown path with 404 and the site 404 page, and lists no folders', async () => {
    for (const path of ['/no-such-page', '/api/v1/']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('Page not found');
    }
  });
});

describe('one cache rule for every file, on serve and on the gateway', () => {
  it("serve dist sends every published file with the gateway's Cache-Control (builders/contract/cache-rules.ts)", async () => {
    const clock = () => TEST_SITE_CLOCK;
    const fake = await startFakeUpstreams({ now: clock });
    const gw = await startTestGateway(fake.url, site.dir, {}, { now: clock });
    try {
      // The files a host publishes: not the compressed copies (served as the Content-Encoding of their
      // file) nor the host configuration and dot-files, which no host serves (servablePath).
      const files = (await site.files()).filter((f) => !/\.(?:br|gz)$/.test(f) && servablePath(f));
      expect(files.length).toBeGreaterThan(40);
      const checked = new Set<string>();
      for (const file of files) {
        // serve answers a page's file name with a redirect to its clean URL: the page is asked there.
        const path = file === 'index.html' ? '/' : `/${file.endsWith('.html') ? file.slice(0, -5) : file}`;
        const [served, gateway] = await Promise.all([get(path), gatewayGet(gw.url, path)]);
        expect(served.status, path).toBe(200);
        expect(gateway.status, path).toBe(200);
        const rule = fileCacheControl(DEFAULT_SERVICE, file);
        expect(served.headers.get('cache-control'), path).toBe(rule);
        const snapshot = DEFAULT_SERVICE.resources.find((r) => r.snapshotFiles.includes(file));
        if (snapshot === undefined) expect(gateway.headers['cache-control'], path).toBe(rule);
        // A data path is answered live by the gateway: the static rule, but for the calendar's s-maxage to
        // its next midnight, which no fixed header can say.
        else if (snapshot.cache === 'until-midnight')
          expect(gateway.headers['cache-control'], path).toMatch(
            /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=300$/,
          );
        else expect(gateway.headers['cache-control'], path).toBe(rule);
        checked.add(file.split('/')[0]!.replace(/^[^/]*\.(\w+)$/, '*.$1'));
      }
      // Every kind of file was among them: pages, assets, share pictures, icons, cards and the rest.
      for (const kind of ['assets', 'og', 'icons', 'cards', 'api', 'writings', '*.html', '*.ico', '*.json'])
        expect(checked, kind).toContain(kind);
      // The favicon's type is the gateway's on every host (Cloudflare's own table names another).
      for (const path of ['/favicon.ico', '/manifest.webmanifest']) {
        const [served, gateway] = await Promise.all([get(path), gatewayGet(gw.url, path)]);
        expect(served.headers.get('content-type'), path).toBe(gateway.headers['content-type']);
      }
    } finally {
      await gw.close();
      await fake.close();
    }
  });
});

describe('Netlify / Cloudflare Pages / GitHub Pages files', () => {
  it('_headers gives the extension-less snapshots, /api and the catalog their types and cache rules', async () => {
    const text = await site.read('_headers');
    const blocks = new Map(
      text
        .trim()
        .split(/\n\n/)
        .map((block) => {
          const [path, ...lines] = block.split('\n');
          return [
            path!,
            Object.fromEntries(lines.map((l) => [l.trim().split(': ')[0], l.trim().slice(l.trim().indexOf(': ') + 2)])),
          ] as const;
        }),
    );
    for (const r of DEFAULT_SERVICE.resources)
      for (const file of r.snapshotFiles) expect(blocks.get(`/${file}`)?.['Content-Type']).toBe('application/json');
    expect(blocks.get('/api/v1/mon-price')?.['Cache-Control']).toBe(CACHE_CONTROL.data('per-request'));
    expect(blocks.get('/api')).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': CACHE_CONTROL.apiIndex,
      Link: blocks.get('/')?.Link,
    });
    // the gateway's Link to the catalog, on the API index and the catalog too
    for (const path of ['/api/index.json', '/.well-known/api-catalog'])
      expect(blocks.get(path)?.Link, path).toBe(blocks.get('/')?.Link);
    expect(blocks.get('/.well-known/api-catalog')?.['Content-Type']).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    // the same revalidate-on-use rule the gateway sends for discovery documents, one rule for the folder
    // (builders/build/static-host.ts cacheRules), which the catalog's own block does not repeat
    expect(blocks.get('/.well-known/*')?.['Cache-Control']).toBe(CACHE_CONTROL.static);
    expect(blocks.get('/.well-known/api-catalog')?.['Cache-Control']).toBeUndefined();
    expect(blocks.get('/developers.md')?.['Content-Type']).toBe('text/markdown; charset=utf-8');
    // every path: the gateway's common headers
    expect(blocks.get('/*')).toEqual({ 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' });
    // rules match the requested path, so the home page's Link is given for `/` as well as `/index.html`
    expect(blocks.get('/')?.Link).toMatch(/<[^>]+\/\.well-known\/api-catalog>; rel="api-catalog"/);
    expect(blocks.get('/')).toEqual(blocks.get('/index.html'));
    // every page, at its file and its clean path, carries the browser security headers of the gateway
    for (const path of ['/', '/index.html', '/developers', '/developers.html', '/404.html']) {
      expect(blocks.get(path)?.['Content-Security-Policy'], path).toBe(DEFAULT_POLICY);
      expect(blocks.get(path)?.['Referrer-Policy'], path).toBe('no-referrer');
    }
  });

  it('_redirects rewrites (status 200) /api to the index file and each alias to its v1 file; .nojekyll exists', async () => {
    const lines = (await site.read('_redirects')).trim().split('\n');
    expect(lines).toContain('/api /api/index.json 200');
    for (const r of DEFAULT_SERVICE.resources) expect(lines).toContain(`${r.alias.path} ${r.v1.path} 200`);
    expect(await site.read('.nojekyll')).toBe('');
  });
});
