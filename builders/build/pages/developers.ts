// /developers and its twin /developers.md: the developer documentation, written once as Markdown and
// rendered to HTML. Every fact comes from a shared source: routes and constants from builders/contract/service.ts,
// problem types from builders/contract/problems.ts, field tables from the schema descriptions, examples from this
// build's real snapshots, the CLI reference from cli-reference.ts.
import { cliReferenceMarkdown } from './cli-reference.ts';
import {
  PROBLEM_CONTENT_TYPE,
  PROBLEM_DETAILS,
  PROBLEM_TYPES,
  problem,
  problemTypeUrl,
  type ProblemCode,
} from '../../contract/problems.ts';
import { policyHeader, RATE_LIMIT_EXAMPLE, rateLimitHeader } from '../../contract/rate-limit-headers.ts';
import {
  ALLOW_HEADER,
  API_INDEX,
  API_INDEX_LINK,
  CACHE_CONTROL,
  CONSTANTS,
  countWord,
  DATA_METHODS,
  dataOperationsWord,
  listPhrase,
  resourcesFeed,
  type ServiceTables,
  DISCOVERY,
  MCP_ENDPOINT,
  type DataResource,
} from '../../contract/service.ts';
import type { JsonSchema } from '../../contract/schemas.ts';
import { secondsUntil } from '../../domain/calendar.ts';
import { BATCHES_REMOVED_IN, dataTools, MCP_MAX_BATCH, MCP_SERVER_NAME } from '../../contract/mcp-tools.ts';
import { publishedDatasets, publishedService, type Artifact, type BuildContext } from '../artifact.ts';
import { apiIndex } from '../discovery/api-index.ts';
import { markdownText, renderMarkdown } from '../content/markdown.ts';
import type { DatasetProse } from '../../datasets/dataset.ts';
import { FUNCTION_TOOL_INPUT_SCHEMA, INPUT_SCHEMA_EXTENSION } from '../../contract/openapi.ts';
import { frameOf, renderLayout } from './layout.ts';
import { twin } from '../content/twins.ts';
import { absoluteUrl, CONTENT_DOCUMENTS, PAGES } from '../../contract/pages.ts';

export const DEVELOPERS_TITLE = 'Developers';
export const DEVELOPERS_DESCRIPTION =
  'Reference for the public read-only JSON API: endpoints, fields, headers, caching, quota, versioning, problem types and the CLI.';

type Schema = Record<string, unknown>;

/** The extra headers of each problem (docs/api.md#errors); a Record so that a new code cannot be forgotten. */
export const PROBLEM_HEADERS: Record<ProblemCode, string> = {
  upstream_unavailable: '`RateLimit` and `RateLimit-Policy` when quota enforcement accounted for the request.',
  api_route_not_found: 'None.',
  method_not_allowed: `\`Allow: ${ALLOW_HEADER}\` (RFC 9110 requires it on a 405).`,
  rate_limit_exceeded: '`Retry-After` (whole seconds, minimum 0), `RateLimit` and `RateLimit-Policy`.',
  origin_not_allowed: 'None.',
};

/**
 * Each problem as the gateway sends it: the 502 of the first data route (the market's, where there is
 * one), the 429 under the example allowance.
 */
const problemExamples = (service: ServiceTables): Record<ProblemCode, { detail: string; error?: string }> => ({
  upstream_unavailable: {
    detail: PROBLEM_DETAILS.upstream_unavailable(service.resources[0]!),
    error: service.resources[0]!.problem.error,
  },
  api_route_not_found: { detail: PROBLEM_DETAILS.api_route_not_found(service) },
  method_not_allowed: { detail: PROBLEM_DETAILS.method_not_allowed },
  rate_limit_exceeded: {
    detail: PROBLEM_DETAILS.rate_limit_exceeded(RATE_LIMIT_EXAMPLE.quota, RATE_LIMIT_EXAMPLE.windowSeconds),
  },
  origin_not_allowed: { detail: PROBLEM_DETAILS.origin_not_allowed },
});

