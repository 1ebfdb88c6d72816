// The CLI's edge: arguments in, documents fetched, one output printed, an exit status out (0, 1 or 2).
// Every failure arrives here as a value and leaves as exactly one line on stderr.
import { describeApi, parseCatalog } from './api-docs.ts';
import { API_INDEX, DISCOVERY, type SchemaName } from '../contract/service.ts';
import { DEPLOYMENT } from './deployment.ts';
import { watchFeed, watchUnsupported, type WatchIo } from './live/watch.ts';
import type { MarketData } from '../domain/market.ts';
import { CONTENT_DOCUMENTS, RESUME_DOCUMENT } from '../contract/pages.ts';
import { PROGRAM } from './commands.ts';
import { parseArgs, type Invocation } from './args.ts';
import { resumeOf, writingOf, writingsOf, type JsonFeed, type Profile, type Skills } from './content.ts';
import { SiteError, UnexpectedBody, UsageError } from './errors.ts';
import { commandHelpLines, helpJson, helpLines, usageLines } from './help.ts';
import { ACCEPT_JSON, documentUrl, fetchDocument, errorLine, WAIT_NOTICE_MS, type FetchedDocument } from './http.ts';
import { parseJson, parseJsonObject } from './json-body.ts';
import {
  renderApi,
  renderCatalog,
  renderOwnerProjects,
  renderProfile,
  renderResume,
  renderSkills,
  renderWriting,
  renderWritings,
  withNotice,
} from './render.ts';
import { jsonText, printableValue } from './safe-text.ts';
import { schemaError, type SchemaSet } from './schema-check.ts';
import { terminal, wantsColor, widthOf, wrapIndented, type Terminal } from './terminal.ts';
import type { PictureModule } from '../render/dataset-view.ts';
import { staleWarning } from '../render/age.ts';

export interface Io {
  env: Record<string, string | undefined>;
  /** `--watch` (builders/cli/live/watch.ts): Ctrl-C stops it; the Node version its refusal names; a WebSocket class for tests. */
  onInterrupt?: WatchIo['onInterrupt'];
  nodeVersion?: string;
  /** null: this Node has none (as before Node 22). */
  WebSocket?: typeof WebSocket | null;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  /** `columns`: its width when it is a terminal (error lines are wrapped to it, else to COLUMNS). */
  stderr: { write(text: string): unknown; columns?: number };
  /** The clock a snapshot's age is judged by (builders/domain/freshness.ts); Date.now when absent. */
  now?: () => number;
  /** How long a request waits before it is said on stderr (http.ts WAIT_NOTICE_MS when absent). */
  waitNoticeMs?: number;
}

type Invoked = Extract<Invocation, { kind: 'command' }> & {
  schemas: SchemaSet;
  nowMs: number;
  /** Says on stderr, once, that a request has waited `waitNoticeMs`. */
  onWait: (url: string) => void;
  waitNoticeMs: number;
};
/** `warning`: one stderr line beside the output, which is still printed (exit 0). */
type Output = { json: unknown; lines: (term: Terminal) => string[]; warning?: string };

/**
 * What a command read: `--json` prints it exactly (JSON-escaped), a person gets it rendered with every
 * string the site sent made printable first, so no byte of a hostile document reaches the terminal as a
 * control (safe-text.ts). The renderers add their own colour afterwards.
 */
function output<T>(value: T, render: (term: Terminal, value: T) => string[]): Output {
  return { json: value, lines: (term) => render(term, printableValue(value)) };
}

