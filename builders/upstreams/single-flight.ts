// One upstream fetch shared by every request that arrives while it runs. The promise is forgotten as
// soon as it settles, so a failure is never remembered: the next request after it starts afresh.
// Where I/O belongs to the request that started it (a Worker: `shared` false), nothing is shared: a
// request waiting on another's fetch is left waiting for ever once that request ends.

export interface SingleFlight<T> {
  /** The fetch in flight, if any. */
  readonly pending: Promise<T> | undefined;
  /** Starts a fetch and shares it as `pending` until it settles or a newer one replaces it. */
  start(fetch: () => Promise<T>): Promise<T>;
}

export function singleFlight<T>(shared = true): SingleFlight<T> {
  if (!shared) return { pending: undefined, start: (fetch) => fetch() };
  let pending: Promise<T> | undefined;
  return {
    get pending() {
      return pending;
    },
    start(fetch) {
      const started = fetch();
      pending = started;
      // A replaced fetch that settles late must not clear its successor.
      const clear = () => {
        if (pending === started) pending = undefined;
      };
      started.then(clear, clear);
      return started;
    },
  };
}
