// /openapi.json: the OpenAPI 3.1 contract, generated from the route table, the problem types and the
// JSON Schemas under schemas/ (never a hand-kept copy). Pure: (config, schemas, snapshots) → document.
import type { Config } from '../../core/config.ts';
import type { GitHubContributions } from '../../core/contributions.ts';
import type { MarketData } from '../../core/market.ts';
import {
  PROBLEM_CONTENT_TYPE,
  PROBLEM_DETAILS,
  PROBLEM_TYPES,
  problem,
  UPSTREAM_ERROR_TEXT,
  type ProblemCode,
} from '../../core/problems.ts';
import { policyHeader, RATE_LIMIT_EXAMPLE, rateLimitHeader } from '../../core/rate-limit-headers.ts';
import {
  ALLOW_HEADER,
  CACHE_CONTROL,
  CONSTANTS,
  DATA_RESOURCES,
  DISCOVERY,
  type DataOperation,
  type DataResource,
} from '../../core/routes.ts';
import type { JsonSchema } from '../../core/schemas.ts';
import { absoluteUrl } from '../../core/pages.ts';

type Json = Record<string, unknown>;

/**
 * SPEC "Endpoints": "As a function tool, the input schema is an object with empty properties, empty
 * required and additionalProperties false; the operationId is the tool name."
 */
export const FUNCTION_TOOL_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: false,
});
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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Stands for the s-maxage in the calendar's Cache-Control until the pattern puts a positive integer there. */
const SECONDS = '<seconds>';

