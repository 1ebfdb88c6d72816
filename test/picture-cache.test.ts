// The folder of drawn pictures a build keeps for the next (PICTURE_CACHE_DIR,
// builders/build/pictures/picture-cache.ts, docs/configuration.md): what it keeps, what it refuses to take
// back, what it removes, and that a later build takes its pictures from it rather than drawing them.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPictureStore, PICTURE_UNUSED_MAX_MS } from '../builders/build/pictures/picture-cache.ts';
import { drawerIdentity, drawPng } from '../builders/build/pictures/rasterise.ts';
import { startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { listFiles } from './helpers/files.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, runProgram, upstreamEnv } from './helpers/run.ts';
import { FIXTURE_SITE, runBuild, TEST_SITE_CLOCK, TEST_SITE_URL } from './helpers/site-dist.ts';

const NOW = Date.parse('2026-11-23T15:00:00Z');
const DRAWER = 'abcdef0123456789';
const svg = (text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#123456"/><text x="2" y="14">${text}</text></svg>`;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'picture-cache-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});
let folders = 0;
const freshDir = () => join(base, `cache-${++folders}`);

describe('the store', () => {
  it('gives back the bytes it kept, under the drawer’s folder, and nothing for a picture it never kept', async () => {
    const dir = freshDir();
    const store = openPictureStore(dir, DRAWER, NOW)!;
    const png = drawPng(svg('a'));
    expect(store.get(svg('a'))).toBeUndefined();
    store.put(svg('a'), png);
    expect(store.get(svg('a'))).toEqual(png);
    expect(store.get(svg('b'))).toBeUndefined();
    expect(await readdir(dir)).toEqual([DRAWER]);
    expect(await readdir(join(dir, DRAWER))).toEqual([`${createHash('sha256').update(svg('a')).digest('hex')}.png`]);
  });

  it('takes back no file cut short or that is not a PNG, and keeps the picture again over it', async () => {
    const dir = freshDir();
    const store = openPictureStore(dir, DRAWER, NOW)!;
    const png = drawPng(svg('c'));
    store.put(svg('c'), png);
    const [file] = await readdir(join(dir, DRAWER));
    const path = join(dir, DRAWER, file!);
    await truncate(path, png.length - 1);
    expect(store.get(svg('c'))).toBeUndefined();
    await writeFile(path, 'not a picture, but long enough to be one');
    expect(store.get(svg('c'))).toBeUndefined();
    await rm(path);
    store.put(svg('c'), png);
    expect(store.get(svg('c'))).toEqual(png);
  });

  it('records each use, and removes on opening what no build used for 30 days and other drawers’ folders', async () => {
    const dir = freshDir();
    const first = openPictureStore(dir, DRAWER, NOW)!;
    first.put(svg('old'), drawPng(svg('old')));
    first.put(svg('used'), drawPng(svg('used')));
    const later = NOW + PICTURE_UNUSED_MAX_MS - 1000;
    // Used again late in the window: its time is the use's.
    openPictureStore(dir, DRAWER, later)!.get(svg('used'));
    const files = await readdir(join(dir, DRAWER));
    expect((await Promise.all(files.map((f) => stat(join(dir, DRAWER, f))))).map((s) => s.mtimeMs).sort()).toEqual([
      NOW,
      later,
    ]);
    // An upgraded drawer's leftovers, and a folder of the owner's that is no drawer's.
    await mkdir(join(dir, '0123456789abcdef'));
    await mkdir(join(dir, 'notes'));
    const reopened = openPictureStore(dir, DRAWER, NOW + PICTURE_UNUSED_MAX_MS + 1000)!;
    expect(reopened.get(svg('old'))).toBeUndefined();
    expect(reopened.get(svg('used'))).toBeDefined();
    expect((await readdir(dir)).sort()).toEqual([DRAWER, 'notes']);
  });

  it('is none where the folder cannot be made, and refuses a drawer that is not 16 hex digits', async () => {
    const file = join(base, 'a-file');
    await writeFile(file, '');
    expect(openPictureStore(join(file, 'pictures'), DRAWER, NOW)).toBeUndefined();
    expect(() => openPictureStore(freshDir(), '../escape', NOW)).toThrow(/16 hex digits/);
  });

  it('names the drawer by 16 hex digits of what draws the bytes, the same on every call', () => {
    expect(drawerIdentity()).toMatch(/^[0-9a-f]{16}$/);
    expect(drawerIdentity()).toBe(drawerIdentity());
  });
});

describe('a build with PICTURE_CACHE_DIR', () => {
  let fake: FakeUpstreams;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const env = (pictures: string) => ({
    ...upstreamEnv(fake.url),
    SITE_URL: TEST_SITE_URL,
    UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
    SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000),
    PICTURE_CACHE_DIR: pictures,
  });
  /** The PNG files of a dist/ folder, by path, as the sha-256 of their bytes. */
  const pngsIn = async (dir: string) => {
    const files = (await listFiles(dir)).filter((f) => f.endsWith('.png'));
    return new Map(await Promise.all(files.map(async (f) => [f, sha(await readFile(join(dir, f)))] as const)));
  };
  const kept = async (pictures: string) => {
    const folder = join(pictures, drawerIdentity());
    return (await readdir(folder)).map((f) => join(folder, f));
  };

  it('keeps every picture it published, byte for byte', async () => {
    const pictures = freshDir();
    const out = join(base, 'kept');
    const result = await runBuild(out, env(pictures));
    expect(result.code, result.stderr).toBe(0);
    const published = await pngsIn(out);
    expect(published.size).toBeGreaterThan(3);
    const keptHashes = new Set(await Promise.all((await kept(pictures)).map(async (f) => sha(await readFile(f)))));
    for (const [file, hash] of published) expect(keptHashes.has(hash), file).toBe(true);
  });

  it('the next program takes the kept pictures instead of drawing them, and draws again one cut short', async () => {
    const pictures = freshDir();
    const first = join(base, 'first');
    expect((await runBuild(first, env(pictures))).code).toBe(0);
    const published = await pngsIn(first);
    // Two kept pictures swapped: a program that reads the folder publishes them swapped; one that drew
    // would not. A third cut short is drawn again, whole.
    const byHash = new Map(
      await Promise.all((await kept(pictures)).map(async (f) => [sha(await readFile(f)), f] as const)),
    );
    const hashes = [...new Set(published.values())];
    const [a, b, c] = hashes.map((hash) => byHash.get(hash)!);
    const [bytesA, bytesB] = [await readFile(a!), await readFile(b!)];
    await writeFile(a!, bytesB);
    await writeFile(b!, bytesA);
    await truncate(c!, 100);
    const old = new Date(NOW);
    await utimes(c!, old, old);

    const second = join(base, 'second');
    const result = await runProgram('build', ['--out', second, '--content', FIXTURE_SITE], env(pictures));
    expect(result.code, result.stderr).toBe(0);
    const again = await pngsIn(second);
    const swap = new Map([
      [sha(bytesA), sha(bytesB)],
      [sha(bytesB), sha(bytesA)],
    ]);
    for (const [file, hash] of published) expect(again.get(file), file).toBe(swap.get(hash) ?? hash);
    expect(sha(await readFile(c!))).toBe(hashes[2]);
  });
});
