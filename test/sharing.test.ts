// How the site is shared and installed (docs/site.md#sharing): canonical, Open Graph and Twitter meta on
// every page, each page's 1200 × 630 preview PNG in dist/ with its own title, drawn with the registry's
// fonts and the same bytes every time; the home page's JSON-LD Person; the manifest, its icons, the favicon.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeHTML } from 'entities';
import { describe, expect, it } from 'vitest';
import { drawPng, pngsOf } from '../builders/build/pictures/rasterise.ts';
import { icoOf } from '../builders/build/pages/sharing.ts';
import { jsonLdText } from '../builders/build/pages/layout.ts';
import { iconSvg, initials, sharePalette, shareImageSvg } from '../builders/render/share-image.ts';
import { DEFAULT_LOOK, lookOf, THEMES } from '../builders/render/themes.ts';
import { contentCopy } from './helpers/hostile-content.ts';
import { buildSite, FIXTURE_SITE, sharedSite, TEST_SITE_URL } from './helpers/site-dist.ts';

const site = sharedSite();

/** A PNG's width and height from its IHDR chunk (PNG §11.2.2), after checking its signature. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe('IHDR');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The head's `<meta property|name=… content=…>` values, decoded. */
function metaOf(html: string): Map<string, string> {
  return new Map(
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [m[1]!, decodeHTML(m[2]!)]),
  );
}

const bytesOf = async (file: string) => new Uint8Array(await readFile(join(site.dir, file)));
const fileOfUrl = (url: string) => {
  expect(url.startsWith(`${TEST_SITE_URL}/`), url).toBe(true);
  return url.slice(TEST_SITE_URL.length + 1);
};

describe('every page is shared with a canonical URL, Open Graph and Twitter meta', () => {
  const PAGES: Array<[file: string, path: string, title: string, type: string]> = [
    ['index.html', '/', 'Ada Park', 'profile'],
    ['resume.html', '/resume', 'Résumé', 'website'],
    ['skills.html', '/skills', 'Skills', 'website'],
    ['writings/midnight-in-toronto.html', '/writings/midnight-in-toronto', 'Midnight in Toronto', 'article'],
  ];

  it.each(PAGES)('%s', async (file, path, title, type) => {
    const html = await site.read(file);
    const url = path === '/' ? `${TEST_SITE_URL}/` : `${TEST_SITE_URL}${path}`;
    expect(html).toContain(`<link rel="canonical" href="${url}">`);
    const meta = metaOf(html);
    expect(meta.get('og:title')).toBe(title);
    expect(meta.get('og:description')).toBe(decodeHTML(/<meta name="description" content="([^"]*)">/.exec(html)![1]!));
    expect(meta.get('og:type')).toBe(type);
    expect(meta.get('og:url')).toBe(url);
    expect(meta.get('og:image:alt')).toMatch(new RegExp(`^${title}: .+`));
    expect(meta.get('twitter:card')).toBe('summary_large_image');
    const png = await bytesOf(fileOfUrl(meta.get('og:image')!));
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    expect(png.length).toBeLessThan(1024 * 1024);
    expect([meta.get('og:image:width'), meta.get('og:image:height')]).toEqual(['1200', '630']);
  });

  it('every HTML page but the 404 page has them, each with a picture of its own', async () => {
    const pages = (await site.files()).filter((f) => f.endsWith('.html') && f !== '404.html');
    expect(pages.length).toBeGreaterThanOrEqual(7);
    const images = new Set<string>();
    for (const file of pages) {
      const meta = metaOf(await site.read(file));
      for (const key of ['og:title', 'og:description', 'og:type', 'og:url', 'og:image', 'og:image:alt', 'twitter:card'])
        expect(meta.has(key), `${file} ${key}`).toBe(true);
      images.add(meta.get('og:image')!);
    }
    expect(images.size).toBe(pages.length);
  });

  it("a writing's picture differs from the home page's, and shows its own title", async () => {
    const home = await bytesOf('og/index.png');
    const writing = await bytesOf('og/writings/midnight-in-toronto.png');
    expect(Buffer.compare(home, writing)).not.toBe(0);
    // The picture is the SVG of the page's own title, drawn: the same bytes as drawing that SVG here.
    const svg = shareImageSvg(
      {
        site: 'Ada Park',
        title: 'Midnight in Toronto',
        subtitle: 'A rolling 365-day calendar, one time zone, and the labels you must never shift.',
        footer: 'ada.example.org',
      },
      sharePalette(DEFAULT_LOOK),
    );
    expect(Buffer.compare(drawPng(svg), writing)).toBe(0);
  });
});

