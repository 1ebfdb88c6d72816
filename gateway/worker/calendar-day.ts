// The shared readings of a Worker: one Durable Object per dataset whose source declares a shareable reading
// (DatasetSource.shared: the calendar's days) holds the reading of its key (the calendar's day, source and
// account) and reads the upstream at most once per key, whatever the number of isolates and places asking
// (docs/deploying.md#cloudflare-workers says why an object rather than the Cache API: a cache is per data
// centre and may drop an entry at any time, so it bounds nothing). Requests that arrive while it reads share
// that one reading; a failed one is not kept (each isolate's route remembers a failure for a few seconds, as
// on Node). The reading is kept in storage too: an evicted object does not read the same key again.
import { DurableObject } from 'cloudflare:workers';
import type { DataResourceId } from '../../builders/contract/service.ts';
import type { DatasetSource } from '../../builders/datasets/dataset.ts';
import type { Sources } from '../../builders/datasets/registry.ts';

const READING = 'reading';

interface StoredReading {
  key: string;
  reading: unknown;
}

export abstract class CalendarDayObject extends DurableObject {
  private fetching: { key: string; reading: Promise<unknown> } | undefined;
  /** The deployment's sources (gateway/worker/worker.ts makes them from its configuration). */
  protected abstract sources(): Sources;

  /** The reading of dataset `id`'s upstream for the key of `nowMs`. */
  async read(id: DataResourceId, nowMs: number): Promise<unknown> {
    const shared = this.sources().get(id)?.shared;
    if (shared === undefined) throw new Error(`no shared reading for ${id}`);
    const key = shared.key(nowMs);
    const stored = this.ctx.storage.kv.get<StoredReading>(READING);
    if (stored?.key === key) return stored.reading;
    if (this.fetching?.key === key) return this.fetching.reading;
    const reading = shared.read(nowMs).then(
      (fetched) => {
        this.ctx.storage.kv.put(READING, { key, reading: fetched } satisfies StoredReading);
        return fetched;
      },
      (error: unknown) => {
        // Only the message crosses to the caller; a failure is the caller's 502, never a kept answer.
        throw new Error(error instanceof Error ? error.message : String(error));
      },
    );
    const flight = { key, reading };
    this.fetching = flight;
    const done = () => {
      if (this.fetching === flight) this.fetching = undefined;
    };
    reading.then(done, done);
    return reading;
  }
}

/** The namespace binding of the objects (`durable_objects` in gateway/worker/wrangler.jsonc). */
export interface CalendarNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { read(id: DataResourceId, nowMs: number): Promise<unknown> };
}

/** The sources, each with a shareable reading read through its dataset's one object. */
export function sharedSources(sources: Sources, namespace: CalendarNamespace): Sources {
  return new Map(
    [...sources].map(([id, source]): [DataResourceId, DatasetSource<unknown>] => {
      const { shared } = source;
      if (shared === undefined) return [id, source];
      const object = () => namespace.get(namespace.idFromName(id));
      return [id, { ...source, fetch: async (nowMs) => shared.payload(await object().read(id, nowMs), nowMs) }];
    }),
  );
}
