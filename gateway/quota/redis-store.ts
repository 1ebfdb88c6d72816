// The Redis quota store shared by every gateway instance (RATE_LIMIT_REDIS_URL), on ioredis. Every
// decision of one event-loop turn goes to Redis in one round trip: one script call per hash slot over all
// their keys, which increments each key and sets its expiry in one atomic step. Nothing waits for a Redis
// that is away or slow: while the link is down, late or full, a decision fails at once and the request is
// served without quota headers (docs/gateway.md). A failed link, or a failed opening, opens the circuit:
// the store is not asked again before a backoff of 0.1 to 2 s, then a new link is opened (redis-link.ts)
// and must shake hands before it carries decisions. Every reply is validated here before it is used.
//
// The keys of one window share a hash tag (quota.ts), so a turn's keys normally live in one slot; a turn
// that straddles a window boundary holds two tags, and each gets its own call, since Redis runs a script
// only over keys of one slot (a call across two is refused with CROSSSLOT).
import { CONSTANTS } from '../../builders/contract/service.ts';
import { redisTarget } from '../../builders/lib/redis-url.ts';
import { StoreUnavailable, type QuotaStore } from '../core/quota.ts';
import { ClusterSeeds } from './cluster-map.ts';
import { describeStoreError, linkOpener, shapeOf, unsentBytes, type Link, type LinkEvents } from './redis-link.ts';

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
/** Bytes written and not yet taken by the store before the link gives up on it. */
const MAX_UNSENT_BYTES = 1024 * 1024;
/** Backoff of the circuit breaker after the n-th failure in a row: 100 ms doubling, at most 2 s. */
const backoffMs = (failures: number) => Math.min(100 * 2 ** failures, 2000);
/**
 * Good answers in a row that reset the backoff, and that end an outage caused by the store's answers
 * (a refusal, nonsense): a store that alternates good and bad answers stays at the longest backoff and
 * is reported once, then periodically, instead of twice per reconnection. An outage of the connection
 * itself (Redis restarted) ends at the first good answer.
 */
const GOOD_RUN = 5;

export interface RedisStoreOptions {
  /** Called when the store becomes unusable, periodically while it stays so, and once when it is back. */
  onStateChange?: (line: string) => void;
  connectTimeoutMs?: number;
  /** A batch unanswered this long holds back the next decisions (they fail at once). Default: the 50 ms budget. */
  lateMs?: number;
  /** A decision unanswered this long closes the connection and opens the circuit. Default 1000 ms. */
  deadlineMs?: number;
  /** While the store is unusable, a line this often says so again. Default one minute. */
  reportEveryMs?: number;
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
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const deadlineMs = options.deadlineMs ?? 1000;
  const reportEveryMs = options.reportEveryMs ?? 60_000;
  const openLink = linkOpener(target, { connectTimeoutMs, deadlineMs });
  // Refusals are shared values: a failing store under load must not cost an allocation per request.
  // The store reports an outage itself (StoreUnavailable); the other two the quota reports, throttled.
  const down = new StoreUnavailable(`quota store ${target.label} unavailable`);
  const late = new Error(`an earlier decision has waited more than ${lateMs} ms`);
  const full = new Error(`${MAX_WAITING} decisions are waiting for the store`);

  let link: Link | undefined;
  let opening = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  let goodRun = 0;
  /** The current outage came from the store's answers: recovery needs a run of GOOD_RUN good ones. */
  let untrusted = false;
  let healthy: boolean | undefined;
  let closing = false;
  let batch: Batch | undefined;
  /** Decisions batched or sent and not yet answered. */
  let waiting = 0;
  /** Batches sent and unanswered past `lateMs`: while there is one, nothing is sent behind it. */
  let lateBatches = 0;
  let lastReason = '';
  let downSince = 0;
  let reminder: NodeJS.Timeout | undefined;
  const settled = new Set<() => void>();
  /** Nodes of the cluster behind the URL, once one was seen: seeds of the next link after the URL's node. */
  const seeds = new ClusterSeeds();
  const events: LinkEvents = {
    onDown: (current, reason, badAnswer) => drop(current, reason, badAnswer),
    onMap: (nodes) => seeds.replace(nodes),
    onNode: (node) => seeds.add(node),
    onSeedFailed: (key) => seeds.forget(key),
  };

  const report = (ok: boolean, line: string) => {
    if (closing || healthy === ok) return;
    healthy = ok;
    clearInterval(reminder);
    reminder = undefined;
    if (!ok) {
      downSince = performance.now();
      // While the quota is off, say so now and then: one line at the start of an outage is easy to miss.
      reminder = setInterval(() => {
        const seconds = Math.round((performance.now() - downSince) / 1000);
        options.onStateChange?.(`quota store ${target.label} still unavailable after ${seconds} s: ${lastReason}`);
      }, reportEveryMs);
      reminder.unref();
    }
    options.onStateChange?.(line);
  };

  const failed = (reason: string) => {
    lastReason = reason;
    goodRun = 0;
    report(false, `quota store ${target.label} unavailable: ${reason}`);
  };

  /** Drops the link at once: its waiting commands fail, and the circuit opens. */
  const drop = (current: Link, reason: string, badAnswer = false) => {
    if (current.state === 'dropped') return;
    if (badAnswer) untrusted = true;
    current.state = 'dropped';
    if (link === current) link = undefined;
    current.client.disconnect();
    failed(reason);
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (closing || retry !== undefined) return;
    retry = setTimeout(connect, backoffMs(failures++));
    retry.unref();
  };

