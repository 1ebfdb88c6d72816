// Content can never run script (docs/site.md#what-content-may-contain), and a mistake in it is the owner's
// to fix (exit 2), never an internal error (issue 37, items 1 and 5). The sanitizer and the link rules on
// hand-made content; the pages' policy in both its forms; content mistakes through build() in process,
// which stops before any upstream is asked; one whole build of hostile content. The same site served by
// a host that sends no headers, in Chromium: test/slow/content-safety-browser.test.ts.
import { serviceTables } from '../builders/datasets/registry.ts';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentErrorLine, main } from '../builders/build/build.ts';
import { MARKDOWN_BOUNDS, markdownBoundExceeded, renderMarkdown } from '../builders/build/content/markdown.ts';
import { isPublishableLink, sanitizeContentHtml } from '../builders/build/content/sanitize.ts';
import { ContentError, parseProfile, parseSkills, parseWriting } from '../builders/build/content/site-content.ts';
import { MAX_YAML_ALIAS_COUNT, MAX_YAML_BYTES, MAX_YAML_DEPTH } from '../builders/build/content/yaml.ts';
import { markdownToText } from '../builders/build/pages/plain-text.ts';
import { headersFile, serveJson } from '../builders/build/static-host.ts';
import {
  contentSecurityPolicy,
  feedOrigin,
  feedPolicyOptions,
  pageContentSecurityPolicy,
  pageResponseHeaders,
} from '../builders/contract/content-security-policy.ts';
import { CONTENT_SECURITY_POLICY, PAGE_RESPONSE_HEADERS } from '../builders/contract/service.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { DEFAULT_MARKET_WS_URL, liveFeedUrl, loadConfig, readSiteFile } from '../builders/lib/config.ts';
import { ConfigError } from '../builders/lib/errors.ts';
import { FIXTURE_SITE, buildSite, runBuild, runBuildMain, type BuiltSite } from './helpers/site-dist.ts';
import { renderAssets } from '../builders/build/pages/assets.ts';
import { DEFAULT_LOOK } from '../builders/render/themes.ts';
import { upstreamEnv, type RunResult } from './helpers/run.ts';
import {
  contentCopy,
  HOSTILE_MARKDOWN,
  HOSTILE_WRITING,
  hostileProfile,
  metaPolicies,
  scriptSources,
  scriptVectors,
} from './helpers/hostile-content.ts';

