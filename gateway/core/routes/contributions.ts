// The contribution calendar: one rolling-year response kept in memory until the next midnight in the
// calendar's zone (CALENDAR_TIME_ZONE), refreshed by one upstream fetch shared by every request that arrives meanwhile.
// A failed refresh is remembered for a few seconds (FAILURE_MEMORY_MS): requests meanwhile get the 502
// problem at once rather than each fetching and parsing a bad page again. An expired answer is never
// served: after midnight it is either today's calendar or the 502 problem.
// The snapshot in dist/ is not used as a first answer, even when it is today's: it was built from the
// upstream as it was then, possibly with another source or another account, and the gateway's answer
// must say what the upstream says now (an unusable upstream is a 502, not yesterday's build's 200).
import type { GitHubContributions } from '../../../domain/contributions.ts';
import type { DataResource } from '../../../contract/service.ts';
import type { Validator } from '../../../contract/schemas.ts';
import { fetchContributions, type Sources } from '../../../upstreams/sources.ts';
import { calendarWindow } from '../../../domain/calendar.ts';
import { prepare, type BodyCodec, type Representation } from '../http/representation.ts';
import { utf8 } from '../http/bytes.ts';
import { singleFlight } from './single-flight.ts';

/**
 * How long a failed refresh answers for the upstream: a hostile or broken page then costs one fetch and
 * one parse per this period, however many requests arrive. Short, since it only ever delays a 200.
 */
export const FAILURE_MEMORY_MS = 10_000;

export interface CalendarResponse {
  /** The payload as a value (the MCP tools), and below as the bytes the HTTP route sends. */
  payload: GitHubContributions;
  rep: Representation;
  /** The next midnight (in the calendar's zone) after the payload's day: the end of its validity, in Unix ms. */
  expiresAtMs: number;
}

export interface ContributionsRoute {
  /** The current calendar; synchronous while the cached one is valid, throws a remembered failure. */
  current(): CalendarResponse | Promise<CalendarResponse>;
}

export function contributionsRoute(
  sources: Sources,
  resource: DataResource,
  validator: Validator,
  codec: BodyCodec,
  now: () => number,
  /** Whether requests share a fetch in flight (GatewayDeps.sharedFetches); the answer is shared either way. */
  shared = true,
): ContributionsRoute {
  let cached: CalendarResponse | undefined;
  const flight = singleFlight<CalendarResponse>(shared);

  const toResponse = (payload: GitHubContributions): CalendarResponse => ({
    payload,
    // Refreshed once a day: a mid-range brotli quality keeps the refresh quick for the waiting requests.
    rep: prepare(codec, utf8(JSON.stringify(payload)), resource.contentType, { brotliQuality: 9 }),
    expiresAtMs: Date.parse(payload.nextRefreshAt),
  });

  /** Until when a refresh in flight answers for "today": a fetch begun before midnight does not serve requests after it. */
  let inflightUntilMs = 0;
  /** The last refresh's failure and until when it is the answer. */
  let failure: { error: unknown; untilMs: number } | undefined;

  const refresh = (): Promise<CalendarResponse> => {
    const nowMs = now();
    inflightUntilMs = calendarWindow(nowMs, sources.github.timeZone).nextRefreshAtMs;
    return flight.start(() =>
      fetchContributions(sources, nowMs)
        .then((payload) => {
          validator.validate(resource.schema, payload);
          const response = toResponse(payload);
          // A refresh of yesterday that finishes late never replaces today's.
          if (cached === undefined || response.expiresAtMs >= cached.expiresAtMs) cached = response;
          failure = undefined;
          return response;
        })
        .catch((error: unknown) => {
          failure = { error, untilMs: now() + FAILURE_MEMORY_MS };
          throw error;
        }),
    );
  };

  return {
    current() {
      const t = now();
      if (cached !== undefined && t < cached.expiresAtMs) return cached;
      if (failure !== undefined && t < failure.untilMs && flight.pending === undefined) throw failure.error;
      return flight.pending !== undefined && t < inflightUntilMs ? flight.pending : refresh();
    },
  };
}
