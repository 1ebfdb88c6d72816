// The home page (/) and its twin (/index.md): the person, their projects, then the live data the other
// datasets feed, drawn from this build's snapshots; the live ones are refreshed by the page script.
import type { Artifact, BuildContext } from '../artifact.ts';
import type { Profile as ProfileDocument } from '../../contract/payload-types.ts';
import type { OwnerProject, Profile } from '../content/site-content.ts';
import { escapeHtml } from '../../render/html.ts';
import { renderMarkdown } from '../content/markdown.ts';
import { markdownParagraphs } from './plain-text.ts';
import { twin } from '../content/twins.ts';
import { absoluteUrl, githubProfileUrl, PAGES, resolveContentUrl, sitePath } from '../../contract/pages.ts';
import { ASSETS, frameOf, renderLayout } from './layout.ts';
import { profileHeaderHtml } from './profile-header.ts';
import { validityAttributes } from '../../render/age.ts';
import { freshness } from '../../domain/freshness.ts';
import { formatInstant } from '../../render/format.ts';
import { projectCardHtml } from '../../render/project-card.ts';
import { markdownLink, markdownText } from '../../lib/text/markdown-text.ts';
import type { Resume } from '../content/resume.ts';
import { currentRole, RESUME_TITLE } from './resume.ts';
import { PAGE_IDS, previewId } from '../../render/page-ids.ts';

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

/** An unavailable figure's note: no snapshot, so no time of one (its body says why). */
const NO_SNAPSHOT = 'This build published no snapshot of it.';

/**
 * The twin's work sections, in the page's order: each work dataset's list (or that it is unavailable), the
 * owner's projects.yaml after the first, or alone under "Projects" when no dataset is work.
 */
function workMarkdown(ctx: BuildContext, ownerProjects: readonly OwnerProject[]): string[] {
  const owned = ownerProjects
    .map((p) => `- ${markdownLink(p.title, p.url)}${p.description === null ? '' : `: ${markdownText(p.description)}`}`)
    .join('\n');
  const work = ctx.datasets.filter((d) => d.home.work);
  if (work.length === 0) return owned === '' ? [] : ['## Projects', owned];
  return work.flatMap(({ resource, home }, i) => {
    const payload = ctx.payloads.get(resource.id) ?? null;
    const list =
      payload === null ? `${markdownText(resource.title)} unavailable: ${NO_SNAPSHOT}` : home.work!.markdown(payload);
    const mine = i === 0 && owned !== '' ? [owned] : [];
    // As on the page: with no snapshot, the owner's own projects first, the unavailable note after them.
    return [`## ${markdownText(resource.title)}`, ...(payload === null ? [...mine, list] : [list, ...mine])];
  });
}

export function homeMarkdown(
  ctx: BuildContext,
  profile: Profile,
  resume: Resume | null = null,
  ownerProjects: readonly OwnerProject[] = [],
): string {
  const { config } = ctx;
  const links = profileLinks(ctx, profile, resume).map((l) => `- ${markdownLink(l.label, l.url)}`);
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
      ...workMarkdown(ctx, ownerProjects),
      '## About',
      profile.about,
      '## Links',
      links.join('\n'),
    ].join('\n\n'),
  );
}

