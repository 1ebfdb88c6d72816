// The CLI's commands, options, exit statuses and --json fields, declared once: `--help`, `--help --json`
// and the developer page's reference (builders/build/pages/cli-reference.ts) are all generated from this table.
// It is the CLI's published facts module: the site build imports it (and nothing else of cli/) to document it.
// Paths come from where the site writes them: the API index and discovery documents from the route table
// (builders/contract/service.ts), the content documents from the page table (builders/contract/pages.ts, `CONTENT_DOCUMENTS`).
// Both modules import nothing, so the bundled cli.mjs stays dependency-free.
import { API_INDEX, DISCOVERY, type ServiceTables } from '../contract/service.ts';
import { CONTENT_DOCUMENTS, RESUME_DOCUMENT } from '../contract/pages.ts';

/** A document command's name, or a dataset's (`price`, `contributions`: datasets/). */
export type CommandName = string;

export interface JsonField {
  name: string;
  type: string;
  description: string;
}

export interface CommandSpec {
  name: CommandName;
  /** The command line as typed, after `node cli.mjs`. */
  synopsis: string;
  summary: string;
  /** The public documents it reads, relative to the base URL. */
  reads: string[];
  /** The top-level members of the one JSON document `--json` prints. */
  json: JsonField[];
}

export interface SubcommandSpec {
  synopsis: string;
  summary: string;
  reads: string[];
  json: JsonField[];
}

export const PROGRAM = DISCOVERY.cli.file;
export const USAGE = `node ${PROGRAM} <command> [--json] [--base-url <url>]`;

const { feed: FEED, profile: PROFILE, skills: SKILLS } = CONTENT_DOCUMENTS;

/** A demo site's API index says `simulated: true`; the commands that show its data open with a notice then. */
const SIMULATED_FLAG_READ = `${API_INDEX.path} (only its \`simulated\` flag: a demo's output opens with a notice)`;

/** The projects command lists the owner's own after GitHub's (text only: --json prints the payload). */
const OWNER_PROJECTS_READ = `${PROFILE.path} (only its \`ownerProjects\`, listed after the payload's; not in --json)`;
/** `--watch` follows the feed the site names, whatever site --base-url points at. */
const LIVE_FEED_READ = `${API_INDEX.path} with --watch (its \`liveFeed\`: the feed the site's pages follow)`;

/** JSON Resume's sections besides `basics` (jsonresume.org), each published when the owner's document has it. */
const RESUME_SECTIONS = [
  'work',
  'volunteer',
  'education',
  'awards',
  'certificates',
  'publications',
  'skills',
  'languages',
  'interests',
  'references',
  'projects',
];

const DOCUMENT_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'profile',
    synopsis: 'profile',
    summary: 'Read the profile: name, role, tagline, location, about and links.',
    reads: [PROFILE.path, SIMULATED_FLAG_READ],
    json: [
      { name: 'url', type: 'string', description: 'the profile page (HTML)' },
      { name: 'name', type: 'string', description: 'the person' },
      { name: 'role', type: 'string?', description: "the résumé's current role; absent without a résumé" },
      { name: 'tagline', type: 'string', description: 'one-line description' },
      { name: 'location', type: 'string', description: 'where they are' },
      { name: 'github', type: 'string', description: 'GitHub profile URL' },
      { name: 'description', type: 'string', description: 'the page description' },
      { name: 'about', type: 'string[]', description: 'paragraphs of the About section, plain text' },
      {
        name: 'ownerProjects',
        type: '{title, url, description}[]',
        description: 'the owner projects the home page lists after the GitHub ones',
      },
      { name: 'links', type: '{label, url}[]', description: 'the Links section' },
    ],
  },
  {
    name: 'resume',
    synopsis: 'resume',
    summary: 'Read the résumé: basics, work, education, skills and the other sections.',
    reads: [`${RESUME_DOCUMENT.path} (JSON Resume; a site without a résumé answers 404)`],
    // The document exactly as published: JSON Resume's members, those it has.
    json: [
      { name: 'basics', type: 'object', description: 'name, label, contact, summary, profiles' },
      ...RESUME_SECTIONS.map((name) => ({ name, type: 'object[]', description: 'as JSON Resume defines it' })),
    ],
  },
  {
    name: 'writings',
    synopsis: 'writings',
    summary: 'List the published writings, newest first.',
    reads: [`${FEED.path} (JSON Feed 1.1)`],
    json: [
      { name: 'url', type: 'string', description: 'the writings page (HTML)' },
      {
        name: 'writings',
        type: '{slug, title, date, summary, url}[]',
        description: 'newest first; date is YYYY-MM-DD',
      },
    ],
  },
  {
    name: 'skills',
    synopsis: 'skills',
    summary: 'Read the skills, by group.',
    reads: [SKILLS.path],
    json: [
      { name: 'url', type: 'string', description: 'the skills page (HTML)' },
      {
        name: 'groups',
        type: '{name, skills: {name, note?}[]}[]',
        description: 'note is absent when the skill has none',
      },
    ],
  },
  {
    name: 'api',
    synopsis: 'api',
    summary: 'Read the API description: authentication, contract and operations.',
    reads: [
      `${API_INDEX.path} (or /${API_INDEX.file} on a static host that does not map ${API_INDEX.path})`,
      `${DISCOVERY.openapi.path} (operations; when it cannot be read, from ${API_INDEX.path})`,
    ],
    json: [
      { name: 'url', type: 'string', description: 'the API index that was read' },
      { name: 'title', type: 'string | null', description: 'the API title (OpenAPI info.title)' },
      { name: 'version', type: 'string | null', description: 'the contract version (OpenAPI info.version)' },
      { name: 'authentication', type: 'string | null', description: '"none": no key or token is needed' },
      {
        name: 'openapi',
        type: 'string | null',
        description: 'URL of the OpenAPI document, null when it could not be read',
      },
      {
        name: 'operations',
        type: '{method, path, operationId, summary}[]',
        description: 'operationId and summary may be null',
      },
      { name: 'index', type: 'object', description: 'the /api document exactly as published' },
    ],
  },
  {
    name: 'catalog',
    synopsis: 'catalog',
    summary: 'Read the API catalog (RFC 9727 linkset).',
    reads: [DISCOVERY.apiCatalog.path],
    json: [
      { name: 'url', type: 'string', description: 'the catalog that was read' },
      {
        name: 'linkset',
        type: '{anchor, links: {rel, href, type, title}[]}[]',
        description: 'one entry per context; type and title may be null',
      },
    ],
  },
];

