// The contribution calendar: one rolling-year response kept in memory until the next midnight in
// America/Toronto, refreshed by one upstream fetch shared by every request that arrives meanwhile.
// A failed refresh is not remembered (the next request tries again) and an expired answer is never
// served: after midnight it is either today's calendar or the 502 problem.
import type { Config } from '../core/config.ts';
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

export interface ContributionsRouteOptions {
  /** The dist/ snapshot, used as the first answer when it is today's and validates. */
  snapshot?: Buffer;
  /** Reports why the snapshot was not used (one line). */
  onSnapshotRejected?: (reason: string) => void;
}

export function contributionsRoute(
  sources: Sources,
  config: Config,
  validator: Validator,
  now: () => number,
  options: ContributionsRouteOptions = {},
): ContributionsRoute {
  const resource = dataResource('contributions');
  let cached: CalendarResponse | undefined;
  const flight = singleFlight<CalendarResponse>();

  const toResponse = (payload: GitHubContributions, body: Buffer): CalendarResponse => ({
    // Refreshed once a day: a mid-range brotli quality keeps the refresh quick for the waiting requests.
    rep: prepare(body, resource.contentType, { brotliQuality: 9 }),
    expiresAtMs: Date.parse(payload.nextRefreshAt),
  });

  if (options.snapshot !== undefined) {
    try {
      const payload = JSON.parse(options.snapshot.toString('utf8')) as GitHubContributions;
      validator.validate(resource.schema, payload);
      const window = calendarWindow(now());
      if (payload.endDate !== window.endDate) throw new Error(`it ends on ${payload.endDate}, not today (${window.endDate})`);
      if (payload.username.toLowerCase() !== config.githubAccount.toLowerCase()) throw new Error(`it is the calendar of ${payload.username}`);
      cached = { ...toResponse(payload, options.snapshot), expiresAtMs: window.nextRefreshAtMs };
    } catch (error) {
      options.onSnapshotRejected?.(error instanceof Error ? error.message : String(error));
    }
  }

  /** Until when a refresh in flight answers for "today": a fetch begun before midnight does not serve requests after it. */
  let inflightUntilMs = 0;

  const refresh = (): Promise<CalendarResponse> => {
    const nowMs = now();
    inflightUntilMs = calendarWindow(nowMs).nextRefreshAtMs;
    return flight.start(() =>
      fetchContributions(sources, config, nowMs).then((payload) => {
        validator.validate(resource.schema, payload);
        const response = toResponse(payload, Buffer.from(JSON.stringify(payload)));
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
