// The gateway's live heap, measured through the V8 inspector: a full collection, then the used size.
// Why not RSS: V8 grows its heap for tens of seconds under load before it collects, so RSS over a
// one-minute run cannot tell a leak from a warming heap (a growth heuristic on RSS failed healthy runs
// in CI). The heap left after a forced full GC is what the process really keeps; a gateway that holds
// something per request makes it climb with the request count.

/** The inspector's address, from the line node prints on stderr when started with --inspect. */
export function inspectorUrl(stderr: string): string | undefined {
  return /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
}

export interface HeapSample {
  /** Milliseconds since the load started. */
  atMs: number;
  /** Bytes of live heap after a full collection. */
  liveBytes: number;
}

/**
 * The verdict on a series of samples: a problem when the live heap at the end of the run exceeds the
 * live heap just after the warm-up by more than `allowedGrowthBytes`. Medians of three samples at each
 * end, so that one sample taken while a refresh holds a response in flight does not decide.
 */
export function heapGrowthProblem(
  samples: readonly HeapSample[],
  warmMs: number,
  allowedGrowthBytes: number,
): string | undefined {
  const warm = samples.filter((s) => s.atMs >= warmMs);
  if (warm.length < 6) return `too few live-heap samples after the warm-up (${warm.length}) to judge growth`;
  const mid3 = (xs: readonly HeapSample[]) => xs.map((s) => s.liveBytes).sort((a, b) => a - b)[1]!;
  const first = mid3(warm.slice(0, 3));
  const last = mid3(warm.slice(-3));
  if (last - first <= allowedGrowthBytes) return undefined;
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  return `the live heap grew from ${mib(first)} MiB to ${mib(last)} MiB after the warm-up (allowed: +${mib(allowedGrowthBytes)} MiB)`;
}

/** One inspector session: JSON-RPC over the WebSocket node opened for --inspect. */
export class HeapProbe {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(`inspector: ${message.error.message}`));
      else waiter.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('inspector: the session closed'));
      this.pending.clear();
    });
  }

  static async connect(url: string): Promise<HeapProbe> {
    if (typeof globalThis.WebSocket !== 'function') {
      throw new Error('no WebSocket client (Node 22 and later have one built in)');
    }
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`inspector: cannot connect to ${url}`)), { once: true });
    });
    return new HeapProbe(socket);
  }

  private call(method: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method }));
    });
  }

  /** Collects garbage in the gateway, then reads how much heap is still used. */
  async liveBytes(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const usage = (await this.call('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize;
  }

  /** Closes the session; a node process with a debugger attached would otherwise wait for it on exit. */
  close(): void {
    this.socket.close();
  }
}
