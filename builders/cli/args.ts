// Command-line arguments -> one invocation, or a UsageError (exit status 2). Pure: no I/O.
// Node's util.parseArgs splits the line; what it does not do is here: refuse a value option followed by
// another option (`--base-url --json` is a forgotten value, not a URL called "--json"), say "did you
// mean" for a near miss, and check each value. Add an option in OPTION_TYPES, then read it below.
import { parseArgs as splitArgs } from 'node:util';
import { commands, DEFAULT_TIMEOUT_SECONDS, isCommand, type CommandName } from './commands.ts';
import { DEPLOYMENT } from './deployment.ts';
import { UsageError } from './errors.ts';
import { closest } from './suggest.ts';

export type Invocation =
  | { kind: 'help'; json: boolean; command: CommandName | null }
  | { kind: 'version'; json: boolean }
  | {
      kind: 'command';
      command: CommandName;
      slug: string | null;
      json: boolean;
      baseUrl: URL;
      timeoutMs: number;
      /** `--watch`: follow the live feed after the output (builders/cli/live/watch.ts); only a command that declares it. */
      watch: boolean;
    };

/** Every option the CLI takes, as util.parseArgs reads them (docs/cli.md lists them; commands.ts OPTIONS says them). */
const OPTION_TYPES = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  'base-url': { type: 'string' },
  timeout: { type: 'string' },
  watch: { type: 'boolean' },
} as const;
type OptionName = keyof typeof OPTION_TYPES;
const OPTION_FLAGS = Object.keys(OPTION_TYPES).map((name) => `--${name}`);

const commandNames = () => [...commands(DEPLOYMENT).map((c) => c.name), 'help'];

/** `unknown command "prices"; did you mean "price"?` */
function unknown(what: string, name: string, known: readonly string[]): UsageError {
  const near = closest(name, known);
  return new UsageError(
    `unknown ${what} ${JSON.stringify(name)}${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`,
  );
}

function read(argv: readonly string[]): {
  values: Partial<Record<OptionName, string | boolean>>;
  positionals: string[];
} {
  // strict: false, with tokens: every option is seen as typed, so the errors below are this CLI's words.
  const { tokens } = splitArgs({
    args: [...argv],
    options: OPTION_TYPES,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Partial<Record<OptionName, string | boolean>> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    if (!Object.hasOwn(OPTION_TYPES, token.name)) {
      throw unknown('option', token.rawName, [...OPTION_FLAGS, '-h']);
    }
    const name = token.name as OptionName;
    if (OPTION_TYPES[name].type === 'boolean') {
      if (token.inlineValue) throw new UsageError(`option ${token.rawName} takes no value`);
      values[name] = true;
    } else {
      const value = token.value;
      if (value === undefined || value === '' || (!token.inlineValue && value.startsWith('--')))
        throw new UsageError(`option ${token.rawName} needs a value`);
      values[name] = value;
    }
  }
  return { values, positionals };
}

export function parseArgs(argv: readonly string[], defaultBaseUrl: string): Invocation {
  const { values, positionals } = read(argv);
  const json = values.json === true;
  const watch = values.watch === true;
  const [first, ...rest] = positionals;
  if (first === 'help') {
    const topic = rest[0];
    if (topic !== undefined && !isCommand(topic, DEPLOYMENT)) throw unknown('command', topic, commandNames());
    if (rest.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(rest[1])} after help ${topic}`);
    return { kind: 'help', json, command: topic ?? null };
  }
  if (first !== undefined && !isCommand(first, DEPLOYMENT)) throw unknown('command', first, commandNames());
  // `price --help` is the command's own help; `--help` alone the whole CLI's.
  if (values.help === true) return { kind: 'help', json, command: first ?? null };
  if (values.version === true) {
    if (first !== undefined) throw new UsageError(`--version takes no command (got ${JSON.stringify(first)})`);
    return { kind: 'version', json };
  }
  if (first === undefined) throw new UsageError('missing command');

  let slug: string | null = null;
  if (first === 'writings' && rest.length > 0) {
    slug = rest.shift()!;
    // A slug is one path segment of /writings/<slug>: anything that could climb out of it is a typo.
    if (!/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(slug) || slug.includes('..')) {
      throw new UsageError(`${JSON.stringify(slug)} is not a writing slug (letters, digits and hyphens)`);
    }
  }
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])} after ${first}`);
  if (watch && !DEPLOYMENT.resources.some((r) => r.command.watch && r.command.name === first)) {
    const watched = DEPLOYMENT.resources.filter((r) => r.command.watch).map((r) => r.command.name);
    throw new UsageError(
      watched.length ? `--watch works only with ${watched.join(', ')}` : '--watch: this site publishes no market',
    );
  }

  return {
    kind: 'command',
    command: first,
    slug,
    json,
    baseUrl: parseBaseUrl(typeof values['base-url'] === 'string' ? values['base-url'] : defaultBaseUrl),
    timeoutMs: parseTimeout(typeof values.timeout === 'string' ? values.timeout : undefined),
    watch,
  };
}

/**
 * The site root as a URL ending in "/", so that relative document paths resolve under any path prefix:
 * `http://h/prefix` and `http://h/prefix/` both read `http://h/prefix/profile.json`.
 */
export function parseBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url ${JSON.stringify(text)} must be an http or https URL`);
  }
  // Not echoed: the point is to keep a password off the screen and out of logs.
  if (url.username || url.password)
    throw new UsageError(
      '--base-url must not carry a user name or password: the site is public and read without credentials',
    );
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function parseTimeout(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    throw new UsageError(`--timeout ${JSON.stringify(text)} must be a number of seconds between 0 and 600`);
  }
  return Math.ceil(seconds * 1000);
}