const refTitle = (ref: string, schemas: Map<string, JsonSchema>) =>
  [...schemas.values()].find((s) => s.$id === ref.replace(/#.*$/, ''))?.title ?? ref;

/** A field's type in words, from its schema: "string (date-time)", "array of MarketPoint", "always `USD`". */
export function describeType(schema: Schema, schemas: Map<string, JsonSchema>): string {
  if (typeof schema.$ref === 'string') return refTitle(schema.$ref, schemas);
  if ('const' in schema)
    return `${typeof schema.const === 'number' ? (Number.isInteger(schema.const) ? 'integer' : 'number') : typeof schema.const}, always \`${String(schema.const)}\``;
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${String(v)}\``).join(' or ');
  if (schema.type === 'array') {
    const items = (schema.items ?? {}) as Schema;
    const count =
      schema.minItems !== undefined && schema.minItems === schema.maxItems
        ? `, exactly ${String(schema.minItems)} items`
        : schema.minItems !== undefined
          ? `, at least ${String(schema.minItems)} items`
          : '';
    return `array of ${items.type === 'object' && !items.$ref ? 'objects' : describeType(items, schemas)}${count}`;
  }
  let text = String(schema.type ?? 'any');
  if (typeof schema.format === 'string') text += ` (${schema.format})`;
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number')
    text += `, ${schema.minimum} to ${schema.maximum}`;
  else if (typeof schema.minimum === 'number') text += `, minimum ${schema.minimum}`;
  if (typeof schema.pattern === 'string') text += `, matching \`${schema.pattern}\``;
  return text;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Rows `| field | type | required | description |`; inline objects are flattened as `a.b` / `a[].b`. */
export function fieldRows(schema: Schema, schemas: Map<string, JsonSchema>, prefix = ''): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, field]) => {
    // A member that is a whole other schema ($ref alone) is described by that schema.
    const referenced = typeof field.$ref === 'string' ? schemas.get(refTitle(field.$ref, schemas)) : undefined;
    const description = String(field.description ?? referenced?.description ?? '');
    const row = `| \`${prefix}${name}\` | ${cell(describeType(field, schemas))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(description)} |`;
    const items = field.type === 'array' ? ((field.items ?? {}) as Schema) : null;
    const nested =
      field.type === 'object' && field.properties
        ? fieldRows(field, schemas, `${prefix}${name}.`)
        : items && items.type === 'object' && items.properties
          ? fieldRows(items, schemas, `${prefix}${name}[].`)
          : [];
    return [row, ...nested];
  });
}

export function fieldTable(name: string, schemas: Map<string, JsonSchema>): string {
  const schema = schemas.get(name);
  if (!schema) throw new Error(`no schema named ${name} in schemas/`);
  const header = `| Field | Type | Required | Description |\n|---|---|---|---|`;
  const extra =
    schema.additionalProperties === false ? ' No other members.' : ' Clients ignore members they do not know.';
  return `**${name}**: ${String(schema.description ?? '')}${extra}\n\n${header}\n${fieldRows(schema, schemas).join('\n')}`;
}

/** The schemas a resource's payload refers to, in order of first reference. */
function referencedSchemas(name: string, schemas: Map<string, JsonSchema>): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const title = refTitle(v, schemas);
        if (!found.includes(title)) {
          found.push(title);
          walk(schemas.get(title));
        }
      } else walk(v);
    }
  };
  walk(schemas.get(name));
  return found;
}

const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;

/**
 * This build's snapshot shortened for reading, by its dataset's rule; none when this build has no payload.
 * A demo's snapshot is simulated, and its note says so where the dataset's says "a real snapshot".
 */
function exampleBody(resource: DataResource, ctx: BuildContext): { json: string; note: string } | null {
  const payload = ctx.payloads.get(resource.id);
  const dataset = ctx.datasets.find((d) => d.resource === resource);
  if (payload === undefined || dataset === undefined) return null;
  const example = dataset.example(payload);
  if (!ctx.simulated) return example;
  return {
    ...example,
    note: example.note.replace(
      /^A real snapshot from this build/,
      'A simulated snapshot from this demo build (not real data)',
    ),
  };
}

/** The s-maxage the gateway would have sent with this build's payload (its `nextRefreshAt`), at build time. */
function exampleSMaxAge(resource: DataResource, ctx: BuildContext): number {
  const payload = ctx.payloads.get(resource.id) as { nextRefreshAt?: string } | undefined;
  const next = payload?.nextRefreshAt === undefined ? Number.NaN : Date.parse(payload.nextRefreshAt);
  return Number.isFinite(next) ? secondsUntil(next, ctx.nowMs) : 3600;
}

