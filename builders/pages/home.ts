// The home page (/) and its twin (/index.md): the profile, and the portfolio preview the two data
// resources exist to feed, drawn from this build's snapshots and refreshed by the page script.
import type { Artifact, BuildContext } from '../artifact.ts';
import type { ProfileDocument } from '../../contract/content-documents.ts';
import type { Profile } from '../content/site-content.ts';
import { escapeHtml } from '../../render/html.ts';
import { renderMarkdown } from '../content/markdown.ts';
import { markdownParagraphs } from './plain-text.ts';
import { twin } from '../content/twins.ts';
import { absoluteUrl, githubProfileUrl, PAGES, resolveContentUrl, sitePath } from '../../contract/pages.ts';
import { ASSETS, renderLayout } from './layout.ts';
import { validityAttributes } from '../../render/age.ts';

/** The profile's links: those of site/profile.md, resolved to absolute URLs, plus the GitHub account. */
export function profileLinks(ctx: BuildContext, profile: Profile): Array<{ label: string; url: string }> {
  return [
    { label: 'GitHub', url: githubProfileUrl(ctx.config.githubAccount) },
    ...profile.links.map((l) => ({ label: l.label, url: resolveContentUrl(ctx.config.siteUrl, l.url) })),
  ];
}

export function homeMarkdown(ctx: BuildContext, profile: Profile): string {
  const { config } = ctx;
  const links = profileLinks(ctx, profile).map((l) => `- [${l.label}](${l.url})`);
  return twin(
    {
      title: config.site.title,
      description: config.site.tagline,
      url: absoluteUrl(config.siteUrl, PAGES.home.path),
      name: profile.name,
      tagline: config.site.tagline,
      location: profile.location,
      github: githubProfileUrl(config.githubAccount),
    },
    [`# ${profile.name}`, config.site.tagline, '## About', profile.about, '## Links', links.join('\n')].join('\n\n'),
  );
}

/** /profile.json (schemas/Profile.schema.json): the home page's facts as data, About as plain text. */
export function profileDocument(ctx: BuildContext, profile: Profile): ProfileDocument {
  const { config } = ctx;
  return {
    url: absoluteUrl(config.siteUrl, PAGES.home.path),
    name: profile.name,
    tagline: config.site.tagline,
    location: profile.location,
    github: githubProfileUrl(config.githubAccount),
    description: config.site.tagline,
    about: markdownParagraphs(profile.about),
    links: profileLinks(ctx, profile),
  };
}

export function homeHtml(ctx: BuildContext, profile: Profile): string {
  const { config } = ctx;
  const snapshot = `Snapshot taken when this site was built (${new Date(ctx.nowMs).toISOString().slice(0, 16).replace('T', ' ')} UTC).`;
  // A missing snapshot has no path to link or for the page script to request (a 404 on a static host).
  const figure = (
    id: string,
    title: string,
    apiPath: string,
    payload: unknown,
    body: string,
    after: string,
    attributes = '',
  ) =>
    `<figure class="card" id="${id}-preview" data-preview="${id}"${payload === null ? '' : ` data-source="${escapeHtml(sitePath(config.siteUrl, apiPath))}"${validityAttributes(payload)}`}${attributes}>
<h2>${title}</h2>
<div data-preview-body>${body}</div>
${after}
<p class="note" data-preview-status>${snapshot}${payload === null ? '' : ` API: <a href="${escapeHtml(sitePath(config.siteUrl, apiPath))}"><code>${apiPath}</code></a>`}</p>
</figure>`;
  const links = profileLinks(ctx, profile)
    .map(
      (l) =>
        `<li><a href="${escapeHtml(l.url.startsWith(config.siteUrl) ? sitePath(config.siteUrl, l.url.slice(config.siteUrl.length) || '/') : l.url)}">${escapeHtml(l.label)}</a></li>`,
    )
    .join('');
  const main = `<h1>${escapeHtml(profile.name)}</h1>
<p class="lede">${escapeHtml(config.site.tagline)}</p>
<p class="meta">${escapeHtml(profile.location)}</p>
<section class="preview" aria-label="Portfolio preview">
${ctx.datasets
  .map(({ resource, home, view }) => {
    const payload = ctx.payloads.get(resource.id) ?? null;
    return `${figure(resource.id, home.title(ctx), resource.v1.path, payload, view.body(payload), home.after(ctx, payload), home.attributes?.(ctx, payload))}\n`;
  })
  .join('')}</section>
<section aria-labelledby="about"><h2 id="about">About</h2>
${renderMarkdown(profile.about)}
</section>
<section aria-labelledby="links"><h2 id="links">Links</h2>
<ul>${links}</ul>
</section>`;
  return renderLayout({
    config,
    simulated: ctx.simulated,
    nowMs: ctx.nowMs,
    page: PAGES.home,
    title: config.site.title,
    description: config.site.tagline,
    nav: 'home',
    main,
    scripts: [ASSETS.previewScript],
  });
}

export function renderHome(ctx: BuildContext, profile: Profile): Artifact[] {
  return [
    { file: PAGES.home.htmlFile, body: homeHtml(ctx, profile) },
    { file: PAGES.home.markdownFile, body: homeMarkdown(ctx, profile) },
  ];
}
