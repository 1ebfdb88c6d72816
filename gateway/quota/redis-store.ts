// The Redis quota store shared by every gateway instance (RATE_LIMIT_REDIS_URL), on ioredis. Every
// decision of one event-loop turn goes to Redis in one round trip: one script call over all their keys,
// which increments each key and sets its expiry in one atomic step. Nothing waits for a Redis that is
// away or slow: while the link is down, late or full, a decision fails at once and the request is served
// without quota headers (docs/gateway.md). A failed link opens the circuit: the store is not asked again
// before a backoff of 0.1 to 2 s, then a new connection must answer PING before it carries decisions.
//
// ioredis is configured for a hostile store: RESP2 and no ready check (nothing is sent but AUTH, SELECT
// and what this file sends), no offline queue (a command on a closed link fails at once), no retry of a
// command and no reconnection of its own (the circuit below decides), a command timeout that drops the
// link, and a cap on the bytes received without an answer (an endless bulk string is refused early).
// Every reply is validated here before it is used.
//
// A node of a Redis Cluster is detected at connect (CLUSTER INFO answers cluster_state) and the link
// becomes an ioredis Cluster seeded with it. The keys of one window share a hash tag (quota.ts), so a
// turn's keys live in one slot and the script call stays one round trip (docs/gateway.md).
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { isIP, type Socket } from 'node:net';
import { redisTarget, type RedisTarget } from '../../lib/redis-url.ts';
import { CONSTANTS } from '../../contract/service.ts';
import { StoreUnavailable, type QuotaStore } from './quota.ts';

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
/**
 * Bytes received with no command answered: the script answers at most MAX_KEYS_PER_CALL integers
 * (about 15 KB) per call, so this much without an answer is no answer of ours (an endless bulk string).
 */
const MAX_UNANSWERED_BYTES = 1024 * 1024;
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
/**
 * Error codes Redis puts first in an error reply. Only these are named in a log line: the rest of an
 * error reply is the store's own text, which may quote what it was sent (a password in AUTH).
 */
const REDIS_ERROR_CODES = new Set([
  'ERR',
  'WRONGPASS',
  'NOAUTH',
  'NOPERM',
  'NOSCRIPT',
  'OOM',
  'BUSY',
  'LOADING',
  'READONLY',
  'MASTERDOWN',
  'MISCONF',
  'MOVED',
  'ASK',
  'CROSSSLOT',
  'CLUSTERDOWN',
  'TRYAGAIN',
  'WRONGTYPE',
  'NOREPLICAS',
  'EXECABORT',
]);

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

/** One connection (or one Cluster client) that has answered PING; dropped at the first thing wrong. */
interface Link {
  client: Redis | Cluster;
  /** Bytes received since the last answer; see MAX_UNANSWERED_BYTES. */
  unanswered: number;
  /** Only an open link reports its failure: one that fails while opening rejects the open instead. */
  state: 'opening' | 'open' | 'dropped';
  /** The last error a connection emitted: a refused AUTH closes the connection and says why only there. */
  lastError?: unknown;
}

/** The failure of a store, named without its text: the error's class and, for an error reply, its code. */
export function describeStoreError(error: unknown): string {
  if (!(error instanceof Error)) return 'a failure that is no Error';
  const code = /^([A-Z]+)(?:\s|$)/.exec(error.message)?.[1];
  if (error.name === 'ReplyError') return code !== undefined && REDIS_ERROR_CODES.has(code) ? code : 'ReplyError';
  // ioredis's own errors (a closed connection, a timeout) say nothing the store sent.
  return error.name === 'Error' ? oneWord(error.message) : error.name;
}

/** The first words of a client-side message ("Connection is closed."), never more than a few. */
const oneWord = (message: string) => message.split(/[.:]/)[0]!.slice(0, 60) || 'Error';

