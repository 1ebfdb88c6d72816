// What a page is shared and installed with, beside the meta elements the layout writes (layout.ts): each
// page's 1200 × 630 preview PNG with its own title, and the site's icons (favicon.ico, favicon.svg, the
// 192 and 512 pixel PNGs) and web manifest. The pictures are drawn from the pages' own og:title and
// og:description, read back from the HTML the build made, so a picture can never name another title than
// the page it stands for.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeHTML } from 'entities';
import { fileHash, type Artifact, type BuildContext, type StagedBody } from '../artifact.ts';
import { SITE_ICONS, sitePath } from '../../contract/pages.ts';
import { SIMULATED_NOTICE_TITLE } from '../../lib/simulated.ts';
import { iconSvg, sharePalette, shareImageSvg } from '../../render/share-image.ts';
import { outlinedSvg, pngOf, pngsOf } from '../pictures/rasterise.ts';

/** What a page's preview picture says and where it goes. */
export interface SharedPage {
  /** The picture's file in dist/ (builders/contract/pages.ts shareImageFile). */
  file: string;
  title: string;
  description: string;
  /** A writing's cover, drawn beside its title (render/share-image.ts), when the rasteriser reads its type. */
  cover?: string;
}

/** The types resvg decodes inside an SVG: a WebP or AVIF cover is left out of the picture (docs/site.md#tags-and-covers). */
const DRAWN_COVER_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);

/** A cover as the data: URL the share picture embeds, or undefined for a type the rasteriser cannot draw. */
export function coverDataUrl(picture: { bytes: Uint8Array; type: { contentType: string } }): string | undefined {
  if (!DRAWN_COVER_TYPES.has(picture.type.contentType)) return undefined;
  return `data:${picture.type.contentType};base64,${Buffer.from(picture.bytes).toString('base64')}`;
}

const META = /<meta property="(og:title|og:description|og:image)" content="([^"]*)">/g;

/** The pages of `artifacts` that carry Open Graph meta (every page but the 404 page), as the layout wrote them. */
export function sharedPagesOf(siteUrl: string, artifacts: readonly Artifact[]): SharedPage[] {
  return artifacts
    .filter((a) => a.file.endsWith('.html'))
    .flatMap((a) => {
      const meta = new Map([...String(a.body).matchAll(META)].map((m) => [m[1]!, decodeHTML(m[2]!)]));
      const image = meta.get('og:image');
      if (image === undefined) return [];
      if (!image.startsWith(`${siteUrl}/`)) throw new Error(`${a.file}: og:image ${image} is not under ${siteUrl}`);
      return [
        {
          file: image.slice(siteUrl.length + 1),
          title: meta.get('og:title') ?? '',
          description: meta.get('og:description') ?? '',
        },
      ];
    });
}

/** Each shared page's preview picture, in the owner's colours; a demo's say "Simulated data (demo)." */
export async function shareImageArtifacts(ctx: BuildContext, pages: readonly SharedPage[]): Promise<Artifact[]> {
  const palette = sharePalette(ctx.look);
  const footer = new URL(ctx.config.siteUrl).host;
  const svgs = pages.map((p) =>
    shareImageSvg(
      {
        site: ctx.config.site.title,
        title: p.title,
        subtitle: p.description,
        footer,
        ...(ctx.simulated ? { simulated: SIMULATED_NOTICE_TITLE } : {}),
        ...(p.cover === undefined ? {} : { cover: p.cover }),
      },
      palette,
    ),
  );
  // Staged as each is drawn, when the build has a staging folder: 3,000 pictures held until written were
  // 130 MB (docs/performance.md#content-at-scale-issue-41).
  const { staging } = ctx;
  const bodies = await pngsOf<Uint8Array | StagedBody>(
    svgs,
    staging === undefined
      ? (png) => png
      : async (png, i) => {
          const staged = join(staging, `picture-${i}.png`);
          await writeFile(staged, png);
          return { staged, hash: fileHash(png), size: png.byteLength };
        },
    { store: ctx.cache?.pictures },
  );
  return pages.map((p, i) => ({ file: p.file, body: bodies[i]! }));
}

/**
 * An ICO file holding one PNG (allowed since Windows Vista and read by every browser): a 6-byte header,
 * one 16-byte directory entry, then the PNG's bytes.
 */
export function icoOf(png: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(6 + 16 + png.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0, true); // reserved
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  out[6] = size >= 256 ? 0 : size; // width (0 means 256)
  out[7] = size >= 256 ? 0 : size; // height
  view.setUint16(10, 1, true); // colour planes
  view.setUint16(12, 32, true); // bits per pixel
  view.setUint32(14, png.length, true); // the image's size
  view.setUint32(18, 22, true); // where it starts
  out.set(png, 22);
  return out;
}

/** The web manifest: the site's name, its colours and its icons, with URLs relative to the manifest. */
export function webManifest(ctx: BuildContext): Record<string, unknown> {
  const { site } = ctx.config;
  const palette = sharePalette(ctx.look);
  return {
    name: site.title,
    short_name: site.title.length <= 12 ? site.title : site.author.split(/\s+/)[0]!.slice(0, 12),
    description: site.tagline,
    lang: site.language,
    start_url: sitePath(ctx.config.siteUrl, '/'),
    scope: sitePath(ctx.config.siteUrl, '/'),
    display: 'browser',
    background_color: palette.background,
    theme_color: palette.accent,
    icons: SITE_ICONS.png.map((icon) => ({
      src: sitePath(ctx.config.siteUrl, icon.path),
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: 'any',
    })),
  };
}

/** The icons, drawn from the owner's name in the owner's colours, and the manifest that lists them. */
export function siteIconArtifacts(ctx: BuildContext): Artifact[] {
  const palette = sharePalette(ctx.look);
  const name = ctx.config.site.author;
  return [
    ...SITE_ICONS.png.map((icon) => ({
      file: icon.file,
      body: pngOf(iconSvg(name, palette, icon.size), ctx.cache?.pictures),
    })),
    {
      file: SITE_ICONS.favicon.file,
      body: icoOf(pngOf(iconSvg(name, palette, SITE_ICONS.favicon.size), ctx.cache?.pictures), SITE_ICONS.favicon.size),
    },
    { file: SITE_ICONS.faviconSvg.file, body: outlinedSvg(iconSvg(name, palette, 64)) },
    { file: SITE_ICONS.manifest.file, body: `${JSON.stringify(webManifest(ctx), null, 2)}\n` },
  ];
}
