// Markdown to HTML for the pages: every page's HTML is rendered from the same Markdown as its twin.
// Headings get ids so that sections can be linked; a heading that opens with `<a id="x"></a>` (how
// the developer page marks each problem type in its Markdown) takes that id instead of a slug.
import { Marked, type Tokens } from 'marked';

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

const EXPLICIT_ANCHOR = /^<a id="([A-Za-z][\w-]*)"><\/a>\s*/;

export function renderMarkdown(markdown: string): string {
  const used = new Set<string>();
  const unique = (id: string) => {
    let candidate = id || 'section';
    for (let n = 1; used.has(candidate); n++) candidate = `${id}-${n}`;
    used.add(candidate);
    return candidate;
  };
  const marked = new Marked({
    gfm: true,
    renderer: {
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
        return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}
