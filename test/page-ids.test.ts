// A heading of the owner's Markdown never takes an id the page itself gives (builders/render/page-ids.ts):
// `## Content` in a writing, or `## About` and a dataset's figure name in profile.md, get ids of their own,
// so the skip link and every "#" link lead where they say. Pages rendered in process, no network.
import { describe, expect, it } from 'vitest';
import { pagesContext as context } from './helpers/build-context.ts';
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Writing } from '../builders/build/content/site-content.ts';
import { renderWritings } from '../builders/build/pages/writings/writings.ts';
import { homeHtml } from '../builders/build/pages/home.ts';
import { PAGE_IDS, previewId } from '../builders/render/page-ids.ts';

/** Every id of the document, in order, and the headings' own. */
function ids(html: string) {
  const doc = parseDocument(html);
  const all = DomUtils.findAll((el) => 'id' in el.attribs, doc.children).map((el) => el.attribs.id!);
  const headings = DomUtils.findAll((el) => /^h[2-6]$/.test(el.name), doc.children).map((el) => el.attribs.id);
  const links = DomUtils.findAll((el) => el.name === 'a' && (el.attribs.href ?? '').startsWith('#'), doc.children);
  return { all, headings, hrefs: links.map((a) => a.attribs.href!.slice(1)) };
}

describe("the page's own ids", () => {
  it('a writing with ## Content: its heading is content-1, the main alone is content, every # link has its target', () => {
    const [page] = renderWritings(context(), [
      {
        slug: 'notes',
        title: 'Notes',
        date: '2026-03-03',
        summary: 'Some notes.',
        body: '## Content\n\nText.\n\n## Content\n\nMore.\n\n## About\n\nLast.',
        tags: [],
        image: null,
        cover: null,
        pictures: [],
      } satisfies Writing,
    ]).filter((a) => a.file === 'writings/notes.html');
    const { all, headings, hrefs } = ids(String(page!.body));
    expect(headings).toEqual(['content-1', 'content-2', 'about']);
    expect(all.filter((id) => id === PAGE_IDS.main)).toHaveLength(1);
    expect(new Set(all).size).toBe(all.length);
    for (const href of hrefs) expect(all, `#${href}`).toContain(href);
  });

  it("profile.md's ## About and a heading named like a figure take other ids; the page's stay its own", () => {
    const ctx = context();
    const figure = ctx.datasets.find((d) => !d.home.work)!.resource.id;
    const html = homeHtml(ctx, {
      name: 'Ada',
      location: '',
      links: [],
      about: `## About\n\nMe.\n\n## ${figure} preview\n\nA figure.\n\n## Content\n\nThe end.`,
    });
    const { all, headings } = ids(html);
    expect(headings).toContain(`${PAGE_IDS.about}-1`);
    expect(headings).toContain(`${previewId(figure)}-1`);
    expect(headings).toContain(`${PAGE_IDS.main}-1`);
    expect(new Set(all).size).toBe(all.length);
  });
});
