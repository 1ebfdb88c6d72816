// Each dataset's live route, by id, built at start from the deployment (builders/datasets/registry.ts): its source's
// route, by its cache policy (the market's read on every request, the calendar's answer kept until the next
// midnight, the projects' for an hour), or a route derived from another dataset's, which reads that dataset's route and never an upstream of
// its own. The request handler and the MCP tools read the same routes.
import type { Config } from '../../../builders/lib/config.ts';
import type { DataResource, DataResourceId } from '../../../builders/contract/service.ts';
import type { Validator } from '../../../builders/contract/schemas.ts';
import type { Dataset, DatasetSource } from '../../../builders/datasets/dataset.ts';
import type { Sources } from '../../../builders/datasets/registry.ts';
import { prepare, type BodyCodec, type Representation } from '../http/representation.ts';
import { utf8 } from '../http/bytes.ts';
import { keptRoute } from './kept-route.ts';

/** A dataset's answer of this instant: the payload as a value (the MCP tools) and as the bytes sent. */
export interface LiveAnswer {
  payload: unknown;
  body: Uint8Array;
  /** An answer kept until `expiresAtMs` (the `until-midnight` policy), with its compressed variants. */
  kept?: { rep: Representation; expiresAtMs: number };
}

export interface DataRoute {
  /** The answer of this instant; synchronous while a kept one is valid; throws or rejects when there is none. */
  current(): LiveAnswer | Promise<LiveAnswer>;
}

/**
 * A source's route by its dataset's cache policy: `per-request` reads the source for every request (its
 * `live` reading, which may share what may be shared, else its fetch), and nothing is kept; a kept policy
 * keeps one answer until the source says (kept-route.ts).
 */
function sourceRoute(
  source: DatasetSource<unknown>,
  resource: DataResource,
  validator: Validator,
  codec: BodyCodec,
  now: () => number,
  shared: boolean,
): DataRoute {
  if (resource.cache !== 'per-request') return keptRoute(source, resource, validator, codec, now, shared);
  const check = (payload: unknown) => validator.validate(resource.schema, payload);
  const read =
    source.live?.({ shared, now, check }) ??
    (() =>
      source.fetch(now()).then((payload) => {
        check(payload);
        return payload;
      }));
  const json = source.json?.() ?? JSON.stringify;
  return { current: () => read().then((payload) => ({ payload, body: utf8(json(payload)) })) };
}

/**
 * A derived dataset's route: computed from the other route's answer, once per answer, and kept exactly as
 * long. When the other has no answer, neither has this one: the same failure, never anything else.
 */
function derivedRoute(
  base: DataRoute,
  resource: DataResource,
  derive: (from: unknown, config: Config) => unknown,
  config: Config,
  validator: Validator,
  codec: BodyCodec,
): DataRoute {
  const answers = new WeakMap<LiveAnswer, LiveAnswer>();
  const answer = (from: LiveAnswer): LiveAnswer => {
    let a = answers.get(from);
    if (a === undefined) {
      const payload = derive(from.payload, config);
      validator.validate(resource.schema, payload);
      const body = utf8(JSON.stringify(payload));
      a = from.kept
        ? {
            payload,
            body,
            kept: {
              rep: prepare(codec, body, resource.contentType, { brotliQuality: 9 }),
              expiresAtMs: from.kept.expiresAtMs,
            },
          }
        : { payload, body };
      answers.set(from, a);
    }
    return a;
  };
  return {
    current() {
      const from = base.current();
      return from instanceof Promise ? from.then(answer) : answer(from);
    },
  };
}

/** The routes of the registered datasets, in the registry's order (an origin before what derives from it). */
export function dataRoutes(
  datasets: readonly Dataset[],
  sources: Sources,
  config: Config,
  validator: Validator,
  codec: BodyCodec,
  now: () => number,
  /** Whether requests share an upstream fetch in flight (GatewayDeps.sharedFetches). */
  shared = true,
): ReadonlyMap<DataResourceId, DataRoute> {
  const routes = new Map<DataResourceId, DataRoute>();
  for (const { resource, origin } of datasets) {
    const route =
      'upstream' in origin
        ? sourceRoute(sources.get(resource.id)!, resource, validator, codec, now, shared)
        : derivedRoute(routes.get(origin.derivedFrom)!, resource, origin.derive, config, validator, codec);
    routes.set(resource.id, route);
  }
  return routes;
}
