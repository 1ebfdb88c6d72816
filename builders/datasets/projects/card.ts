// The projects' cards: one for the list (up to six repositories) and one per repository, for embedding
// beside its README. Each names its source and when its data were read; every upstream string is escaped
// by the frame's text helper (builders/render/card.ts), and nothing is loaded from elsewhere.
import type { GitHubProject, GitHubProjects } from './rule.ts';
import { formatCount, formatInstant } from '../../render/format.ts';
import type { ChartTheme } from '../../render/charts/theme.ts';
import { frame, PAD, SIMULATED, SMALL_FONT_SIZE, SMALL_LINE, text, TITLE_FONT_SIZE } from '../../render/card.ts';
import { clampLines, ellipsize, wrapText } from '../../render/text-width.ts';
import { escapeHtml } from '../../render/html.ts';
import { shownDescription } from '../../render/project-card.ts';
import { plural, selectionWords } from './view.ts';

/** Where a demo's projects come from, named wherever a real card names GitHub. */
export const SIMULATED_PROJECTS_SOURCE = 'simulated profile (npm run demo), not GitHub';

const WIDTH = 495;

/** The language's dot (GitHub's colour, else the theme's muted one), its name, the stars and the forks. */
function metaLine(p: GitHubProject, x: number, y: number, theme: ChartTheme): string {
  const dot =
    p.language === null
      ? ''
      : `<circle cx="${x + 5}" cy="${y - 4}" r="5" fill="${escapeHtml(p.languageColor ?? theme.muted)}"/>`;
  const words = [p.language, plural(p.stars, 'star'), plural(p.forks, 'fork')].filter((w) => w !== null).join(' · ');
  return dot + text(p.language === null ? x : x + 14, y, words);
}

function footer(payload: GitHubProjects, asOf: string, simulated: boolean): string {
  return `Source: ${simulated ? SIMULATED_PROJECTS_SOURCE : `GitHub profile of ${payload.username}`} · as of ${asOf}`;
}

export function projectsCard(payload: GitHubProjects, theme: ChartTheme, simulated: boolean): string {
  const asOf = formatInstant(payload.asOf);
  const top = simulated ? 64 : 48;
  const rowHeight = 52;
  const rows = payload.projects.map((p, i) => {
    const y = top + i * rowHeight;
    return (
      text(
        PAD,
        y + 14,
        ellipsize(`${p.owner}/${p.name}`, WIDTH - 2 * PAD, 13, true),
        `font-size="13" font-weight="600" fill="${theme.text}"`,
      ) +
      text(
        PAD,
        y + 30,
        ellipsize(p.description ?? 'No description', WIDTH - 2 * PAD, SMALL_FONT_SIZE),
        'font-size="11"',
      ) +
      metaLine(p, PAD, y + 46, theme)
    );
  });
  const empty = payload.projects.length === 0 ? text(PAD, top + 14, 'No public repository yet.') : '';
  const listHeight = Math.max(1, payload.projects.length) * rowHeight;
  const foot = wrapText(footer(payload, asOf, simulated), WIDTH - 2 * PAD, SMALL_FONT_SIZE, ' · ');
  const footTop = top + listHeight + 12;
  const height = footTop + (foot.length - 1) * SMALL_LINE + 12;
  const title = `${payload.username}: ${selectionWords(payload)} on GitHub`;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}` +
    (payload.projects.length === 0
      ? 'No public repository yet. '
      : `${payload.projects.map((p) => `${p.owner}/${p.name} (${[p.language, plural(p.stars, 'star'), plural(p.forks, 'fork')].filter((w) => w !== null).join(', ')})`).join('; ')}. `) +
    `Source: ${simulated ? SIMULATED_PROJECTS_SOURCE : `GitHub profile of ${payload.username}`}. As of ${asOf}.`;
  const body =
    text(
      PAD,
      30,
      ellipsize(`${payload.username} · GitHub ${selectionWords(payload)}`, WIDTH - 2 * PAD, TITLE_FONT_SIZE, true),
      `font-size="${TITLE_FONT_SIZE}" font-weight="600" fill="${theme.text}"`,
    ) +
    (simulated ? text(PAD, 48, SIMULATED, `fill="${theme.down}"`) : '') +
    rows.join('') +
    empty +
    foot.map((line, i) => text(PAD, footTop + i * SMALL_LINE, line, 'font-size="11"')).join('');
  return frame({ width: WIDTH, height, title, desc, theme, body });
}

/** One repository's card: its name, description (up to three lines), language, stars and forks. */
export function repositoryCard(
  payload: GitHubProjects,
  project: GitHubProject,
  theme: ChartTheme,
  simulated: boolean,
): string {
  const width = 400;
  const asOf = formatInstant(payload.asOf);
  const top = simulated ? 48 : 32;
  const described = clampLines(project.description ?? 'No description', width - 2 * PAD, 12, 3);
  const metaY = top + 24 + described.length * 16;
  const foot = wrapText(footer(payload, asOf, simulated), width - 2 * PAD, SMALL_FONT_SIZE, ' · ');
  const footTop = metaY + 24;
  const height = footTop + (foot.length - 1) * SMALL_LINE + 12;
  const title = `${project.owner}/${project.name} on GitHub`;
  const desc =
    `${simulated ? `${SIMULATED}. ` : ''}${project.owner}/${project.name}: ${project.description === null ? 'no description' : shownDescription(project.description)}. ` +
    `${[project.language, plural(project.stars, 'star'), plural(project.forks, 'fork')].filter((w) => w !== null).join(', ')}. ` +
    `Source: ${simulated ? SIMULATED_PROJECTS_SOURCE : `GitHub profile of ${payload.username}`}. As of ${asOf}.`;
  const body =
    text(
      PAD,
      28,
      ellipsize(`${project.owner}/${project.name}`, width - 2 * PAD, TITLE_FONT_SIZE, true),
      `font-size="${TITLE_FONT_SIZE}" font-weight="600" fill="${theme.text}"`,
    ) +
    (simulated ? text(PAD, 44, SIMULATED, `fill="${theme.down}"`) : '') +
    described.map((line, i) => text(PAD, top + 16 + i * 16, line)).join('') +
    metaLine(project, PAD, metaY, theme) +
    foot.map((line, i) => text(PAD, footTop + i * SMALL_LINE, line, 'font-size="11"')).join('');
  return frame({ width, height, title, desc, theme, body });
}

/**
 * A repository's card name in its folder, `<owner>/<name>` lower-cased (docs/api.md#published-paths): the
 * light card is `cards/repos/<owner>/<name>.svg`, the dark one `cards/repos-dark/<owner>/<name>.svg`, so
 * no repository's card lands on another's (`foo-dark` included).
 */
export function repositoryCardName(project: GitHubProject): string {
  return `${project.owner.toLowerCase()}/${project.name.toLowerCase()}`;
}
