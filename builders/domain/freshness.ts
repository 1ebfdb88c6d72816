// Whether a published snapshot is still valid, and how old its data are, read from the payload alone
// (docs/data-rules.md#freshness). The build, the page script, the CLI and the MCP tools all ask this one
// rule, so a copy of a snapshot served long after its build (a static host whose publish job stopped, a
// cached file) says its age wherever it is read. Pure and dependency-free: the page script carries it.

/**
 * The oldest market snapshot that may be republished, measured from its `asOf`: three hours. The
 * publish workflow runs hourly, so this outlasts two failed (or dropped) runs in a row and refuses the
 * third; every page and card prints the `asOf`, so a reader sees the true age meanwhile. It is also
 * the market snapshot's validity: older than this, a snapshot is stale wherever it is read.
 */
export const MARKET_REUSE_MAX_MS = 3 * 3_600_000;

const DAY_MS = 86_400_000;

export interface Freshness {
  /** When its data were read, at the earliest. */
  asOfMs: number;
  /** When it stops being valid: the payload's `nextRefreshAt`, or its `asOf` plus MARKET_REUSE_MAX_MS (or as asked). */
  validUntilMs: number;
  /** `validUntilMs` has passed: the site that published it has stopped refreshing it. */
  stale: boolean;
  /** How old its data are at most, at `nowMs` (never negative). */
  ageMs: number;
}

/**
 * A payload that says when it must be refreshed (`nextRefreshAt`: the calendar, and what is derived from
 * it) is valid until then, and its data were read during the day that ends there (about 24 hours long; a
 * daylight-saving day is an hour shorter or longer, which an age in days or hours does not show). A
 * payload with only an `asOf` (the market) is valid for MARKET_REUSE_MAX_MS after it, the bound the
 * build's `--previous` rule republishes it within (builders/domain/reuse.ts), or for `validMs` when its dataset
 * says so (the projects' home section: their own `--previous` bound). Anything else: null, no claim.
 */
export function freshness(payload: unknown, nowMs: number, validMs = MARKET_REUSE_MAX_MS): Freshness | null {
  if (payload === null || typeof payload !== 'object') return null;
  const { nextRefreshAt, asOf } = payload as { nextRefreshAt?: unknown; asOf?: unknown };
  let asOfMs: number;
  let validUntilMs: number;
  if (typeof nextRefreshAt === 'string') {
    validUntilMs = Date.parse(nextRefreshAt);
    asOfMs = validUntilMs - DAY_MS;
  } else if (typeof asOf === 'string') {
    asOfMs = Date.parse(asOf);
    validUntilMs = asOfMs + validMs;
  } else return null;
  return freshnessBetween(asOfMs, validUntilMs, nowMs);
}

/** A validity from its start and end (Unix ms), judged at `nowMs`; null for a time that is not one. */
export function freshnessBetween(asOfMs: number, validUntilMs: number, nowMs: number): Freshness | null {
  if (!Number.isFinite(validUntilMs) || !Number.isFinite(asOfMs)) return null;
  return { asOfMs, validUntilMs, stale: nowMs >= validUntilMs, ageMs: Math.max(0, nowMs - asOfMs) };
}
