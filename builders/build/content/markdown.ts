// Markdown to HTML for the pages: every page's HTML is rendered from the same Markdown as its twin.
// Headings get ids so that sections can be linked; a heading that opens with `<a id="x"></a>` (how
// the developer page marks each problem type in its Markdown) takes that id instead of a slug. Every
// HTML it returns has been through the content sanitizer (sanitize.ts): pages and feeds alike publish
// no script, whatever the Markdown held.
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../../render/html.ts';
import { highlightedBlock } from './highlight.ts';
import { sanitizeContentHtml } from './sanitize.ts';
import { linkedHeading } from './heading-link.ts';
import { PAGE_IDS } from '../../render/page-ids.ts';

/** GitHub-style slug: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

export { markdownText } from '../../lib/text/markdown-text.ts';

/**
 * How deep Markdown may nest, checked line by line before it is rendered. marked recurses into every
 * quote, list and emphasis, and its time grows faster than the text: a list 1,000 deep (1 MB) took 58 s,
 * quotes 100,000 deep and emphasis 10,000 deep overflow its stack. No writing comes near these bounds.
 */
export const MARKDOWN_BOUNDS = { quoteDepth: 32, indentColumns: 256, delimiterRun: 256 } as const;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Why `markdown` is refused before rendering, or null: a line quoted more than MARKDOWN_BOUNDS.quoteDepth
 * times, indented more than indentColumns (lists nested that deep), or a run of more than delimiterRun
 * emphasis delimiters (`*`, `_`, `~`). Lines inside fenced code blocks are code, never nested, and skipped.
 */
export function markdownBoundExceeded(markdown: string): string | null {
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opening = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) fence = null;
      continue;
    }
    if (opening !== undefined) {
      fence = opening;
      continue;
    }
    const quotes = /^[ \t>]*/.exec(line)![0].split('>').length - 1;
    if (quotes > MARKDOWN_BOUNDS.quoteDepth)
      return `it quotes a line more than ${MARKDOWN_BOUNDS.quoteDepth} levels deep`;
    const indent = /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
    if (indent > MARKDOWN_BOUNDS.indentColumns)
      return `it indents a line by more than ${MARKDOWN_BOUNDS.indentColumns} columns (lists nested that deep)`;
    if (new RegExp(`[*_~]{${MARKDOWN_BOUNDS.delimiterRun + 1}}`).test(line))
      return `it has a run of more than ${MARKDOWN_BOUNDS.delimiterRun} emphasis marks (*, _ or ~)`;
  }
  return null;
}

const EXPLICIT_ANCHOR = /^<a id="([A-Za-z][\w-]*)"><\/a>\s*/;

/**
 * The HTML of texts rendered before in this process, by text. A build renders the same text more than
 * once (a writing when its content is checked, for its page and for its feed entry; the developer page
 * for its contents list and for itself), and the tests run dozens of builds in one process: rendering
 * (marked, then the sanitizer's parser) was the largest part of their CPU time. The HTML is a function
 * of the text alone. Bounded in characters: past the bound it starts over.
 */
const RENDERED = new Map<string, string>();
const RENDERED_BOUND = 32_000_000;
let renderedChars = 0;

/** A picture a writing shows, as published: where the page finds it and the size its file gives. */
export interface ShownPicture {
  src: string;
  width: number;
  height: number;
}

export interface MarkdownOptions {
  /**
   * Each heading `##` and below is followed by a "#" link to itself (heading-link.ts): a writing's page. Not in a
   * feed, where a relative `#id` leads nowhere, nor on the pages whose HTML is read back for its headings.
   */
  headingLinks?: boolean;
  /**
   * The published pictures by their URL in the Markdown: an image found there gets its src, width and height,
   * and loads lazily (docs/site.md#pictures-in-a-writing).
   */
  pictures?: ReadonlyMap<string, ShownPicture>;
  /**
   * Ids the page itself gives elements around this text (the home page's About heading): a heading of the
   * text takes another (`about-1`), as it does for the main every page has (render/page-ids.ts).
   */
  takenIds?: readonly string[];
}

/**
 * Forgets the texts rendered so far when they hold more than `keep` characters: a build calls it once its
 * pages are made, before it draws their pictures, so that a large site's HTML (3,000 writings: tens of
 * megabytes) is not held through the drawing. The tests' small
 * sites stay under it, and their many builds in one process keep sharing their renders.
 */
