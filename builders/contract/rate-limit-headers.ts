// The RateLimit-Policy and RateLimit field values, written one way for the gateway that sends them and
// the documents (OpenAPI, developer page) that show them.
import { CONSTANTS } from './service.ts';

/**
 * draft-ietf-httpapi-ratelimit-headers-11 §3 and §4, as docs/api.md#limits writes them:
 * `RateLimit-Policy: "public-api";q=<quota>;w=<window>` and `RateLimit: "public-api";r=<remaining>;t=<reset>`.
 * The documents pass placeholders such as `'<quota>'` where a deployment's numbers go.
 */
export function policyHeader(quota: number | string, windowSeconds: number | string): string {
  return `"${CONSTANTS.rateLimitPolicyName}";q=${quota};w=${windowSeconds}`;
}

export function rateLimitHeader(remaining: number | string, secondsLeft: number | string): string {
  return `"${CONSTANTS.rateLimitPolicyName}";r=${remaining};t=${secondsLeft}`;
}

/** The illustrative allowance the documents show: docs/data-rules.md's own example (q=60;w=60, then r=59;t=42). */
export const RATE_LIMIT_EXAMPLE = { quota: 60, windowSeconds: 60, remaining: 59, secondsLeft: 42 } as const;
