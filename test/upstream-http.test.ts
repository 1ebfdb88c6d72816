// Retry, deadline, size and redirect behaviour of the upstream clients, against scripted servers on
// loopback, and how upstream text reaches the logs.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { failureLine } from '../builders/build/build.ts';
import { UpstreamError } from '../builders/lib/errors.ts';
import { coinbaseClient, MAX_MARKET_ANSWER_BYTES } from '../builders/upstreams/coinbase.ts';
import { githubGraphqlClient, MAX_GRAPHQL_ANSWER_BYTES } from '../builders/upstreams/github-graphql.ts';
import { githubHtmlClient, MAX_CALENDAR_HTML_BYTES } from '../builders/upstreams/github-html.ts';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../builders/upstreams/http.ts';
import { startFakeUpstreams } from './fakes/upstreams.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, upstreamEnv } from './helpers/run.ts';
import { runBuild } from './helpers/site-dist.ts';

type Step = (req: IncomingMessage, res: ServerResponse) => void;
const TICKER = {
  ask: '0.03',
  bid: '0.03',
  volume: '1',
  trade_id: '1',
  price: '0.030113',
  size: '1',
  time: '2026-11-22T14:03:07.512345Z',
};
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/** A server that answers the n-th request with steps[n] (the last step repeats), counting requests. */
async function scripted(steps: Step[]) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    steps[Math.min(seen.length - 1, steps.length - 1)]!(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closeServer = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/**
 * A deadline far beyond the machine's worst delay unless the test is about the deadline itself (then a
 * short one: a loaded machine can only make it fire later, never turn its timeout into an answer).
 */
const http = (timeoutMs = 20_000) => ({ userAgent: 'test-agent/1', timeoutMs });

describe('market client', () => {
  it('sends a User-Agent and retries a 503 once before succeeding', async () => {
    const s = await scripted([json(503, { message: 'unavailable' }), json(200, TICKER)]);
    const ticker = await coinbaseClient(s.url, 'MON-USD', http()).ticker();
    expect(ticker.price).toBe(0.030113);
    expect(s.seen).toHaveLength(2);
    expect(s.seen.every((r) => r.headers['user-agent'] === 'test-agent/1')).toBe(true);
  });

  it('gives up after a bounded number of retries', async () => {
    const s = await scripted([json(500, { message: 'Internal server error' })]);
    await expect(coinbaseClient(s.url, 'MON-USD', http()).ticker()).rejects.toThrow(
      /answered 500: Internal server error/,
    );
    expect(s.seen).toHaveLength(3);
  });

  it('honours a 429 Retry-After that fits the deadline', async () => {
    const s = await scripted([
      json(429, { message: 'Public rate limit exceeded' }, { 'retry-after': '0' }),
      json(200, TICKER),
    ]);
    await expect(coinbaseClient(s.url, 'MON-USD', http()).ticker()).resolves.toMatchObject({ price: 0.030113 });
    expect(s.seen).toHaveLength(2);
  });

  it('does not wait for a 429 Retry-After beyond the deadline', async () => {
    const s = await scripted([json(429, { message: 'Public rate limit exceeded' }, { 'retry-after': '3600' })]);
    const failure = coinbaseClient(s.url, 'MON-USD', http()).ticker();
    await expect(failure).rejects.toBeInstanceOf(UpstreamError);
    await expect(failure).rejects.toThrow(/429: Public rate limit exceeded/);
    expect(s.seen).toHaveLength(1);
  });

  it('does not retry a 404', async () => {
    const s = await scripted([json(404, { message: 'NotFound' })]);
    await expect(coinbaseClient(s.url, 'MON-USD', http()).ticker()).rejects.toThrow(/404: NotFound/);
    expect(s.seen).toHaveLength(1);
  });

  it('stops at the deadline when the upstream never answers', async () => {
    const s = await scripted([() => undefined]);
    await expect(coinbaseClient(s.url, 'MON-USD', http(300)).ticker()).rejects.toThrow(/timed out after 300 ms/);
  });

  it("ends with the program's lifetime: a retry's wait is cut short, and no request starts after", async () => {
    const s = await scripted([json(503, { message: 'unavailable' }, { 'retry-after': '5' })]);
    const lifetime = new AbortController();
    const client = coinbaseClient(s.url, 'MON-USD', { ...http(), signal: lifetime.signal });
    const waiting = client.ticker();
    await expect.poll(() => s.seen.length).toBe(1);
    lifetime.abort();
    await expect(waiting).rejects.toThrow(/abandoned: the program is stopping/);
    await expect(client.ticker()).rejects.toThrow(/not sent: the program is stopping/);
    expect(s.seen).toHaveLength(1);
  });

  it('sends nothing when the program stops while its first request is still loading the client', async () => {
    const s = await scripted([json(200, TICKER)]);
    const lifetime = new AbortController();
    const first = coinbaseClient(s.url, 'MON-USD', { ...http(), signal: lifetime.signal }).ticker();
    lifetime.abort();
    await expect(first).rejects.toThrow(/not sent: the program is stopping/);
    expect(s.seen).toHaveLength(0);
  });

  it('keeps its connections to the provider open between requests (a pool, not one TCP connection per ticker)', async () => {
    const s = await scripted([json(200, TICKER)]);
    const client = coinbaseClient(s.url, 'MON-USD', http());
    for (let i = 0; i < 20; i++) await client.ticker();
    expect(s.seen).toHaveLength(20);
    // fetch's pool may open a second connection while the first is being handed back; never one per request.
    expect(new Set(s.seen.map((r) => r.socket)).size).toBeLessThanOrEqual(2);
  });

  it('reads an answer compressed with gzip or brotli (the codings it asks for)', async () => {
    const body = Buffer.from(JSON.stringify(TICKER));
    const coded =
      (coding: string, bytes: Buffer): Step =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(bytes);
      };
    const s = await scripted([coded('gzip', gzipSync(body)), coded('br', brotliCompressSync(body))]);
    const client = coinbaseClient(s.url, 'MON-USD', http());
    expect((await client.ticker()).price).toBe(0.030113);
    expect((await client.ticker()).price).toBe(0.030113);
    expect(s.seen[0]!.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('asks for hourly candles over the given window in ISO 8601', async () => {
    const s = await scripted([json(200, [[1763820000, 0.02991, 0.03022, 0.03001, 0.03013, 5210.3]])]);
    await coinbaseClient(s.url, 'MON-USD', http()).candles(1763216000, 1763820800);
    const url = new URL(s.seen[0]!.url!, s.url);
    expect(url.pathname).toBe('/products/MON-USD/candles');
    expect(url.searchParams.get('granularity')).toBe('3600');
    expect(url.searchParams.get('start')).toBe(new Date(1763216000_000).toISOString());
    expect(url.searchParams.get('end')).toBe(new Date(1763820800_000).toISOString());
  });
});

describe('GraphQL client', () => {
  const calendar = {
    data: {
      user: {
        contributionsCollection: {
          contributionCalendar: {
            totalContributions: 1,
            weeks: [
              {
                firstDay: '2026-11-22',
                contributionDays: [
                  {
                    date: '2026-11-22',
                    contributionCount: 1,
                    contributionLevel: 'FIRST_QUARTILE',
                    weekday: 0,
                    color: '#9be9a8',
                  },
                ],
              },
            ],
          },
        },
      },
    },
  };
  const range = { startDate: '2025-11-23', endDate: '2026-11-22' };

  it('posts the query with the bearer token and the from/to of docs/upstreams.md', async () => {
    let body = '';
    const s = await scripted([
      (req, res) => {
        req.on('data', (c: Buffer) => (body += c));
        req.on('end', () => json(200, calendar)(req, res));
      },
    ]);
    const days = await githubGraphqlClient(s.url, 'secret-token', 'octocat', http())(range);
    expect(days).toEqual([{ date: '2026-11-22', count: 1, level: 1 }]);
    expect(s.seen[0]!.headers.authorization).toBe('bearer secret-token');
    expect(s.seen[0]!.url).toBe('/graphql');
    expect(JSON.parse(body).variables).toEqual({
      login: 'octocat',
      from: '2025-11-23T00:00:00Z',
      to: '2026-11-22T23:59:59Z',
    });
  });

  it('retries a 502 and then succeeds', async () => {
    const s = await scripted([json(502, { message: 'Server Error' }), json(200, calendar)]);
    await expect(githubGraphqlClient(s.url, 't', 'octocat', http())(range)).resolves.toHaveLength(1);
    expect(s.seen).toHaveLength(2);
  });

  it('a rejected token is not retried and never appears in the error', async () => {
    const s = await scripted([json(401, { message: 'Bad credentials' })]);
    const failure = githubGraphqlClient(s.url, 'secret-token', 'octocat', http())(range);
    await expect(failure).rejects.toThrow(/401 \(token rejected\)/);
    await expect(failure).rejects.not.toThrow(/secret-token/);
    expect(s.seen).toHaveLength(1);
  });

  it('an unknown account (200, user null, NOT_FOUND) is an upstream error naming the account', async () => {
    const s = await scripted([
      json(200, {
        data: { user: null },
        errors: [
          { type: 'NOT_FOUND', path: ['user'], message: "Could not resolve to a User with the login of 'ghost'." },
        ],
      }),
    ]);
    await expect(githubGraphqlClient(s.url, 't', 'ghost', http())(range)).rejects.toThrow(/account "ghost" not found/);
    expect(s.seen).toHaveLength(1);
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP-dates (RFC 9110 §10.2.3)', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 14:00:10 GMT', Date.parse('2026-11-22T14:00:00Z'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('waits at most an hour, whatever the upstream asks (a value years ahead would silence it for good)', () => {
    expect(retryAfterMs('99999999999')).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Fri, 01 Jan 2100 00:00:00 GMT', Date.parse('2026-11-22T14:00:00Z'))).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(3_600_000);
  });
});

describe('GraphQL connection failures', () => {
  it('a connection closed without an answer is reported as a failed connection, not as an HTTP status', async () => {
    const s = await scripted([(req) => req.socket.destroy()]);
    const failure = githubGraphqlClient(
      s.url,
      't',
      'octocat',
      http(),
    )({ startDate: '2025-11-23', endDate: '2026-11-22' });
    await expect(failure).rejects.toThrow(/POST \/graphql failed: /);
    await expect(failure).rejects.not.toThrow(/answered/);
    expect(s.seen).toHaveLength(3); // retried like any network error, within the bound
  });
});

/** Writes `chunk` again and again (respecting backpressure) until `limit` bytes or the client hangs up. */
function endless(chunk: Buffer, limit: number, sent: { bytes: number; hungUp: boolean }): Step {
  return (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.on('close', () => (sent.hungUp = !res.writableFinished));
    const pump = () => {
      while (sent.bytes < limit && !res.destroyed) {
        sent.bytes += chunk.byteLength;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  };
}

/** Headers and a first chunk, then silence: the body never ends. */
const neverEnding =
  (first: string): Step =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(first);
  };

const hostileMessage = 'boom\u001b]0;PWNED\u0007\nsecond line\u009b';
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
const graphqlRange = { startDate: '2025-11-23', endDate: '2026-11-22' };

describe('answer size', () => {
  it('refuses an answer whose Content-Length is over the cap without reading it, and does not retry', async () => {
    const s = await scripted([
      (_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(MAX_MARKET_ANSWER_BYTES + 1),
        });
        res.write('{');
      },
    ]);
    const failure = coinbaseClient(s.url, 'MON-USD', http()).ticker();
    await expect(failure).rejects.toBeInstanceOf(UpstreamError);
    await expect(failure).rejects.toThrow(`answer larger than ${MAX_MARKET_ANSWER_BYTES} bytes`);
    expect(s.seen).toHaveLength(1);
  });

  it('caps a compressed answer by its decoded size, not by its (small) Content-Length', async () => {
    // 2 MiB of spaces gzip to about 2 KiB: the declared length is far under the cap, the body is not.
    const bomb = gzipSync(Buffer.alloc(2 * MAX_MARKET_ANSWER_BYTES, 0x20));
    expect(bomb.length).toBeLessThan(MAX_MARKET_ANSWER_BYTES);
    const s = await scripted([
      (_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(bomb.length),
        });
        res.end(bomb);
      },
    ]);
    await expect(coinbaseClient(s.url, 'MON-USD', http()).ticker()).rejects.toThrow(
      `answer larger than ${MAX_MARKET_ANSWER_BYTES} bytes`,
    );
  });

  it('reads an answer of declared length within the cap whole', async () => {
    const s = await scripted([json(200, TICKER, { 'content-length': String(JSON.stringify(TICKER).length) })]);
    expect((await coinbaseClient(s.url, 'MON-USD', http()).ticker()).price).toBe(0.030113);
  });

  it('stops reading a streamed answer once it passes the cap', async () => {
    const sent = { bytes: 0, hungUp: false };
    const limit = 64 * 1024 * 1024;
    const s = await scripted([endless(Buffer.alloc(64 * 1024, 0x20), limit, sent)]);
    await expect(coinbaseClient(s.url, 'MON-USD', http()).candles(0, 3600)).rejects.toThrow(
      `answer larger than ${MAX_MARKET_ANSWER_BYTES} bytes`,
    );
    await expect.poll(() => sent.hungUp).toBe(true);
    expect(sent.bytes).toBeLessThan(limit);
  });

  it('a body that never ends times out at the deadline', async () => {
    const s = await scripted([neverEnding('[')]);
    const failure = coinbaseClient(s.url, 'MON-USD', http(300)).candles(0, 3600);
    await expect(failure).rejects.toThrow(/timed out after 300 ms/);
    await expect(failure).rejects.not.toThrow(/body could not be read/);
  });

  it('a body that never ends times out at the deadline, even when the garbage collector runs meanwhile', async () => {
    // The deadline's timer must hold its signal: a timer that held it weakly lost it to a collection
    // while the body was arriving, and the request then waited forever.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const s = await scripted([neverEnding('[')]);
    const collecting = setInterval(gc, 20);
    try {
      for (let i = 0; i < 2; i++)
        await expect(coinbaseClient(s.url, 'MON-USD', http(300)).candles(0, 3600)).rejects.toThrow(
          /timed out after 300 ms/,
        );
    } finally {
      clearInterval(collecting);
    }
  });

  it('caps the HTML calendar too', async () => {
    const s = await scripted([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(MAX_CALENDAR_HTML_BYTES + 1) });
        res.write('<table>');
      },
    ]);
    await expect(githubHtmlClient(s.url, 'octocat', http())([])).rejects.toThrow(
      `answer larger than ${MAX_CALENDAR_HTML_BYTES} bytes`,
    );
  });

  it('caps the GraphQL answer (read through octokit) and does not retry it', async () => {
    const big = JSON.stringify({ data: { pad: 'x'.repeat(MAX_GRAPHQL_ANSWER_BYTES) } });
    const s = await scripted([
      (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no Content-Length to refuse up front
        res.end(big);
      },
    ]);
    const failure = githubGraphqlClient(s.url, 't', 'octocat', http())(graphqlRange);
    await expect(failure).rejects.toBeInstanceOf(UpstreamError);
    await expect(failure).rejects.toThrow(
      `github-graphql: POST /graphql: answer larger than ${MAX_GRAPHQL_ANSWER_BYTES} bytes`,
    );
    expect(s.seen).toHaveLength(1);
  });

  it('a GraphQL body that never ends times out at the deadline', async () => {
    const s = await scripted([neverEnding('{"data":')]);
    await expect(githubGraphqlClient(s.url, 't', 'octocat', http(300))(graphqlRange)).rejects.toThrow(
      /POST \/graphql timed out after 300 ms/,
    );
  });
});

