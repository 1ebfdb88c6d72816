// The site and its discovery documents (docs/site.md): every page with its Markdown twin, the content as
// data (feeds, profile, skills), the API index, OpenAPI, the API catalog, llms files, sitemap, robots.txt,
// 404 page, assets, the SVG cards and static-host config.
// Reads site/ and schemas/ once, then hands pure generators the same inputs; never writes a file.
import { API_INDEX, DISCOVERY } from '../contract/service.ts';
import { loadSchemas } from '../contract/schemas.ts';
import { simulatedNoticeMarkdown } from '../lib/simulated.ts';
import { publishedDatasets, publishedService, type Artifact, type BuildContext } from './artifact.ts';
import { apiIndex } from './discovery/api-index.ts';
import { apiCatalog } from './discovery/api-catalog.ts';
import { publishSchedule, statusBadge, statusDocument } from './discovery/status.ts';
import { renderCards } from './cards.ts';
import { renderAssets } from './pages/assets.ts';
import { loadContent, type SiteContent } from './content/site-content.ts';
import { releaseRenderedMarkdown } from './content/markdown.ts';
import { renderDeveloperPage } from './pages/developers.ts';
import { llmsFullTxt, llmsTxt, writingEntry, type LlmsInput } from './discovery/llms.ts';
import { openApiDocument } from '../contract/openapi.ts';
import { describedDatasets } from '../datasets/registry.ts';
import { atomFeed, jsonFeed } from './pages/feeds.ts';
import { profileDocument, renderHome } from './pages/home.ts';
import { renderNotFound } from './pages/not-found.ts';
import { renderSkills, skillsDocument } from './pages/skills.ts';
import { renderWritings } from './pages/writings/writings.ts';
import { renderTags, writingsByTag } from './pages/writings/tags.ts';
import { localPictures } from './content/published-pictures.ts';
import { renderWritingSearch } from './pages/writings/writing-search.ts';
import { renderResume, RESUME_TITLE } from './pages/resume.ts';
import { publishedResume } from './content/resume.ts';
import {
  coverDataUrl,
  shareImageArtifacts,
  sharedPagesOf,
  siteIconArtifacts,
  type SharedPage,
} from './pages/sharing.ts';
import { robotsTxt, sitemapXml, type SitemapEntry } from './discovery/sitemap.ts';
import { renderStaticHostConfig } from './static-host.ts';
import { withLeadingBlock } from './content/twins.ts';
import { CONTENT_DOCUMENTS, PAGES, shareImageFile } from '../contract/pages.ts';
import { repoUrl } from '../lib/repo-url.ts';

/**
 * The workflow whose schedule publishes the site (docs/deploying.md#the-scheduled-build-githubworkflowspublishyml),
 * from this module's folder: one level below the root, as the bundle in .build/ is.
 */
export const PUBLISH_WORKFLOW = repoUrl('.github/workflows/publish.yml', import.meta.url);

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** `content`: the site's content when the caller has read it already (build() reads it first), else read here. */
export async function renderSite(
  ctx: BuildContext,
  content: SiteContent = loadContent(ctx.contentDir, ctx.config.site, ctx.config.calendarTimeZone),
): Promise<Artifact[]> {
  // Every page's header and the Writings page read the owner's words for them (content/site-pages.ts);
  // a site rendered without a build (no picture fetched) still publishes the pictures of site/writings/.
  ctx = { ...ctx, pages: content.pages, pictures: ctx.pictures ?? localPictures(content.writings) };
  const { before, shared, after } = await renderTexts(ctx, content);
  // Its texts are made: a large site's rendered Markdown is not held while its pictures are drawn.
  releaseRenderedMarkdown();
  // Each shared page's preview picture, drawn from the meta elements its HTML carries; the icons and manifest.
  const artifacts = [...before, ...(await shareImageArtifacts(ctx, shared)), ...after];
  return [
    ...artifacts,
    ...renderStaticHostConfig(
      ctx,
      artifacts.map((a) => a.file),
    ),
  ];
}

