// The four data operations as function tools (docs/api.md#endpoints): the operationId is the tool name, the
// input schema is docs/api.md's empty object, the output schema is the payload's schema from schemas/. Read by
// the gateway's MCP endpoint and by the documents that describe it.
import { CONSTANTS, dataOperationsWord, type DataOperation, type DataResource, type ServiceTables } from './service.ts';
import type { JsonSchema } from './schemas.ts';

/**
 * docs/api.md#endpoints: "As a function tool, the input schema is an object with empty properties, empty
 * required and additionalProperties false; the operationId is the tool name."
 */
export const FUNCTION_TOOL_INPUT_SCHEMA = Object.freeze({
  type: 'object',
  properties: {},
  required: [],
  additionalProperties: false,
});

/** The server name an MCP client sees in `server/discover` or `initialize`, and the key of the documented client configuration. */
export const MCP_SERVER_NAME = 'public-data-preview';

/**
 * The MCP revision the endpoint serves as current: stateless, no `initialize` handshake, each request
 * carrying its protocol version in `_meta`, `server/discover` to learn the server. Clients of the 2025
 * revisions are still answered (their `initialize`, without a session).
 */
export const MCP_CURRENT_REVISION = '2026-07-28';

/**
 * The first MCP protocol version without JSON-RPC batches (2025-06-18 removed them); versions are
 * dates, so later ones sort after it.
 */
export const BATCHES_REMOVED_IN = '2025-06-18';
/** Messages in one batch under the older versions that still have them (the SDK alone allows 100). */
export const MCP_MAX_BATCH = 10;

/** How the endpoint is described wherever it is listed (API index, llms.txt, developer page, OpenAPI). */
export function mcpSummary(service: ServiceTables): string {
  const n = dataOperationsWord(service);
  return (
    `Model Context Protocol over Streamable HTTP (stateless; revision ${MCP_CURRENT_REVISION}, and the 2025 revisions for older clients): ${n} tools, the ${n} data operations named by operationId, each returning its payload as structured content. ` +
    'Every POST to it counts once against the same quota as the data URLs. Gateway only: a static host has no such endpoint.'
  );
}

export interface DataTool {
  /** The operationId. */
  name: string;
  title: string;
  description: string;
  resource: DataResource;
  operation: DataOperation;
}

function description(resource: DataResource, op: DataOperation): string {
  const other = op.alias ? resource.v1 : resource.alias;
  return [
    resource.toolText,
    `The ${resource.schema} payload of GET ${op.path}; ${other.operationId} (${other.path}, the ${op.alias ? 'explicit v1 path' : 'unversioned alias'}) returns the same payload.`,
    'Takes no arguments. Counts against the same per-client quota as the HTTP data routes.',
  ].join(' ');
}

/** The tools (four, or two without a market), in the order of the route table (v1, then its alias). */
export function dataTools(service: ServiceTables): DataTool[] {
  return service.resources.flatMap((resource) =>
    [resource.v1, resource.alias].map((operation) => ({
      name: operation.operationId,
      title: `${resource.title}${operation.alias ? ' (unversioned alias)' : ' (v1)'}`,
      description: description(resource, operation),
      resource,
      operation,
    })),
  );
}

/**
 * MCP 2026-07-28, Caching: a `tools/list` result carries `ttlMs` (how long a client MAY consider it fresh)
 * and `cacheScope` (`public`: the same for every caller, as here, where nothing depends on who asks).
 */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/**
 * How long one answer of a dataset's tools stays the same for every caller, by its cache policy
 * (docs/api.md#caching): `per-request` not at all, `hourly` an hour, `until-midnight` until the next
 * midnight of its zone (`untilMidnightMs`).
 */
export function toolValidityMs(resource: DataResource, untilMidnightMs: (timeZone: string) => number): number {
  if (resource.cache === 'per-request') return 0;
  if (resource.cache === 'hourly') return CONSTANTS.hourSeconds * 1000;
  return Math.max(0, untilMidnightMs(resource.timeZone!));
}

/**
 * The hint of a `tools/list` result, derived from each listed tool's validity: the list is fresh no longer
 * than its shortest-lived tool, so a client that keeps the list re-reads it when the first answer changes
 * (0, immediately stale, wherever a tool is computed per request, as the market's is).
 */
export function toolListCacheHint(service: ServiceTables, untilMidnightMs: (timeZone: string) => number): CacheHint {
  const validities = service.resources.map((r) => toolValidityMs(r, untilMidnightMs));
  return { ttlMs: validities.length === 0 ? 0 : Math.min(...validities), cacheScope: 'public' };
}

/**
 * JSON Schema's nullable `type: ["string", "null"]` as `anyOf: [{type: "string", …}, {type: "null"}]`: the same
 * values, in the form every MCP client's schema reader accepts (the MCP Inspector warns on a type array). The
 * node's annotations stay beside `anyOf`; its assertions move into the non-null branch.
 */
function nullableAsAnyOf(node: Record<string, unknown>): Record<string, unknown> {
  const { type } = node;
  if (!Array.isArray(type) || !type.includes('null')) return node;
  const others = type.filter((t) => t !== 'null');
  const annotations: Record<string, unknown> = {};
  const assertions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? annotations : assertions)[key] = value;
  }
  const branches = others.map((t) => ({ type: t, ...assertions }));
  return { ...annotations, anyOf: [...branches, { type: 'null' }] };
}
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly']);

/**
 * A schema from schemas/ made self-contained for consumers that cannot fetch other files (an MCP
 * `outputSchema`, a tool definition): `$id` and `$schema` dropped (the MCP tool schema's dialect
 * defaults to 2020-12), each file reference rewritten to an entry of `$defs`, and each nullable type array
 * written as `anyOf` (nullableAsAnyOf).
 */
export function selfContainedSchema(name: string, schemas: Map<string, JsonSchema>): Record<string, unknown> {
  const titleById = new Map([...schemas.values()].map((s) => [s.$id, s.title]));
  const defs = new Map<string, unknown>();
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id' || key === '$schema') continue;
      if (key === '$ref' && typeof value === 'string') {
        const title = titleById.get(value.replace(/#.*$/, ''));
        if (!title) throw new Error(`schema $ref ${value} names no file in schemas/`);
        if (!defs.has(title)) {
          defs.set(title, null); // reserved first: a schema that refers to itself ends here
          defs.set(title, rewrite(schemas.get(title)));
        }
        out.$ref = `#/$defs/${title}`;
        continue;
      }
      out[key] = rewrite(value);
    }
    return nullableAsAnyOf(out);
  };
  const root = schemas.get(name);
  if (!root) throw new Error(`no schema named ${name} in schemas/`);
  const schema = rewrite(root) as Record<string, unknown>;
  return defs.size ? { ...schema, $defs: Object.fromEntries(defs) } : schema;
}
