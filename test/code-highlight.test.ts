// Highlighted code (docs/site.md#code-blocks, builders/build/content/highlight.ts): a fenced block in a
// registered language renders as highlight.js token spans, with no style attribute and no script; an
// unknown language or none is plain escaped text; every token colour of all twelve palettes reaches 4.5:1
// on the code block's background; every class the grammars can emit has a rule in the stylesheet and gets
// through the sanitizer, and no other class does; the built developer page carries highlighted blocks
// while its Markdown twin keeps the fences.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HIGHLIGHTED_LANGUAGES, highlightCode, TOKEN_CLASSES } from '../builders/build/content/highlight.ts';
import { renderMarkdown } from '../builders/build/content/markdown.ts';
import { sanitizeContentHtml } from '../builders/build/content/sanitize.ts';
import {
  codeBackground,
  codeColours,
  CODE_TOKENS,
  readableOn,
  type CodeColours,
} from '../builders/render/code-colours.ts';
import {
  contrastRatio,
  formatRatio,
  lookOf,
  MIN_TEXT_CONTRAST,
  SCHEMES,
  THEME_NAMES,
  THEMES,
  type Palette,
} from '../builders/render/themes.ts';
import { sharedSite } from './helpers/site-dist.ts';

const VARIANTS = THEME_NAMES.flatMap((theme) => SCHEMES.map((scheme) => [theme, scheme] as const));

const TYPESCRIPT = [
  '```ts',
  'interface Tide { height: number }',
  '// the next high water',
  'export function next(tides: Tide[]): string {',
  '  return `${tides.length} tides <soon>`;',
  '}',
  '```',
].join('\n');

const BASH = ['```bash', '# fetch the calendar', 'curl -s "https://example.org/$PATH" | jq .days', '```'].join('\n');

/** The classes of every `<span>` in `html`. */
const spanClasses = (html: string) => [...html.matchAll(/<span class="([^"]*)">/g)].map((m) => m[1]!);

describe('a fenced block with a language', () => {
  it.each([
    ['TypeScript', TYPESCRIPT, 'ts', ['hljs-keyword', 'hljs-comment', 'hljs-string', 'hljs-title']],
    ['Bash', BASH, 'bash', ['hljs-comment', 'hljs-string', 'hljs-variable']],
  ])('%s renders as token spans, with no style attribute and no script', (_name, markdown, lang, expected) => {
    const html = renderMarkdown(markdown);
    expect(html).toMatch(new RegExp(`^<pre tabindex="0"><code class="language-${lang} hljs">`));
    for (const token of expected) expect(spanClasses(html), token).toContain(token);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<script/i);
    // the code's own text is escaped, not markup
    expect(html).not.toMatch(/<soon>|<\/soon>/);
    // the text reads as it was written once the tags are gone
    const text = /<code[^>]*>([\s\S]*)<\/code>/
      .exec(html)![1]!
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&amp;/g, '&');
    expect(text).toBe(`${markdown.split('\n').slice(1, -1).join('\n')}\n`);
  });

  it('passes the sanitizer unchanged', () => {
    for (const markdown of [TYPESCRIPT, BASH]) {
      const html = renderMarkdown(markdown);
      expect(sanitizeContentHtml(html)).toBe(html);
    }
  });

  it('answers to its aliases (ts, sh, html, yml) and to its name', () => {
    for (const lang of ['ts', 'typescript', 'sh', 'bash', 'html', 'yml', 'json', 'http'])
      expect(HIGHLIGHTED_LANGUAGES, lang).toContain(lang);
    expect(spanClasses(renderMarkdown('```sh\necho "hi"\n```')).length).toBeGreaterThan(0);
  });
});

