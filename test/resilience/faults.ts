// The fault schedule of one resilience run: upstream phases (healthy, slow, 429, down, garbage…), Redis
// outages, a hung Redis, a store answering nonsense, slowloris clients, slow request bodies, clients that
// pipeline and never read, and a flood of idle connections past the connection cap, laid out
// over the run from a seed so that a failing run can be replayed with the same faults.
import type { GithubMode, MarketMode } from '../fakes/upstreams.ts';

/** Mulberry32: a small deterministic PRNG, enough to pick faults. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface UpstreamPhase {
  atMs: number;
  market: MarketMode;
  github: GithubMode;
  /** The ticker price the fake serves during this phase (decimal string, as Coinbase sends it). */
  tickerPrice: string;
}

export type Event =
  | { atMs: number; kind: 'redis-stop'; signal: 'SIGKILL' | 'SIGTERM' }
  | { atMs: number; kind: 'redis-start' }
  // Redis frozen (SIGSTOP) for `forMs` while bursts of data requests arrive; then SIGCONT.
  | { atMs: number; kind: 'redis-hang'; forMs: number }
  // Redis's port answered by a fake that says +OK to everything, for `forMs` (Redis is stopped then).
  | { atMs: number; kind: 'nonsense-store'; forMs: number }
  | { atMs: number; kind: 'slowloris'; silent: number; trickle: number }
  | { atMs: number; kind: 'slow-bodies'; count: number }
  /** Clients that send half a request and never close their side, even after the server's answer. */
  | { atMs: number; kind: 'half-open'; count: number }
  /** The public HTML calendar serves a crafted 1 MB page while a build (no token) reads it. */
  | { atMs: number; kind: 'hostile-page' }
  /** Connections from several addresses that each pipeline `pipelined` requests of a page (uncompressed) and never read. */
  | { atMs: number; kind: 'slow-readers'; count: number; addresses: number; pipelined: number }
  /** Connections that send nothing, past the gateway's connection cap, held for `forMs`. */
  | { atMs: number; kind: 'idle-flood'; count: number; addresses: number; forMs: number };

export interface Schedule {
  phases: UpstreamPhase[];
  events: Event[];
}

const MARKET_FAULTS: MarketMode[] = [
  'slow',
  'rate-limited',
  'down',
  'garbage',
  'not-json',
  'server-error',
  'bad-price',
  'no-candles',
];
const GITHUB_FAULTS: GithubMode[] = [
  'slow',
  'rate-limited',
  'down',
  'garbage',
  'server-error',
  'missing-day',
  'markup-drift',
];

/**
 * Phases of 1.5 to 3.5 s until `durationMs`. The market is healthy one phase in three; GitHub is faulty
 * for the first 40 % (the gateway keeps a good calendar until midnight, so its failures only show
 * before the first success) and healthy one phase in two afterwards, with at least one healthy phase.
 */
export function planSchedule(durationMs: number, seed: number): Schedule {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const phases: UpstreamPhase[] = [];
  let githubHealed = false;
  for (let at = 0, i = 0; at < durationMs; at += 1500 + Math.floor(rand() * 2000), i++) {
    const late = at >= durationMs * 0.4;
    const github: GithubMode = late && (!githubHealed || rand() < 0.5) ? 'ok' : pick(GITHUB_FAULTS);
    if (github === 'ok') githubHealed = true;
    phases.push({
      atMs: at,
      market: rand() < 1 / 3 ? 'ok' : pick(MARKET_FAULTS),
      github,
      // A distinct price per phase: a 200 can be traced back to the phase that served it.
      tickerPrice: (0.03 + (i + 1) * 0.000013).toFixed(6),
    });
  }
  const at = (fraction: number) => Math.floor(durationMs * fraction);
  const events: Event[] = [
    { atMs: at(0.15), kind: 'slowloris', silent: 40, trickle: 10 },
    { atMs: at(0.25), kind: 'redis-stop', signal: 'SIGKILL' },
    { atMs: at(0.3), kind: 'slow-bodies', count: 6 },
    { atMs: at(0.4), kind: 'redis-start' },
    { atMs: at(0.42), kind: 'redis-hang', forMs: at(0.15) },
    { atMs: at(0.6), kind: 'redis-stop', signal: 'SIGTERM' },
    { atMs: at(0.61), kind: 'nonsense-store', forMs: at(0.07) },
    { atMs: at(0.65), kind: 'slow-bodies', count: 6 },
    { atMs: at(0.7), kind: 'redis-start' },
    { atMs: at(0.75), kind: 'slowloris', silent: 20, trickle: 5 },
    { atMs: at(0.2), kind: 'half-open', count: 30 },
    { atMs: at(0.5), kind: 'hostile-page' },
    { atMs: at(0.3), kind: 'slow-readers', count: 1024, addresses: 4, pipelined: 200 },
    { atMs: at(0.72), kind: 'idle-flood', count: 5000, addresses: 20, forMs: at(0.06) },
  ];
  return { phases, events };
}