/** /profile.json (schemas/Profile.schema.json): the home page's facts as data, About as plain text. */
export function profileDocument(
  ctx: BuildContext,
  profile: Profile,
  resume: Resume | null = null,
  ownerProjects: readonly OwnerProject[] = [],
): ProfileDocument {
  const { config } = ctx;
  const role = (resume === null ? null : currentRole(resume))?.text || resume?.basics?.label?.trim();
  return {
    url: absoluteUrl(config.siteUrl, PAGES.home.path),
    name: profile.name,
    tagline: config.site.tagline,
    location: profile.location,
    github: githubProfileUrl(config.githubAccount),
    description: config.site.tagline,
    about: markdownParagraphs(profile.about),
    ...(role ? { role } : {}),
    ownerProjects: ownerProjects.map((p) => ({ title: p.title, url: p.url, description: p.description })),
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

/** The owner's projects of site/projects.yaml as cards (builders/render/project-card.ts), or nothing. */
export function ownerProjectsHtml(projects: readonly OwnerProject[]): string {
  if (projects.length === 0) return '';
  return `<ul class="projects owner-projects" aria-label="More projects">${projects
    .map((p) => projectCardHtml({ name: p.title, href: p.url, description: p.description }))
    .join('')}</ul>`;
}

/**
 * The home page: the person (picture, name, role, links), then their work (the datasets whose home
 * section is `work`, the projects, with the owner's own projects.yaml after them), then the live data,
 * then About. `ownerProjects` are site/projects.yaml's (docs/site.md#projectsyaml).
 */
export function homeHtml(
  ctx: BuildContext,
  profile: Profile,
  resume: Resume | null = null,
  ownerProjects: readonly OwnerProject[] = [],
): string {
  const { config } = ctx;
  const snapshot = `Snapshot taken when this site was built (${new Date(ctx.nowMs).toISOString().slice(0, 16).replace('T', ' ')} UTC).`;
  const figure = ({ resource, home, view }: BuildContext['datasets'][number], more = ''): string => {
    const payload = ctx.payloads.get(resource.id) ?? null;
    const apiPath = resource.v1.path;
    const api = `API: <a href="${escapeHtml(sitePath(config.siteUrl, apiPath))}"><code>${apiPath}</code></a>`;
    const asOf = freshness(payload, 0)?.asOfMs;
    // A work section is the build's snapshot, said "as of" its time (it is current for as long as its
    // dataset says, its --previous bound); a live one is refetched by the page script from its path. A
    // missing snapshot has no path to link or request (a 404 on a static host), and claims no time.
    const status =
      payload === null
        ? NO_SNAPSHOT
        : home.work && asOf !== undefined
          ? `As of ${formatInstant(new Date(asOf).toISOString())}. ${api}`
          : `${snapshot} ${api}`;
    // What the figure holds: with no snapshot, the owner's own projects (`more`) come first and the note that
    // the rest is unavailable after them, out of their way.
    const body = `<div data-preview-body>${view.body(payload)}</div>`;
    const source =
      payload === null || home.work ? '' : ` data-source="${escapeHtml(sitePath(config.siteUrl, apiPath))}"`;
    const validity = payload === null ? '' : validityAttributes(payload, resource.validForMs);
    return `<figure class="card${home.work ? ' work' : ''}" id="${previewId(resource.id)}" data-preview="${resource.id}"${source}${validity}${home.attributes?.(ctx, payload) ?? ''}>
<h2>${home.title(ctx)}</h2>
${
  payload === null
    ? `${more}${body}
`
    : `${body}
${more}`
}${home.after(ctx, payload)}
<p class="note" data-preview-status>${status}</p>
</figure>
`;
  };
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
      : `<p class="role">${role === null ? '' : `<span class="p-job-title">${escapeHtml(role.text)}</span> · `}<a href="${escapeHtml(sitePath(config.siteUrl, PAGES.resume.path))}">${RESUME_TITLE}</a></p>\n`;
  const avatar = ctx.avatar ?? null;
  const work = ctx.datasets.filter((d) => d.home.work);
  const live = ctx.datasets.filter((d) => !d.home.work);
  const owned = ownerProjectsHtml(ownerProjects);
  // The owner's own projects go with the first work figure, or stand alone when no dataset is work.
  const workHtml =
    work.length === 0
      ? owned === ''
        ? ''
        : `<section class="work" aria-labelledby="${PAGE_IDS.projectsHeading}"><h2 id="${PAGE_IDS.projectsHeading}">Projects</h2>\n${owned}\n</section>\n`
      : `<section class="work" aria-label="Projects">\n${work.map((d, i) => figure(d, i === 0 && owned !== '' ? `${owned}\n` : '')).join('')}</section>\n`;
  // The ids around the About text, which none of its headings takes (render/page-ids.ts).
  const aboutTaken = [PAGE_IDS.about, PAGE_IDS.projectsHeading, ...ctx.datasets.map((d) => previewId(d.resource.id))];
  const main = `${profileHeaderHtml({
    name: profile.name,
    tagline: config.site.tagline,
    location: profile.location,
    roleHtml: roleLine,
    avatar,
    avatarSrc: avatar === null ? '' : sitePath(config.siteUrl, avatar.path),
    links,
  })}
${workHtml}<section class="preview" aria-label="Live data">
${live.map((d) => figure(d)).join('')}</section>
<section aria-labelledby="${PAGE_IDS.about}"><h2 id="${PAGE_IDS.about}">About</h2>
${renderMarkdown(profile.about, { takenIds: aboutTaken })}
</section>`;
  return renderLayout({
    ...frameOf(ctx),
    page: PAGES.home,
    title: config.site.title,
    description: config.site.tagline,
    nav: 'home',
    main,
    scripts: [ASSETS.previewScript],
    ogType: 'profile',
    jsonLd: personJsonLd(ctx, profile, resume),
  });
}

/** The home page and its twin; `resume` is the published résumé (publishedResume), when the owner has one. */
export function renderHome(
  ctx: BuildContext,
  profile: Profile,
  resume: Resume | null = null,
  ownerProjects: readonly OwnerProject[] = [],
): Artifact[] {
  return [
    { file: PAGES.home.htmlFile, body: homeHtml(ctx, profile, resume, ownerProjects) },
    { file: PAGES.home.markdownFile, body: homeMarkdown(ctx, profile, resume, ownerProjects) },
  ];
}
