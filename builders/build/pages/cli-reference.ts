// The CLI's reference (commands, options, exit statuses, --json fields) as Markdown, embedded in the
// developer page. Generated from builders/cli/commands.ts, the same table `--help` prints, so the two cannot drift.
import {
  commandReference,
  DEFAULT_TIMEOUT_SECONDS,
  ENVIRONMENT,
  EXIT_STATUSES,
  optionsOf,
  USAGE,
  type JsonField,
} from '../../cli/commands.ts';
import type { ServiceTables } from '../../contract/service.ts';

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|');
/** Paths as code, so that `<slug>` reads as text and not as an HTML tag. */
const paths = (text: string) =>
  cell(text).replace(/(^|[\s(])(\/[\w.<>/-]*)/g, (_, pre: string, path: string) => `${pre}${code(path)}`);

function fieldList(json: JsonField[]): string {
  return json.map((f) => `${code(f.name)} (${cell(f.type)}): ${cell(f.description)}`).join('; ');
}

/** The reference of the CLI this deployment publishes (its `price` follows MARKET_PRODUCT). */
export function cliReferenceMarkdown(service: ServiceTables): string {
  return [
    '## Using the command-line tool',
    `${code(USAGE)}`,
    'One file, no dependencies and no install step (no npm, no npx): download it and run it with Node.js 18 or newer, which provides the `fetch` it uses. ' +
      `It reads only the public documents listed below, relative to the site it was downloaded from or to ${code('--base-url')}; each request gives up after ${DEFAULT_TIMEOUT_SECONDS} seconds by default.`,
    '```sh\nnode cli.mjs profile\nnode cli.mjs writings\nnode cli.mjs writings <slug>\nnode cli.mjs api --json\nnode cli.mjs catalog --base-url http://127.0.0.1:8080\n```',
    '### Commands',
    '| Command | What it prints | Reads |\n|---|---|---|\n' +
      commandReference(service)
        .map((c) => `| ${code(c.synopsis)} | ${cell(c.summary)} | ${c.reads.map(paths).join('<br>')} |`)
        .join('\n') +
      '\n| `help` | The help, same as `--help`. | nothing |',
    '### Options',
    '| Option | Meaning |\n|---|---|\n' +
      optionsOf(service)
        .map((o) => `| ${code(o.flag)} | ${cell(o.summary)} |`)
        .join('\n'),
    'Human output is aligned and wrapped to the terminal width; colour is used only on a terminal and never when `NO_COLOR` is set.',
    '| Variable | Meaning |\n|---|---|\n' +
      ENVIRONMENT.map((e) => `| ${code(e.name)} | ${cell(e.meaning)} |`).join('\n'),
    '### JSON output',
    'With `--json` each command prints exactly one JSON object on stdout and nothing else. Field names are stable; absent values are `null`, lists may be empty, and new fields may be added.',
    '| Command | Fields |\n|---|---|\n' +
      commandReference(service)
        .map((c) => `| ${code(c.synopsis)} | ${fieldList(c.json)} |`)
        .join('\n'),
    '### Exit status',
    '| Status | Meaning |\n|---|---|\n' + EXIT_STATUSES.map((e) => `| ${e.code} | ${cell(e.meaning)} |`).join('\n'),
    "On status 1 the line on stderr names the URL and what went wrong; when the site answered an RFC 9457 problem document, it carries the problem's `title` and `detail`. Nothing is printed on stdout.",
  ].join('\n\n');
}
