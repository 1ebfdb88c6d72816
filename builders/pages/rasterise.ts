// SVG to PNG for the pictures a page is shared or installed with (render/share-image.ts draws them): resvg,
// a maintained rasteriser whose prebuilt binary is a registry package (@resvg/resvg-js), with Inter's
// TrueType files from the registry (@expo-google-fonts/inter) and the machine's fonts turned off, so that
// the same SVG gives the same bytes on every machine (docs/site.md#sharing).
import { createRequire } from 'node:module';
import { setImmediate as turn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
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
  if (MADE.size >= MAX_MADE) MADE.clear();
  MADE.set(svg, png);
  return png;
}

/**
 * Each Resvg and RenderedImage holds megabytes in native memory (the parsed fonts, a 1200 x 630 pixmap)
 * behind a JS object of a few bytes, which V8 does not count (resvg-js 2.6 tells it nothing), so V8 never
 * sees a reason to collect them, and their finalisers run only once the event loop turns. A build of 300
 * writings peaked at 1.29 GB for its 300 preview pictures; with a full collection and a turn every
 * COLLECT_EVERY pictures, the same build stays near its size without pictures (docs/performance.md).
 * V8's `gc()` is reached at run time (`--expose-gc` set, then read from a fresh context), so no program
 * needs a flag for it.
 */
const COLLECT_EVERY = 16;
let collect: (() => void) | undefined;

/** pngOf(svg) for each of `svgs`, in order, returning native memory to the system as it goes. */
export async function pngsOf(svgs: readonly string[]): Promise<Uint8Array[]> {
  const pngs: Uint8Array[] = [];
  let drawn = 0;
  for (const svg of svgs) {
    if (!MADE.has(svg)) drawn++;
    pngs.push(pngOf(svg));
    if (drawn === COLLECT_EVERY) {
      drawn = 0;
      collect ??= (setFlagsFromString('--expose-gc'), runInNewContext('gc') as () => void);
      collect();
      await turn();
    }
  }
  return pngs;
}

/**
 * `svg` with its text turned into outlines of the fonts above (resvg's simplified SVG), for an SVG that
 * browsers draw themselves (the favicon): they would otherwise fall back to whatever font the reader has.
 */
export function outlinedSvg(svg: string): string {
  return `${new Resvg(svg, OPTIONS).toString().trim()}\n`;
}
