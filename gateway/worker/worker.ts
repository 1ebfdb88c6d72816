// The gateway as a Cloudflare Worker: the core (gateway/core/gateway.ts) with what a Worker has instead of
// a Node process. The client is CF-Connecting-IP, keyed as the Node gateway keys an address; the quota counts in Durable Objects (quota-counter.ts);
// the calendar's days come through one Durable Object (calendar-day.ts); documents and cards are static
// assets answered from the Node gateway's own table (worker-static.ts); payloads are checked by validators
// compiled when the bundle was made (no code is generated at run time: Workers forbid it). The
// configuration is the bundle's (gateway/worker/deployment.ts), checked by builders/lib/config.ts when it was made and again
// here; the secrets alone (GITHUB_TOKEN and a dataset's own) are read from the Worker's bindings, where
// `wrangler secret put` sets them.
import { createHash } from 'node:crypto';
import baked from 'edge:deployment';
import * as checks from 'edge:validators';
import { liveFeedUrl, loadConfig, type Config } from '../../builders/lib/config.ts';
import { oneLine } from '../../builders/lib/text/one-line.ts';
import { quotaKey } from '../../builders/lib/client-address.ts';
import { compiledValidator } from '../../builders/contract/validation.ts';
import { httpOptions } from '../../builders/upstreams/http.ts';
import { connectSources, createDeployment, datasets, type Sources } from '../../builders/datasets/registry.ts';
import { createGateway, INTERNAL_ERROR_TEXT, type CoreRequest, type Gateway } from '../core/gateway.ts';
import { createQuota, DISABLED_QUOTA, type Quota } from '../core/quota.ts';
import type { BodyCodec } from '../core/http/representation.ts';
import { readRequestBody, targetOf, toResponse } from '../core/http/web.ts';
import { workerStatic, type AssetsBinding } from './worker-static.ts';
import { durableQuotaStore, QuotaCounter, type CounterNamespace } from './quota-counter.ts';
import { CalendarDayObject, sharedSources, type CalendarNamespace } from './calendar-day.ts';

export { QuotaCounter };

export interface Env {
  ASSETS: AssetsBinding;
  QUOTA: CounterNamespace;
  CALENDAR: CalendarNamespace;
  GITHUB_TOKEN?: string;
}

/**
 * How long the quota waits for its object. The Node gateway's 50 ms budget is for a Redis next to it;
 * an object lives in one place for the whole world, and a request from the other side of it waits a
 * round trip of 100 to 300 ms: with 50 ms, far clients would never be counted.
 */
const DURABLE_OBJECT_BUDGET_MS = 1_000;
const MAX_LINE = 300;

/** ETags as the Node gateway makes them (SHA-256, base64url); nothing is compressed here (the edge does). */
const WORKER_CODEC: BodyCodec = {
  tag: (body) => createHash('sha256').update(body).digest('base64url').slice(0, 27),
};

const report = (line: string) => console.error(`gateway: ${oneLine(line, MAX_LINE)}`);

interface Isolate {
  gateway: Gateway;
  fill: (body: Uint8Array | undefined) => Promise<void> | undefined;
}

/** The configuration as the bundle carries it, with the secrets from the bindings. */
function configOf(env: Env): Config {
  const bindings = env as unknown as Record<string, unknown>;
  const secrets = baked.secrets.flatMap((name) =>
    typeof bindings[name] === 'string' ? [[name, bindings[name] as string] as const] : [],
  );
  return loadConfig({ ...baked.env, ...Object.fromEntries(secrets) }, baked.site);
}

/** Made at an isolate's first request (a Worker's bindings arrive with it) and kept for its life. */
let isolate: Isolate | undefined;

function isolateOf(env: Env): Isolate {
  if (isolate) return isolate;
  const config = configOf(env);
  // The Worker's deployment, made once: the bundle's schemas, validators compiled when it was made, and the
  // sources with their shareable readings (the calendar's days) read through one Durable Object each.
  const deployment = createDeployment(config, {
    schemas: () => new Map(baked.schemas.map((s) => [s.title, s])),
    validator: () => compiledValidator(checks),
    http: httpOptions(config),
    sources: (connected) => (env.CALENDAR ? sharedSources(connected, env.CALENDAR) : connected),
  });
  const site = workerStatic(baked.files, deployment.service, env.ASSETS, WORKER_CODEC, liveFeedUrl(config));
  const quota: Quota =
    config.rateLimitQuota === undefined
      ? DISABLED_QUOTA
      : createQuota({
          quota: config.rateLimitQuota,
          windowSeconds: config.rateLimitWindow,
          store: durableQuotaStore(env.QUOTA),
          now: Date.now,
          budgetMs: DURABLE_OBJECT_BUDGET_MS,
          onUnavailable: (reason) => report(`quota store skipped: ${reason}`),
        });
  const gateway = createGateway({
    deployment,
    table: site.table,
    quota,
    codec: WORKER_CODEC,
    now: Date.now,
    reportError: report,
    // A fetch started by one request is that request's: another request waiting on it after it ended
    // waited for ever, and the market route answered 502 for minutes (issue 41). The calendar's days are
    // still fetched once for everyone, by their Durable Object.
    sharedFetches: false,
  });
  isolate = { gateway, fill: site.fill };
  return isolate;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    let gateway: Isolate;
    try {
      gateway = isolateOf(env);
    } catch (error) {
      report(`cannot start: ${error instanceof Error ? error.message : String(error)}`);
      return toResponse(request.method, INTERNAL_ERROR_TEXT);
    }
    const headers: Record<string, string | undefined> = Object.fromEntries(request.headers);
    // Content coding is the platform's: Cloudflare sends a Worker `Accept-Encoding: br, gzip` whatever the
    // client said, and compresses (or decodes) the answer for the client itself. The core is asked as by
    // a client that names no coding, so it answers the identity bytes under their own strong ETag (as
    // Node does for such a client), never a copy whose ETag would name other bytes than the client gets.
    headers['accept-encoding'] = undefined;
    const req: CoreRequest = { method: request.method, url: targetOf(request.url), headers };
    // Cloudflare sets CF-Connecting-IP on every request it passes to a Worker, replacing any a client sent.
    // Keyed as the Node gateway keys a socket's address: one count per IPv4 address or IPv6 /64, whatever
    // the spelling.
    const connecting = request.headers.get('cf-connecting-ip');
    const client = connecting === null ? null : quotaKey(connecting);
    const answer = await gateway.gateway.handle(req, client, (_, maxBytes) => readRequestBody(request, maxBytes));
    try {
      if (request.method !== 'HEAD') await gateway.fill(answer.body);
      return toResponse(request.method, answer);
    } catch (error) {
      report(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      return toResponse(request.method, INTERNAL_ERROR_TEXT);
    }
  },
};

/** A shared reading's one object: it reads with the deployment's own sources, connected as the isolates connect them. */
export class CalendarDay extends CalendarDayObject {
  private own: Sources | undefined;
  protected sources(): Sources {
    // Connected once for the object's life: the configuration is read at its first reading, not at each.
    if (this.own === undefined) {
      const config = configOf(this.env as Env);
      this.own = connectSources(datasets(config), config, httpOptions(config));
    }
    return this.own;
  }
}
