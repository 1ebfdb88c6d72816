// The writings by tag (docs/site.md#tags-and-covers): for each tag a published writing carries, a page
// `/writings/tags/<tag>` listing its writings newest first, its Markdown twin, and its own JSON Feed and
// Atom feed, which the page announces. Only published writings reach here (drafts are dropped when site/
// is read), so a tag only a draft carries has no page. Pure: (context, writings) → files.
import type { Artifact, BuildContext } from '../../artifact.ts';
import type { Writing } from '../../content/site-content.ts';
import { escapeHtml } from '../../../render/html.ts';
import { twin } from '../../content/twins.ts';
import { absoluteUrl, CONTENT_DOCUMENTS, PAGES, sitePath, tagFeeds } from '../../../contract/pages.ts';
import { frameOf, renderLayout } from '../layout.ts';
import { atomFeed, jsonFeed, type FeedScope } from '../feeds.ts';
import { writingListItem, writingListLine } from './writings.ts';

/** Each tag of `writings` with its writings, in their order (newest first); tags by name. */
export function writingsByTag(writings: readonly Writing[]): Map<string, Writing[]> {
  const tags = new Map<string, Writing[]>();
  for (const w of writings) for (const tag of w.tags) tags.set(tag, [...(tags.get(tag) ?? []), w]);
  return new Map([...tags].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The tags of a writing as links to their pages, or '' for none: on the writing and in the lists. */
export function tagLinks(ctx: BuildContext, tags: readonly string[]): string {
  if (tags.length === 0) return '';
  const items = tags.map(
    (tag) =>
      `<li><a href="${escapeHtml(sitePath(ctx.config.siteUrl, PAGES.tag(tag).path))}" rel="tag">${escapeHtml(tag)}</a></li>`,
  );
  return `<ul class="tags" aria-label="Tags">${items.join('')}</ul>`;
}

function tagScope(ctx: BuildContext, tag: string): FeedScope {
  const feeds = tagFeeds(tag);
  return {
    title: `${ctx.config.site.title}: Writings tagged ${tag}`,
    description: `Writings tagged ${tag}, newest first.`,
    homePath: PAGES.tag(tag).path,
    jsonPath: feeds.json.path,
    atomPath: feeds.atom.path,
  };
}

/** Every tag's page, twin and two feeds; each JSON Feed checked against its schema like the site's. */
export function renderTags(ctx: BuildContext, writings: readonly Writing[]): Artifact[] {
  const { siteUrl } = ctx.config;
  const artifacts: Artifact[] = [];
  for (const [tag, tagged] of writingsByTag(writings)) {
    const page = PAGES.tag(tag);
    const scope = tagScope(ctx, tag);
    const files = tagFeeds(tag);
    const title = `Writings tagged ${tag}`;
    const count = `${tagged.length} ${tagged.length === 1 ? 'writing' : 'writings'}`;
    const html = renderLayout({
      ...frameOf(ctx),
      nav: 'writings',
      page,
      title,
      description: scope.description,
      feeds: [
        { type: CONTENT_DOCUMENTS.feed.contentType, title: `${scope.title} (JSON Feed)`, path: files.json.path },
        { type: 'application/atom+xml', title: `${scope.title} (Atom)`, path: files.atom.path },
      ],
      main: [
        `<h1>${escapeHtml(title)}</h1>`,
        `<p class="lede">${count}, newest first. <a href="${escapeHtml(sitePath(siteUrl, PAGES.writings.path))}">All writings</a> · feeds: <a href="${escapeHtml(sitePath(siteUrl, files.json.path))}">JSON Feed</a>, <a href="${escapeHtml(sitePath(siteUrl, files.atom.path))}">Atom</a></p>`,
        `<ul class="writing-list">\n${tagged.map((w) => writingListItem(ctx, w)).join('\n')}\n</ul>`,
      ].join('\n'),
    });
    const markdown = twin(
      { title, description: scope.description, url: absoluteUrl(siteUrl, page.path) },
      [`# ${title}`, tagged.map((w) => writingListLine(siteUrl, w)).join('\n')].join('\n\n'),
    );
    const feed = jsonFeed(ctx, tagged, scope);
    ctx.validator.validate(CONTENT_DOCUMENTS.feed.schema, feed);
    artifacts.push(
      { file: page.htmlFile, body: html },
      { file: page.markdownFile, body: markdown },
      { file: files.json.file, body: `${JSON.stringify(feed, null, 2)}\n` },
      { file: files.atom.file, body: atomFeed(ctx, feed, scope) },
    );
  }
  return artifacts;
}
