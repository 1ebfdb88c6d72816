// The projects as a table in a terminal (builders/render/dataset-view.ts): name, language, stars and forks on one
// row, the description under it, every line within the terminal's width (80 columns by default). Upstream
// text is put on one plain line first (builders/lib/text/one-line.ts): no escape sequence of a description reaches the
// terminal. Pure: payload and terminal in, lines out.
import type { GitHubProjects } from './rule.ts';
import type { TerminalPicture } from '../../render/dataset-view.ts';
import { formatCount } from '../../render/format.ts';
import { headline, INDENT, type Terminal } from '../../render/terminal.ts';
import { oneLine } from '../../lib/text/one-line.ts';
import { selectionWords } from './view.ts';

/** `text` in at most `width` columns, cut with "…". */
const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text);

export function renderProjects(term: Terminal, payload: GitHubProjects, simulated = false): string[] {
  const lines = headline(
    term,
    `${term.style('bold', oneLine(payload.username, 100))}  ${selectionWords(payload)} on GitHub ${term.style('dim', `as of ${payload.asOf}`)}`,
  );
  lines.push('');
  if (payload.projects.length === 0) {
    lines.push(`${INDENT}${term.style('dim', 'No public repository yet.')}`);
    return lines;
  }
  const room = Math.max(40, term.width) - INDENT.length;
  const number = 8;
  const language = 12;
  const name = room - language - 2 * number - 3;
  lines.push(
    INDENT +
      term.style(
        'dim',
        `${'Repository'.padEnd(name)} ${'Language'.padEnd(language)} ${'Stars'.padStart(number)} ${'Forks'.padStart(number)}`,
      ),
  );
  for (const p of payload.projects) {
    const full = oneLine(`${p.owner}/${p.name}`, 200);
    const lang = fit(oneLine(p.language ?? '', 100) || '-', language);
    lines.push(
      INDENT +
        `${term.style('bold', fit(full, name).padEnd(name))} ${lang.padEnd(language)} ` +
        `${fit(formatCount(p.stars), number).padStart(number)} ${fit(formatCount(p.forks), number).padStart(number)}`,
    );
    if (p.description !== null) lines.push(INDENT + term.style('dim', fit(`  ${oneLine(p.description, 500)}`, room)));
  }
  lines.push('');
  // A demo's projects come from a simulated provider: the notice above says so, and no line claims GitHub.
  if (!simulated)
    lines.push(`${INDENT}${term.style('dim', `Source: the GitHub profile of ${oneLine(payload.username, 100)}.`)}`);
  return lines;
}

export const picture: TerminalPicture<GitHubProjects> = renderProjects;
