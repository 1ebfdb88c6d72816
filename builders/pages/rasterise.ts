// SVG to PNG for the pictures a page is shared or installed with (render/share-image.ts draws them): resvg,
// a maintained rasteriser whose prebuilt binary is a registry package (@resvg/resvg-js), with Inter's
// TrueType files from the registry (@expo-google-fonts/inter) and the machine's fonts turned off, so that
// the same SVG gives the same bytes on every machine (docs/site.md#sharing).
import { createRequire } from 'node:module';
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
 * `svg` with its text turned into outlines of the fonts above (resvg's simplified SVG), for an SVG that
 * browsers draw themselves (the favicon): they would otherwise fall back to whatever font the reader has.
 */
export function outlinedSvg(svg: string): string {
  return `${new Resvg(svg, OPTIONS).toString().trim()}\n`;
}
