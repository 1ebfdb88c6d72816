// The in-process quota store: counts for one gateway instance (RATE_LIMIT_QUOTA without
// RATE_LIMIT_REDIS_URL). A key names one client in one window, so it is only written during that
// window; it expires ttlSeconds after its first count and a periodic sweep keeps memory bounded.
import type { QuotaStore } from '../core/quota.ts';

interface Counter {
  count: number;
  expiresAt: number;
}

export function memoryQuotaStore(now: () => number = Date.now): QuotaStore {
  const counters = new Map<string, Counter>();
  let nextSweep = 0;
  return {
    increment(key, ttlSeconds) {
      const t = now();
      if (t >= nextSweep) {
        for (const [k, c] of counters) if (c.expiresAt <= t) counters.delete(k);
        nextSweep = t + ttlSeconds * 1000;
      }
      const counter = counters.get(key);
      if (counter === undefined || counter.expiresAt <= t) {
        counters.set(key, { count: 1, expiresAt: t + ttlSeconds * 1000 });
        return 1;
      }
      return ++counter.count;
    },
    async close() {
      counters.clear();
    },
  };
}
