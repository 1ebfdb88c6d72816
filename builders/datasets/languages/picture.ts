// The languages as a table in a terminal (render/dataset-view.ts): each language's name, its bytes, its
// share as text and a bar of its share, every line within the terminal's width (80 columns by default),
// the eight largest and "Other" as on the card. Upstream text is put on one plain line first
// (lib/one-line.ts): no escape sequence of a name reaches the terminal. Pure: payload and terminal in, lines out.
import type { TerminalPicture } from '../../render/dataset-view.ts';
import { formatCount } from '../../render/format.ts';
import { headline, INDENT, type Terminal } from '../../render/terminal.ts';
import { oneLine } from '../../lib/text/one-line.ts';
import { legendEntries, percentText, repositoriesText, type GitHubLanguages } from './view.ts';

/** `text` in at most `width` columns, cut with "…". */
const fit = (text: string, width: number) => (text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text);

export function renderLanguages(term: Terminal, payload: GitHubLanguages, simulated = false): string[] {
  const lines = headline(
    term,
    `${term.style('bold', oneLine(payload.username, 100))}  languages on GitHub ${term.style('dim', `as of ${payload.asOf}`)}`,
  );
  lines.push('');
  const entries = legendEntries(payload);
  if (entries.length === 0) {
    lines.push(
      `${INDENT}${term.style('dim', `No language bytes yet (${repositoriesText(payload.repositories)} read).`)}`,
    );
    return lines;
  }
  const room = Math.max(40, term.width) - INDENT.length;
  const bytes = 14;
  const share = 8;
  const name = Math.min(24, Math.floor(room / 3));
  const bar = room - name - bytes - share - 3;
  lines.push(
    INDENT + term.style('dim', `${'Language'.padEnd(name)} ${'Bytes'.padStart(bytes)} ${'Share'.padStart(share)} `),
  );
  for (const e of entries) {
    const cells = Math.round((e.percent / 100) * bar);
    lines.push(
      INDENT +
        `${term.style('bold', fit(oneLine(e.name, 100), name).padEnd(name))} ` +
        `${fit(formatCount(e.bytes), bytes).padStart(bytes)} ${percentText(e.percent).padStart(share)} ` +
        term.style('cyan', '█'.repeat(Math.max(e.bytes > 0 ? 1 : 0, cells))),
    );
  }
  lines.push('');
  const total = `${formatCount(payload.totalBytes)} bytes in ${repositoriesText(payload.repositories)}`;
  // A demo's repositories come from a simulated provider: the notice above says so, and no line claims GitHub.
  lines.push(
    `${INDENT}${term.style('dim', simulated ? `${total}.` : `${total} of ${oneLine(payload.username, 100)} on GitHub.`)}`,
  );
  return lines;
}

export const picture: TerminalPicture<GitHubLanguages> = renderLanguages;