export async function run(
  argv: readonly string[],
  io: Io,
  defaultBaseUrl: string,
  version: string,
  schemas: SchemaSet,
): Promise<number> {
  const term = terminal(wantsColor(io.stdout.isTTY, io.env), widthOf(io.stdout.columns, io.env));
  let invocation: Invocation;
  try {
    invocation = parseArgs(argv, defaultBaseUrl);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // Wrapped at word boundaries to the terminal (COLUMNS, 80): a usage line cut mid-word reads as a typo.
    const plain = { color: false, width: term.width };
    const lines = [...wrapIndented(`${PROGRAM}: ${error.message}`, term.width, '', '  '), ...usageLines(plain)];
    io.stderr.write(`${lines.join('\n')}\n`);
    return 2;
  }
  if (invocation.kind === 'version') {
    io.stdout.write(
      invocation.json
        ? jsonText({ version, defaultBaseUrl })
        : `${PROGRAM} ${version} (default site ${defaultBaseUrl})\n`,
    );
    return 0;
  }
  if (invocation.kind === 'help') {
    io.stdout.write(
      invocation.json
        ? jsonText(helpJson(defaultBaseUrl))
        : `${(invocation.command === null ? helpLines(term, defaultBaseUrl) : commandHelpLines(term, invocation.command)).join('\n')}\n`,
    );
    return 0;
  }
  if (invocation.watch) {
    const unsupported = watchUnsupported(
      io.nodeVersion ?? 'unknown',
      io.WebSocket === undefined ? globalThis.WebSocket : io.WebSocket,
    );
    if (unsupported !== null) {
      io.stderr.write(stderrText(io, unsupported));
      return 2;
    }
  }
  let waited = false;
  const inv: Invoked = {
    ...invocation,
    schemas,
    nowMs: (io.now ?? Date.now)(),
    waitNoticeMs: io.waitNoticeMs ?? WAIT_NOTICE_MS,
    onWait: (url) => {
      if (waited) return;
      waited = true;
      const limit = invocation.timeoutMs / 1000;
      io.stderr.write(stderrText(io, `${PROGRAM}: waiting for ${url} (no answer yet; giving up after ${limit} s)`));
    },
  };
  try {
    // The feed is the one the site names (its API index), so --base-url decides it as every other address.
    const feed = invocation.watch ? await liveFeedOf(inv) : null;
    if (invocation.watch && feed === null) {
      io.stderr.write(stderrText(io, `${PROGRAM}: --watch: ${inv.baseUrl.href} names no live feed in its API index`));
      return 2;
    }
    if (feed !== null && invocation.json) return await watch(invocation, io, feed, null);
    const output = await (COMMANDS[invocation.command] ?? dataCommand(invocation.command))(inv);
    if (output.warning !== undefined) io.stderr.write(stderrText(io, `${PROGRAM}: warning: ${output.warning}`));
    io.stdout.write(invocation.json ? jsonText(output.json) : `${output.lines(term).join('\n')}\n`);
    if (feed !== null) return await watch(invocation, io, feed, output.json as MarketData);
    return 0;
  } catch (error) {
    if (error instanceof SiteError) {
      io.stderr.write(stderrText(io, `${PROGRAM}: ${errorLine(error.message)}`));
      return 1;
    }
    throw error;
  }
}

/**
 * One message for stderr: wrapped at word boundaries to the terminal's width (its own, else COLUMNS), its
 * next lines indented, a URL too long for a line shortened with an ellipsis (terminal.ts wrap), so that no
 * word is split at the edge (`ECONNREFUS|ED`). With no width known (a pipe, COLUMNS unset), one line, as a
 * program reading it expects.
 */
function stderrText(io: Io, message: string): string {
  const fromEnv = Number(io.env.COLUMNS);
  const known = io.stderr.columns ?? (Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined);
  if (known === undefined) return `${message}\n`;
  return `${wrapIndented(message, widthOf(known, {}), '', '  ').join('\n')}\n`;
}

/** `--watch`: the live feed after the picture (or alone, with --json), until Ctrl-C. */
function watch(
  inv: Extract<Invocation, { kind: 'command' }>,
  io: Io,
  feedUrl: string,
  market: MarketData | null,
): Promise<number> {
  const { product } = DEPLOYMENT.resources.find((r) => r.command.name === inv.command)!.command.watch!;
  return watchFeed(
    { feedUrl, product, json: inv.json, market },
    {
      stdout: io.stdout,
      // What it says of the feed fits the terminal too (its URL shortened when a line cannot hold it).
      stderr: { write: (text: string) => io.stderr.write(stderrText(io, text.replace(/\n$/, ''))) },
      onInterrupt: io.onInterrupt ?? (() => undefined),
      WebSocket: io.WebSocket ?? undefined,
      ...(io.now === undefined ? {} : { now: io.now }),
    },
  );
}

const USER_AGENT = `${PROGRAM} (read-only site client)`;

