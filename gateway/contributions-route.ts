// The contribution calendar: one rolling-year response kept in memory until the next midnight in
// America/Toronto, refreshed by one upstream fetch shared by every request that arrives meanwhile.
// A failed refresh is not remembered (the next request tries again) and an expired answer is never
// served: after midnight it is either today's calendar or the 502 problem.
// The snapshot in dist/ is not used as a first answer, even when it is today's: it was built from the
// upstream as it was then, possibly with another source or another account, and the gateway's answer
// must say what the upstream says now (an unusable upstream is a 502, not yesterday's build's 200).
import type { GitHubContributions } from '../core/contributions.ts';
import { dataResource } from '../core/routes.ts';
import type { Validator } from '../core/schemas.ts';
import { fetchContributions, type Sources } from '../core/sources.ts';
import { calendarWindow } from '../core/toronto-calendar.ts';
import { prepare, type Representation } from './representation.ts';
import { singleFlight } from './single-flight.ts';

export interface CalendarResponse {
  rep: Representation;
  /** The next Toronto midnight after the payload's day: the end of its validity, in Unix ms. */
  expiresAtMs: number;
}

export interface ContributionsRoute {
  /** The current calendar; synchronous while the cached one is valid. */
  current(): CalendarResponse | Promise<CalendarResponse>;
}

export function contributionsRoute(sources: Sources, validator: Validator, now: () => number): ContributionsRoute {
  const resource = dataResource('contributions');
  let cached: CalendarResponse | undefined;
  const flight = singleFlight<CalendarResponse>();

  const toResponse = (payload: GitHubContributions): CalendarResponse => ({
    // Refreshed once a day: a mid-range brotli quality keeps the refresh quick for the waiting requests.
    rep: prepare(Buffer.from(JSON.stringify(payload)), resource.contentType, { brotliQuality: 9 }),
    expiresAtMs: Date.parse(payload.nextRefreshAt),
  });

  /** Until when a refresh in flight answers for "today": a fetch begun before midnight does not serve requests after it. */
  let inflightUntilMs = 0;

  const refresh = (): Promise<CalendarResponse> => {
    const nowMs = now();
    inflightUntilMs = calendarWindow(nowMs).nextRefreshAtMs;
    return flight.start(() =>
      fetchContributions(sources, nowMs).then((payload) => {
        validator.validate(resource.schema, payload);
        const response = toResponse(payload);
        // A refresh of yesterday that finishes late never replaces today's.
        if (cached === undefined || response.expiresAtMs >= cached.expiresAtMs) cached = response;
        return response;
      }),
    );
  };

  return {
    current() {
      const t = now();
      if (cached !== undefined && t < cached.expiresAtMs) return cached;
      return flight.pending !== undefined && t < inflightUntilMs ? flight.pending : refresh();
    },
  };
}
