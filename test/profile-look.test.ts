// The owner's picture, profile links and the visitor's toggle as the build writes them
// (docs/site.md#the-top-of-the-home-page, #themes): a picture checked by its bytes, served by the site and
// shown with the owner's name; `avatar: github` fetched at build time through one redirect, or said in one
// line and left out; a missing or non-picture file is exit 2 naming it; the known profile sites' icons and
// rel="me"; the head script and the toggle on every page, no inline script. Chromium reads them in
// test/slow/themes-browser.test.ts.
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageTypeOf } from '../builders/lib/image-type.ts';
import { profileIcon, profileSiteOf, PROFILE_SITES } from '../builders/build/pages/profile-links.ts';
import { AVATAR_PNG, noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { pngClaiming, TINY_PNG } from './fakes/avatar.ts';
import { upstreamEnv } from './helpers/run.ts';
import { runBuild, sharedSite, TEST_SITE_CLOCK } from './helpers/site-dist.ts';
import { contentCopy, profileWithLinks } from './helpers/hostile-content.ts';

const profileWith = profileWithLinks;

describe('a picture by its bytes (builders/lib/image-type.ts)', () => {
  it('knows PNG, JPEG and WebP by their signatures, and nothing else', () => {
    expect(imageTypeOf(TINY_PNG)?.contentType).toBe('image/png');
    expect(imageTypeOf(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))?.extension).toBe('jpg');
    const webp = new Uint8Array([...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WEBPVP8 ')]);
    expect(imageTypeOf(webp)?.contentType).toBe('image/webp');
    expect(imageTypeOf(new TextEncoder().encode('not a picture at all'))).toBeNull();
    expect(imageTypeOf(new Uint8Array([...Buffer.from('RIFF'), 1, 2, 3, 4, ...Buffer.from('WAVE')]))).toBeNull();
    expect(imageTypeOf(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageTypeOf(new Uint8Array(0))).toBeNull();
  });
});

describe('profile sites and their icons (builders/build/pages/profile-links.ts)', () => {
  it.each([
    ['https://github.com/octocat', 'github'],
    ['https://gitlab.com/ada', 'gitlab'],
    ['https://www.linkedin.com/in/ada', 'linkedin'],
    ['https://ca.linkedin.com/in/ada', 'linkedin'],
    ['https://hachyderm.io/@ada', 'mastodon'],
    ['https://mastodon.social/@ada@hachyderm.io', 'mastodon'],
    ['https://bsky.app/profile/ada.example.org', 'bluesky'],
    ['https://stackoverflow.com/users/1/ada', 'stackoverflow'],
    ['https://x.com/ada', 'x'],
    ['https://twitter.com/ada', 'x'],
    ['https://www.youtube.com/@ada', 'youtube'],
    ['https://orcid.org/0000-0002-1825-0097', 'orcid'],
    ['mailto:ada@example.org', 'email'],
    ['https://medium.com/@ada', null],
    ['https://example.org/@ada/posts', null],
    ['https://example.org/about', null],
    ['ftp://github.com/octocat', null],
  ])('%s → %s', (url, site) => {
    expect(profileSiteOf(url)).toBe(site);
  });

  it.each(PROFILE_SITES)(
    '%s: an inline SVG from the icon set, in the link colour, hidden from assistive technology',
    (site) => {
      const svg = profileIcon(site);
      expect(svg).toMatch(
        /^<svg class="icon" viewBox="0 0 (16 16|24 24)" width="16" height="16" fill="currentColor" aria-hidden="true">(<path d="[^"]+"\/>)+<\/svg>$/,
      );
      expect(svg).not.toMatch(/href|url\(|<script|<style|font/i);
    },
  );
});

describe('the toggle and the head script on every page', () => {
  it('every page loads /assets/scheme.js blocking, before its stylesheet, and carries the three-button toggle; no inline script', async () => {
    const site = sharedSite();
    const pages = (await site.files()).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(5);
    for (const file of pages) {
      const html = await site.read(file);
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head, file).toMatch(
        /<script src="\/assets\/scheme\.js"><\/script>\n<link rel="stylesheet" href="\/assets\/site\.css">/,
      );
      expect(head, file).toMatch(/script-src 'self'; /);
      expect(html, file).not.toMatch(/unsafe-inline/);
      expect(
        [...html.matchAll(/<script\b([^>]*)>/g)]
          // a JSON-LD data block (the home page's Person) is never run
          .filter((m) => !/\stype="application\/ld\+json"/.test(m[1]!))
          .every((m) => /\ssrc="\/assets\/[a-z-]+\.js"/.test(m[1]!)),
        file,
      ).toBe(true);
      expect(html, file).toContain(
        '<div class="scheme-toggle" role="group" aria-label="Colour scheme"><button type="button" data-scheme-choice="light" aria-pressed="false" title="Always light">Light</button><button type="button" data-scheme-choice="dark" aria-pressed="false" title="Always dark">Dark</button><button type="button" data-scheme-choice="auto" aria-pressed="true" title="Follow your system\'s setting">Auto</button></div>',
      );
    }
    const script = await site.read('assets/scheme.js');
    expect(script).toContain('localStorage');
    expect(script.length).toBeLessThan(1500);
  });
});

describe('builds with a picture and profile links', () => {
  let fake: FakeUpstreams;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function buildWith(files: Record<string, string>, extra: Record<string, Uint8Array> = {}) {
    const content = await contentCopy(files);
    for (const [name, bytes] of Object.entries(extra)) await writeFile(join(content.dir, name), bytes);
    const outDir = join(content.dir, 'dist');
    const env = { ...upstreamEnv(fake.url), SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000) };
    const result = await runBuild(outDir, env, { content: content.dir });
    const read = (file: string) => readFile(join(outDir, file));
    return { result, outDir, read, close: content.close };
  }

  it("avatar: me.png is published by the site, shown with the owner's name as alt, and the icon of every page", async () => {
    const built = await buildWith({ 'profile.md': profileWith('me.png') }, { 'me.png': TINY_PNG });
    try {
      expect(built.result.code).toBe(0);
      expect(new Uint8Array(await built.read('assets/avatar.png'))).toEqual(TINY_PNG);
      const home = String(await built.read('index.html'));
      expect(home).toContain(
        '<img class="avatar u-photo" src="/assets/avatar.png" alt="Ada Park" width="112" height="112">',
      );
      for (const page of ['index.html', 'writings.html', 'developers.html', '404.html'])
        expect(String(await built.read(page)), page).toContain(
          '<link rel="icon" type="image/png" href="/assets/avatar.png">',
        );
      // the profile sites' icons, and rel="me" on every link that leaves the site
      for (const [site, href] of [
        ['github', 'https://github.com/octocat'],
        ['linkedin', 'https://www.linkedin.com/in/ada-park-example'],
        ['mastodon', 'https://hachyderm.example/@ada'],
        ['email', 'mailto:ada@example.org'],
      ])
        expect(home).toContain(
          `<a class="${site === 'email' ? 'u-email' : 'u-url'}" href="${href}" rel="me" data-profile-site="${site}">${profileIcon(site as 'github')}`,
        );
      expect(home).toMatch(/<a href="\/writings">Writings<\/a>/);
      expect(built.result.stderr).toBe('');
    } finally {
      await built.close();
    }
  });

  it.each([
    [
      'notes.txt',
      { 'notes.txt': new TextEncoder().encode('I am a text file, not a picture.\n') },
      /site\/notes\.txt is not a PNG, JPEG or WebP picture \(read by its bytes\)$/,
    ],
    ['gone.png', {}, /site\/gone\.png is missing$/],
    [
      'bomb.png',
      { 'bomb.png': pngClaiming(30_000, 30_000) },
      /site\/bomb\.png is 30000 × 30000 pixels, more than 8192 a side or 50 megapixels in all; make it smaller$/,
    ],
    ['../site.json', {}, /must be github or the name of a picture file in site\//],
  ])('avatar: %s is exit 2, one line naming it, nothing fetched or written', async (avatar, extra, reason) => {
    fake.resetCalls();
    const built = await buildWith({ 'profile.md': profileWith(avatar) }, extra);
    try {
      expect(built.result.code).toBe(2);
      const lines = built.result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^build: the site's content needs a fix: profile\.md "avatar" /);
      expect(lines[0]).toContain(JSON.stringify(avatar));
      expect(lines[0]).toMatch(reason);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      expect(fake.avatar.requests).toBe(0);
      await expect(readdir(built.outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await built.close();
    }
  });

  it.each([
    ['me.png', 'a link to a picture elsewhere'],
    ['pictures/me.png', 'a picture in a linked folder'],
    ['pictures/inner/me.png', 'a picture below a linked folder'],
  ])('avatar: %s, %s out of site/: exit 2 naming it, nothing of it in dist/', async (avatar) => {
    fake.resetCalls();
    const outside = await mkdtemp(join(tmpdir(), 'outside-site-'));
    const content = await contentCopy({ 'profile.md': profileWith(avatar) });
    try {
      await mkdir(join(outside, 'inner'));
      await writeFile(join(outside, 'me.png'), TINY_PNG);
      await writeFile(join(outside, 'inner', 'me.png'), TINY_PNG);
      if (avatar === 'me.png') await symlink(join(outside, 'me.png'), join(content.dir, 'me.png'));
      else await symlink(outside, join(content.dir, 'pictures'));
      const outDir = join(content.dir, 'dist');
      const env = { ...upstreamEnv(fake.url), SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000) };
      const result = await runBuild(outDir, env, { content: content.dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(
        `build: the site's content needs a fix: profile.md "avatar" ${JSON.stringify(avatar)}: site/${avatar} resolves to a file outside site/ (a symbolic link); copy the file into site/ instead\n`,
      );
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await content.close();
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('avatar: github is fetched at build time through its redirect and served by the site', async () => {
    fake.avatar.mode = 'ok';
    fake.resetCalls();
    const built = await buildWith({ 'profile.md': profileWith('github') });
    try {
      expect(built.result.code).toBe(0);
      expect(built.result.stderr).toBe('');
      // github.com/<account>.png, then the picture host it redirected to
      expect(fake.avatar.requests).toBe(2);
      expect(fake.requests.filter((r) => /\.png|avatars/.test(r.url)).map((r) => r.url)).toEqual([
        '/octocat.png',
        '/avatars/u/583231?v=4',
      ]);
      expect(Buffer.from(await built.read('assets/avatar.png')).equals(AVATAR_PNG)).toBe(true);
      expect(String(await built.read('index.html'))).toContain(
        '<img class="avatar u-photo" src="/assets/avatar.png" alt="Ada Park"',
      );
    } finally {
      await built.close();
    }
  });

  it.each([
    ['missing', /answered 404/],
    ['not-image', /the answer is not a PNG, JPEG or WebP picture/],
    ['insecure', /redirected to http:\/\/avatars\.example, not https; not followed/],
    ['huge', /: the picture is 30000 × 30000 pixels, more than 8192 a side or 50 megapixels in all; the pages/],
  ] as const)(
    'a GitHub picture that cannot be fetched (%s): one stderr line, the pages without it, exit 0',
    async (mode, reason) => {
      fake.avatar.mode = mode;
      const built = await buildWith({ 'profile.md': profileWith('github') });
      try {
        expect(built.result.code).toBe(0);
        const lines = built.result.stderr.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          /^build: the GitHub picture of octocat was not fetched: github-avatar: GET http:\/\/127\.0\.0\.1:\d+\/(octocat\.png|avatars\/u\/583231)/,
        );
        expect(lines[0]).toMatch(reason);
        expect(lines[0]).toMatch(/; the pages go without one$/);
        const home = String(await built.read('index.html'));
        expect(home).not.toContain('<img');
        expect(home).toMatch(/<link rel="icon" href="\/favicon\.ico" sizes="\d+x\d+">/);
        await expect(built.read('assets/avatar.png')).rejects.toThrow(/ENOENT/);
      } finally {
        fake.avatar.mode = 'ok';
        await built.close();
      }
    },
  );
});
