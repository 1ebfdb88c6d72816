// `price --watch` against a stand-in WebSocket on an injected clock (vi fake timers): what it says when its
// feed cannot be reached (one stderr line per change of state, never per attempt), how often it reconnects
// to a feed that answers one message and closes, at most one line a second under a flood, and the ticks it
// refuses to print. run() and the fake feed on loopback are test/live-feed.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchFeed } from '../builders/cli/live/watch.ts';
import { buildMarketData } from '../builders/domain/market.ts';

const NOW = Date.parse('2026-11-23T15:11:00Z');
const FEED_URL = 'wss://feed.example/v1';
/** The snapshot the picture showed: its asOf a minute before NOW is the first tick's floor. */
const ASOF = new Date(NOW - 60_000).toISOString();
const SNAPSHOT = buildMarketData(
  { price: 0.03, time: ASOF, timeMs: Date.parse(ASOF) },
  [
    { time: Math.floor(NOW / 3_600_000) * 3600 - 3600, close: 0.02 },
    { time: Math.floor(NOW / 3_600_000) * 3600, close: 0.025 },
  ],
  NOW,
  'Coinbase Exchange',
  'MON-USD',
);

/** What the stand-in feed does with each socket opened to it. */
type Behaviour = 'refuse' | 'never-open' | 'one-message-then-close' | 'stay-open';

function feed(initial: Behaviour) {
  const state = { behaviour: initial, sockets: [] as StandIn[] };
  class StandIn extends EventTarget {
    sent: string[] = [];
    closed = false;
    constructor(readonly url: string) {
      super();
      state.sockets.push(this);
      const behaviour = state.behaviour;
      queueMicrotask(() => {
        if (behaviour === 'refuse') {
          this.dispatchEvent(new Event('error'));
          this.close();
        } else if (behaviour !== 'never-open') {
          this.dispatchEvent(new Event('open'));
          if (behaviour === 'one-message-then-close') {
            this.receive({ type: 'heartbeat', product_id: 'MON-USD', time: new Date(Date.now()).toISOString() });
            this.close();
          }
        }
      });
    }
    send(text: string) {
      this.sent.push(text);
    }
    receive(message: unknown) {
      this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) }));
    }
    close() {
      if (this.closed) return;
      this.closed = true;
      queueMicrotask(() => this.dispatchEvent(new Event('close')));
    }
  }
  return { state, Socket: StandIn as unknown as typeof WebSocket };
}

/** The watch as `price --watch --json` runs it after the picture, over the stand-in feed. */
function watch(Socket: typeof WebSocket) {
  let stdout = '';
  let stderr = '';
  let interrupt: () => void = () => undefined;
  const code = watchFeed(
    { feedUrl: FEED_URL, product: 'MON-USD', json: true, market: SNAPSHOT },
    {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      onInterrupt: (stop) => (interrupt = stop),
      WebSocket: Socket,
    },
  );
  return { code, stdout: () => stdout, stderr: () => stderr, interrupt: () => interrupt() };
}

const ticker = (price: string, time: string) => ({ type: 'ticker', product_id: 'MON-USD', price, time });

describe('price --watch on an injected clock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a feed refusing every attempt: one stderr line within 10 s naming it, none per attempt; Ctrl-C exits 0', async () => {
    const f = feed('refuse');
    const w = watch(f.Socket);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(w.stderr()).toBe(`cli.mjs: cannot reach the live feed ${FEED_URL}; still trying (Ctrl-C stops)\n`);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(f.state.sockets.length).toBeGreaterThan(3);
    expect(w.stderr().split('\n')).toHaveLength(2);
    // The feed answers again: said once, then its ticks are printed.
    // The next attempt comes within the longest backoff (60 s, jittered below it); a socket open for 30 s
    // without a message is closed and opened again, so wait for one that is open now, whatever the jitter.
    f.state.behaviour = 'stay-open';
    const refused = f.state.sockets.length;
    const answering = () => f.state.sockets.length > refused && !f.state.sockets.at(-1)!.closed;
    for (let s = 0; s < 120 && !answering(); s++) await vi.advanceTimersByTimeAsync(1_000);
    expect(answering()).toBe(true);
    const socket = f.state.sockets.at(-1)!;
    socket.receive(ticker('0.0311', new Date(Date.now()).toISOString()));
    expect(w.stderr().split('\n').slice(1)).toEqual([
      `cli.mjs: the live feed ${FEED_URL} answers again; following its ticks`,
      '',
    ]);
    expect(JSON.parse(w.stdout())).toMatchObject({ product: 'MON-USD', price: 0.0311 });
    w.interrupt();
    expect(await w.code).toBe(0);
  });

  it('a feed that never opens a socket is awaited after 2 s, said within 10 s, and tried again', async () => {
    const f = feed('never-open');
    const w = watch(f.Socket);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(w.stderr()).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    expect(w.stderr()).toBe(`cli.mjs: waiting for the live feed ${FEED_URL} (no answer yet)\n`);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(w.stderr()).toContain(`cannot reach the live feed ${FEED_URL}; still trying`);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.state.sockets.length).toBeGreaterThanOrEqual(2);
    expect(f.state.sockets.every((s, i) => i === f.state.sockets.length - 1 || s.closed)).toBe(true);
    w.interrupt();
    expect(await w.code).toBe(0);
  });

  it('a feed that sends one message and closes sees at most 8 reconnections in 30 s', async () => {
    const f = feed('one-message-then-close');
    const w = watch(f.Socket);
    await vi.advanceTimersByTimeAsync(30_000);
    const reconnections = f.state.sockets.length - 1;
    expect(reconnections).toBeGreaterThanOrEqual(1);
    expect(reconnections).toBeLessThanOrEqual(8);
    // It answered: not "unreachable".
    expect(w.stderr()).toBe('');
    w.interrupt();
    expect(await w.code).toBe(0);
  });

  it('a flood of ticks prints at most one line a second, the latest tick', async () => {
    const f = feed('stay-open');
    const w = watch(f.Socket);
    await vi.advanceTimersByTimeAsync(10);
    const socket = f.state.sockets[0]!;
    expect(socket.sent).toHaveLength(1);
    for (let second = 0; second < 3; second++) {
      for (let i = 1; i <= 100; i++) {
        socket.receive(ticker(`0.0${second + 1}${String(i).padStart(3, '0')}`, new Date(Date.now()).toISOString()));
        await vi.advanceTimersByTimeAsync(9);
      }
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    const lines = w.stdout().trim().split('\n');
    // 3.3 s of ticks: the first at once, then one a second at most.
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ price: 0.031 });
    w.interrupt();
    expect(await w.code).toBe(0);
  });

  it.each([
    ['a 1 MB time fraction', () => `2026-11-23T15:10:00.${'1'.repeat(1_000_000)}Z`],
    ['a tick dated 2999', () => '2999-12-31T00:00:00Z'],
    ['a tick five minutes and a millisecond ahead', () => new Date(Date.now() + 300_001).toISOString()],
    ['a first tick dated 1970', () => '1970-01-01T00:00:00Z'],
  ])('%s is never printed', async (_name, timeOf) => {
    const f = feed('stay-open');
    const w = watch(f.Socket);
    await vi.advanceTimersByTimeAsync(10);
    const socket = f.state.sockets[0]!;
    socket.receive(ticker('0.0401', timeOf()));
    socket.receive(ticker('0.0402', new Date(NOW).toISOString()));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(
      w
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([{ product: 'MON-USD', price: 0.0402, time: new Date(NOW).toISOString() }]);
    w.interrupt();
    expect(await w.code).toBe(0);
  });
});
