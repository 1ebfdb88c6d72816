// What every answer of the gateway must be, whatever the upstreams and Redis are doing: a schema-valid
// 200 whose data the fake upstream really served, or a correct RFC 9457 problem document. Pure: one
// response in, the list of violations out.
import { contributionOn, closeAt } from '../fakes/data.ts';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, type ProblemCode } from '../../builders/contract/problems.ts';
import { ALLOW_HEADER, CACHE_CONTROL, CONSTANTS } from '../../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import type { Validator } from '../../builders/contract/schemas.ts';

export interface Observed {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface CheckContext {
  validator: Validator;
  siteUrl: string;
  account: string;
  /** Every ticker price the fake has been told to serve so far. */
  servedPrices: ReadonlySet<number>;
  quota: number;
  window: number;
  /** Strings that must never reach a client (the GraphQL token). */
  secrets: readonly string[];
}

const header = (h: Observed['headers'], name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** A V8 stack frame, `    at fn (file.js:12:34)`: never in a response (STYLE: errors stop at the edge). */
export const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

export function checkResponse(r: Observed, ctx: CheckContext): string[] {
  const problems: string[] = [];
  const where = `${r.method} ${r.path} → ${r.status}`;
  const fail = (what: string) => problems.push(`${where}: ${what}`);
  const text = r.body.toString('utf8');
  if (STACK_FRAME.test(text)) fail('the body carries a stack trace');
  for (const secret of ctx.secrets) if (text.includes(secret)) fail('the body carries the upstream token');

  const resource = DEFAULT_SERVICE.paths.get(r.path);
  const isApi = r.path === '/api' || r.path.startsWith('/api/');
  const isRead = r.method === 'GET' || r.method === 'HEAD';
  const contentType = header(r.headers, 'content-type') ?? '';

  if (resource) {
    if (!isRead) {
      if (r.status !== 405) return [...problems, `${where}: a ${r.method} on a data route must be 405`];
      if (header(r.headers, 'allow') !== ALLOW_HEADER)
        fail(`Allow is "${header(r.headers, 'allow')}", not "${ALLOW_HEADER}"`);
      return [...problems, ...checkProblem(r, 'method_not_allowed', ctx)];
    }
    problems.push(...checkQuotaHeaders(r, ctx));
    if (r.status === 502) {
      const found = checkProblem(r, 'upstream_unavailable', ctx);
      if (found.length === 0 && r.method === 'GET' && resource.id === 'market') {
        const body = JSON.parse(text) as { error?: unknown };
        if (typeof body.error !== 'string') fail('the market 502 carries no `error` member');
      }
      return [...problems, ...found];
    }
    if (r.status === 429) return [...problems, `${where}: 429 with a quota of ${ctx.quota} that no client can exhaust`];
    if (r.status !== 200) return [...problems, `${where}: a data route answers 200 or 502 here, not ${r.status}`];
    if (!contentType.startsWith('application/json')) fail(`content type "${contentType}"`);
    const cacheControl = header(r.headers, 'cache-control') ?? '';
    const limited = header(r.headers, 'ratelimit') !== undefined;
    if (resource.cache === 'per-request' && cacheControl !== CACHE_CONTROL.data(resource.cache))
      fail(`Cache-Control "${cacheControl}"`);
    if (resource.cache === 'until-midnight') {
      const shared = /^public, max-age=0, s-maxage=[1-9]\d*, stale-while-revalidate=300$/.test(cacheControl);
      if (limited ? cacheControl !== CACHE_CONTROL.perClient : !shared)
        fail(`Cache-Control "${cacheControl}" (quota headers: ${limited})`);
    }
    if (r.method === 'HEAD') {
      if (r.body.length !== 0) fail('HEAD answered with a body');
      return problems;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(text);
      ctx.validator.validate(resource.schema, payload);
    } catch (error) {
      return [...problems, `${where}: ${(error as Error).message}`];
    }
    problems.push(
      ...(resource.id === 'market'
        ? checkMarketProvenance(payload as MarketPayload, ctx)
        : checkContributionsProvenance(payload as ContributionsPayload, ctx)
      ).map((p) => `${where}: ${p}`),
    );
    return problems;
  }

  if (isApi && r.path !== '/api') {
    if (r.status !== 404) return [...problems, `${where}: an unknown /api/ path must be 404`];
    return [...problems, ...checkProblem(r, 'api_route_not_found', ctx)];
  }
  if (r.path === '/api' && r.method === 'GET') {
    if (r.status !== 200) return [...problems, `${where}: the API index must always be 200`];
    try {
      const index = JSON.parse(text) as { authentication?: unknown };
      ctx.validator.validate('ApiIndex', index);
      if (index.authentication !== 'none') fail('the API index does not say authentication "none"');
    } catch (error) {
      fail((error as Error).message);
    }
    return problems;
  }
  // Static pages and discovery documents come from memory: a GET of a published path is always 200;
  // other methods get a refusal (plain text off /api, a problem on /api).
  if (isRead && r.status !== 200) fail(`a published static path must be 200`);
  if (!isRead && r.status < 400) fail(`a ${r.method} must be refused`);
  if (contentType.startsWith(PROBLEM_CONTENT_TYPE)) problems.push(...checkProblem(r, undefined, ctx));
  return problems;
}

/** RFC 9457 §3: the member `status` equals the HTTP status; docs/api.md's error catalogue fixes code, type and title. */
export function checkProblem(r: Observed, expected: ProblemCode | undefined, ctx: CheckContext): string[] {
  const where = `${r.method} ${r.path} → ${r.status}`;
  const contentType = header(r.headers, 'content-type') ?? '';
  if (!contentType.startsWith(PROBLEM_CONTENT_TYPE))
    return [`${where}: content type "${contentType}", not ${PROBLEM_CONTENT_TYPE}`];
  if (r.method === 'HEAD') return r.body.length === 0 ? [] : [`${where}: HEAD answered with a body`];
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
    ctx.validator.validate('ProblemDetails', body);
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
  const out: string[] = [];
  const type = PROBLEM_TYPES[body.code as ProblemCode];
  if (!type) return [`${where}: unknown problem code ${String(body.code)}`];
  if (expected && body.code !== expected) out.push(`code ${String(body.code)}, expected ${expected}`);
  if (body.status !== r.status) out.push(`member status ${String(body.status)} differs from the HTTP status`);
  if (type.status !== r.status) out.push(`code ${type.code} belongs to status ${type.status}`);
  if (body.type !== `${ctx.siteUrl}/developers#${type.fragment}`) out.push(`type ${String(body.type)}`);
  if (body.title !== type.title) out.push(`title "${String(body.title)}"`);
  return out.map((o) => `${where}: ${o}`);
}

/** draft-ietf-httpapi-ratelimit-headers as docs/api.md#limits writes them: both headers or neither. */
function checkQuotaHeaders(r: Observed, ctx: CheckContext): string[] {
  const policy = header(r.headers, 'ratelimit-policy');
  const current = header(r.headers, 'ratelimit');
  const where = `${r.method} ${r.path} → ${r.status}`;
  if (policy === undefined && current === undefined) return []; // the store was unavailable: served without
  const out: string[] = [];
  const name = CONSTANTS.rateLimitPolicyName;
  if (policy !== `"${name}";q=${ctx.quota};w=${ctx.window}`) out.push(`RateLimit-Policy "${policy}"`);
  const match = current === undefined ? null : new RegExp(`^"${name}";r=(\\d+);t=(\\d+)$`).exec(current);
  if (!match) out.push(`RateLimit "${current}"`);
  else if (Number(match[2]) > ctx.window) out.push(`RateLimit t=${match[2]} exceeds the window`);
  return out.map((o) => `${where}: ${o}`);
}

interface MarketPayload {
  points: { time: number; value: number }[];
  value: number;
  low: number;
  high: number;
}

interface ContributionsPayload {
  username: string;
  totalContributions: number;
  days: { date: string; count: number; level: number }[];
}

/**
 * No invented numbers: the price is one the fake ticker served, every point is a candle close the fake
 * served for that hour (closeAt) or a served ticker price, and low/high are taken from those values.
 */
export function checkMarketProvenance(data: MarketPayload, ctx: CheckContext): string[] {
  const out: string[] = [];
  if (!ctx.servedPrices.has(data.value)) out.push(`value ${data.value} is no price the fake ticker served`);
  for (const p of data.points) {
    if (p.value !== closeAt(p.time) && !ctx.servedPrices.has(p.value)) {
      out.push(`point ${p.time} has value ${p.value}, not the fake's close ${closeAt(p.time)} nor a served price`);
      break;
    }
  }
  const values = [...data.points.map((p) => p.value), data.value];
  if (data.low !== Math.min(...values) || data.high !== Math.max(...values))
    out.push('low/high are not the extremes of the values');
  return out;
}

/** Every day is the fake's own count and level for that date; nothing zero-filled, nothing shifted. */
export function checkContributionsProvenance(data: ContributionsPayload, ctx: CheckContext): string[] {
  const out: string[] = [];
  if (data.username.toLowerCase() !== ctx.account.toLowerCase()) out.push(`username ${data.username}`);
  let sum = 0;
  for (const d of data.days) {
    const truth = contributionOn(d.date);
    sum += d.count;
    if (d.count !== truth.count || d.level !== truth.level) {
      out.push(`${d.date}: count ${d.count} level ${d.level}, the fake served ${truth.count} / ${truth.level}`);
      break;
    }
  }
  if (sum !== data.totalContributions) out.push(`totalContributions ${data.totalContributions} ≠ sum of days ${sum}`);
  return out;
}