describe('the content sanitizer (builders/build/content/sanitize.ts)', () => {
  const html = renderMarkdown(HOSTILE_MARKDOWN);

  it('leaves nothing of the hostile Markdown that could run: no script, handler, frame, object, form, style or script URL', () => {
    expect(scriptVectors(html)).toEqual([]);
    expect(html).not.toMatch(/<(script|svg|iframe|object|embed|form|style|button)\b/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:|vbscript:|data:/i);
    // the code of a dropped script is not kept as text either
    expect(html).not.toMatch(/alert\('(script|svg|style)'\)/);
  });

  it('keeps what a writing means: its text, safe links, the details element', () => {
    expect(html).toContain('I build data pipelines.');
    expect(html).toContain('<a href="https://example.org/ok">good link</a>');
    expect(html).toContain('<a href="/writings">path</a>');
    // a refused link keeps its words, not its href
    expect(html).toContain('<a>plain javascript link</a>');
    expect(html).toContain('<details open><summary>More</summary>Kept text.</details>');
  });

  it("keeps what the pages' own Markdown makes: heading ids, stacked tables, focusable code, task boxes", () => {
    const own = renderMarkdown(
      '## A <a id="rate-limit-exceeded"></a>\n\n### <a id="rate-limit-exceeded"></a>Limit\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n```js\nx < 1 && y\n```\n\n- [x] done\n- [ ] open\n',
    );
    expect(own).toContain('<h3 id="rate-limit-exceeded">Limit</h3>');
    expect(own).toContain('<table class="stack">');
    expect(own).toContain('<td data-label="a" class="align-left">1</td>');
    expect(own).toContain(
      '<pre tabindex="0"><code class="language-js hljs">x &lt; <span class="hljs-number">1</span> &amp;&amp; y\n</code></pre>',
    );
    expect(own).toContain('<input type="checkbox" disabled checked /> done');
  });

  it.each([
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="  JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;&#97;vascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="a">', ''],
    [
      '<img src="https://example.org/a.png" onerror="alert(1)" alt="a">',
      '<img src="https://example.org/a.png" alt="a" />',
    ],
    ['<p style="color:red" onclick="alert(1)" class="x" id="content">p</p>', '<p>p</p>'],
    ['<input name="q" type="text">', ''],
    ['<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ''],
  ])('%s → %s', (input, output) => {
    expect(sanitizeContentHtml(input)).toBe(output);
  });

  it('publishes a link of http, https or mailto, or a relative one; never javascript:, data: or vbscript:, however spelt', () => {
    for (const url of [
      'https://example.org/a?b=1&c=2',
      'http://x.test',
      'mailto:ada@example.org',
      '/writings',
      '#top',
      'notes',
    ])
      expect(isPublishableLink(url), url).toBe(true);
    for (const url of [
      'javascript:alert(1)',
      ' JAVASCRIPT:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0000javascript:alert(1)',
      '&#106;avascript:alert(1)',
      'javascript&colon;alert(1)',
      'data:text/html,x',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ])
      expect(isPublishableLink(url), JSON.stringify(url)).toBe(false);
  });

  it('gives plain text (content_text, profile.json) without the refused URLs, keeping their words', () => {
    const text = markdownToText(HOSTILE_MARKDOWN);
    expect(text).not.toMatch(/javascript:|vbscript:|data:|<script|onerror/i);
    expect(text).toContain('A plain javascript link, a mixed-case one');
    expect(text).toContain('good link <https://example.org/ok>');
  });
});

describe("the pages' Content-Security-Policy (builders/contract/content-security-policy.ts)", () => {
  it('is one list of directives: the meta form is the header form without the header-only directives', () => {
    const header = pageContentSecurityPolicy();
    const meta = pageContentSecurityPolicy({}, 'meta');
    expect(header).toBe(CONTENT_SECURITY_POLICY);
    expect(PAGE_RESPONSE_HEADERS['Content-Security-Policy']).toBe(header);
    expect(header).toMatch(/frame-ancestors 'none'/);
    expect(meta).not.toMatch(/frame-ancestors|report-uri|sandbox/);
    expect(header.split('; ').filter((d) => !d.startsWith('frame-ancestors'))).toEqual(meta.split('; '));
    for (const policy of [header, meta]) {
      expect(scriptSources(policy)).toEqual(["'self'"]);
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(policy).toMatch(/object-src 'none'/);
    }
  });

  it('takes the origins a page connects to (the live feed) into both forms', () => {
    const options = { connectSources: ['wss://feed.example.test'] };
    for (const form of ['header', 'meta'] as const)
      expect(pageContentSecurityPolicy(options, form)).toContain("connect-src 'self' wss://feed.example.test");
    expect(pageResponseHeaders(options)['Content-Security-Policy']).toBe(pageContentSecurityPolicy(options));
  });

  it('is what _headers and serve.json give every page', () => {
    const config = loadConfig({ SITE_URL: 'https://ada.example.org' });
    // The stock deployment subscribes to the live feed, so its pages' policy names the feed's origin.
    const livePolicy = contentSecurityPolicy(liveFeedUrl(config));
    expect(livePolicy).toBe(pageContentSecurityPolicy({ connectSources: [feedOrigin(liveFeedUrl(config))!] }));
    const files = ['index.html', 'writings.html', '404.html'];
    const blocks = headersFile({ config, service: serviceTables(config) }, files).split('\n\n');
    for (const path of ['/index.html', '/', '/writings.html', '/writings', '/404.html'])
      expect(
        blocks.find((b) => b.startsWith(`${path}\n`)),
        path,
      ).toContain(`\n  Content-Security-Policy: ${livePolicy}\n`);
    const serve = serveJson({ config, service: serviceTables(config) }, files) as {
      headers: Array<{ source: string; headers: Array<{ key: string; value: string }> }>;
    };
    expect(serve.headers.find((h) => h.source === '**/*.html')?.headers).toContainEqual({
      key: 'Content-Security-Policy',
      value: livePolicy,
    });
  });
});

describe('links in front matter', () => {
  const profile = (url: string) =>
    `---\nname: A\nlocation: B\nlinks:\n  - label: L\n    url: ${JSON.stringify(url)}\n---\nAbout.`;

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    '&#106;avascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/',
    'writings',
  ])('refuses %j, naming the file and the field', (url) => {
    expect(() => parseProfile(profile(url))).toThrow(ContentError);
    expect(() => parseProfile(profile(url))).toThrow(
      /^profile\.md: "links\[0\]\.url" .* must be an http:, https: or mailto: URL, or a path on this site starting with \/$/,
    );
  });

  it('takes http(s), mailto: and a path on this site', () => {
    for (const url of ['https://example.org/', 'http://x.test/a', 'mailto:ada@example.org', '/writings'])
      expect(parseProfile(profile(url)).links[0]!.url).toBe(url);
  });
});

