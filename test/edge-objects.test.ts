// The Worker's two Durable Objects in process (gateway/worker/quota-counter.ts, gateway/worker/calendar-day.ts), over a stand-in
// for an object's state (synchronous storage, an alarm) as workerd gives it: the quota's count exact for
// concurrent requests and deleted with its window; the calendar's days fetched once per calendar day in
// the calendar's zone whatever the number of isolates asking, kept across an eviction, never a failure.
import { describe, expect, it, vi } from 'vitest';
import type { ContributionDay } from '../builders/domain/contributions.ts';
import type { Sources } from '../builders/datasets/registry.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { sourcesOf } from './helpers/sources.ts';

vi.mock('cloudflare:workers', () => ({
  // workerd's base class keeps the state and the bindings; nothing else is used.
  DurableObject: class {
    constructor(
      protected ctx: unknown,
      protected env: unknown,
    ) {}
  },
}));
const { QuotaCounter, durableQuotaStore } = await import('../gateway/worker/quota-counter.ts');
const { CalendarDayObject, sharedSources } = await import('../gateway/worker/calendar-day.ts');

/** An object's state: its storage outlives the instance (an evicted object comes back with it). */
function objectState() {
  const kv = new Map<string, unknown>();
  const alarms: number[] = [];
  return {
    alarms,
    kv,
    state: {
      storage: {
        kv: { get: (key: string) => kv.get(key), put: (key: string, value: unknown) => void kv.set(key, value) },
        setAlarm: async (at: number) => void alarms.push(at),
        getAlarm: async () => alarms.at(-1) ?? null,
        deleteAll: async () => kv.clear(),
      },
      blockConcurrencyWhile: <T>(fn: () => Promise<T>) => fn(),
    },
  };
}

type Ctor<T> = new (state: never, env: never) => T;

/** A namespace: one instance per name, made on first use, as idFromName and get give them. */
function namespace<T>(make: (name: string) => T) {
  const objects = new Map<string, T>();
  return {
    idFromName: (name: string) => name,
    get: (id: unknown) => {
      const name = id as string;
      if (!objects.has(name)) objects.set(name, make(name));
      return objects.get(name)!;
    },
  };
}

describe('QuotaCounter', () => {
  it('counts concurrent requests of one key exactly, and keys apart', async () => {
    const store = durableQuotaStore(
      namespace(
        () =>
          new (QuotaCounter as unknown as Ctor<InstanceType<typeof QuotaCounter>>)(
            objectState().state as never,
            {} as never,
          ),
      ),
    );
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.increment('{w:1}:a', 61)));
    expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await store.increment('{w:1}:b', 61)).toBe(1);
    expect(await store.increment('{w:2}:a', 61)).toBe(1);
  });

  it('sets one alarm at its first count, for the end of its window, which deletes the count', async () => {
    const { state, alarms, kv } = objectState();
    // The object's clock, injected: 14:03:07 UTC on 2026-11-22.
    const NOW = Date.parse('2026-11-22T14:03:07Z');
    class Counter extends QuotaCounter {
      protected override now(): number {
        return NOW;
      }
    }
    const counter = new (Counter as unknown as Ctor<InstanceType<typeof Counter>>)(state as never, {} as never);
    await counter.increment(61);
    await counter.increment(61);
    expect(alarms).toEqual([NOW + 61_000]);
    expect(kv.size).toBe(1);
    await counter.alarm();
    expect(kv.size).toBe(0);
    expect(await counter.increment(61)).toBe(1);
  });
});

