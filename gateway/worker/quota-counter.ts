// The quota's store in a Worker: a Durable Object per quota key (one client in one window). An object
// runs one call at a time and its storage reads and writes are synchronous, so every count is exact
// however many requests of one client arrive at once, in whatever isolates and places. The count is
// written to the object's storage (an object may be evicted mid-window) and deleted by an alarm when its
// window is over, so nothing outlives it.
import { DurableObject } from 'cloudflare:workers';
import type { QuotaStore } from '../core/quota.ts';

const COUNT = 'count';

export class QuotaCounter extends DurableObject {
  /** The clock the alarm is set by: the platform's, replaced in tests. */
  protected now(): number {
    return Date.now();
  }

  /** Adds one and returns the new count; the first count of a key sets the alarm that deletes it. */
  async increment(ttlSeconds: number): Promise<number> {
    const count = (this.ctx.storage.kv.get<number>(COUNT) ?? 0) + 1;
    this.ctx.storage.kv.put(COUNT, count);
    if (count === 1) await this.ctx.storage.setAlarm(this.now() + ttlSeconds * 1000);
    return count;
  }

  async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

/** The namespace binding of QuotaCounter (`durable_objects` in gateway/worker/wrangler.jsonc). */
export interface CounterNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { increment(ttlSeconds: number): Promise<number> };
}

export function durableQuotaStore(namespace: CounterNamespace): QuotaStore {
  return {
    increment: (key, ttlSeconds) => namespace.get(namespace.idFromName(key)).increment(ttlSeconds),
    // Nothing to close: the objects belong to the platform.
    close: async () => {},
  };
}
