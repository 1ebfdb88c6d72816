// The calendar's upstream in a Worker: one Durable Object for the deployment holds the day's contribution
// days and fetches them at most once per calendar day in the calendar's zone, whatever the number of
// isolates and places asking (docs/deploying.md#cloudflare-workers says why an object rather than the Cache
// API: a cache is per data centre and may drop an entry at any time, so it bounds nothing). Requests that
// arrive while it fetches share that one fetch; a failed fetch is not kept (each isolate's route remembers
// a failure for a few seconds, as on Node). The days are kept in storage too: an evicted object does not
// fetch the same day again.
import { DurableObject } from 'cloudflare:workers';
import { calendarWindow } from '../../domain/calendar.ts';
import type { ContributionDay } from '../../domain/contributions.ts';
import type { ContributionSource, Sources } from '../../upstreams/sources.ts';

const DAY = 'day';

interface StoredDay {
  /** The calendar's today (its window's endDate) and the account and source it was fetched for. */
  key: string;
  days: ContributionDay[];
}

/** What the object needs to fetch: the sources as the Worker's configuration makes them. */
export type SourcesOf = (env: unknown) => Sources;

export abstract class CalendarDayObject extends DurableObject {
  private fetching: { key: string; days: Promise<ContributionDay[]> } | undefined;
  /** The deployment's sources (gateway/worker/worker.ts makes them from its configuration). */
  protected abstract sources(): Sources;

  async days(nowMs: number): Promise<ContributionDay[]> {
    const source = this.sources().github;
    const key = `${calendarWindow(nowMs, source.timeZone).endDate} ${source.upstream} ${source.account}`;
    const stored = this.ctx.storage.kv.get<StoredDay>(DAY);
    if (stored?.key === key) return stored.days;
    if (this.fetching?.key === key) return this.fetching.days;
    const days = source.days(nowMs).then(
      (fetched) => {
        this.ctx.storage.kv.put(DAY, { key, days: fetched } satisfies StoredDay);
        return fetched;
      },
      (error: unknown) => {
        // Only the message crosses to the caller; a failure is the caller's 502, never a kept answer.
        throw new Error(error instanceof Error ? error.message : String(error));
      },
    );
    const flight = { key, days };
    this.fetching = flight;
    const done = () => {
      if (this.fetching === flight) this.fetching = undefined;
    };
    days.then(done, done);
    return days;
  }
}

/** The namespace binding of the calendar's object (`durable_objects` in gateway/worker/wrangler.jsonc). */
export interface CalendarNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { days(nowMs: number): Promise<ContributionDay[]> };
}

/** The calendar's source with its days read through the deployment's one object. */
export function sharedCalendarSource(source: ContributionSource, namespace: CalendarNamespace): ContributionSource {
  const object = () => namespace.get(namespace.idFromName('calendar'));
  return { ...source, days: (nowMs) => object().days(nowMs) };
}
