// The Netlify / Cloudflare Pages `_headers` file and serve.json at scale: Cloudflare Pages reads at most
// 100 `_headers` rules and serve.json's schema allows 50 header rules, so neither count may grow with the
// writings or the projects, and what each file gets must not change when rules are folded into splats.
// The matcher below is Cloudflare's documented one (a splat is any characters, `/` included; every rule
// that matches applies, and two values of one header are joined with a comma).
import { describe, expect, it } from 'vitest';
import { CARD_RESPONSE_HEADERS, CACHE_CONTROL } from '../builders/contract/service.ts';
import { feedPolicyOptions, pageResponseHeaders } from '../builders/contract/content-security-policy.ts';
import { liveFeedUrl } from '../builders/lib/config.ts';
import { headersFile, serveJson } from '../builders/build/static-host.ts';
import { fileCacheControl } from '../builders/contract/cache-rules.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { gatewayConfig } from './helpers/gateway.ts';

const config = gatewayConfig('http://127.0.0.1:9');
/** The static-host files' inputs: the configuration and the stock deployment's tables. */
const SITE = { config, service: DEFAULT_SERVICE };

/**
 * The files of a build with `writings` writings, as many tags (each with its page, twin and two feeds), and
 * `projects` per-repository cards (and their dark twins).
 */
/** A site's files: `projects` cards light and dark, their repositories shared among `owners` accounts. */
function filesOf(writings: number, projects: number, owners = 1): string[] {
  const pages = ['index', 'developers', 'resume', 'skills', 'writings'];
  return [
    ...DEFAULT_SERVICE.resources.flatMap((r) => r.snapshotFiles),
    ...DEFAULT_SERVICE.cards.map((c) => c.file),
    ...pages.flatMap((p) => [`${p}.html`, `${p}.md`]),
    '404.html',
    ...Array.from({ length: writings }, (_, i) => [
      `writings/w${i}.html`,
      `writings/w${i}.md`,
      `og/writings/w${i}.png`,
    ]).flat(),
    ...pages.map((p) => `og/${p}.png`),
    ...Array.from({ length: writings }, (_, i) =>
      ['html', 'md', 'json', 'atom'].map((ext) => `writings/tags/t${i}.${ext}`),
    ).flat(),
    'assets/site.css',
    'assets/preview.js',
    'assets/avatar.png',
    'icons/icon-192.png',
    'icons/icon-512.png',
    'favicon.ico',
    'favicon.svg',
    'manifest.webmanifest',
    'resume.json',
    'robots.txt',
    'api/index.json',
    'openapi.json',
    '.well-known/api-catalog',
    ...Array.from({ length: projects }, (_, i) => {
      const owner = owners === 1 ? 'o' : `o${i % owners}`;
      return [`cards/repos/${owner}/p${i}.svg`, `cards/repos-dark/${owner}/p${i}.svg`];
    }).flat(),
  ];
}

interface Rule {
  pattern: RegExp;
  headers: Array<[string, string]>;
}

function parseHeaders(text: string): Rule[] {
  return text
    .trim()
    .split(/\n\n/)
    .map((block) => {
      const [path, ...lines] = block.split('\n');
      const source = path!
        .split('*')
        .map((part) => part.replace(/[-/\\^$+?.()|[\]{}]/g, '\\$&'))
        .join('.*');
      return {
        pattern: new RegExp(`^${source}$`),
        headers: lines.map((l) => {
          const at = l.indexOf(': ');
          return [l.slice(0, at).trim(), l.slice(at + 2)] as [string, string];
        }),
      };
    });
}

/** What Cloudflare Pages sends for `path`: every matching rule's headers, one header's values comma-joined. */
function headersFor(rules: Rule[], path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of rules.filter((r) => r.pattern.test(path)))
    for (const [name, value] of rule.headers) out[name] = name in out ? `${out[name]}, ${value}` : value;
  return out;
}

const PAGE = pageResponseHeaders(feedPolicyOptions(liveFeedUrl(config)));

