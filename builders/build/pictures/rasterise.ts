// SVG to PNG for the pictures a page is shared or installed with (builders/render/share-image.ts draws them): resvg,
// a maintained rasteriser whose prebuilt binary is a registry package (@resvg/resvg-js), with Inter's
// TrueType files from the registry (@expo-google-fonts/inter) and the machine's fonts turned off, so that
// the same SVG gives the same bytes on every machine (docs/site.md#sharing).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { crc32, deflateSync } from 'node:zlib';
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { SHARE_FONT_FAMILY } from '../../render/share-image.ts';
import { encodePng } from './png.ts';
import type { ContentStore } from '../../lib/cache/content-store.ts';

const require = createRequire(import.meta.url);

/** Inter's regular and bold, the only fonts resvg sees. */
const FONT_FILES = ['400Regular/Inter_400Regular.ttf', '700Bold/Inter_700Bold.ttf'].map((file) =>
  require.resolve(`@expo-google-fonts/inter/${file}`),
);

const OPTIONS: ResvgRenderOptions = {
  font: {
    loadSystemFonts: false,
    fontFiles: FONT_FILES,
    defaultFontFamily: SHARE_FONT_FAMILY,
    sansSerifFamily: SHARE_FONT_FAMILY,
  },
  logLevel: 'off',
};

/**
 * The pictures made so far in this process, by their SVG: a picture is a pure function of its SVG, and the
 * tests run dozens of builds of the same site in one process (about 50 ms a picture on this machine).
 * Bounded: past the bound it starts over.
 */
const MADE = new Map<string, Uint8Array>();
const MAX_MADE = 256;

/** The PNG of `svg`, drawn at its own width and height, afresh. */
export function drawPng(svg: string): Uint8Array {
  return pngFile(new Resvg(svg, OPTIONS).render());
}

/** The PNG file of what resvg drew (png.ts, not resvg's `asPng`: a third of its time for the same size). */
function pngFile(image: { width: number; height: number; pixels: Uint8Array }): Uint8Array {
  return encodePng(image.width, image.height, image.pixels, { deflateSync, crc32 });
}

/** A kept picture's name in a ContentStore: its SVG's SHA-256. */
const keptName = (svg: string) => `${createHash('sha256').update(svg).digest('hex')}.png`;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The IEND chunk every PNG ends with: its length (0), type and CRC. */
const PNG_END = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/** Whole, as far as a file the store kept can be otherwise: a PNG's first and last bytes. */
function wholePng(bytes: Uint8Array): boolean {
  if (bytes.length < PNG_SIGNATURE.length + PNG_END.length) return false;
  return (
    PNG_SIGNATURE.every((b, i) => bytes[i] === b) &&
    PNG_END.every((b, i) => bytes[bytes.length - PNG_END.length + i] === b)
  );
}

/** drawPng(svg), or the bytes it gave for the same SVG earlier in this process or that `store` kept. */
export function pngOf(svg: string, store?: ContentStore): Uint8Array {
  const made = madeOrKept(svg, store);
  if (made !== undefined) return made;
  const png = drawPng(svg);
  remember(svg, png, store);
  return png;
}

/**
 * The picture of `svg` drawn already: by this process (and then kept in `store` too, so that the folder
 * holds every picture a build published), or by an earlier build that `store` kept.
 */
function madeOrKept(svg: string, store: ContentStore | undefined): Uint8Array | undefined {
  const made = MADE.get(svg);
  if (made !== undefined) {
    store?.used(keptName(svg), made);
    return made;
  }
  const png = store?.get(keptName(svg), wholePng);
  if (png !== undefined) remember(svg, png);
  return png;
}

let drawer: string | undefined;

