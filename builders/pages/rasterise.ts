// SVG to PNG for the pictures a page is shared or installed with (render/share-image.ts draws them): resvg,
// a maintained rasteriser whose prebuilt binary is a registry package (@resvg/resvg-js), with Inter's
// TrueType files from the registry (@expo-google-fonts/inter) and the machine's fonts turned off, so that
// the same SVG gives the same bytes on every machine (docs/site.md#sharing).
import { createRequire } from 'node:module';
import { setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Resvg, renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { SHARE_FONT_FAMILY } from '../../render/share-image.ts';

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
  return new Uint8Array(new Resvg(svg, OPTIONS).render().asPng());
}

/** drawPng(svg), or the bytes it gave for the same SVG earlier in this process. */
export function pngOf(svg: string): Uint8Array {
  const made = MADE.get(svg);
  if (made !== undefined) return made;
  const png = drawPng(svg);
  remember(svg, png);
  return png;
}

function remember(svg: string, png: Uint8Array): void {
  if (MADE.size >= MAX_MADE) MADE.clear();
  MADE.set(svg, png);
}

/**
 * Each RenderedImage holds its 1200 x 630 pixmap (3 MB) in native memory behind a JS object of a few bytes,
 * which V8 does not count (resvg-js 2.6 tells it nothing), so V8 never sees a reason to collect it, and
 * its finaliser runs only once the event loop turns. A build of 300 writings peaked at 1.29 GB for its 300
 * preview pictures. Every COLLECT_EVERY pictures a collection of the young generation (where those objects
 * die: each lives for one picture) and a turn return that memory; a full collection did as well, at a cost
 * that grew with the heap (the pages of every writing): 3,000 writings took 9 s more CPU
 * (docs/performance.md#content-at-scale-issue-41). V8's `gc()` is reached at run time (`--expose-gc` set,
 * then read from a fresh context), so no program needs a flag for it.
 */
const COLLECT_EVERY = 16;
let collect: ((options: { type: 'minor' | 'major' }) => void) | undefined;

/**
 * How many pictures are drawn at once. A picture is about 20 ms of CPU: half parsing the SVG, laying out
 * its text and rasterising it, which resvg's `renderAsync` does on libuv's threads, and half encoding the
 * PNG, which `asPng` does on this thread. With two in flight, one is rasterised while the other is
 * encoded, so the pictures take both cores (docs/performance.md#content-at-scale-issue-41); the bytes are
 * `drawPng`'s (the same code in resvg, a test compares them).
 */
const DRAWING_AT_ONCE = 2;

/**
 * pngOf(svg) for each of `svgs`, in order, drawn DRAWING_AT_ONCE at a time, returning native memory as it
 * goes; each handed to `keep` as it is drawn, and what `keep` gives for it returned (the PNG itself, or
 * where the build staged it).
 */
export async function pngsOf<T = Uint8Array>(
  svgs: readonly string[],
  keep: (png: Uint8Array, i: number) => T | Promise<T> = (png) => png as T,
): Promise<T[]> {
  const pngs: T[] = new Array<T>(svgs.length);
  let next = 0;
  let drawn = 0;
  const lane = async () => {
    while (next < svgs.length) {
      const i = next++;
      const svg = svgs[i]!;
      const made = MADE.get(svg);
      if (made !== undefined) {
        pngs[i] = await keep(made, i);
        continue;
      }
      const png = new Uint8Array((await renderAsync(svg, OPTIONS)).asPng());
      remember(svg, png);
      pngs[i] = await keep(png, i);
      if (++drawn % COLLECT_EVERY === 0) {
        collect ??= (setFlagsFromString('--expose-gc'), runInNewContext('gc') as typeof collect);
        collect!({ type: 'minor' });
        await turn();
      }
    }
  };
  await Promise.all(Array.from({ length: DRAWING_AT_ONCE }, lane));
  return pngs;
}

/**
 * `svg` with its text turned into outlines of the fonts above (resvg's simplified SVG), for an SVG that
 * browsers draw themselves (the favicon): they would otherwise fall back to whatever font the reader has.
 */
export function outlinedSvg(svg: string): string {
  return `${new Resvg(svg, OPTIONS).toString().trim()}\n`;
}
