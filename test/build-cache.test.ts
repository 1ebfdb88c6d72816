// The folder of what a build made, kept for the next build (BUILD_CACHE_DIR, builders/lib/cache/content-store.ts,
// docs/configuration.md): what it keeps, what it refuses to take back, what it removes, and that a later
// build takes its pictures and compressed copies from it rather than making them again.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openContentStore, tidyContentStore, UNUSED_MAX_MS } from '../builders/lib/cache/content-store.ts';
import { compressorIdentity } from '../builders/lib/compressed-copies.ts';
import { drawerIdentity } from '../builders/build/pictures/rasterise.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { listFiles } from './helpers/files.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, runProgram, upstreamEnv } from './helpers/run.ts';
import { FIXTURE_SITE, runBuild, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';

const NOW = Date.parse('2026-11-23T15:00:00Z');
const MAKER = 'abcdef0123456789';
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const name = (text: string) => `${sha(text)}.txt`;
const bytes = (text: string) => new TextEncoder().encode(text);
const any = () => true;

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'build-cache-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});
let folders = 0;
const freshDir = () => join(base, `cache-${++folders}`);

describe('the store', () => {
  it('gives back the bytes it kept, under the maker’s folder, and nothing for a file it never kept', async () => {
    const dir = freshDir();
    const store = openContentStore(dir, MAKER, NOW)!;
    expect(store.get(name('a'), any)).toBeUndefined();
    store.put(name('a'), bytes('made of a'));
    expect(store.get(name('a'), any)).toEqual(bytes('made of a'));
    expect(store.get(name('b'), any)).toBeUndefined();
    expect(await readdir(dir)).toEqual([MAKER]);
    expect(await readdir(join(dir, MAKER))).toEqual([name('a')]);
  });

  it('takes back nothing its caller finds not whole, and keeps the file again over it', async () => {
    const store = openContentStore(freshDir(), MAKER, NOW)!;
    store.put(name('c'), bytes('made of c'));
    const whole = (kept: Uint8Array) => new TextDecoder().decode(kept) === 'made of c';
    expect(store.get(name('c'), whole)).toEqual(bytes('made of c'));
    store.put(name('c'), bytes('made of'));
    expect(store.get(name('c'), whole)).toBeUndefined();
    store.put(name('c'), bytes('made of c'));
    expect(store.get(name('c'), whole)).toEqual(bytes('made of c'));
  });

  it('records each use; tidied, drops what no build used for 30 days and other makers’ folders', async () => {
    const dir = freshDir();
    const first = openContentStore(dir, MAKER, NOW)!;
    first.put(name('old'), bytes('old'));
    first.put(name('used'), bytes('used'));
    const later = NOW + UNUSED_MAX_MS - 1000;
    // Used again late in the window: its time is the use's.
    openContentStore(dir, MAKER, later)!.get(name('used'), any);
    // Made earlier in the process and used: its time is the use's too; kept if it was not.
    openContentStore(dir, MAKER, later)!.used(name('again'), bytes('again'));
    const times = async () =>
      Object.fromEntries(
        await Promise.all(
          (await readdir(join(dir, MAKER))).map(async (f) => [f, (await stat(join(dir, MAKER, f))).mtimeMs]),
        ),
      );
    expect(await times()).toEqual({ [name('old')]: NOW, [name('used')]: later, [name('again')]: later });
    // An upgraded maker's leftovers, and a folder of the owner's that is no maker's.
    await mkdir(join(dir, '0123456789abcdef'));
    await mkdir(join(dir, 'notes'));
    // Opened again by this process, it is not tidied again; tidied, it is.
    openContentStore(dir, MAKER, NOW + UNUSED_MAX_MS + 1000);
    expect(await readdir(join(dir, MAKER))).toContain(name('old'));
    tidyContentStore(dir, MAKER, NOW + UNUSED_MAX_MS + 1000);
    const reopened = openContentStore(dir, MAKER, NOW + UNUSED_MAX_MS + 1000)!;
    expect(reopened.get(name('old'), any)).toBeUndefined();
    expect(reopened.get(name('used'), any)).toEqual(bytes('used'));
    expect((await readdir(dir)).sort()).toEqual([MAKER, 'notes']);
  });

  it('is tidied the first time this process opens it', async () => {
    const dir = freshDir();
    await mkdir(join(dir, MAKER), { recursive: true });
    await mkdir(join(dir, '0123456789abcdef'));
    const stale = join(dir, MAKER, name('stale'));
    await writeFile(stale, 'stale');
    const old = new Date(NOW - UNUSED_MAX_MS - 1000);
    await utimes(stale, old, old);
    expect(openContentStore(dir, MAKER, NOW)!.get(name('stale'), any)).toBeUndefined();
    expect(await readdir(dir)).toEqual([MAKER]);
  });

  it('is none where the folder cannot be made; refuses a maker or a name that could leave it', async () => {
    const file = join(base, 'a-file');
    await writeFile(file, '');
    expect(openContentStore(join(file, 'kept'), MAKER, NOW)).toBeUndefined();
    expect(() => openContentStore(freshDir(), '../escape', NOW)).toThrow(/16 hex digits/);
    const store = openContentStore(freshDir(), MAKER, NOW)!;
    expect(() => store.get('../../etc/passwd', any)).toThrow(/SHA-256/);
    expect(() => store.put(`${sha('x')}/../x.png`, bytes('x'))).toThrow(/SHA-256/);
  });

  it('names the drawer and the compressor by 16 hex digits of what makes the bytes, the same on every call', () => {
    for (const identity of [drawerIdentity, compressorIdentity]) {
      expect(identity()).toMatch(/^[0-9a-f]{16}$/);
      expect(identity()).toBe(identity());
    }
    expect(drawerIdentity()).not.toBe(compressorIdentity());
  });
});

describe('a build with BUILD_CACHE_DIR', () => {
  let fake: FakeUpstreams;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const env = (cache: string) => ({
    ...upstreamEnv(fake.url),
    SITE_URL: TEST_SITE_URL,
    UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
    SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
    BUILD_CACHE_DIR: cache,
  });
  /** The files of a dist/ folder whose names end so, by path, as the sha-256 of their bytes. */
  const hashesIn = async (dir: string, suffix: RegExp) => {
    const files = (await listFiles(dir)).filter((f) => suffix.test(f));
    return new Map(await Promise.all(files.map(async (f) => [f, sha(await readFile(join(dir, f)))] as const)));
  };
  const pictures = (cache: string) => join(cache, 'pictures', drawerIdentity());
  const copies = (cache: string) => join(cache, 'copies', compressorIdentity());
  /** The kept copy of a published file's `.br` or `.gz`: named by the SHA-256 of the file it is a copy of. */
  const keptCopy = async (cache: string, dist: string, copy: string) =>
    join(copies(cache), `${sha(await readFile(join(dist, copy.replace(/\.(br|gz)$/, ''))))}${/\.\w+$/.exec(copy)![0]}`);

  it('keeps every picture and every compressed copy it published, byte for byte', async () => {
    const cache = freshDir();
    const out = join(base, 'kept');
    const result = await runBuild(out, env(cache));
    expect(result.code, result.stderr).toBe(0);
    const pngs = await hashesIn(out, /\.png$/);
    expect(pngs.size).toBeGreaterThan(3);
    const keptPictures = new Set(
      await Promise.all(
        (await readdir(pictures(cache))).map(async (f) => sha(await readFile(join(pictures(cache), f)))),
      ),
    );
    for (const [file, hash] of pngs) expect(keptPictures.has(hash), file).toBe(true);
    const copied = await hashesIn(out, /\.(br|gz)$/);
    expect(copied.size).toBeGreaterThan(20);
    for (const [copy, hash] of copied) expect(sha(await readFile(await keptCopy(cache, out, copy))), copy).toBe(hash);
  });

  it('the next program takes what was kept instead of making it, and makes again what is not whole', async () => {
    const cache = freshDir();
    const first = join(base, 'first');
    expect((await runBuild(first, env(cache))).code).toBe(0);
    const pngs = await hashesIn(first, /\.png$/);
    // Two kept pictures swapped: a program that reads the folder publishes them swapped; one that drew
    // would not. A third cut short is drawn again, whole.
    const byHash = new Map(
      await Promise.all(
        (await readdir(pictures(cache))).map(async (f) => [sha(await readFile(join(pictures(cache), f))), f] as const),
      ),
    );
    const hashes = [...new Set(pngs.values())];
    const [a, b, c] = hashes.map((hash) => join(pictures(cache), byHash.get(hash)!));
    const [bytesA, bytesB] = [await readFile(a!), await readFile(b!)];
    await writeFile(a!, bytesB);
    await writeFile(b!, bytesA);
    await truncate(c!, 100);
    // The home page's brotli copy kept in other bytes that decode to the page (quality 1): taken as it is.
    // The developer page's gzip copy cut short: compressed again.
    const page = await readFile(join(first, 'index.html'));
    const quick = brotliCompressSync(page, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } });
    await writeFile(await keptCopy(cache, first, 'index.html.br'), quick);
    await truncate(await keptCopy(cache, first, 'developers.html.gz'), 40);

    const second = join(base, 'second');
    const result = await runProgram('build', ['--out', second, '--content', FIXTURE_SITE], env(cache));
    expect(result.code, result.stderr).toBe(0);
    const again = await hashesIn(second, /\.png$/);
    const swap = new Map([
      [sha(bytesA), sha(bytesB)],
      [sha(bytesB), sha(bytesA)],
    ]);
    for (const [file, hash] of pngs) expect(again.get(file), file).toBe(swap.get(hash) ?? hash);
    expect(sha(await readFile(c!))).toBe(hashes[2]);
    expect(await readFile(join(second, 'index.html.br'))).toEqual(quick);
    const gz = 'developers.html.gz';
    expect(await readFile(join(second, gz))).toEqual(await readFile(join(first, gz)));
    expect(await readFile(await keptCopy(cache, first, gz))).toEqual(await readFile(join(first, gz)));
  });
});
