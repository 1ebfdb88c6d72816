// RFC 9457 problem responses, prepared once per gateway: the body comes from builders/contract/problems.ts, its
// `status` equals the HTTP status, and nothing from an exception (message, stack) ever reaches it.
import { ALLOW_HEADER, CACHE_CONTROL, type ServiceTables } from '../../../builders/contract/service.ts';
import {
  problem,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_DETAILS,
  PROBLEM_TYPES,
  type ProblemCode,
  type ProblemDetails,
} from '../../../builders/contract/problems.ts';
import type { DataResourceId } from '../../../builders/contract/service.ts';
import { COMMON_HEADERS } from './common-headers.ts';
import { utf8 } from './bytes.ts';
import type { Prepared } from './exchange.ts';

/** A fixed answer prepared once: status, body and the complete header list of its response. */
export interface PreparedAnswer extends Prepared {
  body: Uint8Array;
  headers: string[];
}

/** A problem prepared once: its answer, and the document itself for those who pass it on as a value (MCP). */
export interface PreparedProblem extends PreparedAnswer {
  document: ProblemDetails;
}

/**
 * The gateway's own fixed answers (problems, plain-text errors, MCP transport errors): never cached by
 * anyone, with the headers every response carries; `extra` follows them.
 */
export function prepareAnswer(
  status: number,
  contentType: string,
  body: Uint8Array,
  extra: readonly string[] = [],
): PreparedAnswer {
  return {
    status,
    body,
    headers: [
      'Content-Type',
      contentType,
      'Content-Length',
      String(body.length),
      'Cache-Control',
      CACHE_CONTROL.problem,
      ...COMMON_HEADERS,
      ...extra,
    ],
  };
}

export interface Problems {
  routeNotFound: PreparedProblem;
  methodNotAllowed: PreparedProblem;
  /** Prepared only when a quota is configured: without one no request is ever limited. */
  rateLimited: PreparedProblem | undefined;
  /** Each dataset's 502, by id. */
  upstream: ReadonlyMap<DataResourceId, PreparedProblem>;
  /** The MCP endpoint's answer to an Origin it does not serve. */
  originNotAllowed: PreparedProblem;
}

/** Response headers a browser script on another origin may read (Fetch standard, CORS-safelisted ones aside). */
export const EXPOSED_HEADERS = [
  'Access-Control-Expose-Headers',
  'RateLimit, RateLimit-Policy, Retry-After, ETag',
] as const;

export function prepareProblems(
  siteUrl: string,
  service: ServiceTables,
  quota: { quota: number; window: number } | undefined,
): Problems {
  const make = (code: ProblemCode, detail: string, error?: string, extra: string[] = []): PreparedProblem => {
    const document = problem(siteUrl, code, detail, error);
    const answer = prepareAnswer(PROBLEM_TYPES[code].status, PROBLEM_CONTENT_TYPE, utf8(JSON.stringify(document)), [
      ...EXPOSED_HEADERS,
      ...extra,
    ]);
    return { ...answer, document };
  };
  const upstream = new Map(
    service.resources.map((r) => [
      r.id,
      make('upstream_unavailable', PROBLEM_DETAILS.upstream_unavailable(r), r.problem.error),
    ]),
  );
  return {
    routeNotFound: make('api_route_not_found', PROBLEM_DETAILS.api_route_not_found(service)),
    // RFC 9110 §15.5.6: "The origin server MUST generate an Allow header field in a 405 response".
    methodNotAllowed: make('method_not_allowed', PROBLEM_DETAILS.method_not_allowed, undefined, [
      'Allow',
      ALLOW_HEADER,
    ]),
    rateLimited: quota && make('rate_limit_exceeded', PROBLEM_DETAILS.rate_limit_exceeded(quota.quota, quota.window)),
    upstream,
    originNotAllowed: make('origin_not_allowed', PROBLEM_DETAILS.origin_not_allowed),
  };
}
