// GET /api (docs/api.md#discovery): the JSON index of the data routes, the developer page, the contract and
// `"authentication": "none"`. Generated from the route table; validated against schemas/ApiIndex.
import { liveFeedUrl, type Config } from '../../lib/config.ts';
import { PROBLEM_TYPES, problemTypeUrl } from '../../contract/problems.ts';
import {
  CACHE_CONTROL,
  CONSTANTS,
  DATA_METHODS,
  DISCOVERY,
  MCP_ENDPOINT,
  dataUrlsPhrase,
  resourcesSentence,
  type DataResource,
  type ServiceTables,
} from '../../contract/service.ts';
import { dataTools, mcpSummary } from '../../contract/mcp-tools.ts';
import { simulatedNoticeLine } from '../../lib/simulated.ts';
import { absoluteUrl } from '../../contract/pages.ts';

/** The Cache-Control rule of a 200, in words where it depends on the request (docs/api.md#response-headers). */
function cacheControlRule(resource: DataResource): string {
  if (resource.cache === 'per-request') return CACHE_CONTROL.data(resource.cache);
  if (resource.cache === 'hourly')
    return `${CACHE_CONTROL.data(resource.cache)}; or ${CACHE_CONTROL.perClient} when quota headers are present`;
  return `${CACHE_CONTROL.data(resource.cache, `<seconds until the next midnight in ${resource.timeZone!}>`)}; or ${CACHE_CONTROL.perClient} when quota headers are present`;
}

/** The index of `service`'s routes: a build's lists only what it publishes (builders/build/artifact.ts, publishedService). */
export function apiIndex(config: Config, simulated = false, service: ServiceTables): Record<string, unknown> {
  const url = (path: string) => absoluteUrl(config.siteUrl, path);
  // The feed the pages subscribe to, for every other reader of the site (the CLI's `price --watch`): a
  // client follows the site it is pointed at, never a feed baked into it.
  const feed = liveFeedUrl(config);
  const watched = service.resources.find((r) => r.command.watch)?.command.watch;
  return {
    name: `${config.site.title} public data API`,
    // A demo's index says so first, in words and as a flag, so that no reader takes its data for real.
    ...(simulated ? { simulated: true } : {}),
    description: `${simulated ? `${simulatedNoticeLine(config.site.marketSourceName)} ` : ''}${resourcesSentence(service)} No parameters, no request body, no authentication.`,
    version: '1',
    authentication: 'none',
    documentation: url(DISCOVERY.developers.path),
    documentationMarkdown: url(DISCOVERY.developersMarkdown.path),
    openapi: url(DISCOVERY.openapi.path),
    apiCatalog: url(DISCOVERY.apiCatalog.path),
    cli: url(DISCOVERY.cli.path),
    status: url(DISCOVERY.status.path),
    statusBadge: url(DISCOVERY.statusBadge.path),
    routes: service.resources.map((r) => ({
      id: r.id,
      title: r.title,
      summary: r.summary,
      path: r.v1.path,
      url: url(r.v1.path),
      operationId: r.v1.operationId,
      alias: { path: r.alias.path, url: url(r.alias.path), operationId: r.alias.operationId },
      methods: [...DATA_METHODS],
      schema: r.schema,
      contentType: r.contentType,
      cacheControl: cacheControlRule(r),
    })),
    problemTypes: Object.values(PROBLEM_TYPES).map((p) => ({
      type: problemTypeUrl(config.siteUrl, p.code),
      status: p.status,
      code: p.code,
      title: p.title,
    })),
    mcp: {
      url: url(MCP_ENDPOINT.path),
      transport: 'streamable-http',
      availability: 'gateway only',
      tools: dataTools(service).map((t) => t.name),
      description: mcpSummary(service),
    },
    ...(feed !== null && watched !== undefined
      ? { liveFeed: { url: feed, product: watched.product, format: 'coinbase-exchange-websocket' } }
      : {}),
    rateLimit: {
      policy: CONSTANTS.rateLimitPolicyName,
      headers: ['RateLimit', 'RateLimit-Policy'],
      description: `Optional shared per-client fixed-window quota over ${dataUrlsPhrase(service)}. The headers appear only when enforcement accounted for the request; a 429 problem carries Retry-After.`,
    },
  };
}
