// The performance goals `npm run bench` reports on (docs/performance.md), each as a ratio or a time
// measured in the same run, and whether it is met. The bench prints them; nothing asserts them (speed is
// no test's business: docs/testing.md).
import { formatMs, formatNumber, formatRatio, ratio, type TableRow } from './stats.ts';

export const GOALS = {
  /** The market route's added latency over the provider, at most this times a bare `fetch` proxy's. */
  marketVsFetchProxy: 1.6,
  /**
   * The contribution snapshot's requests per second, at least this fraction of a bare `node:http`
   * server's: the price of the slow-reader bound (docs/performance.md), not a defect.
   */
  snapshotVsNodeHttp: 0.6,
  /** Spawn to `listening on`, at most this many milliseconds. */
  readyMs: 250,
} as const;

/** What the goals are judged on; a figure that was not measured is NaN and judged "not measured". */
export interface GoalFigures {
  marketAddedMs: number;
  fetchProxyAddedMs: number;
  snapshotRps: number;
  nodeHttpRps: number;
  readyMs: number;
}

const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : 'NOT MET');
const judged = (value: number, met: (v: number) => boolean) => (Number.isFinite(value) ? met(value) : undefined);

/** One row per goal: the gateway's figure, the peer's, the ratio, and the verdict in the measure. */
export function goalRows(f: GoalFigures): TableRow[] {
  const market = ratio(f.marketAddedMs, f.fetchProxyAddedMs);
  const snapshot = ratio(f.snapshotRps, f.nodeHttpRps);
  return [
    {
      group: 'goals',
      measure: `market route added latency vs bare fetch proxy, ≤ ${GOALS.marketVsFetchProxy}×: ${verdict(judged(market, (r) => r <= GOALS.marketVsFetchProxy))}`,
      value: formatMs(f.marketAddedMs),
      peer: formatMs(f.fetchProxyAddedMs),
      ratio: formatRatio(market),
    },
    {
      group: 'goals',
      measure: `snapshot req/s vs bare node:http, ≥ ${GOALS.snapshotVsNodeHttp}×: ${verdict(judged(snapshot, (r) => r >= GOALS.snapshotVsNodeHttp))}`,
      value: formatNumber(f.snapshotRps),
      peer: formatNumber(f.nodeHttpRps),
      ratio: formatRatio(snapshot),
    },
    {
      group: 'goals',
      measure: `ready, spawn to "listening on", ≤ ${GOALS.readyMs} ms: ${verdict(judged(f.readyMs, (ms) => ms <= GOALS.readyMs))}`,
      value: formatMs(f.readyMs),
      peer: '',
      ratio: '',
    },
  ];
}
