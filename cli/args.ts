// Command-line arguments -> one invocation, or a UsageError (exit status 2). Pure: no I/O.
import { DEFAULT_TIMEOUT_SECONDS, isCommand, type CommandName } from './commands.ts';
import { DEPLOYMENT } from './deployment.ts';
import { UsageError } from './errors.ts';

export type Invocation =
  | { kind: 'help'; json: boolean }
  | { kind: 'version'; json: boolean }
  | {
      kind: 'command';
      command: CommandName;
      slug: string | null;
      json: boolean;
      baseUrl: URL;
      timeoutMs: number;
      /** `--watch`: follow the live feed after the output (cli/live/watch.ts); only a command that declares it. */
      watch: boolean;
    };

const VALUE_OPTIONS = new Set(['--base-url', '--timeout']);
const FLAGS = new Set(['--json', '--help', '-h', '--version', '--watch']);

export function parseArgs(argv: readonly string[], defaultBaseUrl: string): Invocation {
  const positionals: string[] = [];
  const values = new Map<string, string>();
  let json = false;
  let help = false;
  let version = false;
  let watch = false;
  let onlyPositionals = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (VALUE_OPTIONS.has(name)) {
      let value: string | undefined;
      if (name !== arg) value = arg.slice(eq + 1);
      else {
        const next = argv[i + 1];
        // `--base-url --json` is a forgotten value, not a URL called "--json".
        if (next !== undefined && !next.startsWith('--')) {
          value = next;
          i++;
        }
      }
      if (value === undefined || value === '') throw new UsageError(`option ${name} needs a value`);
      values.set(name, value);
    } else if (FLAGS.has(name) && name === arg) {
      if (name === '--json') json = true;
      else if (name === '--watch') watch = true;
      else if (name === '--version') version = true;
      else help = true;
    } else {
      throw new UsageError(`unknown option ${JSON.stringify(name)}`);
    }
  }

  const [first, ...rest] = positionals;
  if (first === 'help') {
    // `help` and `help <command>` print the whole help: it is short enough to read in one screen.
    if (rest.length > 0 && !isCommand(rest[0]!, DEPLOYMENT))
      throw new UsageError(`unknown command ${JSON.stringify(rest[0])}`);
    return { kind: 'help', json };
  }
  if (first !== undefined && !isCommand(first, DEPLOYMENT))
    throw new UsageError(`unknown command ${JSON.stringify(first)}`);
  if (help) return { kind: 'help', json };
  if (version) {
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
    baseUrl: parseBaseUrl(values.get('--base-url') ?? defaultBaseUrl),
    timeoutMs: parseTimeout(values.get('--timeout')),
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
