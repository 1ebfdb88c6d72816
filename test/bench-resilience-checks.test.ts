// The resilience suite's judge (test/resilience/checks.ts) must catch what it claims to catch: an
// invented price, zero-filled days, a problem whose status member lies, a 429 under a huge quota, a
// live heap that climbs with the requests served.
import { describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, problem } from '../builders/contract/problems.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import { closeAt, contributionOn } from './fakes/data.ts';
import { checkResponse, type CheckContext, type Observed } from './resilience/checks.ts';
import { heapGrowthProblem, inspectorUrl, type HeapSample } from './resilience/heap.ts';

const SITE = 'http://resilience.test';
const ctx: CheckContext = {
  validator: createValidator(),
  siteUrl: SITE,
  account: 'octocat',
  servedPrices: new Set([0.030013]),
  quota: 1000,
  window: 60,
  secrets: ['s3cret-token'],
};

const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  path = '/api/v1/mon-price',
  method = 'GET',
): Observed => ({
  method,
  path,
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});

function market(value: number) {
  const hour = 1_763_820_000;
  const points = [0, 1, 2].map((i) => ({ time: hour + i * 3600, value: closeAt(hour + i * 3600) }));
  points.push({ time: hour + 3 * 3600 + 5, value });
  const values = [...points.map((p) => p.value), value];
  return {
    product: 'MON-USD',
    currency: 'USD',
    source: 'Coinbase Exchange',
    windowSeconds: 604800,
    points,
    value,
    changePercent: ((value - points[0]!.value) / points[0]!.value) * 100,
    low: Math.min(...values),
    high: Math.max(...values),
    asOf: '2025-11-22T14:03:07.512Z',
  };
}

function calendar(zeroFill = false) {
  const days = Array.from({ length: 365 }, (_, i) => {
    const date = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const truth = contributionOn(date);
    return zeroFill ? { date, count: 0, level: 0 } : truth;
  });
  return {
    username: 'octocat',
    totalContributions: days.reduce((s, d) => s + d.count, 0),
    startDate: days[0]!.date,
    endDate: days[364]!.date,
    days,
    timeZone: 'America/Toronto',
    nextRefreshAt: '2026-01-01T00:00:00.000-05:00',
  };
}

const MARKET_HEADERS = { 'cache-control': 'private, no-store' };
const CAL_HEADERS = { 'cache-control': 'public, max-age=0, s-maxage=3600, stale-while-revalidate=300' };

describe('resilience checks', () => {
  it('accepts a market 200 whose price the fake served and whose points are the fake closes', () => {
    expect(checkResponse(json(200, market(0.030013), MARKET_HEADERS), ctx)).toEqual([]);
  });

  it('flags a market 200 carrying a price the fake never served', () => {
    const found = checkResponse(json(200, market(0.031), MARKET_HEADERS), ctx);
    expect(found.some((v) => v.includes('no price the fake ticker served'))).toBe(true);
  });

  it('accepts the fake calendar and flags a zero-filled one', () => {
    const path = '/api/v1/github-contributions';
    expect(checkResponse(json(200, calendar(), CAL_HEADERS, path), ctx)).toEqual([]);
    const found = checkResponse(json(200, calendar(true), CAL_HEADERS, path), ctx);
    expect(found.some((v) => v.includes('the fake served'))).toBe(true);
  });

  it('accepts a correct 502 problem and flags one whose status member differs from the HTTP status', () => {
    const body = problem(
      SITE,
      'upstream_unavailable',
      'The market provider did not answer.',
      'Market data is unavailable.',
    );
    const ok: Observed = { ...json(502, body), headers: { 'content-type': PROBLEM_CONTENT_TYPE } };
    expect(checkResponse(ok, ctx)).toEqual([]);
    const lying: Observed = {
      ...json(502, { ...body, status: 500 }),
      headers: { 'content-type': PROBLEM_CONTENT_TYPE },
    };
    expect(checkResponse(lying, ctx).some((v) => v.includes('member status 500'))).toBe(true);
    const plain: Observed = { ...json(502, body), headers: { 'content-type': 'application/json' } };
    expect(checkResponse(plain, ctx).some((v) => v.includes('not application/problem+json'))).toBe(true);
  });

  it('flags a 429 under a quota no client can exhaust, and a 405 without Allow', () => {
    const limited = problem(SITE, 'rate_limit_exceeded', 'Quota exhausted.');
    expect(
      checkResponse({ ...json(429, limited), headers: { 'content-type': PROBLEM_CONTENT_TYPE } }, ctx).some((v) =>
        v.includes('429'),
      ),
    ).toBe(true);
    const refused = problem(SITE, 'method_not_allowed', 'Use GET.');
    const noAllow: Observed = {
      ...json(405, refused, {}, '/api/v1/mon-price', 'POST'),
      headers: { 'content-type': PROBLEM_CONTENT_TYPE },
    };
    expect(checkResponse(noAllow, ctx).some((v) => v.includes('Allow'))).toBe(true);
  });

  it('flags a body that leaks a stack trace or the token', () => {
    const leak: Observed = {
      method: 'GET',
      path: '/',
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: Buffer.from('oops s3cret-token\n    at handler (/srv/gateway.mjs:12:34)\n'),
    };
    const found = checkResponse(leak, ctx);
    expect(found.some((v) => v.includes('stack trace'))).toBe(true);
    expect(found.some((v) => v.includes('token'))).toBe(true);
  });
});

describe('the live-heap verdict', () => {
  const MiB = 2 ** 20;
  const series = (mibs: number[]): HeapSample[] => mibs.map((m, i) => ({ atMs: i * 2000, liveBytes: m * MiB }));

  it('reads the inspector address node prints for --inspect', () => {
    const stderr =
      'Debugger listening on ws://127.0.0.1:40123/0f6c1c1e-2a5d-4a7e-9d7b-3f3c2b1a0e9d\nFor help, see: https://nodejs.org/en/docs/inspector\n';
    expect(inspectorUrl(stderr)).toBe('ws://127.0.0.1:40123/0f6c1c1e-2a5d-4a7e-9d7b-3f3c2b1a0e9d');
    expect(inspectorUrl('listening on http://127.0.0.1:8080/\n')).toBeUndefined();
  });

  it('passes a flat heap, and ignores growth during the warm-up and a single high sample', () => {
    // A healthy run, observed: 14.8 → 18.0 MiB, most of it in the first seconds.
    expect(
      heapGrowthProblem(series([5, 9, 14, 15, 15.5, 15.2, 15.4, 16, 15.8, 16.2, 16.5, 30, 16.8]), 6000, 8 * MiB),
    ).toBeUndefined();
  });

  it('flags a heap that climbs with the requests served (a leak of ~1 KiB per request, observed)', () => {
    const leaking = series([
      15.5, 15, 16.7, 16.8, 16.9, 18.6, 19.2, 20.3, 25.3, 30.6, 36.1, 40.7, 44, 48.7, 51.1, 54.4, 56.4, 58.9,
    ]);
    expect(heapGrowthProblem(leaking, 6000, 8 * MiB)).toBe(
      'the live heap grew from 16.9 MiB to 56.4 MiB after the warm-up (allowed: +8.0 MiB)',
    );
  });

  it('refuses to judge from too few samples rather than passing silently', () => {
    expect(heapGrowthProblem(series([15, 15, 15, 15, 15, 15, 15]), 4000, 8 * MiB)).toMatch(
      /too few live-heap samples after the warm-up \(5\)/,
    );
  });
});