describe('_headers at scale', () => {
  it('holds at most 100 rules, as many for 500 writings and tags and 6 projects as for 2 and 1', () => {
    const small = parseHeaders(headersFile(SITE, filesOf(2, 1))).length;
    const large = parseHeaders(headersFile(SITE, filesOf(500, 6))).length;
    expect(large).toBeLessThanOrEqual(100);
    expect(large).toBe(small);
  });

  it('gives every writing, at its file and its clean path, the page headers, and each twin its Markdown type', () => {
    const rules = parseHeaders(headersFile(SITE, filesOf(500, 6)));
    for (const i of [0, 1, 250, 499]) {
      for (const path of [`/writings/w${i}.html`, `/writings/w${i}`]) {
        const got = headersFor(rules, path);
        for (const [name, value] of Object.entries(PAGE)) expect(got[name], `${path} ${name}`).toBe(value);
        expect(got['Content-Type'], path).toBeUndefined();
      }
      expect(headersFor(rules, `/writings/w${i}.md`)['Content-Type']).toBe('text/markdown; charset=utf-8');
      // A tag's page has the page headers, its twin the Markdown type, its JSON Feed the feed's type.
      const tag = `/writings/tags/t${i}`;
      for (const [name, value] of Object.entries(PAGE))
        expect(headersFor(rules, tag)[name], `${tag} ${name}`).toBe(value);
      expect(headersFor(rules, `${tag}.md`)['Content-Type']).toBe('text/markdown; charset=utf-8');
      expect(headersFor(rules, `${tag}.json`)['Content-Type']).toBe('application/feed+json');
      expect(headersFor(rules, `${tag}.atom`)['Content-Type']).toBeUndefined();
    }
    // the top-level pages keep their own rules
    expect(headersFor(rules, '/developers')['Content-Security-Policy']).toBe(PAGE['Content-Security-Policy']);
    expect(headersFor(rules, '/developers.md')['Content-Type']).toBe('text/markdown; charset=utf-8');
  });

  it("gives every project's card the card type, cache rule and policy, once each", () => {
    const rules = parseHeaders(headersFile(SITE, filesOf(500, 6)));
    const projects = DEFAULT_SERVICE.resources.find((r) => r.cardFolder !== undefined)!;
    for (const file of ['/cards/repos/o/p0.svg', '/cards/repos-dark/o/p5.svg'])
      expect(headersFor(rules, file)).toEqual({
        'Access-Control-Allow-Origin': '*',
        'X-Content-Type-Options': 'nosniff',
        'Content-Type': 'image/svg+xml',
        'Cache-Control': CACHE_CONTROL.card(projects.cache),
        ...CARD_RESPONSE_HEADERS,
      });
  });

  it('leaves the snapshots their own types and cache rules (a folder whose files differ is not folded)', () => {
    const rules = parseHeaders(headersFile(SITE, filesOf(500, 6)));
    for (const r of DEFAULT_SERVICE.resources)
      for (const file of r.snapshotFiles)
        expect(headersFor(rules, `/${file}`)).toEqual({
          'Access-Control-Allow-Origin': '*',
          'X-Content-Type-Options': 'nosniff',
          'Content-Type': r.contentType,
          'Cache-Control': CACHE_CONTROL.staticSnapshot(r.cache),
        });
  });
});

describe('_headers: the cache rule of every file', () => {
  it("gives every file, at its path and its clean URL, the gateway's Cache-Control exactly once", () => {
    const files = filesOf(500, 6);
    const rules = parseHeaders(headersFile(SITE, files));
    const paths = files.flatMap((file) => {
      const clean = file.endsWith('.html') ? [`/${file.slice(0, -'.html'.length)}`] : [];
      return [[`/${file}`, file] as const, ...clean.map((p) => [p === '/index' ? '/' : p, file] as const)];
    });
    paths.push(['/api', 'api/index.json']);
    for (const [path, file] of paths) {
      // Two matching rules would join their values ("a, b"): one value means one rule.
      expect(headersFor(rules, path)['Cache-Control'], path).toBe(fileCacheControl(DEFAULT_SERVICE, file));
    }
    // What the rule says of each kind of file (builders/contract/cache-rules.ts), read by the gateway too.
    expect(fileCacheControl(DEFAULT_SERVICE, 'assets/site.css')).toBe(CACHE_CONTROL.static);
    expect(fileCacheControl(DEFAULT_SERVICE, 'og/writings/w1.png')).toBe(CACHE_CONTROL.static);
    expect(fileCacheControl(DEFAULT_SERVICE, 'api/index.json')).toBe(CACHE_CONTROL.apiIndex);
    const projects = DEFAULT_SERVICE.resources.find((r) => r.cardFolder !== undefined)!;
    expect(fileCacheControl(DEFAULT_SERVICE, 'cards/repos-dark/o/p1.svg')).toBe(CACHE_CONTROL.card(projects.cache));
  });

  it("names the gateway's type for the files whose type a host would name otherwise (the favicon, the manifest)", () => {
    const rules = parseHeaders(headersFile(SITE, filesOf(2, 1)));
    expect(headersFor(rules, '/favicon.ico')['Content-Type']).toBe('image/x-icon');
    expect(headersFor(rules, '/manifest.webmanifest')['Content-Type']).toBe('application/manifest+json');
  });
});

