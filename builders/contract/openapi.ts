// /openapi.json: the OpenAPI 3.1 contract, generated from the route table, the problem types and the
// JSON Schemas under schemas/ (never a hand-kept copy). Pure: (config, schemas, snapshots, host) → document.
// Two hosts serve the same paths with different promises: the gateway answers live, with the quota (429,
// RateLimit headers) and a Cache-Control of its own; a static host serves the build's files with whatever
// headers its rules give. The build publishes the static host's document in dist/; the gateway generates
// its own at start from this same function (gateway/http/openapi-document.ts).
import type { Config } from '../lib/config.ts';
import { PROBLEM_CONTENT_TYPE, PROBLEM_DETAILS, PROBLEM_TYPES, problem, type ProblemCode } from './problems.ts';
import { policyHeader, RATE_LIMIT_EXAMPLE, rateLimitHeader } from './rate-limit-headers.ts';
import {
  ALLOW_HEADER,
  CACHE_CONTROL,
  dataOperationsWord,
  DISCOVERY,
  MCP_ENDPOINT,
  type DataOperation,
  listPhrase,
  resourcesFeed,
  type CachePolicy,
  type DataResource,
  type DataResourceId,
  type ServiceTables,
} from './service.ts';
import type { JsonSchema } from './schemas.ts';
import { FUNCTION_TOOL_INPUT_SCHEMA } from './mcp-tools.ts';
import { absoluteUrl } from './pages.ts';
import { markdownText } from '../lib/text/markdown-text.ts';

type Json = Record<string, unknown>;

export { FUNCTION_TOOL_INPUT_SCHEMA } from './mcp-tools.ts';

/** Who serves the document's paths: the gateway (`npm start`) or a static host serving dist/. */
export type OpenApiHost = 'gateway' | 'static';
export const INPUT_SCHEMA_EXTENSION = 'x-input-schema';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The schema files as OpenAPI components: `$id` and `$schema` dropped (a component's `$id` would change
 * the base URI its `$ref`s resolve against) and each file reference rewritten to its component.
 */
export function componentSchemas(schemas: Map<string, JsonSchema>): Record<string, Json> {
  const titleById = new Map([...schemas.values()].map((s) => [s.$id, s.title]));
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id' || key === '$schema') continue;
      if (key === '$ref' && typeof value === 'string') {
        const title = titleById.get(value.replace(/#.*$/, ''));
        if (!title) throw new Error(`schema $ref ${value} names no file in schemas/`);
        out.$ref = `#/components/schemas/${title}`;
        continue;
      }
      out[key] = rewrite(value);
    }
    return out;
  };
  return Object.fromEntries(
    [...schemas.values()].sort((a, b) => a.title.localeCompare(b.title)).map((s) => [s.title, rewrite(s) as Json]),
  );
}

/**
 * The schema files the operations use (the payloads, what they refer to, ProblemDetails). The others,
 * such as the API index's, validate documents that are not operations here, and a component no
 * operation uses would be dead weight to every reader and generator.
 */
function usedSchemas(
  schemas: Map<string, JsonSchema>,
  resources: readonly DataResource[],
  host: OpenApiHost,
): Map<string, JsonSchema> {
  const byId = new Map([...schemas.values()].map((s) => [s.$id, s]));
  const used = new Map<string, JsonSchema>();
  const visit = (schema: JsonSchema | undefined) => {
    if (schema === undefined || used.has(schema.title)) return;
    used.set(schema.title, schema);
    JSON.stringify(schema, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') visit(byId.get(value.replace(/#.*$/, '')));
      return value;
    });
  };
  // A static host answers no problem documents: its errors are its own pages.
  const problems = host === 'gateway' ? ['ProblemDetails'] : [];
  for (const name of [...resources.map((r) => r.schema), ...problems]) visit(schemas.get(name));
  return used;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Stands for the s-maxage in the calendar's Cache-Control until the pattern puts a positive integer there. */
const SECONDS = '<seconds>';

/** The calendar's Cache-Control, whose s-maxage counts to the next midnight in its zone (CALENDAR_TIME_ZONE). */
const cacheControlContributions = (timeZone: string): Json => ({
  description:
    `\`${CACHE_CONTROL.data('until-midnight', SECONDS)}\` where ${SECONDS} is the whole seconds ` +
    `until the next midnight in ${timeZone} (at least 1); or \`${CACHE_CONTROL.perClient}\` when the response carries per-client quota headers.`,
  required: true,
  schema: {
    type: 'string',
    pattern: `^(${escapeRegExp(CACHE_CONTROL.data('until-midnight', SECONDS)).replace(SECONDS, '[1-9][0-9]*')}|${escapeRegExp(CACHE_CONTROL.perClient)})$`,
  },
});

