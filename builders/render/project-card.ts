// A project as a card of the home page: its name, a link to it (the card's one link, which the stylesheet
// stretches over the whole card, so that Tab reaches each card once and its name is the link's name), its
// description as text and a line of facts. Drawn alike for a GitHub repository (builders/datasets/projects/view.ts)
// and for a project of the owner's site/projects.yaml (builders/build/pages/home.ts). Every text is escaped: a
// description of `<one>` reads `<one>`. Pure and dependency-free: the page script carries it.
import { escapeHtml } from './html.ts';

/**
 * The most of a description a project's card shows, on a page or in an SVG card's <desc>, in characters:
 * GitHub sets no bound (the payload keeps it whole), the CLI shows as much (builders/datasets/projects/picture.ts).
 */
export const MAX_SHOWN_DESCRIPTION = 500;

/**
 * `description` as a card shows it: at most MAX_SHOWN_DESCRIPTION characters (code points), ended with "…"
 * when it goes on, read no further than that.
 */
export function shownDescription(description: string): string {
  let count = 0;
  let end = 0;
  for (const c of description) {
    if (++count >= MAX_SHOWN_DESCRIPTION && end + c.length < description.length)
      return `${description.slice(0, end).trimEnd()}…`;
    end += c.length;
  }
  return description;
}

export interface ProjectCard {
  name: string;
  /** The absolute URL the card links to. */
  href: string;
  /** The repository's owner, said under its name; none for the owner's own. */
  owner?: string;
  description: string | null;
  /** The facts' line (language, stars, forks), HTML; none for the owner's own. */
  metaHtml?: string;
}

export function projectCardHtml({ name, href, owner, description, metaHtml }: ProjectCard): string {
  return (
    `<li class="project"><a class="project-link" href="${escapeHtml(href)}"><strong class="project-name">${escapeHtml(name)}</strong></a>` +
    (owner === undefined ? '' : `<span class="project-owner">${escapeHtml(owner)}</span>`) +
    (description === null ? '' : `<p class="project-description">${escapeHtml(shownDescription(description))}</p>`) +
    (metaHtml === undefined ? '' : `<p class="project-meta">${metaHtml}</p>`) +
    '</li>'
  );
}