export function releaseRenderedMarkdown(keep = 4_000_000): void {
  if (renderedChars <= keep) return;
  RENDERED.clear();
  renderedChars = 0;
}

export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): string {
  // The pictures the text shows are part of what its HTML is a function of.
  const shown = options.pictures === undefined ? [] : [...options.pictures].filter(([url]) => markdown.includes(url));
  const taken = options.takenIds ?? [];
  const key =
    shown.length === 0 && taken.length === 0 ? markdown : `${JSON.stringify([shown, taken])}\u0000${markdown}`;
  let html = options.headingLinks ? undefined : RENDERED.get(key);
  if (html === undefined) {
    html = render(markdown, { ...options, pictures: new Map(shown) });
    // A writing's page, the one text rendered with its section links, is rendered once per build: kept, it
    // only doubled what a large site holds (docs/performance.md#content-at-scale-issue-41).
    if (!options.headingLinks) {
      if (renderedChars + key.length + html.length > RENDERED_BOUND) {
        RENDERED.clear();
        renderedChars = 0;
      }
      RENDERED.set(key, html);
      renderedChars += key.length + html.length;
    }
  }
  return html;
}

function render(markdown: string, options: MarkdownOptions): string {
  const pictures = options.pictures ?? new Map<string, ShownPicture>();
  // The page's own ids are taken before the first heading (render/page-ids.ts).
  const used = new Set<string>([PAGE_IDS.main, ...(options.takenIds ?? [])]);
  const unique = (id: string) => {
    let candidate = id || 'section';
    for (let n = 1; used.has(candidate); n++) candidate = `${id}-${n}`;
    used.add(candidate);
    return candidate;
  };
  const marked = new Marked({
    gfm: true,
    renderer: {
      // A published picture with its size (no layout shift) and lazily, below the fold; any other image as
      // marked writes it, for the sanitizer to judge.
      image({ href, title, text }: Tokens.Image) {
        const picture = pictures.get(href);
        if (picture === undefined) return false;
        const titled = title ? ` title="${escapeHtml(title)}"` : '';
        return `<img src="${escapeHtml(picture.src)}" alt="${escapeHtml(text)}" width="${picture.width}" height="${picture.height}" loading="lazy" decoding="async"${titled}>`;
      },
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth }: Tokens.Heading) {
        let inner = this.parser.parseInline(tokens);
        const explicit = EXPLICIT_ANCHOR.exec(inner);
        let id: string;
        if (explicit) {
          id = unique(explicit[1]!);
          inner = inner.slice(explicit[0].length);
        } else {
          id = unique(slugify(inner));
        }
        const heading = `<h${depth} id="${id}">${inner}</h${depth}>`;
        return options.headingLinks && depth >= 2 ? linkedHeading(heading, id, inner) : `${heading}\n`;
      },
      // A fence in a language highlight.ts knows is coloured at build time; any other stays marked's plain block.
      code: ({ text, lang }: Tokens.Code) => highlightedBlock(text, lang) ?? false,
      // Each cell carries its column's header text, so that on a phone the stylesheet can turn a row
      // into a short list of "header: value" lines instead of a table wider than the screen.
      table(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Table) {
        // A class, not a style attribute: the pages' Content-Security-Policy allows no inline style.
        const align = (cell: Tokens.TableCell) => (cell.align ? ` class="align-${cell.align}"` : '');
        const labels = token.header.map((cell) =>
          this.parser
            .parseInline(cell.tokens)
            .replace(/<[^>]*>/g, '')
            .replace(/"/g, '&quot;'),
        );
        const head = token.header
          .map((cell) => `<th scope="col"${align(cell)}>${this.parser.parseInline(cell.tokens)}</th>`)
          .join('');
        const rows = token.rows
          .map(
            (row) =>
              `<tr>${row.map((cell, i) => `<td data-label="${labels[i] ?? ''}"${align(cell)}>${this.parser.parseInline(cell.tokens)}</td>`).join('')}</tr>`,
          )
          .join('\n');
        return `<table class="stack">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody>\n</table>\n`;
      },
    },
  });
  // A code block scrolls sideways on a narrow screen: focusable, so that a keyboard can scroll it too (WCAG 2.1.1).
  return sanitizeContentHtml(marked.parse(markdown, { async: false }).replace(/<pre>/g, '<pre tabindex="0">'));
}