describe('CalendarDay', () => {
  const ZONE = 'America/Toronto';
  // 23:30 in Toronto on Sunday 2026-11-22 (04:30 UTC on the 23rd); its midnight is 05:00 UTC.
  const LATE = Date.parse('2026-11-23T04:30:00Z');
  const DAY: ContributionDay[] = [{ date: '2026-11-22', count: 3, level: 1 } as ContributionDay];

  function setup() {
    const calls: number[] = [];
    let fail = false;
    // The calendar's own source (its key: the day in ZONE, the source and the account), reading DAY.
    const stock = sourcesOf(loadConfig({ CALENDAR_TIME_ZONE: ZONE }));
    const calendar = stock.get('contributions')!;
    const upstream: Sources = new Map([
      ...stock,
      [
        'contributions',
        {
          ...calendar,
          shared: {
            ...calendar.shared!,
            read: async (nowMs: number) => {
              calls.push(nowMs);
              await new Promise((resolve) => setTimeout(resolve, 5));
              if (fail) throw new Error('github-html: HTTP 503 from the calendar page');
              return DAY;
            },
          },
        },
      ],
    ]);
    class Calendar extends CalendarDayObject {
      protected sources(): Sources {
        return upstream;
      }
    }
    const { state } = objectState();
    const objects = namespace(() => new (Calendar as unknown as Ctor<Calendar>)(state as never, {} as never));
    /** A reading as an isolate asks for it: through the dataset's one object. */
    const reader = (object: () => { read(id: string, nowMs: number): Promise<unknown> }) => ({
      days: (nowMs: number) => object().read('contributions', nowMs),
    });
    // Two isolates over the one object of the deployment.
    const isolates = [1, 2].map(() => reader(() => objects.get(objects.idFromName('contributions'))));
    const evicted = () => reader(() => new (Calendar as unknown as Ctor<Calendar>)(state as never, {} as never));
    return { calls, isolates, evicted, failing: (f: boolean) => (fail = f) };
  }

  it('fetches once for every request of a calendar day, from any isolate, at the same time or later', async () => {
    const { calls, isolates } = setup();
    const asked = await Promise.all(isolates.flatMap((source) => [1, 2, 3].map(() => source.days(LATE))));
    expect(asked.every((days) => days === asked[0])).toBe(true);
    expect(await isolates[1]!.days(LATE + 20 * 60_000)).toEqual(DAY);
    expect(calls).toEqual([LATE]);
  });

  it("fetches again after midnight in the calendar's zone, not before", async () => {
    const { calls, isolates } = setup();
    await isolates[0]!.days(LATE);
    await isolates[1]!.days(LATE + 29 * 60_000);
    expect(calls).toHaveLength(1);
    await isolates[1]!.days(LATE + 31 * 60_000);
    await isolates[0]!.days(LATE + 40 * 60_000);
    expect(calls).toEqual([LATE, LATE + 31 * 60_000]);
  });

  it('keeps the day in storage: an evicted object does not fetch it again', async () => {
    const { calls, isolates, evicted } = setup();
    await isolates[0]!.days(LATE);
    expect(await evicted().days(LATE + 60_000)).toEqual(DAY);
    expect(calls).toHaveLength(1);
  });

  it('keeps no failure: the message reaches the caller, and the next request fetches again', async () => {
    const { calls, isolates, failing } = setup();
    failing(true);
    await expect(isolates[0]!.days(LATE)).rejects.toThrow('github-html: HTTP 503 from the calendar page');
    failing(false);
    expect(await isolates[1]!.days(LATE)).toEqual(DAY);
    expect(calls).toHaveLength(2);
  });
});

describe('sharedSources', () => {
  it("reads a shareable source through its dataset's object, and leaves the others as they are", async () => {
    const stock = sourcesOf(loadConfig({}));
    const asked: string[] = [];
    const objects = {
      idFromName: (name: string) => name,
      get: (id: unknown) => ({
        read: async (dataset: string) => {
          asked.push(`${id as string} ${dataset}`);
          throw new Error('read through the object');
        },
      }),
    };
    const shared = sharedSources(stock, objects);
    await expect(shared.get('contributions')!.fetch(0)).rejects.toThrow('read through the object');
    expect(asked).toEqual(['contributions contributions']);
    for (const [id, source] of stock) if (source.shared === undefined) expect(shared.get(id)).toBe(source);
  });
});
