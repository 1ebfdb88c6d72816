// The Redis quota store shared by every gateway instance (RATE_LIMIT_REDIS_URL). Every decision of one
// event-loop turn goes to Redis in one round trip: one script call over all their keys, which increments
// each key and sets its expiry in one atomic step. Nothing waits for a Redis that is away or slow: while
// the link is down, late or full, a decision fails at once and the request is served without quota
// headers (docs/data-rules.md). A failed link opens the circuit: the store is not asked again before a backoff
// of 0.1 to 2 s, then a new connection must answer PING before it carries decisions again.
import { oneLine } from '../../lib/one-line.ts';
import { redisTarget } from '../../lib/redis-url.ts';
import { CONSTANTS } from '../../contract/service.ts';
import { StoreUnavailable, type QuotaStore } from './quota.ts';
import { openRedisLink, type LinkOptions, type RedisLink } from './redis-link.ts';
import type { Reply } from './resp.ts';

/**
 * KEYS[i] is one decision's key, ARGV[i] its expiry in seconds: INCR, and EXPIRE on the first count, so
 * the key of a window disappears soon after the window ends. A key named twice counts twice, in order.
 */
const INCREMENT_SCRIPT = `local counts = {}
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  if count == 1 then redis.call('EXPIRE', KEYS[i], ARGV[i]) end
  counts[i] = count
end
return counts`;

/** Most keys in one script call; a busier turn sends several calls in one write. */
const MAX_KEYS_PER_CALL = 1000;
/** Most decisions batched or sent and not yet answered; past it a decision fails at once. */
const MAX_WAITING = 10_000;
/** Backoff of the circuit breaker after the n-th failure in a row: 100 ms doubling, at most 2 s. */
const backoffMs = (failures: number) => Math.min(100 * 2 ** failures, 2000);

export interface RedisStoreOptions {
  /** Called once when the store becomes unusable and once when it is back (one line each, no stack). */
  onStateChange?: (line: string) => void;
  connectTimeoutMs?: number;
  /** A batch unanswered this long holds back the next decisions (they fail at once). Default: the 50 ms budget. */
  lateMs?: number;
  /** A decision unanswered this long closes the connection and opens the circuit. Default 1000 ms. */
  deadlineMs?: number;
}

export interface RedisQuotaStore extends QuotaStore {
  /** Resolves when the first connection is ready or has failed, at most after `ms`. */
  ready(ms: number): Promise<void>;
}

interface Decision {
  key: string;
  ttl: string;
  resolve: (count: number) => void;
  reject: (error: Error) => void;
}

/** The decisions of one event-loop turn, sent as one or more script calls in one write. */
interface Batch {
  decisions: Decision[];
  /** Script calls not yet answered (1 until it is sent). */
  calls: number;
  late: boolean;
  timer: NodeJS.Timeout | undefined;
}

