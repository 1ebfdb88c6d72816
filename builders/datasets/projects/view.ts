// The projects' figure on the home page (drawn by the build, redrawn by the page script:
// builders/render/dataset-view.ts): one HTML card per repository (builders/render/project-card.ts), each a link to it on
// GitHub, with its description as text, its language and colour, its stars and forks. Every upstream
// string is escaped: a description of `<one>` reads `<one>`.
import type { GitHubProject, GitHubProjects } from './rule.ts';
import type { HomeView } from '../../render/dataset-view.ts';
import { formatCount } from '../../render/format.ts';
import { escapeHtml } from '../../render/html.ts';
import { projectCardHtml } from '../../render/project-card.ts';

/** "pinned repositories" or "popular repositories", as the profile names the section. */
export function selectionWords(payload: GitHubProjects): string {
  return payload.selection === 'pinned' ? 'pinned repositories' : 'popular repositories';
}

/** "1 star", "2,612 stars". */
export const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

function projectHtml(p: GitHubProject): string {
  const language =
    p.language === null
      ? ''
      : // The colour as an SVG fill: the pages' CSP allows no style attribute (builders/contract/content-security-policy.ts).
        `<span class="project-language"><svg class="language-dot" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="5"${p.languageColor === null ? '' : ` fill="${escapeHtml(p.languageColor)}"`}/></svg> ${escapeHtml(p.language)}</span> `;
  return projectCardHtml({
    name: p.name,
    href: p.url,
    owner: p.owner,
    description: p.description,
    metaHtml:
      `${language}<span class="project-stars">${escapeHtml(plural(p.stars, 'star'))}</span> ` +
      `<span class="project-forks">${escapeHtml(plural(p.forks, 'fork'))}</span>`,
  });
}

function projectsBodyHtml(payload: GitHubProjects | null): string {
  if (payload === null)
    return '<p class="unavailable" data-unavailable="projects"><strong>Projects unavailable.</strong> GitHub gave no usable list of repositories when this page was built.</p>';
  if (payload.projects.length === 0)
    return `<p class="projects-empty">${escapeHtml(payload.username)} has no public repository yet.</p>`;
  return `<ul class="projects">${payload.projects.map(projectHtml).join('')}</ul>`;
}

/** The shape the figure draws, checked before a redraw from an API answer (the CLI checks the whole schema). */
function isProjects(value: unknown): value is GitHubProjects {
  const v = value as Partial<GitHubProjects> | null;
  return (
    !!v &&
    typeof v.username === 'string' &&
    (v.selection === 'pinned' || v.selection === 'popular') &&
    Array.isArray(v.projects) &&
    v.projects.every(
      (p) =>
        !!p &&
        typeof p.owner === 'string' &&
        typeof p.name === 'string' &&
        typeof p.url === 'string' &&
        p.url.startsWith('https://github.com/') &&
        Number.isInteger(p.stars) &&
        Number.isInteger(p.forks),
    )
  );
}

export const view: HomeView<GitHubProjects> = { accepts: isProjects, body: projectsBodyHtml };