describe('serve.json at scale', () => {
  it('holds at most 50 header rules with 500 writings and 6 projects', () => {
    const json = serveJson(SITE, filesOf(500, 6)) as { headers: Array<{ source: string }> };
    expect(json.headers.length).toBeLessThanOrEqual(50);
    expect(json.headers.map((h) => h.source)).toContain('/cards/repos/o/**.svg');
    expect(json.headers.map((h) => h.source)).toContain('/cards/repos-dark/o/**.svg');
  });

  it('holds at most 50 rules, each source at most 100 characters, with 6 projects of 6 owners: one per card folder', () => {
    // serve refuses a serve.json past its schema's bounds (50 header rules, a source of 100 characters) and
    // serves nothing; a profile may pin the repositories of six accounts, each a folder of cards.
    const files = filesOf(500, 6, 6);
    const json = serveJson(SITE, files) as { headers: Array<{ source: string }> };
    const sources = json.headers.map((h) => h.source);
    expect(sources.length).toBeLessThanOrEqual(50);
    // As many rules as with one owner: the count does not grow with the owners.
    const oneOwner = serveJson(SITE, filesOf(500, 6, 1)) as { headers: unknown[] };
    expect(sources.length).toBe(oneOwner.headers.length);
    expect(sources.filter((source) => source.length > 100)).toEqual([]);
    expect(sources.filter((source) => source.startsWith('/cards/repos')).sort()).toEqual([
      '/cards/repos-dark/**/*.svg',
      '/cards/repos/**/*.svg',
    ]);
    // The same files through _headers: each card one rule, the gateway's.
    const rules = parseHeaders(headersFile(SITE, files));
    for (const file of files.filter((f) => f.startsWith('cards/repos')))
      expect(headersFor(rules, `/${file}`)['Cache-Control'], file).toBe(fileCacheControl(DEFAULT_SERVICE, file));
  });
});

describe('serve.json joins the rules of files with the same headers', () => {
  it('one brace pattern per set of headers, a second only once 100 characters are full', () => {
    const json = serveJson(SITE, filesOf(500, 6, 6)) as {
      headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
    };
    const braced = json.headers.filter((h) => h.source.startsWith('/{'));
    expect(braced.length).toBeGreaterThan(0);
    // Both paths of a dataset, and both its cards, in one rule.
    expect(braced.map((h) => h.source).join(' ')).toMatch(/api\/v1\/github-streak,api\/github-streak/);
    expect(json.headers.filter((h) => h.source.length > 100)).toEqual([]);
    // A set of headers takes a second rule only when its first could hold no more: one more file makes it
    // longer than 100 characters.
    const members = (source: string) => (source.startsWith('/{') ? source.slice(2, -1).split(',') : [source.slice(1)]);
    const bySet = new Map<string, string[]>();
    for (const h of json.headers.filter((r) => !r.source.includes('*'))) {
      const key = JSON.stringify(h.headers);
      bySet.set(key, [...(bySet.get(key) ?? []), h.source]);
    }
    for (const sources of bySet.values())
      sources.slice(0, -1).forEach((source, i) => {
        const next = members(sources[i + 1]!)[0]!;
        expect(`/{${[...members(source), next].join(',')}}`.length, source).toBeGreaterThan(100);
      });
  });
});

describe("a tag's feeds beside its page", () => {
  const files = [
    ...filesOf(2, 1),
    ...['a', 'b'].flatMap((t) => ['html', 'md', 'json', 'atom'].map((e) => `writings/tags/${t}.${e}`)),
  ];

  it('serve.json types the JSON feeds by their extension, never the page or the Atom feed beside them', () => {
    const json = serveJson(SITE, files) as { headers: Array<{ source: string; headers: Array<{ key: string }> }> };
    const typed = json.headers.filter((h) => h.headers.some((k) => k.key === 'Content-Type')).map((h) => h.source);
    expect(typed).toContain('/writings/tags/**.json');
    expect(typed.filter((source) => source.startsWith('/writings/tags/'))).toEqual(['/writings/tags/**.json']);
  });

  it('_headers gives the JSON feeds their type and the page, its clean URL and the Atom feed none', () => {
    const rules = parseHeaders(headersFile(SITE, files));
    for (const tag of ['a', 'b']) {
      expect(headersFor(rules, `/writings/tags/${tag}.json`)['Content-Type']).toBe('application/feed+json');
      for (const path of [`/writings/tags/${tag}.html`, `/writings/tags/${tag}`, `/writings/tags/${tag}.atom`])
        expect(headersFor(rules, path)['Content-Type'], path).toBeUndefined();
    }
  });
});
