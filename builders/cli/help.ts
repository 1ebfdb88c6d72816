// `--help` (text or JSON), `help <command>` and the short usage printed with a usage error, generated from
// builders/cli/commands.ts. The overview fits one screen (at most 40 lines at 80 columns); what a command reads and
// the members its --json prints are in its own help.
import { DEPLOYMENT } from './deployment.ts';
import { commandReference, EXIT_STATUSES, optionsOf, PROGRAM, USAGE, WRITING, type CommandName } from './commands.ts';
import { style, table, wrapIndented, type Terminal } from './terminal.ts';

type Screen = Pick<Terminal, 'color' | 'width'>;

/** What follows a usage error on stderr: the usage and the commands, wrapped at word boundaries. */
export function usageLines(term: Screen): string[] {
  return [
    ...wrapIndented(USAGE, term.width, 'Usage: ', '  '),
    ...wrapIndented(
      [...commandReference(DEPLOYMENT).map((c) => c.synopsis), 'help [<command>]'].join(', '),
      term.width,
      'Commands: ',
      '  ',
    ),
    ...wrapIndented(`Run "node ${PROGRAM} --help" for details.`, term.width, ''),
  ];
}

/** A summary's first clause ("Read the profile: name, …" → "Read the profile."): one line per command. */
const firstClause = (text: string) => `${/^[^:(.]*[^:(.\s]/.exec(text)?.[0] ?? text}.`;

export function helpLines(term: Screen, defaultBaseUrl: string): string[] {
  const h = (text: string) => style(term, 'bold', text);
  return [
    ...wrapIndented(
      `${h(PROGRAM)}: read the site's public documents from the command line. Read-only; Node 20 or newer; no dependencies, no npx.`,
      term.width,
      '',
    ),
    ...wrapIndented(USAGE, term.width, `${h('Usage:')} `, '         '),
    '',
    h('Commands'),
    ...table(
      [
        ...commandReference(DEPLOYMENT).map((c) => [c.synopsis, firstClause(c.summary)]),
        ['help <command>', 'What a command reads and its --json fields.'],
      ],
      term.width,
    ),
    '',
    h('Options'),
    ...table(
      optionsOf(DEPLOYMENT).map((o) => [o.flag, o.summary]),
      term.width,
    ),
    '',
    // The full words of both are in --help --json and the developer page (builders/cli/commands.ts).
    ...wrapIndented(
      `${h('Exit status:')} 0 success, 1 the site answered an error or could not be read (one line on stderr), 2 a usage error.`,
      term.width,
      '',
      '  ',
    ),
    ...wrapIndented(
      `${h('Environment:')} NO_COLOR turns colour off, FORCE_COLOR on through a pipe; COLUMNS is the width when stdout is not a terminal.`,
      term.width,
      '',
      '  ',
    ),
    ...wrapIndented(`${h('Default site:')} ${defaultBaseUrl}`, term.width, '', '  '),
    ...wrapIndented(
      `${h('Example:')} node ${PROGRAM} profile --base-url https://example.com/portfolio/`,
      term.width,
      '',
      '  ',
    ),
  ];
}

/** `help <command>` (and `<command> --help`): its line, what it does, what it reads, what --json prints. */
export function commandHelpLines(term: Screen, name: CommandName): string[] {
  const h = (text: string) => style(term, 'bold', text);
  const specs = commandReference(DEPLOYMENT).filter((c) => c.synopsis.split(' ')[0] === name);
  // A command that follows the live feed says so in its own help too (issue 42: `help price` named no --watch).
  const watches = DEPLOYMENT.resources.some((r) => r.command.watch && r.command.name === name);
  const watch = watches ? optionsOf(DEPLOYMENT).find((o) => o.flag === '--watch') : undefined;
  return specs.flatMap((c, i) => [
    ...(i > 0 ? [''] : []),
    ...wrapIndented(
      `node ${PROGRAM} ${c.synopsis}${watch ? ' [--watch]' : ''} [--json] [--base-url <url>]`,
      term.width,
      h('Usage: '),
      '  ',
    ),
    ...wrapIndented(c.summary, term.width, '  '),
    ...(watch ? ['', h('Options'), ...table([[watch.flag, watch.summary]], term.width)] : []),
    '',
    h('Reads'),
    ...c.reads.flatMap((r) => wrapIndented(r, term.width, '  ', '    ')),
    '',
    h(`With --json, ${c === WRITING ? 'one writing' : 'one JSON object'}`),
    ...table(
      c.json.map((f) => [f.name, `${f.description} (${f.type})`]),
      term.width,
    ),
  ]);
}

/** `--help --json`: the same reference as data. */
export function helpJson(defaultBaseUrl: string): Record<string, unknown> {
  return {
    usage: USAGE,
    defaultBaseUrl,
    commands: commandReference(DEPLOYMENT).map((c) => ({
      name: c.synopsis,
      summary: c.summary,
      reads: c.reads,
      json: c.json.map((f) => f.name),
    })),
    options: optionsOf(DEPLOYMENT).map((o) => ({ flag: o.flag, summary: o.summary })),
    exitStatus: Object.fromEntries(EXIT_STATUSES.map((e) => [String(e.code), e.meaning])),
  };
}