function endpointSection(
  resource: DataResource,
  prose: DatasetProse,
  ctx: BuildContext,
  schemas: Map<string, JsonSchema>,
): string {
  const base = ctx.config.siteUrl;
  const example = exampleBody(resource, ctx);
  const exampleHeaders = [
    'HTTP/1.1 200 OK',
    `Content-Type: ${resource.contentType}`,
    `Cache-Control: ${CACHE_CONTROL.data(resource.cache, exampleSMaxAge(resource, ctx))}`,
    `RateLimit-Policy: ${policyHeader(RATE_LIMIT_EXAMPLE.quota, RATE_LIMIT_EXAMPLE.windowSeconds)}`,
    `RateLimit: ${rateLimitHeader(RATE_LIMIT_EXAMPLE.remaining, RATE_LIMIT_EXAMPLE.secondsLeft)}`,
  ].join('\n');
  const nested = referencedSchemas(resource.schema, schemas).map((n) => fieldTable(n, schemas));
  return [
    `### ${resource.title}`,
    resource.summary,
    '| Method | Path | operationId |\n|---|---|---|\n' +
      [resource.v1, resource.alias]
        .map((op) => `| GET (HEAD also accepted) | \`${op.path}\` | \`${op.operationId}\` |`)
        .join('\n'),
    `\`${resource.alias.path}\` is a stable alias of \`${resource.v1.path}\`: the same payload, returned directly, no redirect.`,
    '#### Example request',
    fence(
      'sh',
      `curl -i ${absoluteUrl(base, resource.v1.path)}\ncurl -I ${absoluteUrl(base, resource.alias.path)}   # HEAD: headers only`,
    ),
    '#### Example response',
    `Header values here are illustrative and are the gateway's: the quota headers appear only when quota enforcement accounted for the request, and the calendar's \`s-maxage\` counts down to midnight. ` +
      "On a static host the headers are the host's (see [Static hosting and the gateway](#static-hosting-and-the-gateway)).",
    fence('http', exampleHeaders),
    example
      ? `${example.note}\n\n${fence('json', example.json)}`
      : 'No example: the upstream gave no usable data when this page was built.',
    '#### Fields',
    fieldTable(resource.schema, schemas),
    ...nested,
    '#### Caching',
    prose.caching,
  ].join('\n\n');
}

