// A copy of the tests' own site content (test/fixtures/site/) into a temporary folder, with files changed
// or added: for the content tests (content-safety, the Chromium test of a host without headers). Never the
// repository's site/, which is the owner's.
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { FIXTURE_SITE } from './site-dist.ts';

/**
 * Every way owner content tried to run script in the review of issue 37, and their respellings: raw
 * `<script>`, `<svg><script>`, an `onerror`, `javascript:`/`data:`/`vbscript:` URLs in Markdown links
 * and images (case, blanks, character references), frames, objects, forms and styles.
 */
export const HOSTILE_MARKDOWN = `I build data pipelines.

<script>alert('script')</script>

<svg><script>alert('svg')</script><circle r="4"/></svg>

<img src="x" onerror="alert('onerror')">

A [plain javascript link](javascript:alert('markdown-link')), a [mixed-case one](JaVaScRiPt:alert('case')),
one [with a reference](&#106;avascript:alert('entity')), one [with a tab](java&#x09;script:alert('tab')),
an autolink <javascript:alert('autolink')> and a [vbscript one](vbscript:msgbox('vb')).

![a data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+) and <a href=" jav&#x0A;ascript:alert('raw-a')">a raw anchor</a>.

<iframe src="javascript:alert('iframe')"></iframe><object data="javascript:alert('object')"></object>
<embed src="javascript:alert('embed')"><form action="javascript:alert('form')"><button>Go</button></form>
<style>body { background: url("javascript:alert('style')") }</style>
<details open ontoggle="alert('ontoggle')"><summary>More</summary>Kept text.</details>

A [good link](https://example.org/ok) and a [path](/writings) stay.
`;

/** A profile whose About is HOSTILE_MARKDOWN; `links` is its front matter's list, as YAML lines. */
export function hostileProfile(links = '  - label: Writings\n    url: /writings\n'): string {
  return `---\nname: Ada Park\nlocation: Toronto, Canada\nlinks:\n${links}---\n${HOSTILE_MARKDOWN}`;
}

/** A published writing whose body is HOSTILE_MARKDOWN. */
export const HOSTILE_WRITING = `---
title: Hostile markup
date: 2026-07-01
summary: Everything a page must not run.
---
${HOSTILE_MARKDOWN}`;

export interface ContentCopy {
  /** The folder, ending in `/`, for buildSite's `{ content }` or build()'s contentDir. */
  dir: string;
  close(): Promise<void>;
}

/** test/fixtures/site/ copied, then each `files` entry (a path in it → text) written over it. */
export async function contentCopy(files: Record<string, string>): Promise<ContentCopy> {
  const dir = await mkdtemp(join(tmpdir(), 'content-'));
  await cp(FIXTURE_SITE, dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return { dir: `${dir}/`, close: () => rm(dir, { recursive: true, force: true }) };
}

/** The fixture's profile.md with `avatar:` (none when null) and links to LinkedIn, a Mastodon /@user and an address. */
export function profileWithLinks(avatar: string | null): string {
  return readFileSync(join(FIXTURE_SITE, 'profile.md'), 'utf8').replace(
    'links:\n',
    [
      ...(avatar === null ? [] : [`avatar: ${avatar}`]),
      'links:',
      '  - label: LinkedIn',
      '    url: https://www.linkedin.com/in/ada-park-example',
      '  - label: Mastodon',
      '    url: https://hachyderm.example/@ada',
      '  - label: E-mail',
      '    url: mailto:ada@example.org',
      '',
    ].join('\n'),
  );
}

/** A URL scheme that runs or embeds code, as a browser reads an attribute (blanks and controls dropped). */
const SCRIPT_SCHEME = /^(?:javascript|vbscript|data):/i;
/** Attributes that hold a URL a browser follows or loads. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'poster', 'cite']);
/**
 * Elements no published page may carry. (The page's own script is checked by its src; its charts are
 * inline SVG, whose script elements and handlers are caught like any other.)
 */
const FORBIDDEN_ELEMENTS = new Set(['iframe', 'object', 'embed', 'form', 'style', 'base', 'frame', 'foreignobject']);

/**
 * What in `html` could run script, one line each: a script element other than a same-origin file, an
 * element of FORBIDDEN_ELEMENTS, an event-handler attribute, or a `javascript:`/`vbscript:`/`data:` URL.
 * The home page's JSON-LD data block is not a script a browser runs. Parsed with htmlparser2, which
 * decodes character references as a browser does.
 */
export function scriptVectors(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      // A JSON-LD data block is never run (HTML: a script whose type is not JavaScript's is a data block); a
      // `</script>` inside it would end it and open what follows as markup, which this parser sees too.
      const dataBlock = attributes.type === 'application/ld+json' && attributes.src === undefined;
      if (name === 'script' && !dataBlock && !(attributes.src ?? '').startsWith('/'))
        found.push(`<script> without a same-origin src`);
      if (FORBIDDEN_ELEMENTS.has(name)) found.push(`<${name}>`);
      for (const [attribute, value] of Object.entries(attributes)) {
        if (/^on/i.test(attribute)) found.push(`<${name} ${attribute}>`);
        if (URL_ATTRIBUTES.has(attribute) && SCRIPT_SCHEME.test(value.replace(/[\u0000-\u0020]+/g, '')))
          found.push(`<${name} ${attribute}="${value.slice(0, 40)}">`);
      }
    },
  });
  parser.write(html);
  parser.end();
  return found;
}

/** The content of the page's `<meta http-equiv="Content-Security-Policy">` elements, in order. */
export function metaPolicies(html: string): string[] {
  const policies: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'meta' && attributes['http-equiv']?.toLowerCase() === 'content-security-policy')
        policies.push(attributes.content ?? '');
    },
  });
  parser.write(html);
  parser.end();
  return policies;
}

/** The sources of a policy's directive, or of default-src when it has none (CSP's fallback for scripts). */
export function scriptSources(policy: string): string[] {
  const directives = new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
  return directives.get('script-src') ?? directives.get('default-src') ?? [];
}
