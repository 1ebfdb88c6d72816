// The paths where the Worker runs before the static assets (`assets.run_worker_first` in
// gateway/worker/wrangler.jsonc): every data path and its alias, answered live, and /mcp. Everything else
// (pages, cards, discovery documents) is a static asset that Cloudflare serves with dist/_headers' headers
// and its own ETags without invoking the Worker: free, outside the daily request quota, and with no CPU of
// ours (docs/deploying.md#what-runs-where). Derived from the deployment's route table, so MARKET_PRODUCT
// renames the market's paths and a new dataset's paths join the list with the dataset.
import { MCP_ENDPOINT, type ServiceTables } from '../../builders/contract/service.ts';

/** The route patterns, each an exact path (no `*`): nothing static can fall under one by accident. */
export function workerFirstRoutes(service: ServiceTables): string[] {
  return [...service.resources.flatMap((r) => [r.v1.path, r.alias.path]), MCP_ENDPOINT.path];
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
  const list = `[\n${routes.map((r) => `${indent}  ${JSON.stringify(r)},\n`).join('')}${indent}]`;
  return jsonc.replace(MEMBER, (_, key: string) => `${key}${list}`);
}