describe("the pictures are drawn in the owner's theme", () => {
  it('a nord site with its own accent draws its pictures in those colours', async () => {
    const siteJson = JSON.parse(await readFile(join(FIXTURE_SITE, 'site.json'), 'utf8')) as Record<string, unknown>;
    const settings = { theme: 'nord', accent: { light: '#8f3c7a', dark: '#f0a8d8' } };
    const content = await contentCopy({ 'site.json': JSON.stringify({ ...siteJson, ...settings }) });
    const built = await buildSite({ site: { content: content.dir } });
    try {
      expect(built.result.code, built.result.stderr).toBe(0);
      const palette = sharePalette(lookOf(settings));
      expect([palette.background, palette.accent]).toEqual([THEMES.nord.light.background, '#8f3c7a']);
      const home = await readFile(join(built.dir, 'og/index.png'));
      const svg = shareImageSvg(
        {
          site: 'Ada Park',
          title: 'Ada Park',
          subtitle: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
          footer: 'ada.example.org',
        },
        palette,
      );
      expect(Buffer.compare(drawPng(svg), home)).toBe(0);
      expect(Buffer.compare(await bytesOf('og/index.png'), home)).not.toBe(0);
      const manifest = JSON.parse(await readFile(join(built.dir, 'manifest.webmanifest'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(manifest.theme_color).toBe('#8f3c7a');
      expect(await readFile(join(built.dir, 'index.html'), 'utf8')).toContain(
        '<meta name="theme-color" content="#8f3c7a">',
      );
    } finally {
      await built.close();
      await content.close();
    }
  });
});

describe('the pictures are drawn with the fonts of the registry, the same bytes every time', () => {
  const palette = sharePalette(DEFAULT_LOOK);
  const text = { site: 'S', title: 'A title', subtitle: 'Its description', footer: 'example.org' };

  it('two draws of one SVG give the same bytes', () => {
    const svg = shareImageSvg(text, palette);
    expect(Buffer.compare(drawPng(svg), drawPng(svg))).toBe(0);
  });

  it.each([
    ['on this thread, two at a time', {}],
    ['on drawing threads of their own, as a large build draws them', { threadsFrom: 1 }],
  ])("the build's pictures, drawn %s, are drawPng's bytes, in order", async (_, options) => {
    // Titles of this test alone, so that no picture comes from the memo of another test's build.
    const svgs = ['one', 'two', 'three', 'four', 'two'].map((t) =>
      shareImageSvg({ ...text, title: `pngsOf ${t} ${JSON.stringify(options)} ${process.pid}` }, palette),
    );
    const kept: number[] = [];
    const pngs = await pngsOf(svgs, (png, i) => (kept.push(i), png), options);
    expect(pngs).toHaveLength(5);
    pngs.forEach((png, i) => expect(Buffer.compare(png, drawPng(svgs[i]!)), `picture ${i}`).toBe(0));
    expect(Buffer.compare(pngs[1]!, pngs[2]!)).not.toBe(0);
    expect(kept.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('an SVG resvg cannot read fails the drawing with its reason, on the drawing threads too', async () => {
    const svgs = [shareImageSvg({ ...text, title: `pngsOf bad ${process.pid}` }, palette), '<svg'];
    await expect(pngsOf(svgs, undefined, { threadsFrom: 1 })).rejects.toThrow(/a preview picture was not drawn: .+/);
    await expect(pngsOf(['<svg'])).rejects.toThrow();
  });

  it("the machine's fonts are never used: a family it has draws as the registry's Inter", () => {
    const svg = shareImageSvg(text, palette);
    // DejaVu Sans is installed on this machine (fc-list); with system fonts off, resvg falls back to Inter.
    expect(Buffer.compare(drawPng(svg.replaceAll('"Inter"', '"DejaVu Sans"')), drawPng(svg))).toBe(0);
    // And the text is drawn at all: without it the picture differs.
    expect(Buffer.compare(drawPng(svg.replace(/>A title</, '><')), drawPng(svg))).not.toBe(0);
  });

  it('a long title is cut to three lines ending in "…", the page title escaped', () => {
    const svg = shareImageSvg({ ...text, title: `<b>${'word '.repeat(60)}` }, palette);
    const lines = [...svg.matchAll(/font-size="68"[^>]*>([^<]*)</g)].map((m) => m[1]!);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^&lt;b&gt;word/);
    expect(lines[2]).toMatch(/…$/);
  });

  it('initials', () => {
    expect(initials('Ada Park')).toBe('AP');
    expect(initials('Émile Zola-Durand')).toBe('ÉZ');
    expect(initials('Prince')).toBe('P');
    expect(initials('1234')).toBe('?');
    expect(iconSvg('Ada Park', palette, 192)).toMatch(/>AP<\/text>/);
  });
});

describe('the home page names its owner: JSON-LD Person', () => {
  it('name, url, jobTitle from basics.label, sameAs = the profile links elsewhere', async () => {
    const html = await site.read('index.html');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    expect(JSON.parse(blocks[0]![1]!)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: 'Ada Park',
      url: `${TEST_SITE_URL}/`,
      jobTitle: 'Staff Software Engineer',
      sameAs: [
        'https://github.com/octocat',
        'https://hachyderm.example/@ada',
        'https://www.linkedin.example/in/ada-park',
      ],
    });
  });

  it('a value cannot end the data block', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script><!--' });
    expect(text).not.toMatch(/</);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script><!--' });
  });
});

describe('the manifest, its icons and the favicon', () => {
  it('/manifest.webmanifest names the site, its theme colour and 192 and 512 pixel PNG icons of those sizes', async () => {
    const manifest = await site.json<{
      name: string;
      theme_color: string;
      icons: Array<{ src: string; sizes: string; type: string }>;
    }>('manifest.webmanifest');
    expect(manifest.name).toBe('Ada Park');
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((i) => [i.sizes, i.type])).toEqual([
      ['192x192', 'image/png'],
      ['512x512', 'image/png'],
    ]);
    for (const icon of manifest.icons) {
      const size = Number(icon.sizes.split('x')[0]);
      expect(pngSize(await bytesOf(icon.src.slice(1)))).toEqual({ width: size, height: size });
    }
  });

  it('every page links the manifest, the favicon and a theme colour', async () => {
    const pages = (await site.files()).filter((f) => f.endsWith('.html'));
    for (const file of pages) {
      const html = await site.read(file);
      expect(html, file).toContain('<link rel="manifest" href="/manifest.webmanifest">');
      expect(html, file).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
      expect(html, file).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      expect(html, file).toMatch(/<meta name="theme-color" content="#[0-9a-f]{6}">/);
    }
  });

  it('/favicon.ico is an ICO of one 32-pixel PNG; /favicon.svg draws its letters as outlines', async () => {
    const ico = await bytesOf('favicon.ico');
    const view = new DataView(ico.buffer, ico.byteOffset, ico.byteLength);
    expect([view.getUint16(0, true), view.getUint16(2, true), view.getUint16(4, true)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    expect(view.getUint32(18, true)).toBe(22);
    expect(pngSize(ico.subarray(22))).toEqual({ width: 32, height: 32 });
    expect(Buffer.compare(icoOf(ico.subarray(22), 32), ico)).toBe(0);
    const svg = await site.read('favicon.svg');
    expect(svg).toMatch(/^<svg [^>]*width="64" height="64"/);
    expect(svg).not.toMatch(/<text/);
    expect(svg).toMatch(/<path /);
  });
});
