// A live fetch shared by concurrent requests without ever answering a request with data fetched before
// it arrived: at most one fetch is in flight; a request that arrives while one runs waits for the next,
// which starts as soon as the current one ends and serves every request that arrived meanwhile. So a
// burst of N requests costs at most two fetches, and each answer comes from a fetch begun after its
// request (docs/api.md#caching: "the current ticker is fetched on each request, with no ... cache").
// Not `shared` (a Worker, whose I/O belongs to the request that started it): each request its own fetch.

export function freshFlight<T>(fetch: () => Promise<T>, shared = true): () => Promise<T> {
  if (!shared) return () => fetch();
  let current: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const run = (): Promise<T> => {
    const started = (async () => fetch())();
    current = started;
    const clear = () => {
      if (current === started) current = undefined;
    };
    started.then(clear, clear);
    return started;
  };
  return () => {
    if (current === undefined) return run();
    next ??= current
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = undefined;
        return run();
      });
    return next;
  };
}