describe('docs/site.md#code-blocks', () => {
  it('names only languages that are highlighted', () => {
    const doc = readFileSync(new URL('../docs/site.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Code blocks'), doc.indexOf('````markdown'));
    const named = [...section.matchAll(/`([a-z]+)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(15);
    expect(named.filter((lang) => !HIGHLIGHTED_LANGUAGES.includes(lang))).toEqual([]);
  });
});

describe('a block left plain', () => {
  it('an unknown language stays escaped text in marked’s own block, never guessed', () => {
    // code that a guess would take for JavaScript
    const html = renderMarkdown('```tidescript\nconst x = "<b>" && function () { return 1; };\n```');
    expect(html).toBe(
      '<pre tabindex="0"><code class="language-tidescript">const x = "&lt;b&gt;" &amp;&amp; function () { return 1; };\n</code></pre>\n',
    );
    expect(highlightCode('const x = 1;', 'tidescript')).toBeNull();
  });

  it('a block without a language, fenced or indented, is plain text', () => {
    expect(renderMarkdown('```\nconst x = "<b>";\n```')).toBe(
      '<pre tabindex="0"><code>const x = "&lt;b&gt;";\n</code></pre>\n',
    );
    expect(renderMarkdown('    const x = 1;\n')).toBe('<pre tabindex="0"><code>const x = 1;\n</code></pre>\n');
    expect(highlightCode('const x = 1;', undefined)).toBeNull();
    expect(highlightCode('const x = 1;', '')).toBeNull();
  });
});

describe('the sanitizer and highlighted code', () => {
  it('keeps the token classes and the code’s hljs class, and drops any other class an author writes', () => {
    const html = sanitizeContentHtml(
      '<p><span class="hljs-keyword">if</span> <span class="wide hljs-string banner">x</span> <span class="hljs-made-up">y</span> <code class="hljs language-ts shout">z</code> <pre class="hljs"><code>w</code></pre></p>',
    );
    expect(html).toContain('<span class="hljs-keyword">if</span>');
    expect(html).toContain('<span class="hljs-string">x</span>');
    expect(html).toContain('<span>y</span>');
    expect(html).toContain('<code class="hljs language-ts">z</code>');
    expect(html).toContain('<pre><code>w</code></pre>');
  });

  it('lets no style attribute through on a span', () => {
    expect(sanitizeContentHtml('<span class="hljs-keyword" style="color:red">a</span>')).toBe(
      '<span class="hljs-keyword">a</span>',
    );
  });
});

describe('the classes the highlighter can emit', () => {
  it('are read from the grammars, and cover what highlighting real code gives', () => {
    expect(TOKEN_CLASSES.length).toBeGreaterThan(20);
    expect(TOKEN_CLASSES).toEqual(expect.arrayContaining(['hljs-keyword', 'hljs-string', 'hljs-comment']));
    // a sample of each language's code: every span it gets is one of TOKEN_CLASSES
    const samples: Record<string, string> = {
      ts: TYPESCRIPT.split('\n').slice(1, -1).join('\n'),
      bash: BASH.split('\n').slice(1, -1).join('\n'),
      json: '{"a": [1, true, null, "s"]}',
      http: 'GET /api HTTP/1.1\nAccept: application/json',
      html: '<!doctype html><p class="x">a &amp; b</p><script>let a = 1;</script><style>p { color: red }</style>',
      css: '@media print { .a > b:hover::after { content: "x"; margin: 0 !important } }',
      yaml: 'key: value # note\nlist:\n  - 1\n  - &a yes',
      python: '@cache\ndef f(x: int) -> str:\n    """doc"""\n    return f"{x!r}"',
      markdown: '# Title\n\n*a* **b** `c` [d](e)\n\n> q\n\n- item',
      diff: '--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new',
      sql: "SELECT id, count(*) FROM t WHERE x = 'y' GROUP BY id;",
      go: 'package main\nfunc main() { fmt.Println("x", 1) }',
      rust: '#[derive(Debug)]\nstruct A<\'a> { b: &\'a str }\nfn main() { println!("{}", 1u8); }',
      c: '#include <stdio.h>\nint main(void) { return printf("%d", 1); }',
      ini: '[section]\nkey = "value" ; c',
      dockerfile: 'FROM node:24\nRUN npm ci\nCMD ["node", "a.js"]',
      shell: '$ npm test\n> ok',
      javascript: 'class A extends B { static #x = /re/g; get y() { return this.#x; } }',
    };
    const emitted = new Set(Object.entries(samples).flatMap(([lang, code]) => spanClasses(highlightCode(code, lang)!)));
    expect(emitted.size).toBeGreaterThan(15);
    expect([...emitted].filter((c) => !TOKEN_CLASSES.includes(c))).toEqual([]);
  });

  it('each has a colour rule in the stylesheet', () => {
    const css = readFileSync(new URL('../site/styles/site.css', import.meta.url), 'utf8');
    const styled = new Set(css.match(/\.hljs-[\w-]+/g)!.map((c) => c.slice(1)));
    expect(TOKEN_CLASSES.filter((c) => !styled.has(c))).toEqual([]);
    // and the rules draw only with the code properties and the text's
    const colours = [...css.matchAll(/\.hljs-[^{]*\{([^}]*)\}/g)].flatMap((m) =>
      [...m[1]!.matchAll(/color:\s*([^;]+);/g)].map((c) => c[1]!.trim()),
    );
    expect(new Set(colours)).toEqual(new Set([...CODE_TOKENS.map((t) => `var(--code-${t})`), 'var(--fg)']));
  });
});

/** Each token colour of `palette` that misses 4.5:1 against its code background, as a readable line. */
function failures(palette: Palette, colours: CodeColours): string[] {
  const background = codeBackground(palette);
  return CODE_TOKENS.map((token) => ({ token, ratio: contrastRatio(colours[token], background) }))
    .filter(({ ratio }) => ratio < MIN_TEXT_CONTRAST)
    .map(({ token, ratio }) => `${token} ${colours[token]} on ${background}: ${formatRatio(ratio)}`);
}

describe('the token colours', () => {
  it('draw the code block on the palette’s surface, as site.css draws `pre` on --card', () => {
    const css = readFileSync(new URL('../site/styles/site.css', import.meta.url), 'utf8');
    expect(css).toMatch(/\npre \{[^}]*background: var\(--card\);/);
    expect(codeBackground(THEMES.nord.light)).toBe(THEMES.nord.light.surface);
  });

  it.each(VARIANTS)('%s %s: each reaches 4.5:1 on the code block’s background', (theme, scheme) => {
    const palette = THEMES[theme][scheme];
    expect(failures(palette, codeColours(palette))).toEqual([]);
  });

  it('are drawn from the palette, so an owner’s accent colours the numbers of each variant', () => {
    const look = lookOf({ theme: 'nord', accent: { light: '#8f3c7a', dark: '#f0a8d8' } });
    expect(codeColours(look.light).number).toBe('#8f3c7a');
    expect(codeColours(look.dark).number).toBe('#f0a8d8');
    expect(codeColours(look.light).title).not.toBe(codeColours(THEMES.nord.light).title);
    expect(failures(look.light, codeColours(look.light))).toEqual([]);
  });

  it('differ from each other in each variant of the stock theme', () => {
    for (const scheme of SCHEMES)
      expect(new Set(Object.values(codeColours(THEMES.default[scheme]))).size).toBe(CODE_TOKENS.length);
  });

  it('a colour lowered below 4.5:1 fails the check; readableOn brings it back along its hue', () => {
    const palette = THEMES.default.light;
    const lowered = { ...codeColours(palette), string: '#7fbf8f' };
    expect(failures(palette, lowered)).toEqual([`string #7fbf8f on ${palette.surface}: 2.02:1`]);
    const fixed = readableOn('#7fbf8f', palette.surface);
    expect(contrastRatio(fixed, palette.surface)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    // still a green: its green channel leads
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(fixed.slice(i, i + 2), 16));
    expect(g).toBeGreaterThan(r!);
    expect(g).toBeGreaterThan(b!);
    // on a dark background it lightens instead
    const dark = THEMES.default.dark.surface;
    const light = readableOn('#1a7f37', dark);
    expect(contrastRatio(light, dark)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(light, '#000000')).toBeGreaterThan(contrastRatio('#1a7f37', '#000000'));
    // a colour that passes is kept as it is
    expect(readableOn('#000000', '#ffffff')).toBe('#000000');
  });
});

describe('the built site', () => {
  it('the developer page’s fenced blocks are highlighted, with no style attribute; its Markdown twin keeps the fences', async () => {
    const site = sharedSite();
    const page = await site.read('developers.html');
    for (const lang of ['json', 'sh', 'http']) expect(page).toContain(`<code class="language-${lang} hljs">`);
    expect(spanClasses(page).filter((c) => c.startsWith('hljs-')).length).toBeGreaterThan(20);
    expect(page).not.toMatch(/\sstyle=/i);
    const twin = await site.read('developers.md');
    expect(twin).toMatch(/^```json$/m);
    expect(twin).not.toContain('hljs');
    const css = await site.read('assets/site.css');
    for (const token of CODE_TOKENS) expect(css).toMatch(new RegExp(`--code-${token}:#[0-9a-f]{6}`));
  });
});