export function redisQuotaStore(url: string, options: RedisStoreOptions = {}): RedisQuotaStore {
  const target = redisTarget(url);
  const lateMs = options.lateMs ?? CONSTANTS.quotaStoreBudgetMs;
  const linkOptions: LinkOptions = {
    connectTimeoutMs: options.connectTimeoutMs ?? 1000,
    deadlineMs: options.deadlineMs ?? 1000,
    maxUnsentBytes: 1024 * 1024,
    // The script answers an array of MAX_KEYS_PER_CALL integers at most; anything larger is no answer of ours.
    limits: { maxString: 512, maxArray: MAX_KEYS_PER_CALL, maxDepth: 1 },
  };
  // Refusals are shared values: a failing store under load must not cost an allocation per request.
  // The store reports an outage itself, once (StoreUnavailable); the other two the quota reports, throttled.
  const down = new StoreUnavailable(`quota store ${target.label} unavailable`);
  const late = new Error(`an earlier decision has waited more than ${lateMs} ms`);
  const full = new Error(`${MAX_WAITING} decisions are waiting for the store`);

  let link: RedisLink | undefined;
  let opening = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let healthy: boolean | undefined;
  let closing = false;
  let batch: Batch | undefined;
  /** Decisions batched or sent and not yet answered. */
  let waiting = 0;
  /** Batches sent and unanswered past `lateMs`: while there is one, nothing is sent behind it. */
  let lateBatches = 0;
  const settled = new Set<() => void>();

  const report = (ok: boolean, line: string) => {
    if (closing || healthy === ok) return;
    healthy = ok;
    options.onStateChange?.(line);
  };

  const lost = (reason: string) => {
    link = undefined;
    report(false, `quota store ${target.label} unavailable: ${reason}`);
    if (closing) return;
    retry = setTimeout(connect, backoffMs(failures++));
    retry.unref();
  };

  function connect() {
    retry = undefined;
    opening = true;
    openRedisLink(target, linkOptions, lost).then(
      (opened) => {
        opening = false;
        for (const wake of settled) wake();
        if (closing) return void opened.close(0);
        link = opened;
        // A reconnection is reported by the first answer that makes sense (below), so that a store that
        // shakes hands and then answers nonsense is reported once, not at every attempt.
        if (healthy === undefined) report(true, `quota store ${target.label} connected`);
      },
      (error: Error) => {
        opening = false;
        for (const wake of settled) wake();
        lost(error.message);
      },
    );
  }

  const markLate = (b: Batch) => {
    if (b.calls === 0) return;
    b.late = true;
    lateBatches++;
  };

  /** One script call of a batch has its answer (or none will come). */
  const called = (b: Batch) => {
    if (--b.calls > 0) return;
    clearTimeout(b.timer);
    if (b.late) lateBatches--;
  };

  const call = (b: Batch, decisions: Decision[]) => {
    const current = link;
    if (current === undefined || lateBatches > 0) {
      called(b);
      waiting -= decisions.length;
      const error = current === undefined ? down : late;
      for (const d of decisions) d.reject(error);
      return;
    }
    const args = ['EVAL', INCREMENT_SCRIPT, String(decisions.length)];
    for (const d of decisions) args.push(d.key);
    for (const d of decisions) args.push(d.ttl);
    current.send(args, (error, reply) => {
      called(b);
      waiting -= decisions.length;
      if (error !== undefined) {
        const unavailable = new StoreUnavailable(error.message);
        for (const d of decisions) d.reject(unavailable);
        return;
      }
      const counts = countsOf(reply!, decisions.length);
      if (typeof counts === 'string') {
        // Nonsense locks nobody out: the decisions are unaccounted and the link is dropped at once,
        // before it hands on another reply: a store that answers out of turn leaves none trustworthy.
        current.fail(counts);
        const unavailable = new StoreUnavailable(counts);
        for (const d of decisions) d.reject(unavailable);
        return;
      }
      failures = 0;
      report(true, `quota store ${target.label} connected`);
      for (let i = 0; i < decisions.length; i++) decisions[i]!.resolve(counts[i]!);
    });
  };

  const flush = () => {
    const b = batch!;
    batch = undefined;
    const { decisions } = b;
    b.calls = Math.ceil(decisions.length / MAX_KEYS_PER_CALL);
    for (let i = 0; i < decisions.length; i += MAX_KEYS_PER_CALL) call(b, decisions.slice(i, i + MAX_KEYS_PER_CALL));
  };

  connect();

  return {
    increment(key, ttlSeconds) {
      if (link === undefined) return Promise.reject(down);
      if (lateBatches > 0) return Promise.reject(late);
      if (waiting >= MAX_WAITING) return Promise.reject(full);
      waiting++;
      if (batch === undefined) {
        // Requests parsed in one turn of the event loop land in one batch, sent after the turn's I/O.
        // Its lateness timer is set before the quota sets the first decision's budget timer (same
        // duration, so it fires first): by the time a decision is served unaccounted, the next one
        // already sees the store as late and is not sent behind it.
        const b: Batch = { decisions: [], calls: 1, late: false, timer: undefined };
        b.timer = setTimeout(markLate, lateMs, b);
        batch = b;
        setImmediate(flush);
      }
      const decisions = batch.decisions;
      return new Promise<number>((resolve, reject) => {
        decisions.push({ key, ttl: String(ttlSeconds), resolve, reject });
      });
    },
    ready(ms) {
      if (!opening) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          settled.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        settled.add(done);
      });
    },
    async close() {
      closing = true;
      clearTimeout(retry);
      // A Redis that hangs must not hold the shutdown.
      await link?.close(500);
      link = undefined;
    },
  };
}

/** The counts in the script's answer, or why the answer is none: only positive integers, one per key. */
function countsOf(reply: Reply, expected: number): number[] | string {
  if (reply.type === 'error') return `the quota script failed: ${oneLine(reply.message, 200)}`;
  if (reply.type !== 'array' || reply.items === null || reply.items.length !== expected) {
    const what = reply.type === 'array' ? `an array of ${reply.items?.length ?? 'nil'}` : `a ${reply.type} reply`;
    return `the quota script answered ${what}, not ${expected} counts`;
  }
  const counts: number[] = [];
  for (const item of reply.items) {
    // INCR counts from 1; anything else (a string, a nil, zero, a negative) is no count of ours.
    if (item.type !== 'integer' || item.value < 1) return `the quota script answered a count that is no count`;
    counts.push(item.value);
  }
  return counts;
}