export function redisQuotaStore(url: string, options: RedisStoreOptions = {}): RedisQuotaStore {
  const target = redisTarget(url);
  const lateMs = options.lateMs ?? CONSTANTS.quotaStoreBudgetMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
  const deadlineMs = options.deadlineMs ?? 1000;
  const reportEveryMs = options.reportEveryMs ?? 60_000;
  const nodeOptions = clientOptions(target, connectTimeoutMs, deadlineMs);
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
    openLink(target, nodeOptions, connectTimeoutMs, drop).then(
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
        failed(error instanceof HandshakeError ? error.message : describeStoreError(error));
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
        // answers out of turn leaves no later reply trustworthy.
        const reason =
          counts ??
          (isTimeout(error)
            ? `no answer within ${deadlineMs} ms`
            : `the quota script was refused (${describeStoreError(error)})`);
        drop(current, reason, !isTimeout(error));
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

/** A handshake that failed for a reason this file states itself (never the store's text). */
class HandshakeError extends Error {
  override readonly name = 'HandshakeError';
}

/** ioredis options of one connection: every automatic behaviour that could queue or repeat is off. */
function clientOptions(target: RedisTarget, connectTimeoutMs: number, deadlineMs: number): RedisOptions {
  return {
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    db: target.db,
    // TLS verifies the server against Node's CA store; a private CA: NODE_EXTRA_CA_CERTS (docs/gateway.md).
    tls: target.tls ? { servername: isIP(target.host) === 0 ? target.host : undefined } : undefined,
    // RESP2, no HELLO: what every Redis since 2.6 answers, and nothing to negotiate with a broken store.
    protocol: 2,
    disableClientInfo: true,
    lazyConnect: true,
    enableReadyCheck: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    reconnectOnError: () => false,
    autoResendUnfulfilledCommands: false,
    autoResubscribe: false,
    connectTimeout: connectTimeoutMs,
    commandTimeout: deadlineMs,
    keepAlive: 10_000,
    noDelay: true,
  };
}

/**
 * Connects, shakes hands (AUTH and SELECT from the URL, then PING) and tells a Cluster node from a
 * standalone Redis; resolves with a link once the store has answered, rejects otherwise. `onDown` is
 * called if the link fails later.
 */
async function openLink(
  target: RedisTarget,
  nodeOptions: RedisOptions,
  connectTimeoutMs: number,
  onDown: (link: Link, reason: string, badAnswer?: boolean) => void,
): Promise<Link> {
  const node = new Redis(nodeOptions);
  let link: Link = { client: node, unanswered: 0, state: 'opening' };
  watch(link, node, onDown);
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    link.client.disconnect();
  }, connectTimeoutMs);
  try {
    await node.connect();
    const pong: unknown = await node.ping();
    if (pong !== 'PONG') throw new HandshakeError(`PING answered ${shapeOf(pong)}, not PONG`);
    // A standalone Redis refuses CLUSTER INFO (ERR … cluster support disabled), so does a user without
    // the permission (NOPERM): either way the URL's node is used alone.
    const info: unknown = await node.call('CLUSTER', 'INFO').catch((error: unknown) => error);
    if (typeof info === 'string' && /^cluster_state:/m.test(info)) {
      link.state = 'dropped';
      node.disconnect();
      link = await openCluster(target, nodeOptions, connectTimeoutMs, onDown);
    } else if (!(info instanceof Error)) {
      throw new HandshakeError(`CLUSTER INFO answered ${shapeOf(info)}`);
    }
  } catch (error) {
    link.state = 'dropped';
    link.client.disconnect();
    if (error instanceof HandshakeError) throw error;
    if (timedOut) throw new HandshakeError(`no connection within ${connectTimeoutMs} ms`);
    throw new HandshakeError(`no connection (${describeStoreError(link.lastError ?? error)})`);
  } finally {
    clearTimeout(deadline);
  }
  return link;
}

async function openCluster(
  target: RedisTarget,
  nodeOptions: RedisOptions,
  connectTimeoutMs: number,
  onDown: (link: Link, reason: string, badAnswer?: boolean) => void,
): Promise<Link> {
  const { host: _host, port: _port, retryStrategy: _retry, enableOfflineQueue: _queue, ...redisOptions } = nodeOptions;
  // A cluster has only database 0; SELECT is refused there.
  const clusterOptions: ClusterOptions = {
    redisOptions: { ...redisOptions, db: 0 },
    lazyConnect: true,
    enableOfflineQueue: false,
    // The ready check asks CLUSTER INFO for cluster_state:ok: a cluster that is down carries nothing.
    enableReadyCheck: true,
    clusterRetryStrategy: () => null,
    // A MOVED or ASK is followed (the slot map is refreshed); more than two in a row is no answer.
    maxRedirections: 2,
    retryDelayOnMoved: 0,
    slotsRefreshTimeout: connectTimeoutMs,
    scaleReads: 'master',
  };
  const cluster = new Cluster([{ host: target.host, port: target.port }], clusterOptions);
  const link: Link = { client: cluster, unanswered: 0, state: 'opening' };
  cluster.on('+node', (node: Redis) => watch(link, node, onDown));
  cluster.on('error', () => {});
  cluster.on('end', () => {
    if (link.state === 'open') onDown(link, 'connection closed');
  });
  await cluster.connect();
  return link;
}

/** Follows one connection: a failure drops the link, and bytes without an answer are capped. */
function watch(link: Link, node: Redis, onDown: (link: Link, reason: string, badAnswer?: boolean) => void) {
  // Without a listener ioredis prints the error itself, store text and all; the reason is stated below.
  node.on('error', (error: unknown) => void (link.lastError = error));
  node.on('connect', () => {
    const socket = node.stream as Socket | undefined;
    socket?.on('data', (chunk: Buffer) => {
      link.unanswered += chunk.length;
      if (link.unanswered <= MAX_UNANSWERED_BYTES || link.state === 'dropped') return;
      if (link.state === 'open') return onDown(link, `more than ${MAX_UNANSWERED_BYTES} bytes without an answer`, true);
      link.state = 'dropped';
      link.client.disconnect();
    });
  });
  if (link.client === node) {
    node.on('end', () => {
      if (link.state === 'open') onDown(link, 'connection closed');
    });
  }
}

function unsentBytes(client: Redis | Cluster): number {
  if (client instanceof Redis) return (client.stream as Socket | undefined)?.writableLength ?? 0;
  let bytes = 0;
  for (const node of client.nodes()) bytes += (node.stream as Socket | undefined)?.writableLength ?? 0;
  return bytes;
}

/** ioredis's commandTimeout: the command is rejected, the connection stays (this file drops it). */
const isTimeout = (error: unknown) => error instanceof Error && error.message === 'Command timed out';

/** What kind of reply `value` is, for a log line: never its content. */
function shapeOf(value: unknown): string {
  if (value === null) return 'a nil reply';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'an integer';
  return `a ${typeof value} reply`;
}

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
