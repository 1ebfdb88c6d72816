// The live route of a dataset whose answer is kept (the `until-midnight` and `hourly` policies): one answer
// kept until its source says (the calendar's next midnight in its zone, the projects' hour), refreshed by one
// upstream fetch shared by every request that arrives meanwhile. A failed refresh is remembered for a few
// seconds (FAILURE_MEMORY_MS): requests meanwhile get the 502 problem at once rather than each fetching and
// parsing a bad page again. An expired answer is never served: after it, either a new answer or the 502.
// The snapshot in dist/ is not used as a first answer, even when it is still valid: it was built from the
// upstream as it was then, possibly with another source or another account, and the gateway's answer
// must say what the upstream says now (an unusable upstream is a 502, not yesterday's build's 200).
import type { DataResource } from '../../../builders/contract/service.ts';
import type { Validator } from '../../../builders/contract/schemas.ts';
import type { DatasetSource } from '../../../builders/datasets/dataset.ts';
import { singleFlight } from '../../../builders/upstreams/single-flight.ts';
import { prepare, type BodyCodec } from '../http/representation.ts';
import { utf8 } from '../http/bytes.ts';
import type { DataRoute, LiveAnswer } from './data-routes.ts';

/**
 * How long a failed refresh answers for the upstream: a hostile or broken page then costs one fetch and
 * one parse per this period, however many requests arrive. Short, since it only ever delays a 200.
 */
export const FAILURE_MEMORY_MS = 10_000;

/** A kept answer: the payload, its bytes and compressed variants, and the end of its validity in Unix ms. */
export type KeptAnswer = LiveAnswer & { kept: NonNullable<LiveAnswer['kept']> };

export interface KeptRoute extends DataRoute {
  /** The current answer; synchronous while the kept one is valid, throws a remembered failure. */
  current(): KeptAnswer | Promise<KeptAnswer>;
}

export function keptRoute(
  source: DatasetSource<unknown>,
  resource: DataResource,
  validator: Validator,
  codec: BodyCodec,
  now: () => number,
  /** Whether requests share a fetch in flight (GatewayDeps.sharedFetches); the answer is shared either way. */
  shared = true,
): KeptRoute {
  // A kept policy without a keeping rule would ask the upstream on every request: a declaration mistake,
  // said when the gateway starts, not found in its upstream's bill.
  const { keptUntil } = source;
  if (keptUntil === undefined)
    throw new Error(`${resource.id}: its cache policy is ${resource.cache}, but its source declares no keptUntil`);
  let cached: KeptAnswer | undefined;
  const flight = singleFlight<KeptAnswer>(shared);

  const toAnswer = (payload: unknown, fetchedAtMs: number): KeptAnswer => {
    // Refreshed at most hourly: a mid-range brotli quality keeps the refresh quick for the waiting requests.
    const rep = prepare(codec, utf8(JSON.stringify(payload)), resource.contentType, { brotliQuality: 9 });
    return { payload, body: rep.identity.body, kept: { rep, expiresAtMs: keptUntil(payload, fetchedAtMs) } };
  };

  /** Until when a refresh in flight answers (the calendar's: a fetch begun before midnight does not serve requests after it). */
  let inflightUntilMs = 0;
  /** The last refresh's failure and until when it is the answer. */
  let failure: { error: unknown; untilMs: number } | undefined;

  const refresh = (): Promise<KeptAnswer> => {
    const nowMs = now();
    inflightUntilMs = source.answersUntil?.(nowMs) ?? Infinity;
    return flight.start(() =>
      source
        .fetch(nowMs)
        .then((payload) => {
          validator.validate(resource.schema, payload);
          const answer = toAnswer(payload, nowMs);
          // A refresh of yesterday that finishes late never replaces today's.
          if (cached === undefined || answer.kept.expiresAtMs >= cached.kept.expiresAtMs) cached = answer;
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
      return flight.pending !== undefined && t < inflightUntilMs ? flight.pending : refresh();
    },
  };
}