/** `## Model Context Protocol (gateway only)`: the tools, their rules, and a client configuration. */
function mcpSection(base: string, service: ServiceTables, prose: readonly DatasetProse[]): string[] {
  const tools = dataTools(service);
  const endpoint = absoluteUrl(base, MCP_ENDPOINT.path);
  const config = { mcpServers: { [MCP_SERVER_NAME]: { type: 'http', url: endpoint } } };
  const call = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: tools[0]!.name, arguments: {} },
  });
  return [
    '## Model Context Protocol (gateway only)',
    `Where the gateway runs, \`${endpoint}\` is a [Model Context Protocol](https://modelcontextprotocol.io) endpoint for agents: Streamable HTTP, stateless (no session, no \`Mcp-Session-Id\`), answers as JSON. ` +
      `**Gateway only:** a static host has no \`${MCP_ENDPOINT.path}\`, as it has no live ${prose[0]!.liveNoun}.`,
    '| Tool | Returns | Same payload as |\n|---|---|---|\n' +
      tools.map((t) => `| \`${t.name}\` | ${t.resource.schema} | \`GET ${t.operation.path}\` |`).join('\n'),
    [
      `- \`tools/list\` gives exactly these ${dataOperationsWord(service)} tools, named by operationId. Each input schema is \`${JSON.stringify(FUNCTION_TOOL_INPUT_SCHEMA)}\`; each output schema is the payload schema above, self-contained (its references under \`$defs\`).`,
      `- \`tools/call\` returns the payload as \`structuredContent\` and the same JSON as a text item. The rules are those of the HTTP routes: ${prose
        .flatMap((p) => (p.mcpRule ? [p.mcpRule] : []))
        .join(', ')}.`,
      `- A failure is a tool error (\`isError: true\`) whose text is the [problem document](#problem-types): \`${PROBLEM_TYPES.upstream_unavailable.code}\` when the upstream gave nothing usable, ` +
        `\`${PROBLEM_TYPES.rate_limit_exceeded.code}\` with \`retryAfter\`, the seconds to wait. An argument outside the empty input schema is refused as a tool error; an unknown tool or malformed params are a JSON-RPC error (\`-32602\`).`,
      `- One quota: every POST to the endpoint counts once, before anything in it is done, in the same per-client bucket as the ${dataOperationsWord(service)} data URLs, and its answer carries \`RateLimit\` and \`RateLimit-Policy\`. Past the quota a tool call gets the tool error above and any other message the 429 problem.`,
      `- One message per POST under protocol version ${BATCHES_REMOVED_IN} and later, which removed JSON-RPC batches (a batch is refused with \`-32600\`, nothing of it run); older versions may batch up to ${MCP_MAX_BATCH} messages.`,
      `- A request carrying an \`Origin\` header is answered only for this site's origin and the origins the operator lists in \`MCP_ALLOWED_ORIGINS\`; any other origin gets the [403 problem](#${PROBLEM_TYPES.origin_not_allowed.fragment}) (the transport's defence against DNS rebinding). Programs send no \`Origin\`.`,
      `- Every message is a \`POST\`; \`GET\` and \`DELETE\` answer 405 with \`Allow: ${MCP_ENDPOINT.methods.join(', ')}\` (no event stream, no session to end). Browser agents may call it from any origin (CORS).`,
    ].join('\n'),
    'Client configuration, for clients that read an `mcpServers` map of remote (Streamable HTTP) servers:',
    fence('json', JSON.stringify(config, null, 2)),
    'Or by hand, without a session:',
    fence(
      'sh',
      `curl -s ${endpoint} \\\n  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  -H 'MCP-Protocol-Version: 2025-06-18' \\\n  -d '${call}'`,
    ),
  ];
}

function problemSection(siteUrl: string, service: ServiceTables, code: ProblemCode): string {
  const t = PROBLEM_TYPES[code];
  const ex = problemExamples(service)[code];
  return [
    // The anchor gives the HTML heading its id (markdown.ts) and makes the fragment resolve in the twin too.
    `### <a id="${t.fragment}"></a>${t.title}`,
    [
      `- Status: ${t.status}`,
      `- Code: \`${t.code}\``,
      `- Type: \`${problemTypeUrl(siteUrl, code)}\``,
      `- Extra headers: ${PROBLEM_HEADERS[code]}`,
    ].join('\n'),
    `**When:** ${t.condition}`,
    `**What to do:** ${t.resolution}`,
    fence('json', JSON.stringify(problem(siteUrl, code, ex.detail, ex.error), null, 2)),
  ].join('\n\n');
}

