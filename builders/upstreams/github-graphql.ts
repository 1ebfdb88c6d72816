// GitHub GraphQL contribution calendar (GITHUB_TOKEN set), via @octokit/graphql with p-retry around it.
// Octokit reads answers itself, so it is given a fetch that refuses redirects and caps the body.
import { graphql, GraphqlResponseError } from '@octokit/graphql';
import pRetry, { AbortError } from 'p-retry';
import type { ContributionDay } from '../domain/contributions.ts';
import { UpstreamError } from '../lib/errors.ts';
import {
  BACKOFF_FIRST_MS,
  BACKOFF_LIMIT_MS,
  guardedFetch,
  RETRY_LIMIT,
  retryAfterMs,
  type HttpOptions,
} from './http.ts';

const QUERY = `query ($login: String!, $from: DateTime!, $to: DateTime!) {
  user(login: $login) {
    contributionsCollection(from: $from, to: $to) {
      contributionCalendar {
        totalContributions
        weeks { firstDay contributionDays { date contributionCount contributionLevel } }
      }
    }
  }
}`;

/** A real year of contribution days is about 25 KB of JSON. */
export const MAX_GRAPHQL_ANSWER_BYTES = 1024 * 1024;

const CONTRIBUTION_LEVELS: Readonly<Record<string, number>> = {
  NONE: 0,
  FIRST_QUARTILE: 1,
  SECOND_QUARTILE: 2,
  THIRD_QUARTILE: 3,
  FOURTH_QUARTILE: 4,
};

export interface CalendarRange {
  startDate: string;
  endDate: string;
}

/**
 * One GitHub GraphQL query for `account` (its login is the `login` variable): the token, the deadline over
 * p-retry's bounded retries, the capped body, and an error that says why and never quotes the token. What
 * the calendar and a dataset's own query (datasets/projects/) share.
 */
export function githubGraphql(apiUrl: string, token: string, account: string, http: HttpOptions, maxBytes: number) {
  const client = graphql.defaults({
    baseUrl: apiUrl,
    headers: { authorization: `bearer ${token}`, 'user-agent': http.userAgent },
    request: {
      fetch: guardedFetch('github-graphql', { maxBytes, timeoutMs: http.timeoutMs }),
    },
  });
  return async function query(text: string, variables: Record<string, unknown>): Promise<unknown> {
    const deadline = performance.now() + http.timeoutMs;
    const signal = AbortSignal.timeout(http.timeoutMs);
    try {
      return await pRetry(
        async () => {
          try {
            return await client(text, { login: account, ...variables, request: { signal } });
          } catch (error) {
            throw retryable(error, deadline) ? error : new AbortError(error as Error);
          }
        },
        // The GETs' policy (ky's, builders/upstreams/http.ts): ky retries no POST, so p-retry does it for a query.
        { retries: RETRY_LIMIT, minTimeout: BACKOFF_FIRST_MS, maxTimeout: BACKOFF_LIMIT_MS, signal },
      );
    } catch (error) {
      const described = describe(error, account, http.timeoutMs, signal);
      // The token itself, however the upstream quoted it, never reaches a message (a token too short to
      // be a secret, as in tests, would match ordinary words).
      if (token.length < 8 || !described.message.includes(token)) throw described;
      throw new UpstreamError(
        'github-graphql',
        described.message
          .split(token)
          .join('[redacted]')
          .replace(/^github-graphql: /, ''),
        {
          cause: error,
          status: described.status,
          retryAfterMs: described.retryAfterMs,
        },
      );
    }
  };
}

export function githubGraphqlClient(apiUrl: string, token: string, account: string, http: HttpOptions) {
  const query = githubGraphql(apiUrl, token, account, http, MAX_GRAPHQL_ANSWER_BYTES);
  return async function contributionDays(range: CalendarRange): Promise<ContributionDay[]> {
    const data = await query(QUERY, { from: `${range.startDate}T00:00:00Z`, to: `${range.endDate}T23:59:59Z` });
    return parseGraphqlCalendar(data);
  };
}

