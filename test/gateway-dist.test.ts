// The gateway over a real `npm run build` (the run's shared one, against the fake upstreams): every
// published path of docs/api.md#published-paths answers with the route table's content type, every page and its
// Markdown twin is reachable, and nothing the build writes for other hosts or as a dot-file is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_INDEX, API_INDEX_LINK, contentSecurityPolicy, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_MARKET_WS_URL } from '../builders/lib/config.ts';

/** The default deployment's pages subscribe to Coinbase Exchange's feed: their policy names its origin. */
const DEFAULT_POLICY = contentSecurityPolicy(DEFAULT_MARKET_WS_URL);
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { PROBLEM_TYPES } from '../builders/contract/problems.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, startTestGateway, type TestGateway } from './helpers/gateway.ts';
import { sharedSite } from './helpers/site-dist.ts';

let fake: FakeUpstreams;
let gw: TestGateway;
let files: string[];

beforeAll(async () => {
  // The run's shared default build (read-only here); the gateway's upstreams are a fake of this file's
  // own, so the calls counted below are the gateway's alone.
  const site = sharedSite();
  expect(site.result.code, site.result.stderr).toBe(0);
  files = await site.files();
  fake = await startFakeUpstreams();
  gw = await startTestGateway(fake.url, site.dir);
});
afterAll(async () => {
  await gw?.close();
  await fake?.close();
});

describe('a real build served by the gateway', () => {
  it('answers every discovery path of docs/api.md#published-paths with its declared content type', async () => {
    for (const { path, contentType } of [API_INDEX, ...Object.values(DISCOVERY)]) {
      const r = await get(gw.url, path);
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type'], path).toBe(contentType);
    }
  });

  it('answers the API index file the published documents link exactly as it answers /api', async () => {
    const [api, file] = [await get(gw.url, API_INDEX.path), await get(gw.url, API_INDEX_LINK)];
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe(api.headers['content-type']);
    expect(file.headers['cache-control']).toBe(api.headers['cache-control']);
    expect(file.text).toBe(api.text);
  });

  it("answers the four data paths live, one calendar fetch for all of them, never from the build's snapshot files", async () => {
    const before = fake.calls.html + fake.calls.graphql;
    for (const path of DEFAULT_SERVICE.paths.keys()) expect((await get(gw.url, path)).status, path).toBe(200);
    expect(fake.calls.html + fake.calls.graphql - before).toBe(1);
  });

  it('serves every HTML page at its clean path and its Markdown twin at path + .md', async () => {
    const pages = files.filter((f) => f.endsWith('.html') && f !== '404.html');
    expect(pages).toContain('index.html');
    for (const page of pages) {
      const bare = page.slice(0, -'.html'.length);
      const path = page === 'index.html' ? '/' : `/${bare}`;
      const html = await get(gw.url, path);
      expect(html.status, path).toBe(200);
      expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(files, `the Markdown twin of ${page}`).toContain(`${bare}.md`);
      const md = await get(gw.url, `/${bare}.md`);
      expect(md.status, `/${bare}.md`).toBe(200);
      expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    }
  });

  it('every page (/, /developers, a writing, the 404 page) carries the CSP and Referrer-Policy; data do not', async () => {
    for (const path of ['/', '/developers', '/writings/static-plus-cron', '/no-such-page']) {
      const r = await get(gw.url, path);
      expect(r.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(r.headers['content-security-policy'], path).toBe(DEFAULT_POLICY);
      expect(r.headers['content-security-policy'], path).toMatch(/frame-ancestors 'none'/);
      expect(r.headers['referrer-policy'], path).toBe('no-referrer');
    }
    expect((await get(gw.url, '/api/v1/mon-price')).headers['content-security-policy']).toBeUndefined();
  });

  it('every problem type URL resolves to an element of the developer page', async () => {
    const developers = (await get(gw.url, '/developers')).text;
    for (const t of Object.values(PROBLEM_TYPES)) expect(developers).toMatch(new RegExp(`id="${t.fragment}"`));
  });

  it('serves no dot-file other than under /.well-known/, and no host configuration', async () => {
    const hidden = files.filter(
      (f) =>
        (f.startsWith('.') && !f.startsWith('.well-known/')) ||
        /(^|\/)\.[^/]*$/.test(f.replace(/^\.well-known\//, '')) ||
        ['serve.json', '_headers', '_redirects'].includes(f),
    );
    for (const file of hidden) expect((await get(gw.url, `/${file}`)).status, file).toBe(404);
  });
});
