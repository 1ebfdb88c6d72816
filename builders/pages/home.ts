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
import { profileHeaderHtml } from './profile-header.ts';
import { validityAttributes } from '../../render/age.ts';
import { markdownText } from '../../lib/markdown-text.ts';
import type { Resume } from '../content/resume.ts';
import { currentRole, RESUME_TITLE } from './resume.ts';

/**
 * The profile's links: the GitHub account, those of site/profile.md resolved to absolute URLs, then the
 * résumé's `basics.profiles` (docs/site.md#resumejson), each URL once.
 */
export function profileLinks(
  ctx: BuildContext,
  profile: Profile,
  resume: Resume | null = null,
): Array<{ label: string; url: string }> {
  const links = [
    { label: 'GitHub', url: githubProfileUrl(ctx.config.githubAccount) },
    ...profile.links.map((l) => ({ label: l.label, url: resolveContentUrl(ctx.config.siteUrl, l.url) })),
    ...(resume?.basics?.profiles ?? []).flatMap((p) =>
      p.url ? [{ label: p.network?.trim() || p.username?.trim() || p.url, url: p.url }] : [],
    ),
  ];
  const seen = new Set<string>();
  return links.filter((l) => !seen.has(l.url.replace(/\/$/, '')) && seen.add(l.url.replace(/\/$/, '')));
}

/** A link to the owner elsewhere (not a page of this site): `rel="me"` says it is the same person (IndieWeb, Mastodon). */
export function isProfileElsewhere(siteUrl: string, url: string): boolean {
  return !url.startsWith(`${siteUrl}/`) && url !== siteUrl;
}

export function homeMarkdown(ctx: BuildContext, profile: Profile, resume: Resume | null = null): string {
  const { config } = ctx;
  const links = profileLinks(ctx, profile, resume).map((l) => `- [${l.label}](${l.url})`);
  const role = resume === null ? null : currentRole(resume);
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
    [
      `# ${profile.name}`,
      config.site.tagline,
      ...(role === null
        ? []
        : [`${markdownText(role.text)} · [${RESUME_TITLE}](${absoluteUrl(config.siteUrl, PAGES.resume.path)})`]),
      '## About',
      profile.about,
      '## Links',
      links.join('\n'),
    ].join('\n\n'),
  );
}

/** /profile.json (schemas/Profile.schema.json): the home page's facts as data, About as plain text. */
export function profileDocument(ctx: BuildContext, profile: Profile, resume: Resume | null = null): ProfileDocument {
  const { config } = ctx;
  return {
    url: absoluteUrl(config.siteUrl, PAGES.home.path),
    name: profile.name,
    tagline: config.site.tagline,
    location: profile.location,
    github: githubProfileUrl(config.githubAccount),
    description: config.site.tagline,
    about: markdownParagraphs(profile.about),
    links: profileLinks(ctx, profile, resume),
  };
}

/**
 * The owner as a schema.org Person (JSON-LD, on the home page): the name, the site, the picture, the job title from the
 * résumé's `basics.label`, and `sameAs`, the profile links elsewhere (docs/site.md#sharing).
 */
export function personJsonLd(ctx: BuildContext, profile: Profile, resume: Resume | null): Record<string, unknown> {
  const { siteUrl } = ctx.config;
  const label = resume?.basics?.label?.trim();
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: resume?.basics?.name?.trim() || profile.name,
    url: absoluteUrl(siteUrl, PAGES.home.path),
    // The owner's picture, served by the site itself (profile.md's avatar:, else the résumé's basics.image).
    ...(ctx.avatar ? { image: absoluteUrl(siteUrl, ctx.avatar.path) } : {}),
    ...(label ? { jobTitle: label } : {}),
    sameAs: profileLinks(ctx, profile, resume)
      .filter((l) => /^https?:\/\//.test(l.url) && isProfileElsewhere(siteUrl, l.url))
      .map((l) => l.url),
  };
}

/** An unavailable figure's note: no snapshot, so no time of one (its body says why). */
const NO_SNAPSHOT = 'This build published no snapshot of it.';

export function homeHtml(ctx: BuildContext, profile: Profile, resume: Resume | null = null): string {
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
<p class="note" data-preview-status>${payload === null ? NO_SNAPSHOT : `${snapshot} API: <a href="${escapeHtml(sitePath(config.siteUrl, apiPath))}"><code>${apiPath}</code></a>`}</p>
</figure>`;
  const links = profileLinks(ctx, profile, resume).map((l) => ({
    label: l.label,
    href: l.url.startsWith(config.siteUrl)
      ? sitePath(config.siteUrl, l.url.slice(config.siteUrl.length) || '/')
      : l.url,
    external: isProfileElsewhere(config.siteUrl, l.url),
  }));
  const role = resume === null ? null : currentRole(resume);
  const roleLine =
    resume === null
      ? ''
      : `<p class="role">${role === null ? '' : `${escapeHtml(role.text)} · `}<a href="${escapeHtml(sitePath(config.siteUrl, PAGES.resume.path))}">${RESUME_TITLE}</a></p>\n`;
  const avatar = ctx.avatar ?? null;
  const main = `${profileHeaderHtml({
    name: profile.name,
    tagline: config.site.tagline,
    location: profile.location,
    roleHtml: roleLine,
    avatar,
    avatarSrc: avatar === null ? '' : sitePath(config.siteUrl, avatar.path),
    links,
  })}
<section class="preview" aria-label="Portfolio preview">
${ctx.datasets
  .map(({ resource, home, view }) => {
    const payload = ctx.payloads.get(resource.id) ?? null;
    return `${figure(resource.id, home.title(ctx), resource.v1.path, payload, view.body(payload), home.after(ctx, payload), home.attributes?.(ctx, payload))}\n`;
  })
  .join('')}</section>
<section aria-labelledby="about"><h2 id="about">About</h2>
${renderMarkdown(profile.about)}
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
    ogType: 'profile',
    jsonLd: personJsonLd(ctx, profile, resume),
    avatar,
  });
}

/** The home page and its twin; `resume` is the published résumé (publishedResume), when the owner has one. */
export function renderHome(ctx: BuildContext, profile: Profile, resume: Resume | null = null): Artifact[] {
  return [
    { file: PAGES.home.htmlFile, body: homeHtml(ctx, profile, resume) },
    { file: PAGES.home.markdownFile, body: homeMarkdown(ctx, profile, resume) },
  ];
}