/** A picture that takes every part of the drawer: both fonts' weights, a curve, a colour with alpha. */
const PROBE = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="40"><circle cx="20" cy="20" r="14" fill="#2563eb" fill-opacity="0.6"/><text x="38" y="18" font-size="14">Ag</text><text x="38" y="34" font-size="14" font-weight="700">Ag</text></svg>`;

/**
 * What the bytes of a picture depend on besides its SVG, as 16 hex digits: resvg's version and options, and
 * the bytes it and png.ts's encoder draw of a probe (which the fonts and the encoder both shape). A kept
 * picture is the drawer's (builders/lib/cache/content-store.ts): another resvg, font or encoder draws other bytes, and so
 * names another folder. Read from what is drawn rather than from source text, which the bundle rewrites.
 */
export function drawerIdentity(): string {
  drawer ??= createHash('sha256')
    .update(
      JSON.stringify({
        resvg: (require('@resvg/resvg-js/package.json') as { version: string }).version,
        // The fonts by what they draw, not their paths: another checkout of the same packages draws the same.
        options: { ...OPTIONS, font: { ...OPTIONS.font, fontFiles: [] } },
        probe: createHash('sha256').update(drawPng(PROBE)).digest('hex'),
      }),
    )
    .digest('hex')
    .slice(0, 16);
  return drawer;
}

function remember(svg: string, png: Uint8Array, store?: ContentStore): void {
  if (MADE.size >= MAX_MADE) MADE.clear();
  MADE.set(svg, png);
  store?.put(keptName(svg), png);
}

/**
 * Each RenderedImage holds its 1200 x 630 pixmap (3 MB) in native memory behind a JS object of a few bytes,
 * which V8 does not count (resvg-js 2.6 tells it nothing), so V8 never sees a reason to collect it, and
 * its finaliser runs only once the event loop turns. A build of 300 writings peaked at 1.29 GB for its 300
 * preview pictures. On this thread (drawHere), every COLLECT_EVERY pictures a collection of the young
 * generation (where those objects die: each lives for one picture) and a turn return that memory; a full
 * collection did as well, at a cost that grew with the heap (docs/performance.md#content-at-scale-issue-41).
 * The drawing threads do the same after every picture (DRAWER). V8's `gc()` is reached at run time
 * (`--expose-gc` set, then read from a fresh context), so no program needs a flag for it.
 */
const COLLECT_EVERY = 16;
let collect: ((options: { type: 'minor' | 'major' }) => void) | undefined;

/**
 * How many drawing threads a build with many pictures starts: one per core, at most 4. A picture is about
 * 16 ms of CPU (parsing the SVG, laying out its text, rasterising it, then png.ts's encoding), all of it on
 * its thread, so that the pictures take every core while this thread only hands out SVGs and stages PNGs
 * (docs/performance.md#content-at-scale-issue-41). Each thread is an isolate with its own copy of resvg's
 * fonts and allocator arena: more than 4 would cost memory for little time.
 */
const DRAWING_AT_ONCE = Math.max(1, Math.min(4, availableParallelism()));

/**
 * Up to this many pictures to draw, they are drawn on this thread (resvg's `renderAsync` rasterising on
 * libuv's pool while this thread encodes the one before): starting the drawing threads, each loading resvg
 * and its fonts, costs more than a few pictures, and the tests build small sites dozens of times.
 */
const ON_THIS_THREAD_MAX = 16;

export interface DrawingOptions {
  /** Draw on threads of their own from this many pictures to draw on (ON_THIS_THREAD_MAX + 1 by default). */
  threadsFrom?: number;
  /** Where earlier builds' pictures are kept, and this one's are put (builders/lib/cache/content-store.ts). */
  store?: ContentStore;
}

/**
 * pngOf(svg) for each of `svgs`, in order, returning native memory as it goes; each handed to `keep` as it
 * is drawn, and what `keep` gives for it returned (the PNG itself, or where the build staged it). The bytes
 * are drawPng's, wherever they are drawn: the same resvg code draws them (a test compares them).
 */
export async function pngsOf<T = Uint8Array>(
  svgs: readonly string[],
  keep: (png: Uint8Array, i: number) => T | Promise<T> = (png) => png as T,
  options: DrawingOptions = {},
): Promise<T[]> {
  const pngs: T[] = new Array<T>(svgs.length);
  const toDraw: number[] = [];
  for (const [i, svg] of svgs.entries()) {
    const made = madeOrKept(svg, options.store);
    if (made !== undefined) pngs[i] = await keep(made, i);
    else toDraw.push(i);
  }
  const drawn = async (i: number, png: Uint8Array) => {
    remember(svgs[i]!, png, options.store);
    pngs[i] = await keep(png, i);
  };
  if (toDraw.length >= (options.threadsFrom ?? ON_THIS_THREAD_MAX + 1)) await drawOnThreads(svgs, toDraw, drawn);
  else await drawHere(svgs, toDraw, drawn);
  return pngs;
}

/** Draws `svgs[i]` for each i of `indices` on this thread, two at a time (see ON_THIS_THREAD_MAX). */
async function drawHere(
  svgs: readonly string[],
  indices: readonly number[],
  drawn: (i: number, png: Uint8Array) => Promise<void>,
): Promise<void> {
  let next = 0;
  let count = 0;
  const lane = async () => {
    while (next < indices.length) {
      const i = indices[next++]!;
      await drawn(i, pngFile(await renderAsync(svgs[i]!, OPTIONS)));
      if (++count % COLLECT_EVERY === 0) {
        collect ??= (setFlagsFromString('--expose-gc'), runInNewContext('gc') as typeof collect);
        collect!({ type: 'minor' });
        await turn();
      }
    }
  };
  await Promise.all(Array.from({ length: 2 }, lane));
}

/** resvg's module, for the drawing threads to load by its path (an eval'd thread resolves nothing). */
const RESVG_MODULE = require.resolve('@resvg/resvg-js');

/**
 * A full collection on a drawing thread every this many pictures. Some of each picture's native memory
 * outlives the young generation's collection (what holds it is promoted), and only a full one frees it:
 * 1,200 pictures peaked at 232 to 253 MiB without, 187 MiB with one every 64, for about 20 ms each (one
 * every picture: 172 MiB, and CPU doubled).
 */
const FULL_COLLECTION_EVERY = 64;

/**
 * A drawing thread: for each `{ i, svg }` it is sent, the PNG drawPng would give (encodePng's own source
 * text, run here; a buffer of its own, handed over without a copy), or the error's message. After each
 * picture, a collection (of the young generation, or every FULL_COLLECTION_EVERY of the whole heap) and a
 * turn of its event loop, so that the RenderedImage's finaliser frees its pixmap before the next one is
 * drawn: with a collection every 16 pictures and no turn, 600 pictures peaked at 355 MiB, against 138 MiB
 * so. CommonJS, evaluated: the build is one bundled file, with no module beside it to start a thread from.
 */
const DRAWER = `
const { parentPort, workerData } = require('node:worker_threads');
const { deflateSync, crc32 } = require('node:zlib');
const { Resvg } = require(workerData.resvg);
require('node:v8').setFlagsFromString('--expose-gc');
const collect = require('node:vm').runInNewContext('gc');
const encodePng = ${encodePng.toString()};
let scratch = new Uint8Array(0);
let count = 0;
// A function of its own, so that once it returns nothing refers to the Resvg, its RenderedImage or its
// pixels: the collection below then finds them dead, instead of promoting them to the old generation,
// which only a full collection (as costly as the picture) would free.
function draw(svg) {
  const image = new Resvg(svg, workerData.options).render();
  const size = (image.width * 4 + 1) * image.height;
  if (scratch.length < size) scratch = new Uint8Array(size);
  return encodePng(image.width, image.height, image.pixels, { deflateSync, crc32 }, scratch);
}
parentPort.on('message', async ({ i, svg }) => {
  let answer;
  try {
    answer = { i, png: draw(svg) };
  } catch (error) {
    answer = { i, error: String((error && error.message) || error) };
  }
  collect({ type: ++count % ${FULL_COLLECTION_EVERY} === 0 ? 'major' : 'minor' });
  await new Promise((resolve) => setImmediate(resolve));
  parentPort.postMessage(answer, answer.png ? [answer.png.buffer] : []);
});
`;

/** Draws `svgs[i]` for each i of `indices` on DRAWING_AT_ONCE threads of their own, ended once all are drawn. */
async function drawOnThreads(
  svgs: readonly string[],
  indices: readonly number[],
  drawn: (i: number, png: Uint8Array) => Promise<void>,
): Promise<void> {
  const threads = Array.from(
    { length: Math.min(DRAWING_AT_ONCE, indices.length) },
    () => new Worker(DRAWER, { eval: true, workerData: { resvg: RESVG_MODULE, options: OPTIONS } }),
  );
  let next = 0;
  /** What `drawn` does with each picture (staging it), awaited once every picture is drawn. */
  const keeping: Promise<void>[] = [];
  try {
    await Promise.all(
      threads.map(
        (thread) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= indices.length) return resolve();
              const i = indices[next++]!;
              thread.postMessage({ i, svg: svgs[i] });
            };
            thread.on('message', (answer: { i: number; png?: Uint8Array; error?: string }) => {
              if (answer.png === undefined)
                return reject(new Error(`a preview picture was not drawn: ${answer.error}`));
              // The next SVG goes out first: the thread draws while this one is staged.
              send();
              const kept = drawn(answer.i, answer.png);
              kept.catch(reject);
              keeping.push(kept);
            });
            thread.on('error', reject);
            thread.on('exit', (code) => reject(new Error(`a drawing thread ended (exit ${code})`)));
            send();
          }),
      ),
    );
    await Promise.all(keeping);
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/**
 * `svg` with its text turned into outlines of the fonts above (resvg's simplified SVG), for an SVG that
 * browsers draw themselves (the favicon): they would otherwise fall back to whatever font the reader has.
 */
export function outlinedSvg(svg: string): string {
  return `${new Resvg(svg, OPTIONS).toString().trim()}\n`;
}
