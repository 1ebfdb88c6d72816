// RFC 9457 problem types of the error catalogue (docs/api.md#errors), declared once; the developer page
// carries an element whose id is each fragment, so every `type` URL resolves (docs/api.md#published-paths).

import type { ProblemDetails as PayloadProblemDetails } from './payload-types.ts';
import { API_INDEX, DATA_METHODS, DISCOVERY, type DataResource, type ServiceTables } from './service.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export type ProblemCode =
  'upstream_unavailable' | 'api_route_not_found' | 'method_not_allowed' | 'rate_limit_exceeded' | 'origin_not_allowed';

export interface ProblemType {
  code: ProblemCode;
  status: number;
  fragment: string;
  title: string;
  /** When the problem happens, for the developer page. */
  condition: string;
  resolution: string;
}

export const PROBLEM_TYPES: Readonly<Record<ProblemCode, ProblemType>> = {
  upstream_unavailable: {
    code: 'upstream_unavailable',
    status: 502,
    fragment: 'upstream-unavailable',
    title: 'Upstream data unavailable',
    condition:
      'The public market or contribution source gave no usable data (down, too slow, rate limited, or an answer of an unexpected shape).',
    resolution: 'Retry later. The service never substitutes invented or stale values for missing upstream data.',
  },
  api_route_not_found: {
    code: 'api_route_not_found',
    status: 404,
    fragment: 'api-route-not-found',
    title: 'API route not found',
    condition: 'No public API route matches the requested /api/... path.',
    resolution: 'Use one of the routes listed at /api or in /openapi.json.',
  },
  method_not_allowed: {
    code: 'method_not_allowed',
    status: 405,
    fragment: 'method-not-allowed',
    title: 'Method not allowed',
    condition: 'A method other than GET or HEAD was used on a data route. The API is read-only.',
    resolution: 'Use GET (or HEAD) to read this resource.',
  },
  rate_limit_exceeded: {
    code: 'rate_limit_exceeded',
    status: 429,
    fragment: 'rate-limit-exceeded',
    title: 'Rate limit exceeded',
    condition:
      'The shared per-client quota of the data routes is exhausted for the current window while enforcement is active.',
    resolution:
      'Wait at least the number of seconds in Retry-After before retrying; read RateLimit and RateLimit-Policy for the allowance.',
  },
  origin_not_allowed: {
    code: 'origin_not_allowed',
    status: 403,
    fragment: 'origin-not-allowed',
    title: 'Origin not allowed',
    condition:
      'A request to the MCP endpoint carried an Origin header naming neither this site nor an origin its operator allowed (the MCP transport requires this check against DNS rebinding).',
    resolution:
      'Call the endpoint from a program (no Origin header) or from this site; an operator can allow more origins with MCP_ALLOWED_ORIGINS.',
  },
};

/**
 * The `detail` of each problem as the gateway sends it; the OpenAPI document and the developer page show
 * these same texts in their examples. A 502 says which source failed (its dataset's `problem`, with the
 * compatibility `error` member of docs/api.md#errors); a 429 states the deployment's allowance.
 */
export const PROBLEM_DETAILS = {
  upstream_unavailable: (resource: DataResource) => resource.problem.detail,
  api_route_not_found: (service: ServiceTables) =>
    `No public API route matches this path. The data routes are ${[...service.paths.keys()].join(', ')}; the index is ${API_INDEX.path}.`,
  method_not_allowed: `This resource is read-only: it answers ${DATA_METHODS.join(' and ')} only.`,
  rate_limit_exceeded: (quota: number, windowSeconds: number) =>
    `This client has used its ${quota} requests of the current ${windowSeconds}-second window on the data routes.`,
  origin_not_allowed: 'The MCP endpoint does not answer pages of this origin.',
} as const satisfies Record<ProblemCode, unknown> & {
  upstream_unavailable: (resource: DataResource) => string;
  api_route_not_found: (service: ServiceTables) => string;
  method_not_allowed: string;
  rate_limit_exceeded: (quota: number, windowSeconds: number) => string;
  origin_not_allowed: string;
};

/** The problem document of schemas/ProblemDetails (builders/contract/payload-types.ts), its code one of ours. */
export type ProblemDetails = PayloadProblemDetails & { code: ProblemCode };

export function problemTypeUrl(siteUrl: string, code: ProblemCode): string {
  return `${siteUrl}${DISCOVERY.developers.path}#${PROBLEM_TYPES[code].fragment}`;
}

export function problem(siteUrl: string, code: ProblemCode, detail: string, error?: string): ProblemDetails {
  const t = PROBLEM_TYPES[code];
  const body: ProblemDetails = {
    type: problemTypeUrl(siteUrl, code),
    title: t.title,
    status: t.status,
    detail,
    code,
    resolution: t.resolution,
  };
  if (error !== undefined) body.error = error;
  return body;
}