/**
 * Every file of the site but the preview pictures (those before them and those after, in the site's
 * order), each text as its UTF-8 bytes, and the pages the pictures are of. The pictures take most of a
 * large build's time; while they are drawn, the site's text waits as bytes and nothing else: a JS string
 * with one character past U+00FF takes two bytes a character (3,000 writings: `feed.json`, 8 MB of
 * UTF-8, was a 16 MB string), and what it was made from is gone once this returns.
 */
async function renderTexts(
  ctx: BuildContext,
  content: SiteContent,
): Promise<{ before: Artifact[]; shared: SharedPage[]; after: Artifact[] }> {
  const { config } = ctx;
  const schemas = loadSchemas(ctx.service);

  // The documents link only the data this build publishes: a missing dataset's paths would be 404s.
  const published = publishedService(ctx);
  const index = apiIndex(config, ctx.simulated, published);
  // The index is validated like every payload: a generator bug stops the build instead of shipping.
  ctx.validator.validate('ApiIndex', index);

  // The data's state at this build and its badge (docs/api.md#status), checked like the index.
  // A demo is never published by the workflow: naming its next run would promise a refresh nothing makes.
  const status = statusDocument(ctx, ctx.simulated ? [] : publishSchedule(PUBLISH_WORKFLOW));
  const badge = statusBadge(status);
  ctx.validator.validate('Status', status);
  ctx.validator.validate('StatusBadge', badge);

  // The content as data (the feeds, profile and skills documents), checked like the index.
  const feed = jsonFeed(ctx, content.writings);
  // What the site shows of the owner's résumé: the published part only (no phone or references unless opted in).
  const resume = content.resume === null ? null : publishedResume(content.resume);
  const profile = profileDocument(ctx, content.profile, resume, content.ownerProjects);
  const skillGroups = skillsDocument(ctx, content.skills);
  ctx.validator.validate(CONTENT_DOCUMENTS.feed.schema, feed);
  ctx.validator.validate(CONTENT_DOCUMENTS.profile.schema, profile);
  ctx.validator.validate(CONTENT_DOCUMENTS.skills.schema, skillGroups);

  const home = renderHome(ctx, content.profile, resume, content.ownerProjects);
  const writings = [...renderWritings(ctx, content.writings), ...renderTags(ctx, content.writings)];
  const skills = renderSkills(ctx, content.skills);
  const developers = renderDeveloperPage(ctx, schemas);
  // A demo's Markdown twins open with the notice its HTML pages carry (builders/lib/simulated.ts).
  const notice = ctx.simulated ? simulatedNoticeMarkdown(config.site.marketSourceName) : undefined;
  const resumePages = renderResume(ctx, content.resume, content.profile.name);
  const pages = [...home, ...writings, ...skills, ...resumePages, ...developers, ...renderNotFound(ctx)].map((a) =>
    notice !== undefined && a.file.endsWith('.md') ? { ...a, body: withLeadingBlock(String(a.body), notice) } : a,
  );
  // A missing twin is a generator bug: llms-full.txt would silently lose that page.
  const markdownOf = (file: string) => {
    const twin = pages.find((a) => a.file === file);
    if (twin === undefined) throw new Error(`no Markdown twin ${file} among the generated pages`);
    return String(twin.body);
  };

  const llms: LlmsInput = {
    pages: [
      {
        page: PAGES.home,
        name: 'Home',
        notes: 'profile, about and links',
        markdown: markdownOf(PAGES.home.markdownFile),
      },
      {
        page: PAGES.writings,
        name: 'Writings',
        notes: 'published writings, newest first',
        markdown: markdownOf(PAGES.writings.markdownFile),
      },
      { page: PAGES.skills, name: 'Skills', notes: 'skills by area', markdown: markdownOf(PAGES.skills.markdownFile) },
      ...(resume === null
        ? []
        : [
            {
              page: PAGES.resume,
              name: RESUME_TITLE,
              notes: 'work, education and the other sections of the résumé',
              markdown: markdownOf(PAGES.resume.markdownFile),
            },
          ]),
      {
        page: PAGES.developers,
        name: 'Developers',
        notes: 'API reference: endpoints, fields, headers, quota, versioning, problem types, CLI',
        markdown: markdownOf(PAGES.developers.markdownFile),
      },
    ],
    writings: content.writings.map((w) => writingEntry(w, markdownOf(PAGES.writing(w.slug).markdownFile))),
    ...(notice !== undefined ? { notice } : {}),
    datasets: publishedDatasets(ctx),
    service: published,
    resume: resume !== null,
  };

  const built = new Date(ctx.nowMs).toISOString().slice(0, 10);
  const sitemap: SitemapEntry[] = [
    { path: PAGES.home.path, lastmod: built },
    { path: PAGES.writings.path, ...(content.writings[0] ? { lastmod: content.writings[0].date } : {}) },
    ...content.writings.map((w) => ({ path: PAGES.writing(w.slug).path, lastmod: w.date })),
    ...[...writingsByTag(content.writings)].map(([tag, tagged]) => ({
      path: PAGES.tag(tag).path,
      lastmod: tagged[0]!.date,
    })),
    { path: PAGES.skills.path },
    ...(resume === null ? [] : [{ path: PAGES.resume.path }]),
    { path: PAGES.developers.path, lastmod: built },
  ];

  const artifacts: Artifact[] = [
    ...pages,
    { file: CONTENT_DOCUMENTS.feed.file, body: json(feed) },
    { file: CONTENT_DOCUMENTS.atom.file, body: atomFeed(ctx, feed) },
    { file: CONTENT_DOCUMENTS.profile.file, body: json(profile) },
    { file: CONTENT_DOCUMENTS.skills.file, body: json(skillGroups) },
    { file: API_INDEX.file, body: json(index) },
    { file: DISCOVERY.status.file, body: json(status) },
    { file: DISCOVERY.statusBadge.file, body: json(badge) },
    // The static host's promises; the gateway serves its own document at the same path (builders/contract/openapi.ts).
    {
      file: DISCOVERY.openapi.file,
      body: json(
        openApiDocument(
          config,
          schemas,
          describedDatasets(ctx, ctx.payloads, (r) => published.resources.some((p) => p.id === r.id)),
          'static',
        ),
      ),
    },
    { file: DISCOVERY.apiCatalog.file, body: json(apiCatalog(config, published)) },
    { file: DISCOVERY.llms.file, body: llmsTxt(config, llms) },
    { file: DISCOVERY.llmsFull.file, body: llmsFullTxt(config, llms) },
    { file: DISCOVERY.sitemap.file, body: sitemapXml(config, sitemap) },
    { file: 'robots.txt', body: robotsTxt(config) },
    ...(await renderAssets(ctx.look)),
    ...renderWritingSearch(config.siteUrl, content.writings, ctx.searchIndex),
    ...(ctx.avatar ? [{ file: ctx.avatar.file, body: ctx.avatar.picture.bytes }] : []),
    ...pictureFiles(ctx),
    ...renderCards(ctx),
  ];
  // A writing's share picture shows its cover beside the title.
  const covers = new Map(
    content.writings.flatMap((w) => {
      const cover = w.cover === null ? undefined : coverDataUrl(w.cover.picture);
      return cover === undefined ? [] : [[shareImageFile(PAGES.writing(w.slug)), cover] as const];
    }),
  );
  return {
    before: artifacts.map(asBytes),
    shared: sharedPagesOf(config.siteUrl, pages).map((p) => {
      const cover = covers.get(p.file);
      return cover === undefined ? p : { ...p, cover };
    }),
    after: siteIconArtifacts(ctx).map(asBytes),
  };
}

/** The writings' pictures, each file once (two writings may show the same picture). */
function pictureFiles(ctx: BuildContext): Artifact[] {
  const files = new Map<string, Uint8Array>();
  for (const picture of ctx.pictures?.values() ?? []) if (picture !== null) files.set(picture.file, picture.bytes);
  return [...files].map(([file, body]) => ({ file, body }));
}

/** `artifact` with a text body as its UTF-8 bytes. */
const asBytes = (artifact: Artifact): Artifact =>
  typeof artifact.body === 'string' ? { file: artifact.file, body: Buffer.from(artifact.body) } : artifact;