/** The `hourly` policy's Cache-Control: a fixed hour of shared caching, unless per-client quota values forbid it. */
const cacheControlHourly = (): Json => ({
  description: `\`${CACHE_CONTROL.data('hourly')}\`; or \`${CACHE_CONTROL.perClient}\` when the response carries per-client quota headers.`,
  required: true,
  schema: { type: 'string', enum: [CACHE_CONTROL.data('hourly'), CACHE_CONTROL.perClient] },
});

/** A snapshot's Cache-Control on a static host: the host's, set by the rules the build writes for this resource. */
const cacheControlStaticHost = (policy: CachePolicy): Json => ({
  description:
    'Set by the static host, not by this API. With the rules the build writes beside the files (serve.json for `serve`, ' +
    `\`_headers\` for Netlify and Cloudflare Pages): \`${CACHE_CONTROL.staticSnapshot(policy)}\`. A host without header rules (GitHub Pages) sends its own, or none.`,
  required: false,
  schema: { type: 'string' },
});

const HEADERS: Record<string, Json> = {
  CacheControlMarket: {
    description: `Always \`${CACHE_CONTROL.data('per-request')}\`: the ticker is fetched on each request.`,
    required: true,
    schema: { type: 'string', const: CACHE_CONTROL.data('per-request') },
  },
  RateLimit: {
    description:
      `draft-ietf-httpapi-ratelimit-headers-11 (not an RFC): \`${rateLimitHeader('<remaining>', '<seconds to reset>')}\`. ` +
      'Present only when shared quota enforcement accounted for the request.',
    required: false,
    schema: { type: 'string' },
    example: rateLimitHeader(RATE_LIMIT_EXAMPLE.remaining, RATE_LIMIT_EXAMPLE.secondsLeft),
  },
  RateLimitPolicy: {
    description:
      `draft-ietf-httpapi-ratelimit-headers-11: \`${policyHeader('<quota>', '<window seconds>')}\`. ` +
      'Present only when shared quota enforcement accounted for the request; the allowance varies by deployment.',
    required: false,
    schema: { type: 'string' },
    example: policyHeader(RATE_LIMIT_EXAMPLE.quota, RATE_LIMIT_EXAMPLE.windowSeconds),
  },
  RetryAfter: {
    description: 'RFC 9110: whole seconds to wait before retrying (minimum 0).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  CacheControlProblem: {
    description: `\`${CACHE_CONTROL.problem}\`: problem answers are never stored (RFC 6585 for 429).`,
    required: false,
    schema: { type: 'string' },
  },
};

/**
 * Header objects are written inline, not as `#/components/headers` references: code generators
 * (openapi-typescript) make a referenced header a required member whatever its `required` says, and
 * RateLimit / RateLimit-Policy are present only when enforcement accounted for the request.
 */
const header = (name: keyof typeof HEADERS) => HEADERS[name]!;

function problemResponse(
  siteUrl: string,
  code: ProblemCode,
  description: string,
  headers: Json,
  detail: string,
  error?: string,
): Json {
  return {
    description,
    headers,
    content: {
      [PROBLEM_CONTENT_TYPE]: { schema: schemaRef('ProblemDetails'), example: problem(siteUrl, code, detail, error) },
    },
  };
}

/** The component of a dataset's 502: MarketUpstreamUnavailable, ContributionsUpstreamUnavailable. */
const upstreamResponseName = (id: DataResourceId) => `${id.charAt(0).toUpperCase()}${id.slice(1)}UpstreamUnavailable`;

