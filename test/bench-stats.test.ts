// The arithmetic behind `npm run bench`'s figures: medians, nearest-rank percentiles, ratios and the
// printed table. No timing is asserted anywhere.
import { describe, expect, it } from 'vitest';
import {
  extremes,
  formatBytes,
  formatMs,
  formatNumber,
  formatRatio,
  formatTable,
  median,
  percentile,
  ratio,
  roundOrder,
} from './bench/stats.ts';
import { parseWrk, wrkDurationMs } from './bench/wrk.ts';
import { GOALS, goalRows } from './bench/goals.ts';

describe('bench statistics', () => {
  it('takes the median of odd and even lists without reordering the input', () => {
    const input = [5, 1, 3];
    expect(median(input)).toBe(3);
    expect(input).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('finds the extremes of a list too long to spread into arguments (a resilience run gathers ~10^5 latencies)', () => {
    const long = Array.from({ length: 500_000 }, (_, i) => (i * 7919) % 500_000);
    expect(() => Math.max(...long)).toThrow(RangeError); // why extremes() loops instead
    expect(extremes(long)).toEqual({ min: 0, max: 499_999 });
    expect(extremes([3, -2, 9])).toEqual({ min: -2, max: 9 });
    expect(extremes([])).toEqual({ min: Number.NaN, max: Number.NaN });
  });

  it('computes nearest-rank percentiles of an ascending list', () => {
    const hundred = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3], 100)).toBe(3);
    expect(percentile([], 99)).toBeNaN();
  });

  it('gives a ratio only when both figures were measured and the peer is not zero', () => {
    expect(ratio(300, 100)).toBe(3);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
    expect(formatRatio(ratio(1, 0))).toBe('n/a');
    expect(formatRatio(2.345)).toBe('2.35×');
    expect(formatRatio(12.34)).toBe('12.3×');
  });

  it('formats numbers, bytes and milliseconds for the table', () => {
    expect(formatNumber(12345.6)).toBe('12,346');
    expect(formatNumber(Number.NaN)).toBe('n/a');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
    expect(formatMs(1.234)).toBe('1.23 ms');
    expect(formatMs(123.4)).toBe('123 ms');
  });

  it('aligns the table: text columns left, figures right, a rule under the header', () => {
    const table = formatTable([
      { group: 'snapshot', measure: 'req/s vs serve', value: '12,000', peer: '1,000', ratio: '12.0×' },
      { group: 'build', measure: 'wall time', value: '800 ms', peer: '', ratio: '' },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^group\s+measure\s+gateway\s+peer\s+ratio$/);
    expect(lines[1]).toMatch(/^-+( +-+){4}$/);
    expect(lines[2]).toBe('snapshot  req/s vs serve   12,000  1,000  12.0×');
    expect(lines[3]).toBe('build     wall time        800 ms');
  });

  it('rotates the order of the targets every round so none always runs first', () => {
    expect(roundOrder(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(roundOrder(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(roundOrder(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
    expect(roundOrder([], 2)).toEqual([]);
  });
});

describe('the wrk report', () => {
  const report = `Running 3s test @ http://127.0.0.1:41234/api/v1/github-contributions
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.31ms  512.10us  14.02ms   91.20%
    Req/Sec    21.73k     1.02k   23.11k    80.00%
  Latency Distribution
     50%  812.00us
     75%    2.40ms
     90%    2.61ms
     99%    1.02s
  65190 requests in 3.00s, 992.51MB read
  Non-2xx or 3xx responses: 190
  Socket errors: connect 0, read 2, write 1, timeout 3
Requests/sec:  21730.00
Transfer/sec:    330.84MB
`;

  it('reads 2xx throughput, the latency percentiles in their units, non-2xx answers and socket errors', () => {
    const r = parseWrk(report);
    expect(r.ok).toBe(65_000);
    expect(r.rps).toBeCloseTo((21730 * 65_000) / 65_190, 6);
    expect(r.p50Ms).toBeCloseTo(0.812, 9);
    expect(r.p99Ms).toBe(1020);
    expect(r.non2xx).toBe(190);
    expect(r.errors).toBe(6);
  });

  it('converts each of wrk’s duration units, and refuses a report without a request count', () => {
    expect([
      wrkDurationMs('950.00us'),
      wrkDurationMs('1.50ms'),
      wrkDurationMs('2.00s'),
      wrkDurationMs('1.00m'),
    ]).toEqual([0.95, 1.5, 2000, 60_000]);
    expect(wrkDurationMs('fast')).toBeNaN();
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/no request count/);
  });
});

describe('bench goals', () => {
  const figures = {
    marketAddedMs: 0.8,
    fetchProxyAddedMs: 0.6,
    snapshotRps: 18_000,
    nodeHttpRps: 30_000,
    readyMs: 180,
  };

  it('judges each goal on the run’s own figures: market ≤ 1.6× a fetch proxy, snapshot ≥ 0.6× node:http, ready ≤ 250 ms', () => {
    const rows = goalRows(figures);
    expect(rows.map((r) => r.ratio)).toEqual(['1.33×', '0.60×', '']);
    expect(rows.every((r) => r.measure.endsWith(': met'))).toBe(true);
    expect(GOALS).toEqual({ marketVsFetchProxy: 1.6, snapshotVsNodeHttp: 0.6, readyMs: 250 });
  });

  it('says NOT MET past a bound, and "not measured" for a figure the run did not take', () => {
    const rows = goalRows({ ...figures, marketAddedMs: 1.0, snapshotRps: 17_000, readyMs: Number.NaN });
    expect(rows.map((r) => r.measure.split(': ').at(-1))).toEqual(['NOT MET', 'NOT MET', 'not measured']);
  });
});
