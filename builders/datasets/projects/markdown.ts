// The projects in the home page's Markdown twin (/index.md): one list item a repository, its name linked,
// its description and its figures as text. Every upstream string goes through markdownText, so a
// description cannot open a link, HTML or emphasis; it is shortened as the page shows it (builders/render/project-card.ts).
import { markdownLink, markdownText } from '../../lib/text/markdown-text.ts';
import type { GitHubProjects } from './rule.ts';
import { shownDescription } from '../../render/project-card.ts';

const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

export function projectsMarkdown(payload: GitHubProjects): string {
  if (payload.projects.length === 0) return `No public repository on the profile of ${markdownText(payload.username)}.`;
  return payload.projects
    .map((p) => {
      const facts = [p.language, count(p.stars, 'star'), count(p.forks, 'fork')].filter((f) => f !== null);
      const description = p.description === null ? '' : `: ${markdownText(shownDescription(p.description))}`;
      return `- ${markdownLink(`${p.owner}/${p.name}`, p.url)}${description} (${markdownText(facts.join(', '))})`;
    })
    .join('\n');
}