describe('content mistakes, refused with the file and what to fix', () => {
  const writing = (front: string) => `---\n${front}\n---\nBody.`;
  const deepFlow = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const aliasBomb = () => {
    let yaml = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 0, previous = 'a'; i < 9; i++) {
      yaml += `b${i}: &b${i} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
      previous = `b${i}`;
    }
    return yaml;
  };

  it.each([
    [
      'a bad file name',
      'writings/Bad..Name.md',
      writing('title: T\ndate: 2026-01-01\nsummary: S'),
      /lower-case slug.*rename it/,
    ],
    [
      'an alias bomb',
      'writings/bomb.md',
      writing(`title: T\ndate: 2026-01-01\nsummary: S\n${aliasBomb()}`),
      new RegExp(`aliases \\(\\*name\\) that expand to more than ${MAX_YAML_ALIAS_COUNT}`),
    ],
    [
      'YAML nested deeper than the bound',
      'writings/deep.md',
      writing(`title: T\nx: ${deepFlow(MAX_YAML_DEPTH + 1)}`),
      new RegExp(`nests lists and mappings deeper than ${MAX_YAML_DEPTH} levels`),
    ],
    [
      'block lists nested deep',
      'writings/dashes.md',
      writing(`x: ${'- '.repeat(5000)}y`),
      /deeper than 32 levels|not valid YAML/,
    ],
    [
      'YAML 200,000 deep',
      'writings/deeper.md',
      writing(`x: ${deepFlow(200_000)}`),
      new RegExp(`more than ${MAX_YAML_BYTES}; shorten it`),
    ],
    [
      'a YAML syntax error',
      'writings/syntax.md',
      writing('title: "T\ndate: 2026-01-01'),
      /front matter is not valid YAML at line 3, column \d+: Missing closing "quote$/,
    ],
    [
      'an ill-typed field',
      'writings/typed.md',
      writing('title: [1, 2]\ndate: 2026-01-01\nsummary: S'),
      /"title" must be a non-empty string/,
    ],
    ['a missing field', 'writings/missing.md', writing('title: T\ndate: 2026-01-01'), /"summary" is missing; add it/],
  ])('%s', (_what, file, source, reason) => {
    let error: unknown;
    try {
      parseWriting(source, file);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).message.startsWith(`${file}: `)).toBe(true);
    expect((error as ContentError).message).toMatch(reason);
    expect((error as ContentError).message).not.toContain('\n');
  });

  it('Markdown within the bounds the renderer needs: quotes, indentation and emphasis runs; code fences aside', () => {
    const { quoteDepth, indentColumns, delimiterRun } = MARKDOWN_BOUNDS;
    expect(markdownBoundExceeded(`${'> '.repeat(quoteDepth)}x`)).toBeNull();
    expect(markdownBoundExceeded(`${'>'.repeat(quoteDepth + 1)} x`)).toBe(
      `it quotes a line more than ${quoteDepth} levels deep`,
    );
    const list = Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n');
    expect(markdownBoundExceeded(list)).toBe(
      `it indents a line by more than ${indentColumns} columns (lists nested that deep)`,
    );
    expect(markdownBoundExceeded(`${'*'.repeat(delimiterRun + 1)}x`)).toMatch(/run of more than 256 emphasis marks/);
    expect(markdownBoundExceeded(`\`\`\`python\n${'>'.repeat(100)}\n${' '.repeat(300)}x\n\`\`\`\n\n>>> ok`)).toBeNull();
    // A single-quoted scalar's brackets are text, not nesting.
    expect(
      parseWriting(`---\ntitle: '${'['.repeat(40)}'\ndate: 2026-01-01\nsummary: S\n---\nBody.`, 'writings/q.md')!.title,
    ).toBe('['.repeat(40));
  });

  it('skills.yaml: JSON nested 200,000 deep, a group that is not a mapping', () => {
    expect(() => parseSkills(`${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`)).toThrow(
      /^skills\.yaml: its YAML is \d+ bytes/,
    );
    expect(() => parseSkills(`${'{"a":'.repeat(100)}1${'}'.repeat(100)}`)).toThrow(/^skills\.yaml: its YAML nests/);
    expect(() => parseSkills('- just a string\n')).toThrow(/^skills\.yaml: "\[0\]" must be a mapping/);
  });
});

