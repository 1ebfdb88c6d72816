// Each dataset's live route, by id, built at start from the registry (datasets/registry.ts): a source's
// own route (the market's reads on every request, the calendar's answer kept until the next midnight),
// or a route derived from another dataset's, which reads that dataset's route and never an upstream of
// its own. The request handler and the MCP tools read the same routes.
import type { Config } from '../../../lib/config.ts';
import type { DataResource, DataResourceId } from '../../../contract/service.ts';
import type { Validator } from '../../../contract/schemas.ts';
import type { SourceName, Sources } from '../../../upstreams/sources.ts';
import type { Dataset } from '../../../datasets/dataset.ts';
import { prepare, type BodyCodec, type Representation } from '../http/representation.ts';
import { utf8 } from '../http/bytes.ts';
import { contributionsRoute, type CalendarResponse } from './contributions.ts';
import { marketJson, marketRoute } from './market.ts';
import { upstreamRoute } from './upstream-route.ts';
import { httpOptions } from '../../../upstreams/sources.ts';

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

type SourceRoute = (
  sources: Sources,
  resource: DataResource,
  validator: Validator,
  codec: BodyCodec,
  now: () => number,
  shared: boolean,
) => DataRoute;

/** One live route per source: how the gateway reads it (upstreams/sources.ts names them). */
const SOURCE_ROUTES: { readonly [K in SourceName]: SourceRoute } = {
  coinbase: (sources, resource, validator, _codec, now, shared) => {
    // Registered only when the deployment has a market, and then it has its source.
    const route = marketRoute(sources.coinbase!, resource, validator, now, shared);
    const json = marketJson();
    return {
      current: () => route.data().then((payload) => ({ payload, body: utf8(json(payload)) })),
    };
  },
  github: (sources, resource, validator, codec, now, shared) => {
    const route = contributionsRoute(sources, resource, validator, codec, now, shared);
    // The cached calendar is the same object until it expires: its answer is made once.
    const answers = new WeakMap<CalendarResponse, LiveAnswer>();
    const answer = (c: CalendarResponse): LiveAnswer => {
      let a = answers.get(c);
      if (a === undefined) {
        a = { payload: c.payload, body: c.rep.identity.body, kept: { rep: c.rep, expiresAtMs: c.expiresAtMs } };
        answers.set(c, a);
      }
      return a;
    };
    return {
      current() {
        const c = route.current();
        return c instanceof Promise ? c.then(answer) : answer(c);
      },
    };
  },
};

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
      'source' in origin
        ? SOURCE_ROUTES[origin.source](sources, resource, validator, codec, now, shared)
        : 'upstream' in origin
          ? upstreamRoute(
              origin.upstream.connect(config, sources.http ?? httpOptions(config)),
              origin.upstream.keepMs,
              resource,
              validator,
              codec,
              now,
              shared,
            )
          : derivedRoute(routes.get(origin.derivedFrom)!, resource, origin.derive, config, validator, codec);
    routes.set(resource.id, route);
  }
  return routes;
}
