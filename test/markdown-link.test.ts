// An owner's or an upstream's URL in a Markdown twin (the home page's links and projects, the résumé) stays
// one link to one address: rendered by a CommonMark renderer, a URL holding `)[x](javascript:…)` gives one
// link, to the URL itself, and no second one.
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { markdownDestination, markdownLink } from '../builders/lib/text/markdown-text.ts';

const links = (markdown: string) =>
  [...new Marked().parse(markdown, { async: false }).matchAll(/<a href="([^"]*)">/g)].map((m) => m[1]);

describe('markdownLink', () => {
  it('keeps a URL that closes the link and opens another as one link to itself', () => {
    const url = 'https://x.example/a)[click](javascript:alert(1)';
    const markdown = `- ${markdownLink('Tide tables', url)}`;
    const hrefs = links(markdown);
    expect(hrefs).toHaveLength(1);
    expect(decodeURIComponent(hrefs[0]!)).toBe(url);
    expect(markdown).not.toContain('](javascript');
  });

  it('encodes whitespace and angle brackets with two hex digits', () => {
    expect(markdownDestination('https://x.example/a b\t<c>')).toBe('https://x.example/a%20b%09%3Cc%3E');
  });

  it('renders the text as text', () => {
    expect(links(markdownLink('[x](y)', 'https://x.example/'))).toEqual(['https://x.example/']);
  });
});