  function connect() {
    retry = undefined;
    opening = true;
    openLink(seeds.list(), events).then(
      (opened) => {
        opening = false;
        for (const wake of settled) wake();
        if (closing) return void opened.client.disconnect();
        opened.state = 'open';
        link = opened;
        // A reconnection is reported after a run of answers that make sense (below), so that a store
        // that shakes hands and then answers nonsense is reported once, not at every attempt.
        if (healthy === undefined) report(true, `quota store ${target.label} connected`);
      },
      (error: unknown) => {
        opening = false;
        for (const wake of settled) wake();
        failed(describeStoreError(error));
        scheduleRetry();
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
    const args: string[] = [];
    for (const d of decisions) args.push(d.key);
    for (const d of decisions) args.push(d.ttl);
    const answered = (reply: unknown, error: unknown) => {
      called(b);
      waiting -= decisions.length;
      current.unanswered = 0;
      const counts = error === undefined ? countsOf(reply, decisions.length) : undefined;
      if (counts === undefined || typeof counts === 'string') {
        // A refusal (an error reply: OOM, NOPERM, a script error) or nonsense locks nobody out: the
        // decisions are unaccounted, the link is dropped and asked again after the backoff. A store that
        // answers out of turn leaves no later reply trustworthy; a store that is away (no answer, a
        // cluster failing over) is trusted again at its first good answer.
        const away = isTimeout(error) || isClusterOutage(error);
        const reason =
          counts ??
          (isTimeout(error)
            ? `no answer within ${deadlineMs} ms`
            : away
              ? `the cluster did not run the quota script (${describeStoreError(error)})`
              : `the quota script was refused (${describeStoreError(error)})`);
        drop(current, reason, !away);
        const unavailable = new StoreUnavailable(reason);
        for (const d of decisions) d.reject(unavailable);
        return;
      }
      if (++goodRun >= GOOD_RUN) {
        failures = 0;
        untrusted = false;
      }
      if (!untrusted) report(true, `quota store ${target.label} connected`);
      for (let i = 0; i < decisions.length; i++) decisions[i]!.resolve(counts[i]!);
    };
    current.client.eval(INCREMENT_SCRIPT, decisions.length, ...args).then(
      (reply) => answered(reply, undefined),
      (error: unknown) => answered(undefined, error),
    );
    if (unsentBytes(current.client) > MAX_UNSENT_BYTES) drop(current, 'the store takes no more commands');
  };

  const flush = () => {
    const b = batch!;
    batch = undefined;
    const calls = scriptCalls(b.decisions);
    b.calls = calls.length;
    for (const decisions of calls) call(b, decisions);
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
      clearInterval(reminder);
      const current = link;
      link = undefined;
      if (current === undefined) return;
      current.state = 'dropped';
      // QUIT after what was sent; a Redis that hangs must not hold the shutdown.
      const grace = setTimeout(() => current.client.disconnect(), 500);
      await current.client.quit().catch(() => undefined);
      clearTimeout(grace);
      current.client.disconnect();
    },
  };
}

/**
 * The hash tag of a Redis Cluster key: "if the key contains a "{" character, and if there is a "}"
 * character to the right of "{", and if there are one or more characters between the first occurrence of
 * "{" and the first occurrence of "}" after it, then instead of hashing the key, only what is between the
 * first occurrence of "{" and the following first occurrence of "}" is hashed" (Redis Cluster
 * specification, hash tags). Keys of one tag share a slot; a key without a tag is its own.
 */
export function hashTag(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/**
 * One turn's decisions as script calls: one group per hash tag (a script runs over one slot), in the
 * order of their first decision, each cut at MAX_KEYS_PER_CALL keys; within a group, decisions keep
 * their order, so a key named twice counts twice in order.
 */
export function scriptCalls<T extends { key: string }>(decisions: T[]): T[][] {
  const byTag = new Map<string, T[]>();
  for (const d of decisions) {
    const tag = hashTag(d.key);
    const group = byTag.get(tag);
    if (group === undefined) byTag.set(tag, [d]);
    else group.push(d);
  }
  const calls: T[][] = [];
  for (const group of byTag.values()) {
    for (let i = 0; i < group.length; i += MAX_KEYS_PER_CALL) calls.push(group.slice(i, i + MAX_KEYS_PER_CALL));
  }
  return calls;
}

/**
 * A refusal of a cluster that is failing over or resharding (no master for the slot yet, keys being
 * moved), or ioredis giving up on one: an outage of the store, not nonsense from it.
 */
const isClusterOutage = (error: unknown) =>
  error instanceof Error &&
  /^(?:CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING)\b|^Too many Cluster redirections|^Connection is closed|^Cluster is ended/.test(
    error.message,
  );

/** ioredis's commandTimeout: the command is rejected, the connection stays (this file drops it). */
const isTimeout = (error: unknown) => error instanceof Error && error.message === 'Command timed out';

/** The counts in the script's answer, or why the answer is none: only positive integers, one per key. */
function countsOf(reply: unknown, expected: number): number[] | string {
  if (!Array.isArray(reply) || reply.length !== expected) {
    return `the quota script answered ${shapeOf(reply)}, not ${expected} counts`;
  }
  for (const item of reply) {
    // INCR counts from 1; anything else (a string, a nil, zero, a negative, an array) is no count of ours.
    if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 1) {
      return 'the quota script answered a count that is no count';
    }
  }
  return reply as number[];
}
