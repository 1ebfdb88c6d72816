// The CLI's edge: arguments in, documents fetched, one output printed, an exit status out (0, 1 or 2).
// Every failure arrives here as a value and leaves as exactly one line on stderr.
import { describeApi, parseCatalog, parseJsonObject } from './api-docs.ts';
import { API_INDEX, DISCOVERY, dataResource } from '../contract/service.ts';
import { isContributions, isMarketData } from '../domain/payload-shape.ts';
import { renderContributions, renderPrice } from './pictures.ts';
import { PAGES } from '../contract/pages.ts';
import { PROGRAM, type CommandName } from './commands.ts';
import { parseArgs, type Invocation } from './args.ts';
import { SiteError, UsageError } from './errors.ts';
import { helpJson, helpLines, usageLines } from './help.ts';
import { ACCEPT_JSON, ACCEPT_MARKDOWN, documentUrl, fetchDocument, errorLine, type FetchedDocument } from './http.ts';
import { renderApi, renderCatalog, renderProfile, renderSkills, renderWriting, renderWritings } from './render.ts';
import { jsonText, printableValue } from './safe-text.ts';
import { wantsColor, widthOf, type Terminal } from './terminal.ts';
import { parseProfile, parseSkills, parseWriting, parseWritings, UnexpectedBody } from './twin.ts';

export interface Io {
  env: Record<string, string | undefined>;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown };
}

type Invoked = Extract<Invocation, { kind: 'command' }>;
type Output = { json: unknown; lines: (term: Terminal) => string[] };

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
  version = 'unknown',
): Promise<number> {
  const term: Terminal = { color: wantsColor(io.stdout.isTTY, io.env), width: widthOf(io.stdout.columns, io.env) };
  let invocation: Invocation;
  try {
    invocation = parseArgs(argv, defaultBaseUrl);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${PROGRAM}: ${error.message}\n${usageLines().join('\n')}\n`);
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
      invocation.json ? jsonText(helpJson(defaultBaseUrl)) : `${helpLines(term, defaultBaseUrl).join('\n')}\n`,
    );
    return 0;
  }
  try {
    const output = await COMMANDS[invocation.command](invocation);
    io.stdout.write(invocation.json ? jsonText(output.json) : `${output.lines(term).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof SiteError) {
      io.stderr.write(`${PROGRAM}: ${errorLine(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}

const USER_AGENT = `${PROGRAM} (read-only site client)`;

function get(inv: Invoked, path: string, accept: string): Promise<FetchedDocument> {
  return fetchDocument(documentUrl(inv.baseUrl, path), { timeoutMs: inv.timeoutMs, accept, userAgent: USER_AGENT });
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

/** The HTML page a twin stands for, used when its front matter has no `url`. */
const pageUrl = (inv: Invoked, path: string) => documentUrl(inv.baseUrl, path);

/** The published API index always states its `authentication`; a JSON directory listing (`serve` answers one) does not. */
function parseApiIndex(text: string): Record<string, unknown> {
  const index = parseJsonObject(text, 'the API index');
  if (!('authentication' in index)) throw new UnexpectedBody('the API index has no "authentication" member');
  return index;
}

/**
 * `/api`, or the file behind it (`/api/index.json`, both from contract/service.ts) on a plain static host that
 * answers `/api` with a 404 or a directory listing (HTML, or JSON when asked for JSON, as `serve` does).
 * Any other failure of `/api` (a 502 problem, no answer) is reported as it is.
 */
async function readApiIndex(inv: Invoked): Promise<{ doc: FetchedDocument; index: Record<string, unknown> }> {
  let primary: FetchedDocument;
  try {
    primary = await get(inv, API_INDEX.path, ACCEPT_JSON);
    return { doc: primary, index: parseApiIndex(primary.text) };
  } catch (error) {
    const fallback = (error instanceof SiteError && error.status === 404) || error instanceof UnexpectedBody;
    if (!fallback) throw error;
    try {
      const file = await get(inv, API_INDEX.file, ACCEPT_JSON);
      return { doc: file, index: parseApiIndex(file.text) };
    } catch {
      if (error instanceof UnexpectedBody)
        throw new SiteError(`${documentUrl(inv.baseUrl, API_INDEX.path)} is not what was expected: ${error.message}`);
      throw error;
    }
  }
}

/** A data payload, checked for the members the pictures draw; --json prints it exactly as the site sent it. */
function parsePayload<T>(text: string, accept: (v: unknown) => v is T, what: string): T {
  const value = parseJsonObject(text, what);
  if (!accept(value)) throw new UnexpectedBody(`${what} does not have the members of its schema`);
  return value;
}

const COMMANDS: Record<CommandName, (inv: Invoked) => Promise<Output>> = {
  async profile(inv) {
    const doc = await get(inv, PAGES.home.markdownFile, ACCEPT_MARKDOWN);
    return output(
      parse(doc, () => parseProfile(doc.text, pageUrl(inv, PAGES.home.path))),
      renderProfile,
    );
  },

  async writings(inv) {
    if (inv.slug !== null) {
      const slug = inv.slug;
      const page = PAGES.writing(encodeURIComponent(slug));
      let doc: FetchedDocument;
      try {
        doc = await get(inv, page.markdownFile, ACCEPT_MARKDOWN);
      } catch (error) {
        if (error instanceof SiteError && error.status === 404)
          throw new SiteError(`no published writing "${slug}": ${error.message}`, 404);
        throw error;
      }
      return output(
        parse(doc, () => parseWriting(doc.text, slug, pageUrl(inv, page.path))),
        renderWriting,
      );
    }
    const doc = await get(inv, PAGES.writings.markdownFile, ACCEPT_MARKDOWN);
    return output(
      parse(doc, () => parseWritings(doc.text, pageUrl(inv, PAGES.writings.path))),
      (term, list) => renderWritings(term, list.writings),
    );
  },

  async skills(inv) {
    const doc = await get(inv, PAGES.skills.markdownFile, ACCEPT_MARKDOWN);
    return output(
      parse(doc, () => parseSkills(doc.text, pageUrl(inv, PAGES.skills.path))),
      (term, skills) => renderSkills(term, skills.groups),
    );
  },

  async api(inv) {
    // The contract is optional: the index alone still answers the command, so its failure is not fatal.
    const [{ doc: indexDoc, index }, openapiDoc] = await Promise.all([
      readApiIndex(inv),
      get(inv, DISCOVERY.openapi.path, ACCEPT_JSON).catch((error: unknown) => {
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
      renderApi,
    );
  },

  async price(inv) {
    const doc = await get(inv, dataResource('market').v1.path, ACCEPT_JSON);
    const market = parse(doc, () => parsePayload(doc.text, isMarketData, 'the market preview'));
    return output(market, renderPrice);
  },

  async contributions(inv) {
    const doc = await get(inv, dataResource('contributions').v1.path, ACCEPT_JSON);
    const calendar = parse(doc, () => parsePayload(doc.text, isContributions, 'the contribution calendar'));
    return output(calendar, renderContributions);
  },

  async catalog(inv) {
    const doc = await get(inv, DISCOVERY.apiCatalog.path, ACCEPT_JSON);
    return output(
      parse(doc, () => parseCatalog(doc.url, parseJsonObject(doc.text, 'the API catalog'))),
      renderCatalog,
    );
  },
};