describe('content mistakes through build(): exit 2 at once, one line, no upstream asked, nothing written', () => {
  let fake: FakeUpstreams;
  let base: string;
  beforeAll(async () => {
    fake = await startFakeUpstreams();
    base = await mkdtemp(join(tmpdir(), 'content-mistakes-'));
  });
  afterAll(async () => {
    await fake?.close();
    if (base) await rm(base, { recursive: true, force: true });
  });

  /** `build` into `outDir` is refused at once: exit 2, exactly `stderr`, no upstream asked, nothing written. */
  async function expectRefused(outDir: string, build: () => Promise<RunResult>, stderr: string): Promise<void> {
    fake.resetCalls();
    const result = await build();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(stderr);
    expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
    await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
  }

  const bomb = `---\ntitle: T\ndate: 2026-01-01\nsummary: S\na: &a [x,x,x,x,x,x,x,x,x,x]\n${Array.from(
    { length: 9 },
    (_, i) =>
      `b${i}: &b${i} [${Array(10)
        .fill(i ? `*b${i - 1}` : '*a')
        .join(',')}]`,
  ).join('\n')}\n---\nBody.`;

  it.each([
    [
      'writings/Bad..Name.md',
      '---\ntitle: T\ndate: 2026-01-01\nsummary: S\n---\nBody.',
      /writings\/Bad\.\.Name\.md: the file name .* rename it/,
    ],
    ['writings/bomb.md', bomb, /writings\/bomb\.md: its front matter uses aliases/],
    [
      'writings/deep.md',
      `---\ntitle: T\nx: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n---\nBody.`,
      /writings\/deep\.md: its front matter is \d+ bytes/,
    ],
    [
      'writings/quotes.md',
      `---\ntitle: T\ndate: 2026-01-01\nsummary: S\n---\n${'>'.repeat(50_000)} deep`,
      /writings\/quotes\.md: its Markdown nests too deeply to render: it quotes a line more than 32 levels deep/,
    ],
    [
      'writings/list.md',
      `---\ntitle: T\ndate: 2026-01-01\nsummary: S\n---\n${Array.from({ length: 1000 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n')}`,
      /writings\/list\.md: its Markdown nests too deeply to render: it indents a line by more than 256 columns/,
    ],
    [
      'profile.md',
      hostileProfile('  - label: Home\n    url: "javascript:alert(1)"\n'),
      /profile\.md: "links\[0\]\.url" "javascript:alert\(1\)" must be/,
    ],
    [
      'profile.md',
      hostileProfile('  - label: Docs\n    url: https://example.com/docs/{version}/\n'),
      /profile\.md: "links\[0\]\.url" "https:\/\/example\.com\/docs\/\{version\}\/" is not a valid URL: "\{" has no place in one unescaped/,
    ],
    [
      'writings/bidi.md',
      '---\ntitle: "Invoice \u202Efdp.exe"\ndate: 2026-01-01\nsummary: S\n---\nBody.',
      /writings\/bidi\.md: line 2 contains an invisible formatting character \(U\+202E\); remove it/,
    ],
    [
      'writings/escape.md',
      '---\ntitle: T\ndate: 2026-01-01\nsummary: S\n---\nBody \u001b[31mred\u0007.',
      /writings\/escape\.md: line 6 contains a control character \(U\+001B\); remove it/,
    ],
    [
      'skills.yaml',
      '- group: G\n  skills:\n    - name: "Next\u0085Line"\n',
      /skills\.yaml: line 3 contains a control character \(U\+0085\); remove it/,
    ],
    [
      'profile.md',
      hostileProfile('  - label: "Zero\u200Bwidth"\n    url: /writings\n'),
      /profile\.md: line 5 contains an invisible formatting character \(U\+200B\); remove it/,
    ],
    [
      'skills.yaml',
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      /skills\.yaml: its YAML nests lists and mappings deeper/,
    ],
    [
      'skills.yaml',
      `- group: G\n  skills:\n    - name: "${'*'.repeat(10_000)}x${'*'.repeat(10_000)}"\n`,
      /skills\.yaml: its Markdown nests too deeply to render: it has a run of more than 256 emphasis marks/,
    ],
  ])('%s', async (file, text, line) => {
    const content = await contentCopy({ [file]: text });
    const outDir = join(base, file.replace(/\W/g, '-'));
    fake.resetCalls();
    try {
      const result = await runBuild(outDir, upstreamEnv(fake.url), { content: content.dir });
      expect(result.code).toBe(2);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^build: the site's content needs a fix: /);
      expect(lines[0]).toMatch(line);
      expect(lines[0]).not.toMatch(/internal error/);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await content.close();
    }
  });

  it('a writing that is a symbolic link to a file outside site/: exit 2 naming it, nothing published, no upstream asked', async () => {
    const content = await contentCopy({});
    const outside = join(base, 'outside-secret.md');
    await writeFile(outside, '---\ntitle: Secret\ndate: 2026-01-01\nsummary: S\n---\nNot for publishing.');
    await symlink(outside, join(content.dir, 'writings', 'linked.md'));
    // A link within site/ is the owner's own file, and stays publishable.
    await symlink(join(content.dir, 'writings', 'static-plus-cron.md'), join(content.dir, 'writings', 'alias.md'));
    const outDir = join(base, 'symlinked');
    try {
      await expectRefused(
        outDir,
        () => runBuild(outDir, upstreamEnv(fake.url), { content: content.dir }),
        "build: the site's content needs a fix: writings/linked.md: resolves to a file outside site/ (a symbolic link); copy the file into site/ instead\n",
      );
    } finally {
      await content.close();
    }
  });

  it('site.json as a symbolic link to a file outside its folder: exit 2 naming it, nothing written, no upstream asked', async () => {
    const content = await contentCopy({});
    const outside = join(base, 'outside-site.json');
    await writeFile(outside, '{"title":"Elsewhere"}');
    await rm(join(content.dir, 'site.json'));
    await symlink(outside, join(content.dir, 'site.json'));
    const outDir = join(base, 'linked-site-json');
    try {
      await expectRefused(
        outDir,
        () => runBuildMain(['--out', outDir], upstreamEnv(fake.url), { content: content.dir }),
        'build: invalid configuration: site/site.json: resolves to a file outside its folder (a symbolic link); copy the file into the folder instead\n',
      );
    } finally {
      await content.close();
    }
  });

  it('the stylesheet as a symbolic link out of site/ is refused before anything is bundled', async () => {
    const dir = await mkdtemp(join(base, 'styles-'));
    await mkdir(join(dir, 'styles'));
    await writeFile(join(base, 'outside.css'), 'body { color: red }');
    await symlink(join(base, 'outside.css'), join(dir, 'styles', 'site.css'));
    await expect(renderAssets(DEFAULT_LOOK, pathToFileURL(`${dir}/`))).rejects.toThrow(
      new ContentError(
        'site/styles/site.css',
        'resolves to a file outside site/ (a symbolic link); copy the file into site/ instead',
      ),
    );
  });

  it('a missing profile.md is named; a missing writings/ folder is no writings at all', async () => {
    const content = await contentCopy({});
    await rm(join(content.dir, 'profile.md'));
    try {
      const result = await runBuild(join(base, 'no-profile'), upstreamEnv(fake.url), { content: content.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "build: the site's content needs a fix: profile.md: is missing; the site needs it (docs/site.md)\n",
      );
    } finally {
      await content.close();
    }
    expect(contentErrorLine(new ContentError('a.md', 'x'))).toBe("build: the site's content needs a fix: a.md: x");
  });
});

describe('site.json mistakes: exit 2 with one line naming the file and the field', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-json-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const stock = readSiteFile(pathToFileURL(`${FIXTURE_SITE}site.json`));
  const write = async (name: string, text: string) => {
    await writeFile(join(dir, name), text);
    return pathToFileURL(join(dir, name));
  };

  it.each([
    [
      'missing',
      JSON.stringify({ ...stock, title: undefined }),
      /^site\/site\.json: "title" is missing; add it: the site's name/,
    ],
    ['ill-typed', JSON.stringify({ ...stock, author: 42 }), /^site\/site\.json: "author" must be a non-empty string/],
    ['empty', JSON.stringify({ ...stock, tagline: ' ' }), /^site\/site\.json: "tagline" must be a non-empty string/],
    [
      'a javascript: siteUrl',
      JSON.stringify({ ...stock, siteUrl: 'javascript:alert(1)' }),
      /^site\/site\.json "siteUrl": must use http: or https:, not javascript:$/,
    ],
    [
      'a bad language',
      JSON.stringify({ ...stock, language: 'en us' }),
      /^site\/site\.json: "language" "en us" is not a language tag/,
    ],
    ['not JSON', '{"title": ', /^site\/site\.json: is not valid JSON/],
    ['an array', '[]', /^site\/site\.json: must be one JSON object/],
    [
      'nested 200,000 deep',
      `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
      /^site\/site\.json: is refused unparsed: it nests deeper than 64 levels/,
    ],
  ])('%s', async (name, text, message) => {
    const url = await write(`${name.replace(/\W/g, '-')}.json`, text);
    expect(() => readSiteFile(url)).toThrow(ConfigError);
    expect(() => readSiteFile(url)).toThrow(message);
  });

  it("npm run build's main: exit 2, one line, nothing else done", async () => {
    const url = await write('site.json', JSON.stringify({ ...stock, githubAccount: undefined }));
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      expect(await main(['--out', join(dir, 'dist')], url)).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual([
      'build: invalid configuration: site/site.json: "githubAccount" is missing; add it: the GitHub account whose contribution calendar the site shows\n',
    ]);
    await expect(readdir(join(dir, 'dist'))).rejects.toThrow(/ENOENT/);
  });
});

describe('a whole build of hostile content (the profile and a writing)', () => {
  let site: BuiltSite;
  let content: Awaited<ReturnType<typeof contentCopy>>;
  beforeAll(async () => {
    content = await contentCopy({ 'profile.md': hostileProfile(), 'writings/hostile-markup.md': HOSTILE_WRITING });
    site = await buildSite({ site: { content: content.dir } });
  });
  afterAll(async () => {
    await site?.close();
    await content?.close();
  });

  it('exits 0 and publishes the writing', async () => {
    expect(site.result.code, site.result.stderr).toBe(0);
    expect(await site.files()).toContain('writings/hostile-markup.html');
  });

  it('no page carries a script vector; every page states the policy in a meta element, scripts without unsafe-inline', async () => {
    const pages = (await site.files()).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const html = await site.read(page);
      expect(scriptVectors(html), page).toEqual([]);
      expect(html, page).not.toMatch(/href="\s*javascript:/i);
      expect(metaPolicies(html), page).toEqual([
        pageContentSecurityPolicy(feedPolicyOptions(DEFAULT_MARKET_WS_URL), 'meta'),
      ]);
      expect(scriptSources(metaPolicies(html)[0]!), page).not.toContain("'unsafe-inline'");
      // first in the head after the charset: a meta policy governs only what follows it
      expect(html, page).toMatch(/<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" /);
    }
  });

  it('the feeds and profile.json carry no script, event handler or script URL', async () => {
    for (const file of ['feed.json', 'feed.atom', 'profile.json']) {
      const text = await site.read(file);
      expect(text, file).not.toMatch(
        /<script|&lt;script|\bon(error|load|toggle|click)\s*=|javascript:|vbscript:|data:/i,
      );
    }
    const feed = await site.json<{ items: Array<{ content_html: string }> }>('feed.json');
    for (const item of feed.items) expect(scriptVectors(item.content_html)).toEqual([]);
  });
});
