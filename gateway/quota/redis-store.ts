// The Redis quota store shared by every gateway instance (RATE_LIMIT_REDIS_URL). One round trip per
// request: a Lua script increments the window's key and sets its expiry in the same atomic step.
// Nothing queues while Redis is away: commands fail at once, the quota module serves the request
// without headers, and ioredis keeps reconnecting in the background.
import { Redis } from 'ioredis';
import type { QuotaStore } from './quota.ts';

/** INCR, and EXPIRE on the first count: the key of a window disappears soon after the window ends. */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count`;

export interface RedisStoreOptions {
  /** Called once when the store becomes unusable and once when it is back (one line each, no stack). */
  onStateChange?: (line: string) => void;
  connectTimeoutMs?: number;
}

export interface RedisQuotaStore extends QuotaStore {
  /** Resolves when the first connection is ready or has failed, at most after `ms`. */
  ready(ms: number): Promise<void>;
}

type ScriptedRedis = Redis & { quotaIncrement(key: string, ttl: number): Promise<number> };

export function redisQuotaStore(url: string, options: RedisStoreOptions = {}): RedisQuotaStore {
  const redis = new Redis(url, {
    // Fail fast instead of queueing: a request must not wait for a reconnect (CONTRACT §3, 50 ms).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 1000,
    // Reconnect forever, backing off to one attempt per second.
    retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 5), 1000),
    lazyConnect: false,
  }) as ScriptedRedis;
  redis.defineCommand('quotaIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });

  let healthy: boolean | undefined;
  let closing = false;
  const report = (ok: boolean, line: string) => {
    if (closing || healthy === ok) return;
    healthy = ok;
    options.onStateChange?.(line);
  };
  const target = describeTarget(url);
  redis.on('ready', () => report(true, `quota store ${target} connected`));
  // Without an 'error' listener ioredis would rethrow connection errors as uncaught exceptions.
  redis.on('error', (error: Error) => report(false, `quota store ${target} unavailable: ${error.message}`));
  redis.on('close', () => report(false, `quota store ${target} unavailable: connection closed`));

  return {
    increment(key, ttlSeconds) {
      return redis.quotaIncrement(key, ttlSeconds).then(Number);
    },
    ready(ms) {
      if (redis.status === 'ready') return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          redis.off('ready', done);
          redis.off('error', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        redis.once('ready', done);
        redis.once('error', done);
      });
    },
    async close() {
      closing = true;
      if (redis.status !== 'ready') return redis.disconnect();
      // QUIT lets Redis finish what it was sent; a Redis that hangs must not hold the shutdown.
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)));
      await Promise.race([
        redis.quit().then(
          () => undefined,
          () => undefined,
        ),
        timeout,
      ]);
      clearTimeout(timer);
      redis.disconnect();
    },
  };
}

/** host:port/db of a Redis URL, never its password. */
function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return 'redis';
  }
}