/** Each dataset's command (its module declares it, datasets/): `--json` prints the payload itself, whose members are its schema's. */
function dataCommands(service: ServiceTables): CommandSpec[] {
  return service.resources.map(({ command, v1 }) => ({
    name: command.name,
    synopsis: command.name,
    summary: command.summary,
    reads: [
      v1.path,
      ...(command.readsSimulated ? [SIMULATED_FLAG_READ] : []),
      ...(command.listsOwnerProjects ? [OWNER_PROJECTS_READ] : []),
      ...(command.watch ? [LIVE_FEED_READ] : []),
    ],
    json: command.json,
  }));
}

/** Every command of a deployment, in the order the help lists them: the site's documents, then the datasets. */
export function commands(service: ServiceTables): CommandSpec[] {
  return [...DOCUMENT_COMMANDS, ...dataCommands(service)];
}

export const WRITING: SubcommandSpec = {
  synopsis: 'writings <slug>',
  summary: 'Print one published writing (the slug is the last part of its URL).',
  reads: [`${FEED.path} (its item whose URL ends in /<slug>)`],
  json: [
    { name: 'slug', type: 'string', description: 'the writing' },
    { name: 'title', type: 'string', description: 'its title' },
    { name: 'date', type: 'string', description: 'YYYY-MM-DD' },
    { name: 'summary', type: 'string', description: 'one sentence' },
    { name: 'url', type: 'string', description: 'the writing page (HTML)' },
    { name: 'text', type: 'string', description: "the body as plain text (the feed item's content_text)" },
    { name: 'html', type: 'string', description: 'the body as HTML (content_html)' },
  ],
};

/**
 * Every command line, in the one order `--help`, `--help --json`, the usage line and the developer
 * page's reference list them: `writings <slug>` right after `writings`.
 */
export function commandReference(service: ServiceTables): (CommandSpec | SubcommandSpec)[] {
  return commands(service).flatMap((c) => (c.name === 'writings' ? [c, WRITING] : [c]));
}

export interface OptionSpec {
  flag: string;
  summary: string;
}

export const OPTIONS: readonly OptionSpec[] = [
  { flag: '--json', summary: 'print exactly one JSON document on stdout (`help <command>` lists its fields)' },
  {
    flag: '--base-url <url>',
    summary: 'read this site instead of the default; a path prefix and a trailing slash are fine',
  },
  {
    flag: '--timeout <seconds>',
    summary: 'give up on a request after this long (default 10); a wait past 2 s is said on stderr',
  },
  { flag: '--help, -h', summary: "print this help, or after a command that command's; with --json, as JSON" },
  { flag: '--version', summary: 'print the version of cli.mjs and its default site' },
];

/**
 * The options of a deployment: `--watch` only where a command follows the live feed (the market's,
 * builders/cli/live/watch.ts); a site without a market says nothing of it.
 */
export function optionsOf(service: ServiceTables): OptionSpec[] {
  const watched = service.resources.filter((r) => r.command.watch).map((r) => r.command.name);
  if (watched.length === 0) return [...OPTIONS];
  return [
    ...OPTIONS,
    {
      flag: '--watch',
      summary: `${watched.join(', ')} only: after the picture, one line per live tick of the feed the site names (its API index's liveFeed) until Ctrl-C (exit 0); with --json, one {"product", "price", "time"} object a line; needs Node 22 or later`,
    },
  ];
}

export const EXIT_STATUSES = [
  {
    code: 0,
    meaning:
      "success (a data command whose snapshot is past its validity still prints it, and says its age in one line on stderr: 'warning: stale ...')",
  },
  {
    code: 1,
    meaning:
      "the site answered an error (the problem's title, detail and resolution), could not be reached in time, or sent a body that is not what was expected: not JSON, too deep or too large to parse, or outside the schema it claims (one line on stderr)",
  },
  {
    code: 2,
    meaning:
      'usage error: unknown command or option, missing option value (usage on stderr); --watch on a Node without WebSocket or a site whose API index names no live feed (one line)',
  },
] as const;

export const ENVIRONMENT = [
  {
    name: 'NO_COLOR',
    meaning:
      'when set to a non-empty value, never colour the output (no-color.org); colour is only used on a terminal anyway',
  },
  { name: 'COLUMNS', meaning: 'wrap width when stdout is not a terminal (default 80, kept within 20 to 400)' },
  {
    name: 'FORCE_COLOR',
    meaning: 'when set to a non-empty value other than 0, colour even when stdout is not a terminal',
  },
] as const;

export const DEFAULT_TIMEOUT_SECONDS = 10;

export function isCommand(name: string, service: ServiceTables): name is CommandName {
  return commands(service).some((c) => c.name === name);
}