interface OctokitError extends Error {
  status?: number;
  response?: { headers?: Record<string, string | undefined> };
}

/** Network errors (octokit reports them as 500), 5xx, and 429/403 with a Retry-After that fits the deadline. */
function retryable(error: unknown, deadline: number): boolean {
  if (error instanceof GraphqlResponseError || !(error instanceof Error)) return false;
  // Our own fetch refused the answer (a redirect, an oversized body): asking again gets the same.
  if (error.cause instanceof UpstreamError) return false;
  const { status, response } = error as OctokitError;
  if (status === undefined) return false;
  if (status >= 500) return true;
  if (status === 429 || status === 403) {
    const wait = retryAfterMs(response?.headers?.['retry-after'] ?? null);
    return wait !== undefined && performance.now() + wait < deadline;
  }
  return false;
}

function describe(error: unknown, account: string, timeoutMs: number, signal: AbortSignal): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (error instanceof Error && error.cause instanceof UpstreamError) return error.cause;
  if (error instanceof GraphqlResponseError) {
    const errors = (error.errors ?? []) as Array<{ type?: string; message?: string }>;
    if (errors.some((e) => e.type === 'NOT_FOUND')) {
      return new UpstreamError('github-graphql', `account "${account}" not found`, { cause: error });
    }
    const first = errors[0];
    return new UpstreamError('github-graphql', `GraphQL errors: ${first?.type ?? ''} ${first?.message ?? ''}`.trim(), {
      cause: error,
    });
  }
  const e = error as OctokitError;
  // Octokit reports a fetch aborted by our deadline as a status 500 error; the signal says what happened.
  if (signal.aborted || e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new UpstreamError('github-graphql', `POST /graphql timed out after ${timeoutMs} ms`, { cause: error });
  }
  // octokit reports a connection that failed before any answer as status 500 without a response.
  if (e?.status === 500 && e.response === undefined) {
    return new UpstreamError('github-graphql', `POST /graphql failed: ${e.message}`, { cause: error });
  }
  if (typeof e?.status === 'number') {
    const why = e.status === 401 ? 'token rejected' : e.status === 403 ? 'forbidden or rate limited' : 'error';
    return new UpstreamError('github-graphql', `POST /graphql answered ${e.status} (${why})`, {
      cause: error,
      status: e.status,
    });
  }
  return new UpstreamError('github-graphql', `POST /graphql failed: ${e?.message ?? String(error)}`, { cause: error });
}

/** Checks the shape of `data` and flattens the weeks; days outside the range come back too and are kept. */
export function parseGraphqlCalendar(data: unknown): ContributionDay[] {
  const user = (data as { user?: unknown } | null)?.user;
  if (user === null) throw new UpstreamError('github-graphql', 'account not found (user is null)');
  const weeks = (user as { contributionsCollection?: { contributionCalendar?: { weeks?: unknown } } } | undefined)
    ?.contributionsCollection?.contributionCalendar?.weeks;
  if (!Array.isArray(weeks))
    throw new UpstreamError('github-graphql', 'answer has no contributionCalendar.weeks array');
  return weeks.flatMap((week: { contributionDays?: unknown }, w) => {
    if (!Array.isArray(week?.contributionDays))
      throw new UpstreamError('github-graphql', `week ${w} has no contributionDays`);
    return week.contributionDays.map(
      (day: { date?: unknown; contributionCount?: unknown; contributionLevel?: unknown }) => {
        const level =
          typeof day?.contributionLevel === 'string' ? CONTRIBUTION_LEVELS[day.contributionLevel] : undefined;
        if (typeof day?.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day.date)) {
          throw new UpstreamError('github-graphql', `day ${JSON.stringify(day?.date)} is not a date`);
        }
        if (typeof day.contributionCount !== 'number' || level === undefined) {
          throw new UpstreamError('github-graphql', `day ${day.date} has an unexpected count or level`);
        }
        return { date: day.date, count: day.contributionCount, level };
      },
    );
  });
}
