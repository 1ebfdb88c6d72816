// The resilience suite's judge (test/resilience/checks.ts) must catch what it claims to catch: an
// invented price, zero-filled days, a problem whose status member lies, a 429 under a huge quota.
import { describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, problem } from '../core/problems.ts';
import { createValidator } from '../core/schemas.ts';
import { closeAt, contributionOn } from './fakes/data.ts';
import { checkResponse, type CheckContext, type Observed } from './resilience/checks.ts';

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

const json = (status: number, body: unknown, headers: Record<string, string> = {}, path = '/api/v1/mon-price', method = 'GET'): Observed => ({
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
    const body = problem(SITE, 'upstream_unavailable', 'The market provider did not answer.', 'Market data is unavailable.');
    const ok: Observed = { ...json(502, body), headers: { 'content-type': PROBLEM_CONTENT_TYPE } };
    expect(checkResponse(ok, ctx)).toEqual([]);
    const lying: Observed = { ...json(502, { ...body, status: 500 }), headers: { 'content-type': PROBLEM_CONTENT_TYPE } };
    expect(checkResponse(lying, ctx).some((v) => v.includes('member status 500'))).toBe(true);
    const plain: Observed = { ...json(502, body), headers: { 'content-type': 'application/json' } };
    expect(checkResponse(plain, ctx).some((v) => v.includes('not application/problem+json'))).toBe(true);
  });

  it('flags a 429 under a quota no client can exhaust, and a 405 without Allow', () => {
    const limited = problem(SITE, 'rate_limit_exceeded', 'Quota exhausted.');
    expect(checkResponse({ ...json(429, limited), headers: { 'content-type': PROBLEM_CONTENT_TYPE } }, ctx).some((v) => v.includes('429'))).toBe(true);
    const refused = problem(SITE, 'method_not_allowed', 'Use GET.');
    const noAllow: Observed = { ...json(405, refused, {}, '/api/v1/mon-price', 'POST'), headers: { 'content-type': PROBLEM_CONTENT_TYPE } };
    expect(checkResponse(noAllow, ctx).some((v) => v.includes('Allow'))).toBe(true);
  });

  it('flags a body that leaks a stack trace or the token', () => {
    const leak: Observed = { method: 'GET', path: '/', status: 200, headers: { 'content-type': 'text/html' }, body: Buffer.from('oops s3cret-token\n    at handler (/srv/gateway.mjs:12:34)\n') };
    const found = checkResponse(leak, ctx);
    expect(found.some((v) => v.includes('stack trace'))).toBe(true);
    expect(found.some((v) => v.includes('token'))).toBe(true);
  });
});
