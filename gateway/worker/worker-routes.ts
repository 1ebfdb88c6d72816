// The paths where the Worker runs before the static assets (`assets.run_worker_first` in
// gateway/worker/wrangler.jsonc): every data path and its alias, answered live, an unknown /api/ path (the
// 404 problem), and /mcp. Everything else (pages, cards, discovery documents, the API index) is a static
// asset that Cloudflare serves with dist/_headers' headers and its own ETags without invoking the Worker:
// free, outside the daily request quota, and with no CPU of ours (docs/deploying.md#what-runs-where).
// Every data path lies under /api/, so one pattern covers the datasets of any deployment: a new dataset,
// or MARKET_PRODUCT's renamed market, needs no change to the committed file.
import { API_INDEX, MCP_ENDPOINT, type ServiceTables } from '../../builders/contract/service.ts';

/** Where the data paths lie: /api/ and everything under it. */
const DATA_PREFIX = '/api/';

/** The route patterns: `/api/*` but the API index's file (a static asset), any data path outside it, /mcp. */
export function workerFirstRoutes(service: ServiceTables): string[] {
  const outside = service.resources
    .flatMap((r) => [r.v1.path, r.alias.path])
    .filter((path) => !path.startsWith(DATA_PREFIX));
  return [`${DATA_PREFIX}*`, `!/${API_INDEX.file}`, ...outside, MCP_ENDPOINT.path];
}

/** The member as it stands in gateway/worker/wrangler.jsonc: a JSON array of strings, one per line. */
const MEMBER = /("run_worker_first":\s*)(\[[^\]]*\])/;

/** The list in the text of a wrangler.jsonc, or undefined when it has none (or `true`). */
export function readWorkerFirst(jsonc: string): string[] | undefined {
  const match = MEMBER.exec(jsonc);
  if (match === null) return undefined;
  // JSONC allows a trailing comma; JSON does not.
  return JSON.parse(match[2]!.replace(/,\s*\]$/, ']')) as string[];
}

/** The text with its list replaced by `routes`, everything else (comments included) as it was. */
export function writeWorkerFirst(jsonc: string, routes: readonly string[]): string {
  const match = MEMBER.exec(jsonc);
  if (match === null) throw new Error('no "run_worker_first": [ … ] list in the wrangler configuration');
  const indent = /^([ \t]*)"run_worker_first"/m.exec(jsonc)![1]!;
  // As Prettier writes it (the file is formatted with the rest): on one line when that fits in 120 columns.
  const oneLine = `[${routes.map((r) => JSON.stringify(r)).join(', ')}]`;
  const list =
    `${indent}"run_worker_first": ${oneLine},`.length <= 120
      ? oneLine
      : `[\n${routes.map((r) => `${indent}  ${JSON.stringify(r)},\n`).join('')}${indent}]`;
  return jsonc.replace(MEMBER, (_, key: string) => `${key}${list}`);
}