/** Shifts the CLI reference's headings so its top level sits under "## Command-line tool". */
export function nestHeadings(markdown: string, topLevel: number): string {
  const lines = markdown.split('\n');
  let inFence = false;
  const levels: number[] = [];
  for (const line of lines) {
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && /^#{1,6} /.test(line)) levels.push(/^#+/.exec(line)![0].length);
  }
  if (!levels.length) return markdown;
  const shift = topLevel - Math.min(...levels);
  inFence = false;
  return lines
    .map((line) => {
      if (/^(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence || !/^#{1,6} /.test(line)) return line;
      const level = Math.min(6, Math.max(1, /^#+/.exec(line)![0].length + shift));
      return `${'#'.repeat(level)}${line.replace(/^#+/, '')}`;
    })
    .join('\n');
}

/** The site's content as data (builders/contract/pages.ts CONTENT_DOCUMENTS), each with the fields of its schema. */
function contentSection(url: (path: string) => string, schemas: Map<string, JsonSchema>): string[] {
  const docs = Object.values(CONTENT_DOCUMENTS);
  return [
    '### Site content as data',
    'The writings, the profile and the skills are also published as data, for feed readers, scripts and the command-line tool. ' +
      `Every page links both feeds with \`<link rel="alternate">\`. \`Cache-Control: ${CACHE_CONTROL.static}\`.`,
    '| Path | Media type | Schema |\n|---|---|---|\n' +
      docs
        .map(
          (d) =>
            `| [\`${d.path}\`](${url(d.path)}) | \`${d.contentType}\` | ${d.schema ?? 'Atom (RFC 4287): the entries of the JSON Feed'} |`,
        )
        .join('\n'),
    ...docs.flatMap((d) => (d.schema ? [fieldTable(d.schema, schemas)] : [])),
  ];
}

/** Where developersBody's table of contents goes, once the headings after it are known. */
const CONTENTS_PLACE = '<!-- contents -->';

/**
 * `## Contents`: every `##` and `###` heading of the page, linked by the id the page gives it (its HTML is
 * rendered once without the list to read them), so that the list never names a section the page lacks
 * nor misses one a dataset adds. The page is long (a field table per payload): this is how to jump in it.
 */
function withContents(body: string): string {
  const html = renderMarkdown(body.replace(CONTENTS_PLACE, ''));
  const text = (inner: string) =>
    inner
      .replace(/<[^>]*>/g, '')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const entries = [...html.matchAll(/<h([23]) id="([^"]+)">(.*?)<\/h\1>/g)].map(
    ([, depth, id, inner]) => `${depth === '3' ? '  ' : ''}- [${markdownText(text(inner!))}](#${id})`,
  );
  return body.replace(CONTENTS_PLACE, `## Contents\n\n${entries.join('\n')}`);
}

export function developersBody(ctx: BuildContext, schemas: Map<string, JsonSchema>): string {
  return withContents(developersSections(ctx, schemas));
}

function developersSections(ctx: BuildContext, schemas: Map<string, JsonSchema>): string {
  const { config } = ctx;
  // What this build publishes: a missing dataset's paths would be 404s here (builders/build/artifact.ts).
  const service = publishedService(ctx);
  const datasets = publishedDatasets(ctx);
  const base = config.siteUrl;
  const url = (path: string) => absoluteUrl(base, path);
  const dataUrls = dataOperationsWord(service);
  const codes = Object.keys(PROBLEM_TYPES) as ProblemCode[];
  const discovery = Object.values(DISCOVERY);
  const indexExample = JSON.stringify(apiIndex(config, ctx.simulated, service), null, 2);
  const prose = datasets.map((d) => d.prose(config));
  return [
    `# ${DEVELOPERS_TITLE}`,
    `${markdownText(config.site.title)} publishes ${resourcesFeed(service.resources.length).replace(/^./, (c) => c.toLowerCase())} the portfolio preview on the [home page](${url('/')}): ${listPhrase(prose.map((p) => p.developers))}.`,
    ...prose.flatMap((p) => (p.callout ? [p.callout] : [])),
    `Base URL: \`${base}\`. Every route takes no parameters and no request body, and needs **no authentication**: no key, no signup, no header. ` +
      `When an upstream source gives no usable data the service answers with a problem document, never with invented values.`,
    CONTENTS_PLACE,
    '## Endpoints',
    '| Method | Path | operationId | Response |\n|---|---|---|---|\n' +
      service.resources
        .flatMap((r) =>
          [r.alias, r.v1].map(
            (op) =>
              `| ${DATA_METHODS.join(', ')} | [\`${op.path}\`](${url(op.path)}) | \`${op.operationId}\` | ${r.schema}, \`${r.contentType}\` |`,
          ),
        )
        .join('\n') +
      `\n| GET | [\`${API_INDEX.path}\`](${url(API_INDEX_LINK)}) | none | API index, \`${API_INDEX.contentType}\` (the file \`${API_INDEX_LINK}\` on any static host) |`,
    `Any other method on a data route is a [405 problem](#${PROBLEM_TYPES.method_not_allowed.fragment}); any other \`/api/...\` path is a [404 problem](#${PROBLEM_TYPES.api_route_not_found.fragment}). ` +
      `As function tools, the operationId is the tool name and the input schema is \`${JSON.stringify(FUNCTION_TOOL_INPUT_SCHEMA)}\` (the \`${INPUT_SCHEMA_EXTENSION}\` extension of each operation in [the contract](${url(DISCOVERY.openapi.path)})).`,
    ...datasets.map((d, i) => endpointSection(d.resource, prose[i]!, ctx, schemas)),
    '### API index',
    `\`GET ${API_INDEX.path}\` describes the data routes, this page, the contract and the authentication policy (\`"authentication": "none"\`). ` +
      `It is a discovery document, not a replacement for the payload schemas. \`Cache-Control: ${CACHE_CONTROL.apiIndex}\`. ` +
      `The same document is the file \`${API_INDEX_LINK}\`, which every host serves; \`${API_INDEX.path}\` needs the gateway or a host that rewrites it (GitHub Pages does not).`,
    fence('sh', `curl ${url(API_INDEX_LINK)}`),
    fence('json', indexExample),
    fieldTable('ApiIndex', schemas),
    '## Discovery documents',
    '| Path | Media type |\n|---|---|\n' +
      discovery.map((d) => `| [\`${d.path}\`](${url(d.path)}) | \`${d.contentType}\` |`).join('\n'),
    `The [API catalog](${url(DISCOVERY.apiCatalog.path)}) is an RFC 9727 linkset (RFC 9264): an \`item\` link for each endpoint, and \`service-desc\` ([OpenAPI 3.1](${url(DISCOVERY.openapi.path)})), ` +
      `\`service-doc\` (this page and its [Markdown copy](${url(DISCOVERY.developersMarkdown.path)})) and \`service-meta\` ([the API index](${url(API_INDEX_LINK)})) for each. ` +
      `Every HTML page has a Markdown twin at its path plus \`.md\` (\`/index.md\` for \`/\`). [\`/sitemap.xml\`](${url(DISCOVERY.sitemap.path)}) lists the published HTML pages only.`,
    `[\`${DISCOVERY.status.path}\`](${url(DISCOVERY.status.path)}) says when the site was built, each dataset's state then (\`fresh\`; \`reused\` from the previous site, with its age; \`missing\`, with the reason) with its \`validUntil\`, and the next scheduled run (\`nextRunAt\`): later than those by your clock, the site has stopped refreshing. ` +
      `[\`${DISCOVERY.statusBadge.path}\`](${url(DISCOVERY.statusBadge.path)}) is the same as a shields.io endpoint badge: \`https://img.shields.io/endpoint?url=${url(DISCOVERY.statusBadge.path)}\`.`,
    fieldTable('Status', schemas),
    fieldTable('StatusBadge', schemas),
    ...contentSection(url, schemas),
    ...mcpSection(base, service, prose),
    '## Headers and caching',
    'When the gateway serves:',
    [
      ...datasets.map((d, i) => `- ${d.resource.title}: ${prose[i]!.caching}${prose[i]!.cachingNote ?? ''}`),
      `- API index: \`Cache-Control: ${CACHE_CONTROL.apiIndex}\`.`,
      `- Problem answers: \`Cache-Control: ${CACHE_CONTROL.problem}\`; a 429 is never stored by caches (RFC 6585).`,
      '- Responses that carry quota headers are never shared-cacheable.',
      '- HEAD answers carry the same headers as GET (Content-Length included) and no body.',
    ].join('\n'),
    '## Quota and rate-limit headers',
    `Where the gateway serves, a deployment may enforce a shared, per-client, fixed-window quota on GET and HEAD requests to the ${dataUrls} data URLs. All ${dataUrls} share one bucket: switching between an alias and its v1 path does not reset the allowance. ` +
      'HTML pages and discovery documents are not counted. When enforcement accounted for the request, the answer carries headers in the format of `draft-ietf-httpapi-ratelimit-headers-11` (an IETF draft, not an RFC):',
    fence(
      'http',
      `RateLimit-Policy: ${policyHeader('<quota>', '<window seconds>')}\nRateLimit: ${rateLimitHeader('<remaining>', '<seconds until the window resets>')}`,
    ),
    [
      '- The allowance varies by deployment: read the headers, do not hard-code a number.',
      `- When the quota is used up the answer is a [429 problem](#${PROBLEM_TYPES.rate_limit_exceeded.fragment}) with \`Retry-After\` in whole seconds: wait at least that long.`,
      '- When the quota is not configured, cannot identify a trusted client or its store is unavailable, reads are served normally without `RateLimit` headers. Missing headers do not promise unlimited upstream capacity.',
      '- A static host keeps no quota: it sends no `RateLimit` headers and no 429.',
    ].join('\n'),
    '## Versioning and deprecation',
    [
      `- \`${service.resources.map((r) => r.v1.path).join('` and `')}\` are the explicit version 1 contract.`,
      `- \`${service.resources.map((r) => r.alias.path).join('` and `')}\` are stable aliases of v1: the same payloads, returned directly, no redirects; they never switch version silently.`,
      '- v1 keeps field names, types, units and meanings stable. Timestamps and upstream values change by design.',
      '- An incompatible contract gets a new major-version path such as `/api/v2/`.',
      '- Nothing is deprecated and no removal is scheduled, so no `Deprecation` or `Sunset` header is sent today. After a future deprecation, answers carry `Deprecation` (RFC 9745, a Structured Field date such as `@1798761600`); after a scheduled removal also `Sunset` (RFC 8594, an HTTP date not earlier than the deprecation).',
    ].join('\n'),
    '## Problem types',
    `Every API error the gateway answers is an RFC 9457 problem document, \`Content-Type: ${PROBLEM_CONTENT_TYPE}\`, whose \`type\` is a link to its section below. \`status\` equals the HTTP status; clients ignore members they do not know.`,
    '| Status | code | type | Title |\n|---|---|---|---|\n' +
      codes
        .map(
          (c) =>
            `| ${PROBLEM_TYPES[c].status} | \`${c}\` | [\`#${PROBLEM_TYPES[c].fragment}\`](#${PROBLEM_TYPES[c].fragment}) | ${PROBLEM_TYPES[c].title} |`,
        )
        .join('\n'),
    fieldTable('ProblemDetails', schemas),
    ...codes.map((c) => problemSection(base, service, c)),
    '## Command-line tool',
    `A read-only, dependency-free Node.js script (Node 18 or newer, using only its built-ins) reads the same public resources. Get it and see its help:`,
    fence('sh', `curl -O ${url(DISCOVERY.cli.path)} && node cli.mjs --help`),
    nestHeadings(cliReferenceMarkdown(service).trim(), 3),
    '## Static hosting and the gateway',
    `The whole site, these documents and the ${service.resources.length === 1 ? 'data snapshot' : `${countWord(service.resources.length)} data snapshots`} are plain files, so any static host can serve them (content types and cache rules come from its configuration). ` +
      `A static host cannot compute anything per request: ${prose.map((p) => (p.liveWork ? `${p.liveWork}, ` : '')).join('')}the quota and its headers, an \`s-maxage\` that counts down to midnight, problem documents for failed upstreams ` +
      `and the [MCP endpoint](#model-context-protocol-gateway-only) \`${MCP_ENDPOINT.path}\` are the work of the optional gateway, which serves the same files and the live routes.`,
    `On a static host the data paths are the build's snapshot files, with the type and \`Cache-Control\` the host's rules give (the build writes them for \`serve\`, Netlify and Cloudflare Pages: ${datasets.map((d, i) => `\`${CACHE_CONTROL.staticSnapshot(d.resource.cache)}\` for ${prose[i]!.staticName}`).join(', ')}; GitHub Pages takes no rules), and a missing snapshot is the host's own 404. ` +
      `Its [\`${DISCOVERY.openapi.path}\`](${url(DISCOVERY.openapi.path)}) promises only that; the gateway serves its own at the same path, with the quota's 429 and headers.`,
  ].join('\n\n');
}

export function renderDeveloperPage(ctx: BuildContext, schemas: Map<string, JsonSchema>): Artifact[] {
  const body = developersBody(ctx, schemas);
  const page = PAGES.developers;
  const html = renderLayout({
    ...frameOf(ctx),
    page,
    title: DEVELOPERS_TITLE,
    description: DEVELOPERS_DESCRIPTION,
    nav: 'developers',
    main: renderMarkdown(body),
  });
  return [
    { file: page.htmlFile, body: html },
    {
      file: page.markdownFile,
      body: twin(
        {
          title: DEVELOPERS_TITLE,
          description: DEVELOPERS_DESCRIPTION,
          url: absoluteUrl(ctx.config.siteUrl, page.path),
        },
        body,
      ),
    },
  ];
}