describe('redirects', () => {
  const redirect =
    (status: number): Step =>
    (_req, res) => {
      res.writeHead(status, { location: '/elsewhere' });
      res.end();
    };

  it('the market client does not follow a 307', async () => {
    const s = await scripted([redirect(307), json(200, TICKER)]);
    const failure = coinbaseClient(s.url, 'MON-USD', http()).ticker();
    await expect(failure).rejects.toBeInstanceOf(UpstreamError);
    await expect(failure).rejects.toThrow(/redirected \(307\) to \/elsewhere/);
    expect(s.seen.map((r) => r.url)).toEqual(['/products/MON-USD/ticker']);
  });

  it('the HTML calendar client does not follow a 302', async () => {
    const s = await scripted([redirect(302)]);
    await expect(githubHtmlClient(s.url, 'octocat', http())([])).rejects.toThrow(
      /github-html: .*redirected \(302\) to \/elsewhere/,
    );
    expect(s.seen).toHaveLength(1);
  });

  it('the GraphQL client does not follow a 307 (not even with its POST body)', async () => {
    const s = await scripted([redirect(307)]);
    const failure = githubGraphqlClient(s.url, 'secret-token', 'octocat', http())(graphqlRange);
    await expect(failure).rejects.toThrow(/github-graphql: POST \/graphql redirected \(307\) to \/elsewhere/);
    expect(s.seen.map((r) => r.url)).toEqual(['/graphql']);
  });
});