const HEADERS: Record<string, Json> = {
  CacheControlMarket: {
    description: `Always \`${CACHE_CONTROL.market}\`: the ticker is fetched on each request.`,
    required: true,
    schema: { type: 'string', const: CACHE_CONTROL.market },
  },
  CacheControlContributions: {
    description:
      `\`${CACHE_CONTROL.contributions(SECONDS)}\` where ${SECONDS} is the whole seconds ` +
      `until the next midnight in ${CONSTANTS.timeZone} (at least 1); or \`${CACHE_CONTROL.perClient}\` when the response carries per-client quota headers.`,
    required: true,
    schema: {
      type: 'string',
      pattern: `^(${escapeRegExp(CACHE_CONTROL.contributions(SECONDS)).replace(SECONDS, '[1-9][0-9]*')}|${escapeRegExp(CACHE_CONTROL.perClient)})$`,
    },
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
  Allow: {
    description: `RFC 9110: a 405 carries the methods the route answers: \`${ALLOW_HEADER}\`.`,
    required: true,
    schema: { type: 'string', const: ALLOW_HEADER },
  },
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

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

function responses(siteUrl: string): Record<string, Json> {
  const quota = { RateLimit: headerRef('RateLimit'), 'RateLimit-Policy': headerRef('RateLimitPolicy') };
  const t = PROBLEM_TYPES;
  return {
    RateLimitExceeded: problemResponse(
      siteUrl,
      'rate_limit_exceeded',
      `${t.rate_limit_exceeded.title}: ${t.rate_limit_exceeded.condition} No upstream call is made.`,
      { 'Retry-After': headerRef('RetryAfter'), ...quota, 'Cache-Control': headerRef('CacheControlProblem') },
      PROBLEM_DETAILS.rate_limit_exceeded(RATE_LIMIT_EXAMPLE.quota, RATE_LIMIT_EXAMPLE.windowSeconds),
    ),
    MarketUpstreamUnavailable: problemResponse(
      siteUrl,
      'upstream_unavailable',
      `${t.upstream_unavailable.title}: ${t.upstream_unavailable.condition}`,
      { ...quota, 'Cache-Control': headerRef('CacheControlProblem') },
      PROBLEM_DETAILS.upstream_unavailable.market,
      UPSTREAM_ERROR_TEXT.market,
    ),
    ContributionsUpstreamUnavailable: problemResponse(
      siteUrl,
      'upstream_unavailable',
      `${t.upstream_unavailable.title}: ${t.upstream_unavailable.condition}`,
      { ...quota, 'Cache-Control': headerRef('CacheControlProblem') },
      PROBLEM_DETAILS.upstream_unavailable.contributions,
      UPSTREAM_ERROR_TEXT.contributions,
    ),
    MethodNotAllowed: problemResponse(
      siteUrl,
      'method_not_allowed',
      `${t.method_not_allowed.title}: ${t.method_not_allowed.condition}`,
      { Allow: headerRef('Allow') },
      PROBLEM_DETAILS.method_not_allowed,
    ),
    ApiRouteNotFound: problemResponse(
      siteUrl,
      'api_route_not_found',
      `${t.api_route_not_found.title}: ${t.api_route_not_found.condition}`,
      {},
      PROBLEM_DETAILS.api_route_not_found,
    ),
  };
}

export interface Snapshots {
  market: MarketData | null;
  contributions: GitHubContributions | null;
}

const exampleName = (resource: DataResource) => `${resource.schema}Snapshot`;
const snapshotOf = (resource: DataResource, snapshots: Snapshots) =>
  resource.id === 'market' ? snapshots.market : snapshots.contributions;

/**
 * One GET operation per data path. SPEC lists one operation per path, "GET (HEAD also accepted)", and its
 * operationId is the function-tool name, so HEAD is described on the GET operation rather than given
 * operationIds of its own that a tool builder would take for four more tools.
 */
function operation(resource: DataResource, op: DataOperation, snapshots: Snapshots): Json {
  const v1 = resource.v1.path;
  const aliasNote = op.alias
    ? ` Stable alias of \`${v1}\`: the same payload, returned directly (no redirect); it never switches version silently.`
    : ' The explicit version 1 contract.';
  const cache = headerRef(resource.id === 'market' ? 'CacheControlMarket' : 'CacheControlContributions');
  const okHeaders = {
    'Cache-Control': cache,
    RateLimit: headerRef('RateLimit'),
    'RateLimit-Policy': headerRef('RateLimitPolicy'),
  };
  const upstream = {
    $ref: `#/components/responses/${resource.id === 'market' ? 'Market' : 'Contributions'}UpstreamUnavailable`,
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
    description: `${resource.summary}${aliasNote} Takes no parameters and no body. HEAD is also accepted (RFC 9110): the same status and headers, Content-Length included, and no body; it counts against the same quota.`,
    ...common,
    responses: {
      '200': {
        description: `The ${resource.schema} payload.`,
        headers: okHeaders,
        content: {
          [resource.contentType]: {
            schema: schemaRef(resource.schema),
            // The real snapshot of this build, when its upstream answered: an example, never invented.
            // Declared once under components.examples and referenced from both the alias and v1 paths.
            ...(example ? { examples: { snapshot: { $ref: `#/components/examples/${exampleName(resource)}` } } } : {}),
          },
        },
      },
      '429': { $ref: '#/components/responses/RateLimitExceeded' },
      '502': upstream,
    },
  };
}

export function openApiDocument(config: Config, schemas: Map<string, JsonSchema>, snapshots: Snapshots): Json {
  const url = (path: string) => absoluteUrl(config.siteUrl, path);
  const paths: Json = {};
  for (const resource of DATA_RESOURCES) {
    for (const op of [resource.alias, resource.v1]) {
      paths[op.path] = { get: operation(resource, op, snapshots) };
    }
  }
  const description = [
    `Two public, read-only JSON resources that feed the portfolio preview of ${config.site.title}: a ${CONSTANTS.product} market preview ` +
      `(source: ${config.marketSourceName}; not a trading recommendation or financial advice) and the public contribution calendar of GitHub account ` +
      `\`${config.githubAccount}\` over a rolling ${CONSTANTS.contributionDays}-day window in ${CONSTANTS.timeZone}.`,
    '',
    'No authentication: `security` is empty at the top and on every operation. No operation takes parameters or a request body.',
    '',
    `**Function tools.** Each operation can be called as a function tool: its \`operationId\` is the tool name and its input schema is ` +
      `\`${JSON.stringify(FUNCTION_TOOL_INPUT_SCHEMA)}\`, given on every operation as the \`${INPUT_SCHEMA_EXTENSION}\` extension.`,
    '',
    `**HEAD.** Every data path also answers HEAD with the GET status and headers and no body; HEAD is described on each GET operation rather than as operations of its own, so the four operationIds stay the four tool names. Any other method is a 405 problem with \`Allow: ${ALLOW_HEADER}\`; ` +
      `an unknown \`/api/...\` path is a 404 problem. Both are described under components.responses.`,
    '',
    `**Versioning.** \`/api/v1/...\` is the explicit v1 contract; the unversioned paths are stable aliases of v1. An incompatible change gets a new major path ` +
      '(`/api/v2/`). Nothing is deprecated, so no `Deprecation` (RFC 9745) or `Sunset` (RFC 8594) header is sent.',
    '',
    `Errors are RFC 9457 problem details (\`${PROBLEM_CONTENT_TYPE}\`) whose \`type\` is a fragment of ${url(DISCOVERY.developers.path)}.`,
  ].join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: `${config.site.title} public data API`,
      version: '1',
      summary: `Read-only ${CONSTANTS.product} market preview and GitHub contribution calendar.`,
      description,
    },
    servers: [{ url: config.siteUrl, description: 'This site' }],
    security: [],
    externalDocs: { description: 'Developer documentation', url: url(DISCOVERY.developers.path) },
    tags: DATA_RESOURCES.map((r) => ({ name: r.title, description: r.summary })),
    paths,
    components: {
      schemas: componentSchemas(schemas),
      headers: HEADERS,
      responses: responses(config.siteUrl),
      examples: Object.fromEntries(
        DATA_RESOURCES.flatMap((r) => {
          const value = snapshotOf(r, snapshots);
          return value ? [[exampleName(r), { summary: `The snapshot of this build (${r.v1.path})`, value }]] : [];
        }),
      ),
    },
  };
}
