// `price --watch` (docs/cli.md#live-prices): after the picture, one line per tick of the live feed the
// site names in its API index (`liveFeed`, read by builders/cli/run.ts) that the rule of builders/domain/live-tick.ts accepts, until Ctrl-C
// (exit 0), at most one a second (the latest tick's). With --json, one JSON object a line: {"product",
// "price", "time"}. Node's own WebSocket client (Node 22 and later), so cli.mjs still imports nothing; the
// feed is reopened after a close, a refusal or 30 s of silence with the backoff every client of the feed
// uses (builders/domain/live-tick.ts Reconnection), and a feed it cannot reach is said on stderr, once.
import {
  applyTick,
  judgeMessage,
  Reconnection,
  SILENCE_MS,
  subscribeMessage,
  type LiveTick,
} from '../../domain/live-tick.ts';
import { latestWins } from '../../lib/latest-wins.ts';
import { oneLine } from '../../lib/text/one-line.ts';
import type { MarketData } from '../../domain/market.ts';
import { formatFixed, formatPercent, valueDecimals } from '../../render/format.ts';
import { PROGRAM } from '../commands.ts';

/** What `--watch` needs of Node: its global WebSocket client (Node 22 and later). */
export const WATCH_NEEDS = '--watch needs Node.js 22.12 or later (its built-in WebSocket client)';

export interface WatchIo {
  stdout: { write(text: string): unknown };
  /** What the watch says of the feed itself: one line per change of state. */
  stderr: { write(text: string): unknown };
  /** The clock ticks are judged by; Date.now when absent. */
  now?: () => number;
  /** Calls `stop` on Ctrl-C (main.ts: SIGINT); only a watching command listens. */
  onInterrupt(stop: () => void): void;
  /** The WebSocket class; the global one when absent. */
  WebSocket?: typeof WebSocket;
}

export interface WatchOptions {
  feedUrl: string;
  product: string;
  json: boolean;
  /** The market the picture showed: each line says the change against it. Null with --json. */
  market: MarketData | null;
}

/** The line of one accepted tick. */
export function tickLine(tick: LiveTick, market: MarketData | null, json: boolean): string {
  if (json) return `${JSON.stringify({ product: tick.product, price: tick.price, time: tick.time })}\n`;
  if (market === null) return `${tick.time}  ${tick.product}  ${tick.price} USD\n`;
  // The picture's decimals (render/preview.ts marketDecimals), without the charts' code in cli.mjs.
  const decimals = valueDecimals([market.value, market.low, market.high, ...market.points.map((p) => p.value)]);
  return `${tick.time}  ${tick.product}  ${formatFixed(market.value, decimals)} USD  ${formatPercent(market.changePercent)} over 7 days\n`;
}

/** A socket that has not opened this long is a feed not reached: said, closed and tried again. */
export const CONNECT_DEADLINE_MS = 8_000;
/** A feed that has said nothing this long after the first attempt is said to be awaited (once). */
export const FEED_WAIT_NOTICE_MS = 2_000;
/** The CLI prints at most one line a second (docs/upstreams.md#the-live-feed), the latest tick's. */
const PRINT_MS = 1_000;

/**
 * Follows the feed until interrupted; resolves with the exit status (0). What it says of the feed itself
 * goes to stderr, one line per change of state and never per attempt: when it cannot be reached (a refusal,
 * a socket closed before any message, or none opened within CONNECT_DEADLINE_MS), and when it answers again.
 */
