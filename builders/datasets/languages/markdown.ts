// The languages in the home page's Markdown twin (/index.md): one list item an entry of the legend (the
// eight largest, then "Other"), its share as text. Every upstream string goes through markdownText, so a
// language's name cannot open a link, HTML or emphasis.
import { markdownText } from '../../lib/text/markdown-text.ts';
import { formatCount } from '../../render/format.ts';
import { legendEntries, percentText, repositoriesText, type GitHubLanguages } from './view.ts';

export function languagesMarkdown(payload: GitHubLanguages): string {
  const entries = legendEntries(payload);
  if (entries.length === 0)
    return `No language bytes yet in the public repositories of ${markdownText(payload.username)}.`;
  return [
    ...entries.map((e) => `- ${markdownText(e.name)}: ${percentText(e.percent)} (${formatCount(e.bytes)} bytes)`),
    '',
    `Summed over ${repositoriesText(payload.repositories)}.`,
  ].join('\n');
}
