// A fenced code block's colours, made at build time (docs/site.md#code-blocks): highlight.js turns the code
// into `<span class="hljs-…">` tokens, which the stylesheet colours from the owner's theme
// (builders/render/code-colours.ts). The page gets no script, and no style attribute (the pages' policy
// allows none). Only the languages registered below are highlighted; any other, or none, stays plain
// text: never guessed, since a guess colours prose as code.
import hljs from 'highlight.js/lib/core';
import { escapeHtml } from '../../render/html.ts';
import type { LanguageFn, Mode } from 'highlight.js';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import http from 'highlight.js/lib/languages/http';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** The languages highlighted, by highlight.js's name; each also answers to its aliases (`ts`, `sh`, `html`…). */
const LANGUAGES: Readonly<Record<string, LanguageFn>> = {
  bash,
  c,
  css,
  diff,
  dockerfile,
  go,
  http,
  ini,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};

// The core alone, not the full build: it would register some 190 languages this site never shows.
const highlighter = hljs.newInstance();
for (const [name, language] of Object.entries(LANGUAGES)) highlighter.registerLanguage(name, language);

/** The language names a fence may carry to be highlighted: each registered language's name and aliases. */
export const HIGHLIGHTED_LANGUAGES: readonly string[] = Object.keys(LANGUAGES).flatMap((name) => [
  name,
  ...(highlighter.getLanguage(name)!.aliases ?? []),
]);

/**
 * The top-level scope of each token a registered language's grammar can emit, read from the grammars
 * themselves: a mode's `scope` (or older `className`), its `beginScope`/`endScope`, and its keyword groups
 * (`keyword`, `built_in`, `literal`…), through `classNameAliases`, as highlight.js's emitter reads them
 * (an empty scope and a `_` keyword group emit nothing). A scope `title.function` is `title`.
 */
function scopesOf(define: LanguageFn): Set<string> {
  const language = define(highlighter);
  const found = new Set<string>();
  const seen = new Set<object>();
  const add = (scope: string) => {
    // An empty scope opens no span; a keyword group named `_…` only scores the guess, uncoloured.
    if (scope !== '' && !scope.startsWith('_')) found.add((language.classNameAliases?.[scope] ?? scope).split('.')[0]!);
  };
  const visit = (mode: Mode | string | undefined) => {
    if (typeof mode !== 'object' || seen.has(mode)) return;
    seen.add(mode);
    const m = mode as Mode & { className?: string; beginScope?: unknown; endScope?: unknown };
    for (const scope of [m.scope, m.className, m.beginScope, m.endScope]) {
      if (typeof scope === 'string') add(scope);
      else if (scope && typeof scope === 'object')
        for (const part of Object.values(scope)) if (typeof part === 'string') add(part);
    }
    if (m.beginKeywords) add('keyword');
    const keywords = m.keywords as unknown;
    if (typeof keywords === 'string' || Array.isArray(keywords)) add('keyword');
    else if (keywords && typeof keywords === 'object')
      for (const group of Object.keys(keywords)) if (group !== '$pattern') add(group);
    for (const child of [...(m.contains ?? []), ...(m.variants ?? []), m.starts]) visit(child as Mode | undefined);
  };
  visit(language);
  return found;
}

/** Every class a highlighted block's spans may carry (`hljs-keyword`, `hljs-string`…), sorted. */
export const TOKEN_CLASSES: readonly string[] = [
  ...new Set(Object.values(LANGUAGES).flatMap((define) => [...scopesOf(define)])),
]
  .map((scope) => `hljs-${scope}`)
  .sort();

/**
 * `code` highlighted as `language` (a fence's first word), as HTML to go inside `<code>`, or null when the
 * language is none or not one of HIGHLIGHTED_LANGUAGES. A span carries only its top-level token class: a
 * tiered scope's extra classes (`function_` of `hljs-title function_`) and an embedded language's wrapper
 * (`language-css` inside HTML) are dropped, so that every class is one of TOKEN_CLASSES.
 */
export function highlightCode(code: string, language: string | undefined): string | null {
  if (!language || !highlighter.getLanguage(language)) return null;
  const { value } = highlighter.highlight(code, { language, ignoreIllegals: true });
  // highlight.js escapes the code's own text, so every `<span` here is one it opened.
  return value.replace(/<span class="([^"]*)">/g, (_span, classes: string) => {
    const token = classes.split(' ')[0]!;
    return token.startsWith('hljs-') ? `<span class="${token}">` : '<span>';
  });
}

/**
 * A fenced block (`code` and its info string, as marked gives them) as a highlighted `<pre><code>`, in
 * marked's own shape (`language-<first word>`, one final newline) plus highlight.js's `hljs` class; null
 * when highlightCode leaves it plain.
 */
export function highlightedBlock(code: string, info: string | undefined): string | null {
  const language = info?.match(/^\S*/)?.[0];
  const html = highlightCode(code.replace(/\n$/, ''), language);
  if (html === null) return null;
  return `<pre><code class="language-${escapeHtml(language!)} hljs">${html}\n</code></pre>\n`;
}
