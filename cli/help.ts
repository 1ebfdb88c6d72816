// `--help` (text or JSON) and the short usage printed with a usage error, generated from cli/commands.ts.
import { DEPLOYMENT } from './deployment.ts';
import { commandReference, ENVIRONMENT, EXIT_STATUSES, optionsOf, PROGRAM, USAGE, type JsonField } from './commands.ts';
import { style, table, wrapIndented, type Terminal } from './terminal.ts';

export function usageLines(): string[] {
  return [
    `Usage: ${USAGE}`,
    `Commands: ${[...commandReference(DEPLOYMENT).map((c) => c.synopsis), 'help'].join(', ')}`,
    `Run "node ${PROGRAM} --help" for details.`,
  ];
}

/** `{url, writings: {slug, title}[]}`: names, with the shape of nested members. */
const fields = (json: JsonField[]) =>
  `{${json.map((f) => (f.type.includes('{') ? `${f.name}: ${f.type}` : f.name)).join(', ')}}`;

export function helpLines(term: Terminal, defaultBaseUrl: string): string[] {
  const h = (text: string) => style(term, 'bold', text);
  const title = (text: string) => wrapIndented(text, term.width, '').map(h);
  return [
    ...wrapIndented(
      `${h(PROGRAM)}: read the site's public documents from the command line. Read-only; Node 18 or newer; no dependencies, no npx.`,
      term.width,
      '',
    ),
    '',
    ...wrapIndented(USAGE, term.width, `${h('Usage:')} `, '         '),
    '',
    h('Commands'),
    ...table(
      [
        ...commandReference(DEPLOYMENT).map((c) => [c.synopsis, `${c.summary} Reads ${c.reads.join(', ')}.`]),
        ['help', 'Print this help (same as --help).'],
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
    ...wrapIndented(
      `Default site: ${defaultBaseUrl}. Paths above are relative to the site (or --base-url), which may include a path prefix.`,
      term.width,
      '  ',
    ),
    '',
    ...title('JSON fields (--json prints exactly one JSON object)'),
    ...table(
      commandReference(DEPLOYMENT).map((c) => [c.synopsis, fields(c.json)]),
      term.width,
    ),
    ...wrapIndented(
      'Absent values are null; arrays may be empty. Field names are stable; new fields may be added.',
      term.width,
      '  ',
    ),
    '',
    h('Exit status'),
    ...table(
      EXIT_STATUSES.map((e) => [String(e.code), e.meaning]),
      term.width,
    ),
    '',
    h('Environment'),
    ...table(
      ENVIRONMENT.map((e) => [e.name, e.meaning]),
      term.width,
    ),
    '',
    h('Examples'),
    ...[
      `curl -O ${defaultBaseUrl}/cli.mjs && node cli.mjs profile`,
      `node ${PROGRAM} writings`,
      `node ${PROGRAM} writings <slug>`,
      `node ${PROGRAM} api --json`,
      `node ${PROGRAM} catalog --base-url http://127.0.0.1:8080/`,
    ].flatMap((example) => wrapIndented(example, term.width, '  ', '      ')),
  ];
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
