// `price --watch` (docs/cli.md#live-prices): after the picture, one line per tick of the live feed the
// build baked in (cli/deployment.ts FEED_URL) that the rule of domain/live-tick.ts accepts, until Ctrl-C
// (exit 0). With --json, one JSON object a line: {"product", "price", "time"}. Node's own WebSocket
// client (Node 22 and later), so cli.mjs still imports nothing; the feed is reopened after a close, a
// refusal or 30 s of silence with the backoff every client of the feed uses.
import {
  applyTick,
  backoffMs,
  judgeMessage,
  SILENCE_MS,
  subscribeMessage,
  type LiveTick,
} from '../../domain/live-tick.ts';
import type { MarketData } from '../../domain/market.ts';
import { formatFixed, formatPercent, valueDecimals } from '../../render/format.ts';
import { PROGRAM } from '../commands.ts';

/** What `--watch` needs of Node: its global WebSocket client (Node 22 and later). */
export const WATCH_NEEDS = '--watch needs Node.js 22.12 or later (its built-in WebSocket client)';

export interface WatchIo {
  stdout: { write(text: string): unknown };
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

/** Follows the feed until interrupted; resolves with the exit status (0). */
export function watchFeed(options: WatchOptions, io: WatchIo): Promise<number> {
  const Socket = io.WebSocket ?? globalThis.WebSocket;
  const { feedUrl, product, json, market } = options;
  let last: LiveTick | null = null;
  let socket: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;

  return new Promise<number>((resolve) => {
    const armSilence = () => {
      clearTimeout(silenceTimer);
      silenceTimer = setTimeout(() => socket?.close(), SILENCE_MS);
    };
    const onMessage = (data: unknown) => {
      armSilence();
      attempt = 0;
      if (typeof data !== 'string') return;
      const verdict = judgeMessage(data, product, last);
      if (!verdict.accepted) return;
      last = verdict.tick;
      io.stdout.write(tickLine(verdict.tick, market === null ? null : applyTick(market, verdict.tick), json));
    };
    const open = () => {
      reconnectTimer = undefined;
      if (stopped || socket !== null) return;
      const ws = new Socket(feedUrl);
      socket = ws;
      armSilence();
      ws.addEventListener('open', () => ws.send(subscribeMessage(product)));
      ws.addEventListener('message', (event) => onMessage((event as MessageEvent).data));
      ws.addEventListener('error', () => undefined);
      ws.addEventListener('close', () => {
        if (socket !== ws) return;
        socket = null;
        clearTimeout(silenceTimer);
        if (stopped) return;
        reconnectTimer = setTimeout(open, backoffMs(attempt));
        attempt++;
      });
    };
    io.onInterrupt(() => {
      stopped = true;
      clearTimeout(reconnectTimer);
      clearTimeout(silenceTimer);
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
