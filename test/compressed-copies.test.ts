// The build's compressed copies (`x.br`, `x.gz` beside each compressible file, for nginx's *_static
// modules and the gateway) and how the gateway uses them: the build's bytes when they match the file,
// its own compression when they do not, and never a copy as a page of its own.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { get, makeDist, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';
import { upstreamEnv } from './helpers/run.ts';
import { runBuild, sharedSite, type SiteFiles } from './helpers/site-dist.ts';

const COPY = /\.(br|gz)$/;
const decode = (file: string, bytes: Buffer) =>
  file.endsWith('.br') ? brotliDecompressSync(bytes) : gunzipSync(bytes);

let fake: FakeUpstreams;
beforeAll(async () => {
  fake = await startFakeUpstreams();
});
afterAll(() => fake?.close());

describe('a real build', () => {
  let site: SiteFiles;
  let files: string[];
  let gw: TestGateway;
  beforeAll(async () => {
    site = sharedSite();
    expect(site.result.code, site.result.stderr).toBe(0);
    files = await site.files();
    gw = await startTestGateway(fake.url, site.dir);
  });
  afterAll(() => gw?.close());

  it('writes a .br and a .gz beside the pages, documents and snapshots, each decoding to its file', async () => {
    for (const file of ['index.html', 'developers.md', 'openapi.json', 'llms-full.txt', 'api/v1/github-contributions'])
      for (const suffix of ['.br', '.gz']) expect(files, file + suffix).toContain(file + suffix);
    const copies = files.filter((f) => COPY.test(f));
    for (const copy of copies) {
      const original = copy.replace(COPY, '');
      expect(files, `${copy} has its file`).toContain(original);
      const bytes = await readFile(join(site.dir, copy));
      expect(decode(copy, bytes).equals(await readFile(join(site.dir, original))), copy).toBe(true);
      expect(bytes.length, `${copy} is smaller than its file`).toBeLessThan(
        (await readFile(join(site.dir, original))).length,
      );
    }
  });

  it('compresses no host configuration file, and no host configuration or sitemap names a copy', async () => {
    for (const file of ['serve.json', '_headers', '_redirects', '.nojekyll', 'robots.txt'])
      expect(files.filter((f) => f.startsWith(`${file}.`))).toEqual([]);
    for (const file of ['serve.json', '_headers', '_redirects', 'sitemap.xml'])
      expect(await site.read(file), file).not.toMatch(/\.(br|gz)\b/);
  });

  it('the gateway serves the build’s own copies, and a copy is not a page of its own', async () => {
    for (const [coding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ]) {
      const r = await get(gw.url, '/developers', { headers: { 'accept-encoding': coding! } });
      expect(r.headers['content-encoding']).toBe(coding);
      expect(r.body.equals(await readFile(join(site.dir, `developers.html${suffix}`)))).toBe(true);
    }
    expect((await get(gw.url, '/index.html.gz')).status).toBe(404);
    expect((await get(gw.url, '/openapi.json.br')).status).toBe(404);
  });
});

describe('copies found beside the files of dist/', () => {
  let fixture: DistFixture;
  let gw: TestGateway;
  let page: Buffer;
  beforeAll(async () => {
    fixture = await makeDist();
    page = await readFile(join(fixture.dist, 'index.html'));
    // A valid copy the gateway would never make itself (level 1): served as it is, so it was not recompressed.
    await writeFile(join(fixture.dist, 'index.html.gz'), gzipSync(page, { level: zlib.Z_BEST_SPEED }));
    // A stale copy: it decodes to other bytes than the file now holds.
    await writeFile(join(fixture.dist, 'llms-full.txt.gz'), gzipSync(Buffer.from(`old text\n${'x'.repeat(4000)}`)));
    // A compressed file of its own, with no file beside it.
    await writeFile(join(fixture.dist, 'archive.txt.gz'), gzipSync(Buffer.from('an archive\n')));
    // A file without copies, as in a dist/ made by hand or by another tool (makeDist writes them as the build does).
    for (const suffix of ['.br', '.gz']) await rm(join(fixture.dist, `developers.html${suffix}`));
    gw = await startTestGateway(fake.url, fixture.dist);
  });
  afterAll(async () => {
    await gw?.close();
    await rm(fixture.base, { recursive: true, force: true });
  });

  it('uses a copy that decodes to the file, byte for byte', async () => {
    const r = await get(gw.url, '/', { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.body.equals(gzipSync(page, { level: zlib.Z_BEST_SPEED }))).toBe(true);
  });

  it('ignores a stale copy and compresses the file itself', async () => {
    const file = await readFile(join(fixture.dist, 'llms-full.txt'));
    const r = await get(gw.url, '/llms-full.txt', { headers: { 'accept-encoding': 'gzip' } });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(r.body).equals(file)).toBe(true);
    expect((await get(gw.url, '/llms-full.txt.gz')).status).toBe(404);
  });

  it('compresses a file that has no copies beside it at start, in both codings', async () => {
    const file = await readFile(join(fixture.dist, 'developers.html'));
    for (const [coding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const r = await get(gw.url, '/developers', { headers: { 'accept-encoding': coding } });
      expect(r.headers['content-encoding']).toBe(coding);
      expect(decode(suffix, r.body).equals(file), coding).toBe(true);
    }
  });

  it('serves a .gz file that is no copy as the file it is', async () => {
    const r = await get(gw.url, '/archive.txt.gz');
    expect(r.status).toBe(200);
    expect(gunzipSync(r.body).toString()).toBe('an archive\n');
  });
});

describe('a snapshot the build could not write', () => {
  it('loses its compressed copies with it: a static host would serve them as current', async () => {
    const out = await mkdtemp(join(tmpdir(), 'dist-copies-'));
    const local = await startFakeUpstreams();
    try {
      const env = { ...upstreamEnv(local.url), UPSTREAM_TIMEOUT_MS: '10000' };
      expect((await runBuild(out, env)).code).toBe(0);
      const written = async () => (await readdir(join(out, 'api/v1'))).filter((f) => f.startsWith('mon-price')).sort();
      expect(await written()).toEqual(['mon-price', 'mon-price.br', 'mon-price.gz']);
      local.market.mode = 'not-found';
      expect((await runBuild(out, env)).code).toBe(1);
      expect(await written()).toEqual([]);
    } finally {
      await local.close();
      await rm(out, { recursive: true, force: true });
    }
  });
});