function get(inv: Invoked, path: string): Promise<FetchedDocument> {
  return fetchDocument(documentUrl(inv.baseUrl, path), {
    timeoutMs: inv.timeoutMs,
    accept: ACCEPT_JSON,
    userAgent: USER_AGENT,
    onWait: inv.onWait,
    waitNoticeMs: inv.waitNoticeMs,
  });
}

/**
 * The live feed the site names in its API index (`liveFeed`: what its pages subscribe to), or null when it
 * names none. Only a ws: or wss: URL is followed.
 */
async function liveFeedOf(inv: Invoked): Promise<string | null> {
  const { index } = await readApiIndex(inv);
  const url = (index.liveFeed as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' && /^wss?:\/\//.test(url) ? url : null;
}

/** Parses a fetched body; a body of the wrong shape is an exit-1 failure that names the URL. */
function parse<T>(doc: FetchedDocument, parser: () => T): T {
  try {
    return parser();
  } catch (error) {
    if (error instanceof UnexpectedBody) throw new SiteError(`${doc.url} is not what was expected: ${error.message}`);
    throw error;
  }
}

/**
 * A document that claims a schema of schemas/ (the data payloads, the API index, the content documents):
 * parsed within the memory bound (json-body.ts), then checked against that schema before any of it is
 * shown, so that a value outside the contract is an exit-1 line rather than output.
 */
function parseClaimed<T>(inv: Invoked, text: string, schema: SchemaName): T {
  const value = parseJson(text, `the ${schema} document`);
  const error = schemaError(inv.schemas, schema, value);
  if (error !== null) throw new UnexpectedBody(`it is not a valid ${schema} document: ${error}`);
  return value as T;
}

/** GET a document that claims `schema`, checked (parseClaimed). */
async function read<T>(inv: Invoked, path: string, schema: SchemaName): Promise<{ doc: FetchedDocument; value: T }> {
  const doc = await get(inv, path);
  return { doc, value: parse(doc, () => parseClaimed<T>(inv, doc.text, schema)) };
}

/**
 * `/api`, or the file behind it (`/api/index.json`, both from builders/contract/service.ts) on a plain static host that
 * answers `/api` with a 404 or a directory listing (HTML, or JSON when asked for JSON, as `serve` does):
 * neither is a valid API index. Any other failure of `/api` (a 502 problem, no answer) is reported as it is.
 */
async function readApiIndex(inv: Invoked): Promise<{ doc: FetchedDocument; index: Record<string, unknown> }> {
  let primary: FetchedDocument;
  try {
    primary = await get(inv, API_INDEX.path);
    return { doc: primary, index: parseClaimed(inv, primary.text, 'ApiIndex') };
  } catch (error) {
    const fallback = (error instanceof SiteError && error.status === 404) || error instanceof UnexpectedBody;
    if (!fallback) throw error;
    try {
      const { doc, value } = await read<Record<string, unknown>>(inv, API_INDEX.file, 'ApiIndex');
      return { doc, index: value };
    } catch {
      if (error instanceof UnexpectedBody)
        throw new SiteError(`${documentUrl(inv.baseUrl, API_INDEX.path)} is not what was expected: ${error.message}`);
      throw error;
    }
  }
}

/**
 * Whether the site says its data is simulated: the API index's `simulated` flag, which only a demo
 * build sets (builders/lib/simulated.ts). Asked beside a command's own document; an index that cannot be read
 * says nothing, and the command still answers.
 */
async function saysSimulated(inv: Invoked): Promise<boolean> {
  try {
    return (await readApiIndex(inv)).index.simulated === true;
  } catch (error) {
    if (error instanceof SiteError) return false;
    throw error;
  }
}

const { feed: FEED, profile: PROFILE, skills: SKILLS } = CONTENT_DOCUMENTS;

/**
 * A dataset's command (builders/cli/args.ts parses only the deployment's): its payload, drawn by the picture its
 * folder declares (datasets/<id>/picture.ts, reached by the id alone: the bundle holds every dataset's, and
 * no table here names them); a command that says so opens with the demo notice where the site's index
 * says `simulated`.
 */
function dataCommand(name: string): (inv: Invoked) => Promise<Output> {
  const resource = DEPLOYMENT.resources.find((r) => r.command.name === name)!;
  return async (inv) => {
    const notice = resource.command.readsSimulated;
    const [{ value }, simulated, { picture }] = await Promise.all([
      read<unknown>(inv, resource.v1.path, resource.schema),
      notice ? saysSimulated(inv) : false,
      import(`../datasets/${resource.id}/picture.ts`) as Promise<PictureModule>,
    ]);
    // The owner's own projects, as the home page lists them after GitHub's; text only (--json is the payload).
    const owned = resource.command.listsOwnerProjects && !inv.json ? await ownerProjects(inv) : [];
    return {
      ...output(value, (term, payload) => [
        ...(notice
          ? withNotice(term, simulated, picture(term, payload, simulated))
          : picture(term, payload, simulated)),
        ...renderOwnerProjects(term, printableValue(owned)),
      ]),
      ...staleWarning(resource.title, value, inv.nowMs, resource.validForMs),
    };
  };
}

/** /profile.json's `ownerProjects` (site/projects.yaml); none when the profile cannot be read or has none. */
async function ownerProjects(inv: Invoked): Promise<NonNullable<Profile['ownerProjects']>> {
  try {
    return (await read<Profile>(inv, PROFILE.path, PROFILE.schema)).value.ownerProjects ?? [];
  } catch (error) {
    if (error instanceof SiteError || error instanceof UnexpectedBody) return [];
    throw error;
  }
}

/** The site's document commands; each dataset's command is dataCommand's (builders/cli/commands.ts lists both). */
const COMMANDS: Record<string, (inv: Invoked) => Promise<Output>> = {
  async profile(inv) {
    const [{ value }, simulated] = await Promise.all([
      read<Profile>(inv, PROFILE.path, PROFILE.schema),
      saysSimulated(inv),
    ]);
    return output(value, (term, profile) => withNotice(term, simulated, renderProfile(term, profile)));
  },

  async writings(inv) {
    const { doc, value: feed } = await read<JsonFeed>(inv, FEED.path, FEED.schema);
    if (inv.slug === null)
      return output(
        parse(doc, () => writingsOf(feed)),
        (term, list) => renderWritings(term, list.writings),
      );
    const slug = inv.slug;
    const writing = parse(doc, () => writingOf(feed, slug));
    if (writing === null) throw new SiteError(`no published writing "${slug}" in ${doc.url}`, 404);
    return output(writing, renderWriting);
  },

  async resume(inv) {
    const doc = await get(inv, RESUME_DOCUMENT.path).catch((error: unknown) => {
      if (error instanceof SiteError && error.status === 404)
        throw new SiteError(
          `${documentUrl(inv.baseUrl, RESUME_DOCUMENT.path)} answered 404: this site publishes no résumé`,
          404,
        );
      throw error;
    });
    return output(
      parse(doc, () => resumeOf(parseJson(doc.text, 'the résumé'))),
      renderResume,
    );
  },

  async skills(inv) {
    const { value } = await read<Skills>(inv, SKILLS.path, SKILLS.schema);
    return output(value, (term, skills) => renderSkills(term, skills.groups));
  },

  async api(inv) {
    // The contract is optional: the index alone still answers the command, so its failure is not fatal.
    const [{ doc: indexDoc, index }, openapiDoc] = await Promise.all([
      readApiIndex(inv),
      get(inv, DISCOVERY.openapi.path).catch((error: unknown) => {
        if (error instanceof SiteError) return null;
        throw error;
      }),
    ]);
    let openapi: { url: string; doc: Record<string, unknown> } | null = null;
    if (openapiDoc) {
      try {
        const doc = parseJsonObject(openapiDoc.text, 'the OpenAPI document');
        if (typeof doc.paths === 'object' && doc.paths !== null) openapi = { url: openapiDoc.url, doc };
      } catch (error) {
        if (!(error instanceof UnexpectedBody)) throw error;
      }
    }
    return output(
      parse(indexDoc, () => describeApi(indexDoc.url, index, openapi)),
      (term, api) => withNotice(term, index.simulated === true, renderApi(term, api)),
    );
  },

  async catalog(inv) {
    const doc = await get(inv, DISCOVERY.apiCatalog.path);
    return output(
      parse(doc, () => parseCatalog(doc.url, parseJsonObject(doc.text, 'the API catalog'))),
      renderCatalog,
    );
  },
};
