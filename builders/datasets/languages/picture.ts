// The languages as a table in a terminal (builders/render/dataset-view.ts): each language's name, its bytes, its
// share as text and a bar of it, every line within the terminal's width (80 columns by default), the eight
// largest and "Other" as on the card. Upstream text is put on one plain line first (builders/lib/text/one-line.ts): no
// escape sequence of a name reaches the terminal. Pure: payload and terminal in, lines out.
import type { TerminalPicture } from '../../render/dataset-view.ts';
import { formatCount } from '../../render/format.ts';
import { headline, INDENT, type Terminal } from '../../render/terminal.ts';
import { oneLine } from '../../lib/text/one-line.ts';
import { legendEntries, percentText, repositoriesText, type GitHubLanguages } from './view.ts';

export function renderLanguages(term: Terminal, payload: GitHubLanguages, simulated = false): string[] {
  const lines = headline(
    term,
    `${term.style('bold', oneLine(payload.username, 100))}  languages ${term.style('dim', `as of ${payload.asOf}`)}`,
  );
  lines.push('');
  const entries = legendEntries(payload);
  if (entries.length === 0) return [...lines, `${INDENT}${term.style('dim', 'No language bytes yet.')}`];
  // Name, bytes and share in fixed columns; the bar takes what is left of the width.
  const room = Math.max(40, term.width) - INDENT.length;
  const name = Math.min(24, Math.floor(room / 3));
  const bar = room - name - 25;
  lines.push(INDENT + term.style('dim', `${'Language'.padEnd(name)} ${'Bytes'.padStart(14)} ${'Share'.padStart(8)}`));
  for (const e of entries) {
    const label = oneLine(e.name, 100);
    lines.push(
      `${INDENT}${term.style('bold', (label.length > name ? `${label.slice(0, name - 1)}…` : label).padEnd(name))} ` +
        `${formatCount(e.bytes).padStart(14)} ${percentText(e.percent).padStart(8)} ` +
        term.style('cyan', '█'.repeat(Math.max(1, Math.round((e.percent / 100) * bar)))),
    );
  }
  // A demo's repositories come from a simulated provider: the notice above says so, and no line claims GitHub.
  const total = `${formatCount(payload.totalBytes)} bytes in ${repositoriesText(payload.repositories)}`;
  return [...lines, '', `${INDENT}${term.style('dim', `${total}${simulated ? '' : ' on GitHub'}.`)}`];
}

export const picture: TerminalPicture<GitHubLanguages> = renderLanguages;