function responses(siteUrl: string, service: ServiceTables): Record<string, Json> {
  const quota = { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') };
  const t = PROBLEM_TYPES;
  return {
    RateLimitExceeded: problemResponse(
      siteUrl,
      'rate_limit_exceeded',
      `${t.rate_limit_exceeded.title}: ${t.rate_limit_exceeded.condition} No upstream call is made.`,
      { 'Retry-After': header('RetryAfter'), ...quota, 'Cache-Control': header('CacheControlProblem') },
      PROBLEM_DETAILS.rate_limit_exceeded(RATE_LIMIT_EXAMPLE.quota, RATE_LIMIT_EXAMPLE.windowSeconds),
    ),
    // One per dataset of the deployment: MARKET_PRODUCT=off has no market to be unavailable.
    ...Object.fromEntries(
      service.resources.map((r) => [
        upstreamResponseName(r.id),
        problemResponse(
          siteUrl,
          'upstream_unavailable',
          `${t.upstream_unavailable.title}: ${t.upstream_unavailable.condition}`,
          { ...quota, 'Cache-Control': header('CacheControlProblem') },
          PROBLEM_DETAILS.upstream_unavailable(r),
          r.problem.error,
        ),
      ]),
    ),
  };
}

/** What the document says of a deployment's datasets (builders/datasets/registry.ts). */
export interface DescribedDatasets {
  service: ServiceTables;
  /** The payloads of this build, by dataset: the examples (a dataset without one has none). */
  snapshots: ReadonlyMap<DataResourceId, unknown>;
  /** How the info summary and the description name each dataset. */
  phrases: ReadonlyMap<DataResourceId, { short: string; openapi: string }>;
}

/**
 * A snapshot example's name under components.examples: its schema's, or, where datasets share a schema (a copy
 * of a folder under another id), its v1 operation's, so that no dataset's example takes another's place.
 */
const exampleName = (resource: DataResource, service: ServiceTables) =>
  service.resources.filter((r) => r.schema === resource.schema).length === 1
    ? `${resource.schema}Snapshot`
    : `${resource.v1.operationId}Snapshot`;
const snapshotOf = (resource: DataResource, snapshots: DescribedDatasets['snapshots']) =>
  snapshots.get(resource.id) ?? null;

/**
 * One GET operation per data path. docs/api.md lists one operation per path, "GET (HEAD also accepted)", and its
 * operationId is the function-tool name, so HEAD is described on the GET operation rather than given
 * operationIds of its own that a tool builder would take for four more tools.
 */
function operation(
  service: ServiceTables,
  resource: DataResource,
  op: DataOperation,
  snapshots: DescribedDatasets['snapshots'],
  host: OpenApiHost,
): Json {
  const v1 = resource.v1.path;
  const aliasNote = op.alias
    ? ` Stable alias of \`${v1}\`: the same payload, returned directly (no redirect); it never switches version silently.`
    : ' The explicit version 1 contract.';
  const gateway = host === 'gateway';
  const cache =
    resource.cache === 'per-request'
      ? header('CacheControlMarket')
      : resource.cache === 'hourly'
        ? cacheControlHourly()
        : cacheControlContributions(resource.timeZone!);
  const okHeaders = gateway
    ? { 'Cache-Control': cache, RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimitPolicy') }
    : { 'Cache-Control': cacheControlStaticHost(resource.cache) };
  const upstream = {
    $ref: `#/components/responses/${upstreamResponseName(resource.id)}`,
  };
  const example = snapshotOf(resource, snapshots);
  const common = {
    tags: [resource.title],
    parameters: [],
    security: [],
    [INPUT_SCHEMA_EXTENSION]: FUNCTION_TOOL_INPUT_SCHEMA,
  };
  return {
    operationId: op.operationId,
    summary: `${resource.title}${op.alias ? ' (unversioned alias)' : ' (v1)'}`,
    description:
      `${resource.summary}${aliasNote} Takes no parameters and no body. HEAD is also accepted (RFC 9110): the same status and headers, Content-Length included, and no body` +
      (gateway ? '; it counts against the same quota.' : '.'),
    ...common,
    responses: {
      '200': {
        description: gateway
          ? `The ${resource.schema} payload.`
          : `The ${resource.schema} payload of the last build, as a file. Its type is \`${resource.contentType}\` where the host applies the rules the build writes beside the files (serve.json, \`_headers\`); ` +
            'a host without header rules (GitHub Pages) sends what it guesses for a file without an extension, often `application/octet-stream`: the body is the same JSON.',
        headers: okHeaders,
        content: {
          [resource.contentType]: {
            schema: schemaRef(resource.schema),
            // The real snapshot of this build, when its upstream answered: an example, never invented.
            // Declared once under components.examples and referenced from both the alias and v1 paths.
            ...(example
              ? { examples: { snapshot: { $ref: `#/components/examples/${exampleName(resource, service)}` } } }
              : {}),
          },
        },
      },
      ...(gateway
        ? { '429': { $ref: '#/components/responses/RateLimitExceeded' }, '502': upstream }
        : {
            '404': {
              description:
                "No snapshot: the last build got no usable data from this upstream and published none. The host's own not-found answer, not a problem document.",
            },
          }),
    },
  };
}

export function openApiDocument(
  config: Config,
  schemas: Map<string, JsonSchema>,
  described: DescribedDatasets,
  host: OpenApiHost,
): Json {
  const gateway = host === 'gateway';
  const url = (path: string) => absoluteUrl(config.siteUrl, path);
  const { service, snapshots } = described;
  const phrases = service.resources.map((r) => described.phrases.get(r.id)!);
  const operations = dataOperationsWord(service);
  const paths: Json = {};
  for (const resource of service.resources) {
    for (const op of [resource.alias, resource.v1]) {
      paths[op.path] = { get: operation(service, resource, op, snapshots, host) };
    }
  }
  const description = [
    // OpenAPI descriptions are CommonMark: the operator's strings go in as text.
    `${resourcesFeed(service.resources.length)} the portfolio preview of ${markdownText(config.site.title)}: ${listPhrase(phrases.map((p) => p.openapi))}.`,
    '',
    'No authentication: `security` is empty at the top and on every operation. No operation takes parameters or a request body.',
    '',
    `**Function tools.** Each operation can be called as a function tool: its \`operationId\` is the tool name and its input schema is ` +
      `\`${JSON.stringify(FUNCTION_TOOL_INPUT_SCHEMA)}\`, given on every operation as the \`${INPUT_SCHEMA_EXTENSION}\` extension.`,
    '',
    `**HEAD.** Every data path also answers HEAD with the GET status and headers and no body; HEAD is described on each GET operation rather than as operations of its own, so the ${operations} operationIds stay the ${operations} tool names. ` +
      (gateway
        ? `Any other method is a 405 problem (\`${PROBLEM_TYPES.method_not_allowed.code}\`) with \`Allow: ${ALLOW_HEADER}\`; ` +
          `an unknown \`/api/...\` path is a 404 problem (\`${PROBLEM_TYPES.api_route_not_found.code}\`). Both are ProblemDetails documents, explained with examples on the developer page.`
        : "Any other method, and an unknown `/api/...` path, get the host's own answer."),
    '',
    `**Model Context Protocol (gateway only).** The gateway, not a static host, also serves ${url(MCP_ENDPOINT.path)}: Streamable HTTP, stateless, whose ${operations} tools are these ${operations} operations, named by operationId, with the input schema above and the payload schema as output schema. ` +
      (gateway
        ? 'Every POST to it counts once against the same quota as these paths.'
        : 'Every POST to it counts once against the quota the gateway keeps.'),
    '',
    `**Versioning.** \`/api/v1/...\` is the explicit v1 contract; the unversioned paths are stable aliases of v1. An incompatible change gets a new major path ` +
      '(`/api/v2/`). Nothing is deprecated, so no `Deprecation` (RFC 9745) or `Sunset` (RFC 8594) header is sent.',
    '',
    gateway
      ? `Errors are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`) whose \`type\` is a fragment of ${url(DISCOVERY.developers.path)}.`
      : '**Static host.** This document describes the files of the last build as a static host serves them: each data path is a snapshot, ' +
        "its headers are the host's (the rules the build writes for `serve`, Netlify and Cloudflare Pages set the types and Cache-Control), and a missing snapshot is the host's 404. " +
        `The live gateway (\`npm start\`) serves the same paths with fresh data and adds the quota: 429 problem answers (\`${PROBLEM_TYPES.rate_limit_exceeded.code}\`), ` +
        `\`RateLimit\` and \`RateLimit-Policy\` headers, a Cache-Control of its own and RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`) for errors; its own \`/openapi.json\` describes them.`,
  ].join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: `${config.site.title} public data API`,
      version: '1',
      summary: `Read-only ${listPhrase(phrases.map((p) => p.short))}.`,
      description,
      contact: { name: config.site.author, url: url(DISCOVERY.developers.path) },
      // SPDX identifier (OpenAPI 3.1 License Object): the repository's LICENSE file.
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: config.siteUrl, description: 'This site' }],
    security: [],
    externalDocs: { description: 'Developer documentation', url: url(DISCOVERY.developers.path) },
    tags: service.resources.map((r) => ({ name: r.title, description: r.summary })),
    paths,
    components: {
      schemas: componentSchemas(usedSchemas(schemas, service.resources, host)),
      ...(gateway ? { responses: responses(config.siteUrl, service) } : {}),
      examples: Object.fromEntries(
        service.resources.flatMap((r) => {
          const value = snapshotOf(r, snapshots);
          return value
            ? [[exampleName(r, service), { summary: `The snapshot of this build (${r.v1.path})`, value }]]
            : [];
        }),
      ),
    },
  };
}
