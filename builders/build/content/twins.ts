// Markdown twins (docs/site.md): every HTML page has one at its path plus ".md", opening with a
// front-matter block of one-line `key: value` pairs. This module owns that format. (The command-line
// tool reads the content documents instead: builders/contract/pages.ts CONTENT_DOCUMENTS.)

const FRONT_MATTER = /^---\n[\s\S]*?\n---\n/;

export interface TwinFields {
  title: string;
  description: string;
  url: string;
  [key: string]: string;
}

/** One line per key, values flattened to one line: a reader needs no YAML parser. */
export function frontMatter(fields: TwinFields): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${value.replace(/\s*[\r\n]+\s*/g, ' ').trim()}`);
  return `---\n${lines.join('\n')}\n---\n`;
}

export function twin(fields: TwinFields, body: string): string {
  return `${frontMatter(fields)}\n${body.trim()}\n`;
}

/** The body of a twin without its front matter (for llms-full.txt). */
export function twinBody(markdown: string): string {
  return markdown.replace(FRONT_MATTER, '').trim();
}

/** A twin with `block` as the first thing of its body, right after the front matter (the demo's notice). */
export function withLeadingBlock(markdown: string, block: string): string {
  const head = FRONT_MATTER.exec(markdown)?.[0] ?? '';
  return `${head}\n${block}\n\n${markdown.slice(head.length).trim()}\n`;
}