describe('upstream text in error lines', () => {
  it('an error message with escapes and line breaks becomes one plain line', async () => {
    const s = await scripted([json(404, { message: hostileMessage })]);
    const error = await coinbaseClient(s.url, 'MON-USD', http())
      .ticker()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    const message = (error as UpstreamError).message;
    expect(message).toMatch(/answered 404: boom \]0;PWNED second line$/);
    expect(message).not.toMatch(CONTROLS);
  });

  it('caps the length of a message', () => {
    expect(new UpstreamError('coinbase', 'x'.repeat(5000)).message.length).toBeLessThanOrEqual(600);
  });

  it('a failure that is not an upstream error is named once, not as "build: …: build: …"', () => {
    expect(failureLine('Market preview', new Error('schema: price must be > 0'))).toBe(
      'build: market preview not written: Error: schema: price must be > 0',
    );
    expect(failureLine('Market preview', new UpstreamError('coinbase', 'GET /x answered 500'))).toBe(
      'build: market preview not written: coinbase: GET /x answered 500',
    );
  });

  it('the build prints a hostile upstream message as one line on stderr', async () => {
    const fake = await startFakeUpstreams();
    const s = await scripted([json(500, { message: hostileMessage })]);
    const out = await mkdtemp(join(tmpdir(), 'dist-'));
    try {
      const result = await runBuild(out, {
        ...upstreamEnv(fake.url),
        MARKET_API_URL: s.url,
        UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.endsWith('\n')).toBe(true);
      // The market's line, the one this test means: exactly one, whatever the other datasets said.
      const lines = result.stderr
        .slice(0, -1)
        .split('\n')
        .filter((line) => line.startsWith('build: market preview'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^build: market preview not written: coinbase: GET .* answered 500: boom \]0;PWNED second line$/,
      );
      for (const line of result.stderr.slice(0, -1).split('\n')) expect(line).not.toMatch(CONTROLS);
    } finally {
      await fake.close();
      await rm(out, { recursive: true, force: true });
    }
  });
});
