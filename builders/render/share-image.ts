// The pictures that stand for the site where it is shared or installed, as SVG: the 1200 × 630 preview
// image of a page (Open Graph's og:image, Twitter's summary_large_image) with the page's own title, and
// the site's icon (the favicon and the web manifest's icons). Pure: text and colours in, SVG out; the
// build rasterises them to PNG with the fonts it ships (builders/pages/share-images.ts), so the font
// named here is the one drawn, never the machine's.
import { contrastRatio, type Look } from './themes.ts';
import { escapeHtml } from './html.ts';
import { clampLines, ellipsize } from './text-width.ts';

/** The colours of the owner's look that these pictures use (builders/pages/share-images.ts picks them). */
export interface SharePalette {
  background: string;
  text: string;
  muted: string;
  line: string;
  accent: string;
  /** Text drawn on the accent (the icon's initials). */
  onAccent: string;
}

/**
 * The owner's colours for these pictures: the light variant of the owner's theme and accent
 * (builders/render/themes.ts), as a shared picture has no reader's colour scheme to follow. The initials on the
 * icon take whichever of white and the theme's text reads better on the accent.
 */
export function sharePalette(look: Pick<Look, 'light'>): SharePalette {
  const { light } = look;
  const onAccent =
    contrastRatio('#ffffff', light.accent) >= contrastRatio(light.text, light.accent) ? '#ffffff' : light.text;
  return {
    background: light.background,
    text: light.text,
    muted: light.muted,
    line: light.border,
    accent: light.accent,
    onAccent,
  };
}

/** Open Graph's recommended size for a large preview (1.91:1), which Twitter's summary_large_image takes too. */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;

/** The family the rasteriser is given (its files come from the registry, never the machine). */
export const SHARE_FONT_FAMILY = 'Inter';

export interface ShareImageText {
  /** The site's title, over the page's. */
  site: string;
  /** The page's own title: what the picture is of. */
  title: string;
  /** One or two lines under it: the page's description. */
  subtitle: string;
  /** The bottom line: where the page is (the site's host). */
  footer: string;
  /** A demo build's pictures say so, as every page of it does. */
  simulated?: string;
  /** A writing's cover, as a data: URL of a PNG, JPEG or GIF (what the rasteriser decodes): beside the title. */
  cover?: string;
}

/** The cover's square, right of the title. */
const COVER_SIDE = 360;
const COVER_GAP = 40;

const MARGIN = 80;
const TITLE_SIZE = 68;
const TITLE_LINE = 80;
const SUBTITLE_SIZE = 32;
const SUBTITLE_LINE = 42;

const textElement = (x: number, y: number, size: number, fill: string, content: string, weight = 400) =>
  `<text x="${x}" y="${y}" font-family="${SHARE_FONT_FAMILY}" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeHtml(content)}</text>`;

/** A page's preview picture: a band of the accent, the site's title, the page's title large, its description, the host. */
export function shareImageSvg(text: ShareImageText, palette: SharePalette): string {
  const { width, height } = SHARE_IMAGE_SIZE;
  const inner = width - 2 * MARGIN;
  // With a cover, the title and description keep to its left.
  const column = text.cover === undefined ? inner : inner - COVER_SIDE - COVER_GAP;
  const title = clampLines(text.title, column, TITLE_SIZE, 3, true);
  const subtitle = clampLines(text.subtitle, column, SUBTITLE_SIZE, title.length > 2 ? 1 : 2);
  const coverX = width - MARGIN - COVER_SIDE;
  const coverY = 150;
  const titleTop = 230;
  const subtitleTop = titleTop + (title.length - 1) * TITLE_LINE + 64;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="${palette.background}"/>`,
    `<rect width="${width}" height="16" fill="${palette.accent}"/>`,
    // The site's title over the page's, unless it is the page's (the home page of a site named for its owner).
    text.site === text.title
      ? ''
      : textElement(MARGIN, 120, 34, palette.accent, ellipsize(text.site, inner, 34, true), 700),
    text.cover === undefined
      ? ''
      : `<clipPath id="cover"><rect x="${coverX}" y="${coverY}" width="${COVER_SIDE}" height="${COVER_SIDE}" rx="16"/></clipPath>` +
        `<image href="${escapeHtml(text.cover)}" x="${coverX}" y="${coverY}" width="${COVER_SIDE}" height="${COVER_SIDE}" preserveAspectRatio="xMidYMid slice" clip-path="url(#cover)"/>`,
    ...title.map((line, i) => textElement(MARGIN, titleTop + i * TITLE_LINE, TITLE_SIZE, palette.text, line, 700)),
    ...subtitle.map((line, i) =>
      textElement(MARGIN, subtitleTop + i * SUBTITLE_LINE, SUBTITLE_SIZE, palette.muted, line),
    ),
    `<rect x="${MARGIN}" y="${height - 110}" width="${inner}" height="2" fill="${palette.line}"/>`,
    textElement(MARGIN, height - 56, 28, palette.muted, ellipsize(text.footer, inner / 2, 28)),
    text.simulated === undefined
      ? ''
      : `<text x="${width - MARGIN}" y="${height - 56}" text-anchor="end" font-family="${SHARE_FONT_FAMILY}" font-size="28" font-weight="700" fill="${palette.text}">${escapeHtml(ellipsize(text.simulated, inner / 2, 28, true))}</text>`,
    '</svg>',
  ];
  return parts.filter(Boolean).join('\n');
}

/** Up to two initials of a name, upper-cased ("Ada Park" → "AP"); "?" for a name with no letter. */
export function initials(name: string): string {
  const words = name.match(/\p{L}[\p{L}\p{M}'’-]*/gu) ?? [];
  const letters = [words[0], words.length > 1 ? words[words.length - 1] : undefined]
    .filter((w): w is string => w !== undefined)
    .map((w) => [...w][0]!.toLocaleUpperCase('en'));
  return letters.length > 0 ? letters.join('') : '?';
}

/** The site's icon: the owner's initials on a rounded square of the accent, drawn at `size` pixels. */
export function iconSvg(name: string, palette: SharePalette, size: number): string {
  const letters = initials(name);
  const fontSize = Math.round(size * (letters.length > 1 ? 0.42 : 0.56));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">`,
    `<rect width="${size}" height="${size}" rx="${Math.round(size * 0.18)}" fill="${palette.accent}"/>`,
    `<text x="${size / 2}" y="${Math.round(size / 2 + fontSize * 0.36)}" text-anchor="middle" font-family="${SHARE_FONT_FAMILY}" font-size="${fontSize}" font-weight="700" fill="${palette.onAccent}">${escapeHtml(letters)}</text>`,
    '</svg>',
  ].join('\n');
}
