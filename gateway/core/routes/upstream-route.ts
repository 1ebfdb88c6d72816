// The live route of a dataset with its own upstream (datasets/<id>/source.ts): one answer kept for the
// upstream's `keepMs` (the projects' hour), refreshed by one fetch shared by every request that arrives
// meanwhile. A failed refresh answers for FAILURE_MEMORY_MS, as the calendar's does; an expired answer is
// never served.
import type { DataResource } from '../../../contract/service.ts';
import type { Validator } from '../../../contract/schemas.ts';
import { prepare, type BodyCodec } from '../http/representation.ts';
import { utf8 } from '../http/bytes.ts';
import { singleFlight } from './single-flight.ts';
import { FAILURE_MEMORY_MS } from './contributions.ts';
import type { DataRoute, LiveAnswer } from './data-routes.ts';

export function upstreamRoute(
  fetch: (nowMs: number) => Promise<unknown>,
  keepMs: number,
  resource: DataResource,
  validator: Validator,
  codec: BodyCodec,
  now: () => number,
  /** Whether requests share a fetch in flight (GatewayDeps.sharedFetches); the answer is kept either way. */
  shared = true,
): DataRoute {
  let cached: (LiveAnswer & { kept: NonNullable<LiveAnswer['kept']> }) | undefined;
  let failure: { error: unknown; untilMs: number } | undefined;
  const flight = singleFlight<LiveAnswer>(shared);
  const refresh = (): Promise<LiveAnswer> => {
    const nowMs = now();
    return flight.start(() =>
      fetch(nowMs)
        .then((payload) => {
          validator.validate(resource.schema, payload);
          const body = utf8(JSON.stringify(payload));
          const answer = {
            payload,
            body,
            kept: {
              rep: prepare(codec, body, resource.contentType, { brotliQuality: 9 }),
              expiresAtMs: nowMs + keepMs,
            },
          };
          cached = answer;
          failure = undefined;
          return answer;
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
      if (cached !== undefined && t < cached.kept.expiresAtMs) return cached;
      if (failure !== undefined && t < failure.untilMs && flight.pending === undefined) throw failure.error;
      return flight.pending ?? refresh();
    },
  };
}