export function watchFeed(options: WatchOptions, io: WatchIo): Promise<number> {
  const Socket = io.WebSocket ?? globalThis.WebSocket;
  const now = io.now ?? Date.now;
  const { feedUrl, product, json, market } = options;
  const feed = oneLine(feedUrl, 200);
  // A first tick older than the snapshot the picture showed is not live (--json fetches none: no floor).
  const notBeforeMs = market !== null ? Date.parse(market.asOf) : -Infinity;
  const reconnection = new Reconnection();
  const lines = latestWins<LiveTick>(PRINT_MS, (tick) =>
    io.stdout.write(tickLine(tick, market === null ? null : applyTick(market, tick), json)),
  );
  let last: LiveTick | null = null;
  let socket: WebSocket | null = null;
  let stopped = false;
  /** null until the first attempt ends; then whether the feed answered. */
  let reached: boolean | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let connectTimer: ReturnType<typeof setTimeout> | undefined;

  const say = (line: string) => io.stderr.write(`${PROGRAM}: ${line}\n`);
  // A feed that has said nothing FEED_WAIT_NOTICE_MS after the first attempt began is said to be awaited,
  // once: a terminal is not left silent until CONNECT_DEADLINE_MS gives up on the socket.
  const waitTimer = setTimeout(() => {
    if (reached === null && !stopped) say(`waiting for the live feed ${feed} (no answer yet)`);
  }, FEED_WAIT_NOTICE_MS);
  const answered = () => {
    clearTimeout(waitTimer);
    if (reached === false) say(`the live feed ${feed} answers again; following its ticks`);
    reached = true;
  };
  const notReached = () => {
    clearTimeout(waitTimer);
    if (reached !== false) say(`cannot reach the live feed ${feed}; still trying (Ctrl-C stops)`);
    reached = false;
  };

  return new Promise<number>((resolve) => {
    const armSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => socket?.close(), SILENCE_MS);
    };
    /** The socket `ws` is gone: said when it never answered, and opened again after the backoff. */
    const gone = (ws: WebSocket, delivered: boolean) => {
      if (socket !== ws) return;
      socket = null;
      clearTimeout(silenceTimer);
      clearTimeout(connectTimer);
      if (stopped) return;
      if (!delivered) notReached();
      reconnectTimer = setTimeout(open, reconnection.closed(now()));
    };
    const open = () => {
      reconnectTimer = undefined;
      if (stopped || socket !== null) return;
      let delivered = false;
      let ws: WebSocket;
      try {
        ws = new Socket(feedUrl);
      } catch {
        notReached(); // a URL this Node refuses: said once, and nothing to retry
        return;
      }
      socket = ws;
      armSilence();
      connectTimer = setTimeout(() => {
        gone(ws, false);
        try {
          ws.close();
        } catch {
          // a socket still connecting: closing it is all that is left to do
        }
      }, CONNECT_DEADLINE_MS);
      ws.addEventListener('open', () => {
        clearTimeout(connectTimer);
        reconnection.opened(now());
        ws.send(subscribeMessage(product));
      });
      ws.addEventListener('message', (event) => {
        if (socket !== ws) return;
        armSilence();
        delivered = true;
        answered();
        const data = (event as MessageEvent).data;
        if (typeof data !== 'string') return;
        const verdict = judgeMessage(data, product, last, { nowMs: now(), notBeforeMs });
        if (!verdict.accepted) return;
        reconnection.accepted();
        last = verdict.tick;
        lines.push(verdict.tick);
      });
      ws.addEventListener('error', () => undefined);
      ws.addEventListener('close', () => gone(ws, delivered));
    };
    io.onInterrupt(() => {
      stopped = true;
      clearTimeout(waitTimer);
      clearTimeout(reconnectTimer);
      clearTimeout(silenceTimer);
      clearTimeout(connectTimer);
      lines.cancel();
      const ws = socket;
      socket = null;
      try {
        ws?.close();
      } catch {
        // closing a socket that never opened: nothing to do
      }
      resolve(0);
    });
    open();
  });
}

/** The one line `--watch` says on a Node without a WebSocket client, or null when it has one. */
export function watchUnsupported(nodeVersion: string, Socket: unknown = globalThis.WebSocket): string | null {
  return typeof Socket === 'function' ? null : `${PROGRAM}: ${WATCH_NEEDS}; this is Node.js ${nodeVersion}`;
}
