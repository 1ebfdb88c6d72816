import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { dataResource } from '../builders/contract/service.ts';
// The gateway's pure pieces without sockets: path decoding, Accept-Encoding, If-None-Match, content
// types, fixed windows and the quota's budget, X-Forwarded-For, the in-process store, the shared
// upstream fetch, and the contribution cache against an injected clock and a counting source.
import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../gateway/quota/ip-ranges.ts';
import type { ContributionDay } from '../builders/domain/contributions.ts';
import { createValidator } from '../builders/contract/schemas.ts';
import type { DatasetSource } from '../builders/datasets/dataset.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { sourcesOf } from './helpers/sources.ts';
import { calendarWindow } from '../builders/domain/calendar.ts';
import { forwardedClient } from '../gateway/quota/client-identity.ts';
import { acceptedCodings } from '../gateway/core/http/content-coding.ts';
import { accessLog } from '../gateway/http/access-log.ts';
import { fdWriter } from '../gateway/http/log-writer.ts';
import { oneLine } from '../builders/lib/text/one-line.ts';
import { throttledLines } from '../gateway/http/error-lines.ts';
import { contentTypeFor } from '../builders/contract/content-types.ts';
import { keptRoute, FAILURE_MEMORY_MS, type KeptAnswer } from '../gateway/core/routes/kept-route.ts';
import { NODE_CODEC } from '../gateway/http/node-codec.ts';
import { marketJson } from '../builders/datasets/market/live.ts';
import { policyHeader, rateLimitHeader } from '../builders/contract/rate-limit-headers.ts';
import { createQuota, fixedWindow, type QuotaStore } from '../gateway/core/quota.ts';
import { memoryQuotaStore } from '../gateway/quota/memory-store.ts';
import { noneMatch } from '../gateway/core/http/representation.ts';
import { decodePath, rawPath } from '../gateway/core/http/request-path.ts';
import { singleFlight } from '../builders/upstreams/single-flight.ts';
import { freshFlight } from '../builders/upstreams/fresh-flight.ts';

describe('decodePath', () => {
  it.each([
    ['/f%C3%BCnke.txt', '/fünke.txt'],
    ['/with%20space.txt', '/with space.txt'],
    ['/api/v1/mon%2Dprice', '/api/v1/mon-price'],
    ['/.well-known/api-catalog', '/.well-known/api-catalog'],
    // RFC 3986 §5.2.4's dot segments removed, `%2e` read as ".", never above the root (as a Worker's URL parser does).
    ['/api/v1/./github-projects', '/api/v1/github-projects'],
    ['/api/v1/%2E/github-projects', '/api/v1/github-projects'],
    ['/api/x/../v1/mon-price', '/api/v1/mon-price'],
    ['/%2e%2e/x', '/x'],
    ['/a/%2E%2E', '/'],
    ['/.%2e/x', '/x'],
    ['/%2e/x', '/x'],
    ['/a/b/.', '/a/b/'],
    ['/a/b/..', '/a/'],
    ['/../../../x', '/x'],
    ['/a//./b', '/a//b'],
    ['/.well-known/../.env', '/.env'],
    ['/.hidden/..x', '/.hidden/..x'],
  ])('%s → %s', (raw, decoded) => expect(decodePath(raw)).toBe(decoded));

  it.each([
    '/%2e%2e%2fx',
    '/a%2fb',
    '/a%2Fb',
    '/a%5cb',
    '/a\\b',
    '/%00',
    '/a%0d%0ab',
    '/%',
    '/%zz',
    '/%c0%ae',
    '/%ff',
    'x',
    '',
    `/${'a'.repeat(3000)}`,
  ])('%s is refused', (raw) => expect(decodePath(raw)).toBeNull());

  it('strips the query', () => {
    expect(rawPath('/api/mon-price?x=1&y=%2e')).toBe('/api/mon-price');
    expect(rawPath('/')).toBe('/');
  });
});

describe('Accept-Encoding', () => {
  it.each([
    [undefined, ['identity']],
    ['', ['identity']],
    ['gzip, deflate, br', ['br', 'gzip', 'identity']],
    ['gzip', ['gzip', 'identity']],
    ['br;q=0.5, gzip;q=1', ['gzip', 'br', 'identity']],
    ['br;q=0, gzip;q=0', ['identity']],
    ['*', ['br', 'gzip', 'identity']],
    ['*;q=0.1, br;q=0', ['gzip', 'identity']],
    ['x-gzip', ['gzip', 'identity']],
    ['BR', ['br', 'identity']],
    ['deflate, identity', ['identity']],
    ['gzip;q=garbage', ['gzip', 'identity']],
  ])('%s → %j', (header, codings) => expect(acceptedCodings(header)).toEqual(codings));
});

describe('If-None-Match (weak comparison, RFC 9110 §13.1.2)', () => {
  it.each([
    ['"a"', true],
    ['W/"a"', true],
    ['"b", "a"', true],
    ['"b",W/"a"', true],
    ['*', true],
    ['"b"', false],
    ['a', false],
  ])('%s against "a" → %s', (header, match) => expect(noneMatch(header, '"a"')).toBe(match));
  it('no header, no match', () => expect(noneMatch(undefined, '"a"')).toBe(false));
});

describe('content types', () => {
  it.each([
    ['api/index.json', 'application/json'],
    ['.well-known/api-catalog', 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'],
    ['developers.html', 'text/html; charset=utf-8'],
    ['writings/a.md', 'text/markdown; charset=utf-8'],
    ['cli.mjs', 'text/javascript; charset=utf-8'],
    ['sitemap.xml', 'application/xml; charset=utf-8'],
    ['img/Logo.PNG', 'image/png'],
    ['LICENSE', 'application/octet-stream'],
    ['archive.tar.zst', 'application/octet-stream'],
  ])('%s → %s', (file, type) => expect(contentTypeFor(file)).toBe(type));
});

describe('fixed windows (docs/data-rules.md)', () => {
  it('numbers windows floor(unix_seconds / window) and counts whole seconds to their end, rounded up', () => {
    expect(fixedWindow(120_000, 60)).toEqual({ number: 2, secondsLeft: 60 });
    expect(fixedWindow(137_000, 60)).toEqual({ number: 2, secondsLeft: 43 });
    expect(fixedWindow(179_999, 60)).toEqual({ number: 2, secondsLeft: 1 });
    expect(fixedWindow(180_000, 60)).toEqual({ number: 3, secondsLeft: 60 });
    expect(fixedWindow(137_400, 60)).toEqual({ number: 2, secondsLeft: 43 });
  });
  it('writes the headers of docs/api.md#limits', () => {
    expect(policyHeader(60, 60)).toBe('"public-api";q=60;w=60');
    expect(rateLimitHeader(59, 42)).toBe('"public-api";r=59;t=42');
  });
});

describe('the quota decision', () => {
  const at = 16_667 * 60_000 + 17_000; // 17 s into a 60 s window
  it('counts, limits past the quota, and never reports a negative remainder', async () => {
    const quota = createQuota({ quota: 2, windowSeconds: 60, store: memoryQuotaStore(() => at), now: () => at });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await quota.check('198.51.100.1'));
    expect(results.map((r) => r.outcome)).toEqual(['allowed', 'allowed', 'limited', 'limited']);
    expect(results[3]!.headers).toEqual([
      'RateLimit-Policy',
      '"public-api";q=2;w=60',
      'RateLimit',
      '"public-api";r=0;t=43',
      'Retry-After',
      '43',
    ]);
    expect((await quota.check('198.51.100.2')).outcome).toBe('allowed');
    expect((await quota.check(null)).outcome).toBe('unidentified');
  });

  it('a store that errors, throws, or misses the 50 ms budget leaves the request unaccounted', async () => {
    const reasons: string[] = [];
    const store = (increment: QuotaStore['increment']): QuotaStore => ({ increment, close: async () => {} });
    for (const s of [
      store(() => Promise.reject(new Error('connection refused'))),
      store(() => {
        throw new Error('not connected');
      }),
      store(() => new Promise<number>(() => {})), // never answers
    ]) {
      const quota = createQuota({
        quota: 5,
        windowSeconds: 60,
        store: s,
        now: () => at,
        onUnavailable: (r) => reasons.push(r),
      });
      expect(await quota.check('198.51.100.1')).toEqual({ outcome: 'unavailable', headers: undefined });
    }
    expect(reasons).toEqual(['connection refused', 'not connected', 'no answer within 50 ms']);
  });

  it('uses one key per client and window, shared by every data URL, the window in a Cluster hash tag', async () => {
    const keys: string[] = [];
    const quota = createQuota({
      quota: 5,
      windowSeconds: 60,
      now: () => at,
      keyPrefix: 'p:',
      store: { increment: (key) => (keys.push(key), 1), close: async () => {} },
    });
    await quota.check('2001:db8::1');
    expect(keys).toEqual([`{p:${Math.floor(at / 60_000)}}:2001:db8::1`]);
  });
});

describe('the in-process store', () => {
  it('forgets a key ttl seconds after its first count', () => {
    let t = 0;
    const store = memoryQuotaStore(() => t);
    expect(store.increment('k', 61)).toBe(1);
    t = 30_000;
    expect(store.increment('k', 61)).toBe(2);
    t = 61_000;
    expect(store.increment('k', 61)).toBe(1);
  });
});

describe('X-Forwarded-For behind trusted proxies', () => {
  const ranges = parseTrustProxy('10.0.0.0/8, 127.0.0.1, ::1');
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['1.1.1.1, 203.0.113.9', '203.0.113.9'],
    ['1.1.1.1, 203.0.113.9, 10.0.0.2', '203.0.113.9'],
    ['203.0.113.9:5060, 10.0.0.2', '203.0.113.9'],
    ['[2001:db8::7]:443', '2001:db8::7'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['10.0.0.3, 127.0.0.1', null],
    ['garbage, 10.0.0.2', null],
    ['', null],
  ])('%s → %s', (header, client) => expect(forwardedClient(header, ranges)).toBe(client));
  it('no header → null', () => expect(forwardedClient(undefined, ranges)).toBeNull());
});

describe('the shared upstream fetch', () => {
  it('is shared while pending and forgotten once it settles, a failure included', async () => {
    const flight = singleFlight<number>();
    let release!: (n: number) => void;
    let calls = 0;
    const first = flight.start(() => (calls++, new Promise<number>((resolve) => (release = resolve))));
    expect(flight.pending).toBe(first);
    release(1);
    await expect(first).resolves.toBe(1);
    expect(flight.pending).toBeUndefined();
    const failing = flight.start(() => (calls++, Promise.reject(new Error('down'))));
    await expect(failing).rejects.toThrow('down');
    expect(flight.pending).toBeUndefined();
    expect(calls).toBe(2);
  });

  it('a replaced fetch that settles late does not clear its successor', async () => {
    const flight = singleFlight<string>();
    let releaseOld!: (v: string) => void;
    const old = flight.start(() => new Promise<string>((resolve) => (releaseOld = resolve)));
    const next = flight.start(() => new Promise<string>(() => {}));
    releaseOld('old');
    await old;
    expect(flight.pending).toBe(next);
  });
});

describe('the contribution cache', () => {
  const validator = createValidator();
  /** The calendar's live route over `source`, on the clock `now` (the deployment's stock resource). */
  const calendarRoute = (source: DatasetSource<unknown>, now: () => number) =>
    keptRoute(source, dataResource(DEFAULT_SERVICE, 'contributions'), validator, NODE_CODEC, now);
  /** The calendar's own source (its keeping rules) over days that `days` gives. */
  const calendarSource = (days: (nowMs: number) => Promise<ContributionDay[]>): DatasetSource<unknown> => {
    const stock = sourcesOf(loadConfig({})).get('contributions')!;
    return { ...stock, fetch: async (nowMs) => stock.shared!.payload(await days(nowMs), nowMs) };
  };
  it('refuses a kept policy whose source says nothing of how long to keep, rather than ask every time', () => {
    const stock = sourcesOf(loadConfig({})).get('contributions')!;
    const { keptUntil: _, ...unkept } = stock;
    expect(() => calendarRoute(unkept, () => 0)).toThrow(
      'contributions: its cache policy is until-midnight, but its source declares no keptUntil',
    );
  });

  /** A source that counts calls and answers every date of the window asked about. */
  function countingSource() {
    const state = { calls: 0, fail: false };
    const days = async (nowMs: number): Promise<ContributionDay[]> => {
      state.calls++;
      if (state.fail) throw new Error('down');
      return calendarWindow(nowMs, 'America/Toronto').dates.map((date) => ({ date, count: 1, level: 1 }));
    };
    return { sources: calendarSource(days), days, state };
  }

  it('keeps one answer until the Toronto midnight, across the DST change', async () => {
    // 2026-11-01 is the day clocks fall back in Toronto: a 25-hour day.
    let t = Date.parse('2026-11-01T04:30:00Z'); // 00:30 EDT
    const { sources, state } = countingSource();
    const route = calendarRoute(sources, () => t);
    const first = await route.current();
    expect(first.kept.expiresAtMs).toBe(Date.parse('2026-11-02T05:00:00Z'));
    t = Date.parse('2026-11-02T04:59:59Z'); // 23:59:59 EST, 24.5 h later
    await route.current();
    expect(state.calls).toBe(1);
    t = Date.parse('2026-11-02T05:00:00Z');
    await route.current();
    expect(state.calls).toBe(2);
  });

  it('a refresh begun before midnight does not answer requests made after it', async () => {
    let t = Date.parse('2026-06-02T03:59:59.900Z'); // 23:59:59.9 EDT
    const { days, state } = countingSource();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = calendarSource(async (nowMs: number) => (await gate, days(nowMs)));
    const route = calendarRoute(slow, () => t);
    const before = route.current() as Promise<KeptAnswer>;
    t = Date.parse('2026-06-02T04:00:00.200Z'); // 00:00:00.2, the next day
    const after = route.current() as Promise<KeptAnswer>;
    expect(after).not.toBe(before);
    release();
    const endDate = async (p: typeof before) =>
      (JSON.parse(new TextDecoder().decode((await p).body)) as { endDate: string }).endDate;
    expect(await endDate(before)).toBe('2026-06-01');
    expect(await endDate(after)).toBe('2026-06-02');
    expect(state.calls).toBe(2);
  });

  it('shares one refresh among concurrent callers, and retries once a failure is no longer remembered', async () => {
    let t = Date.parse('2026-06-01T12:00:00Z');
    const { sources, state } = countingSource();
    const route = calendarRoute(sources, () => t);
    state.fail = true;
    const failing = [route.current(), route.current(), route.current()];
    for (const p of failing) await expect(p).rejects.toThrow('down');
    expect(state.calls).toBe(1);
    t += FAILURE_MEMORY_MS - 1;
    expect(() => route.current()).toThrow('down');
    expect(state.calls).toBe(1);
    t += 1;
    state.fail = false;
    const [a, b] = await Promise.all([route.current(), route.current()]);
    expect(a).toBe(b);
    expect(state.calls).toBe(2);
    expect(route.current()).toBe(a); // synchronous while valid
  });
});

describe('error lines', () => {
  it('prints each kind of line at most once a second and counts the ones held back', () => {
    let t = 0;
    const out: string[] = [];
    const line = throttledLines(
      (l) => out.push(l),
      () => t,
    );
    line('market: GET /candles?start=1 timed out');
    line('contributions: down');
    line('market: GET /candles?start=2 timed out');
    line('market: GET /candles?start=3 timed out');
    t = 1500;
    line('market: GET /candles?start=4 timed out');
    expect(out).toEqual([
      'market: GET /candles?start=1 timed out',
      'contributions: down',
      'market: GET /candles?start=4 timed out (and 2 like it since the last one)',
    ]);
  });
  it('collapses a multi-line message to one line', () => {
    expect(oneLine('upstream said:\n  bad gateway\r\n', 1000)).toBe('upstream said: bad gateway');
  });
});

describe('the access log line', () => {
  const lines = (entries: Parameters<ReturnType<typeof accessLog>['record']>[0][]) => {
    const out: string[] = [];
    const log = accessLog(
      (chunk) => out.push(chunk),
      () => Date.UTC(2026, 10, 23, 7, 0, 0, 250),
    );
    for (const entry of entries) log.record(entry);
    return out.join('');
  };

  it('is the JSON an object literal would give, in the same field order, for awkward paths too', () => {
    const entries = [
      { method: 'GET', path: '/api/v1/mon-price', status: 200, durationMs: 0.123456, quota: '-' as const },
      { method: 'GET', path: '/say "hi"\\there', status: 404, durationMs: 1, quota: '-' as const, aborted: true },
      { method: 'HEAD', path: '/fünke\u0001\u2028.txt', status: 200, durationMs: 12.005, quota: 'allowed' as const },
      // The text around the time and the duration is kept while lines repeat it: each field that
      // changes alone must still be written anew.
      { method: 'HEAD', path: '/fünke\u0001\u2028.txt', status: 200, durationMs: 3, quota: 'allowed' as const },
      { method: 'HEAD', path: '/fünke\u0001\u2028.txt', status: 304, durationMs: 3, quota: 'allowed' as const },
      { method: 'GET', path: '/fünke\u0001\u2028.txt', status: 304, durationMs: 3, quota: 'allowed' as const },
      { method: 'GET', path: '/', status: 304, durationMs: 3, quota: 'allowed' as const },
      { method: 'GET', path: '/', status: 304, durationMs: 3, quota: 'limited' as const },
      { method: 'GET', path: '/', status: 304, durationMs: 3, quota: 'limited' as const, aborted: true },
      { method: 'GET', path: '/', status: 304, durationMs: 3, quota: 'limited' as const, aborted: false },
    ];
    const expected = entries.map(
      (e) =>
        `${JSON.stringify({
          time: '2026-11-23T07:00:00.250Z',
          method: e.method,
          path: e.path,
          status: e.status,
          durationMs: Math.round(e.durationMs * 100) / 100,
          quota: e.quota,
          ...(e.aborted ? { aborted: true } : {}),
        })}\n`,
    );
    expect(lines(entries)).toBe(expected.join(''));
  });

  it('cuts long paths and methods', () => {
    const [line] = lines([
      { method: 'X'.repeat(40), path: `/${'a'.repeat(300)}`, status: 400, durationMs: 0, quota: '-' },
    ])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; path: string });
    expect(line!.method).toHaveLength(32);
    expect(line!.path).toBe(`/${'a'.repeat(255)}…`);
  });
});

describe('the log writer', () => {
  const withFile = async (run: (fd: number) => Promise<void>) => {
    const dir = await mkdtemp(join(tmpdir(), 'log-writer-'));
    const file = join(dir, 'log');
    const fd = openSync(file, 'w');
    try {
      await run(fd);
    } finally {
      closeSync(fd);
    }
    const text = await readFile(file, 'utf8');
    await rm(dir, { recursive: true });
    return text;
  };

  it('writes every line whole and in order, multi-byte text and a line larger than its buffer included', async () => {
    const lines = [
      ...Array.from({ length: 3000 }, (_, i) => `{"n":${i},"path":"/fünke/✓/${'😀'.repeat(i % 7)}"}\n`),
      `${'x'.repeat(200_000)}\n`,
      'last\n',
    ];
    const text = await withFile(async (fd) => {
      const writer = fdWriter(fd);
      for (const line of lines) writer.write(line);
      await writer.drain(5000);
    });
    expect(text).toBe(lines.join(''));
  });

  it('drops what passes its bound, counts it, and says so once the reader takes output again', async () => {
    const text = await withFile(async (fd) => {
      const writer = fdWriter(fd, 100);
      for (let i = 0; i < 10; i++) writer.write(`line ${i} ${'.'.repeat(20)}\n`);
      await writer.drain(5000);
    });
    const written = text.trimEnd().split('\n');
    // 27 bytes a line: three fit in 100, the seven after them are dropped and counted.
    expect(written.slice(0, 3)).toEqual([0, 1, 2].map((i) => `line ${i} ${'.'.repeat(20)}`));
    expect(JSON.parse(written[3]!)).toEqual({
      warning: 'access log lines dropped while the reader was slow',
      count: 7,
    });
    expect(written).toHaveLength(4);
  });
});

describe('marketJson: the market answer written with the candle points kept as text', () => {
  const payload = (points: Array<[number, number]>, value: number) => ({
    product: 'MON-USD' as const,
    currency: 'USD' as const,
    source: 'Coinbase Exchange',
    windowSeconds: 604800 as const,
    points: points.map(([time, value]) => ({ time, value })),
    value,
    changePercent: ((value - points[0]![1]) / points[0]![1]) * 100,
    low: Math.min(...points.map((p) => p[1]), value),
    high: Math.max(...points.map((p) => p[1]), value),
    asOf: '2026-11-22T16:59:59.123456Z',
  });
  const candles: Array<[number, number]> = Array.from({ length: 169 }, (_, i) => [
    1763200800 + i * 3600,
    0.03 + i / 3e5,
  ]);

  it('writes exactly what JSON.stringify writes, as the ticker, the window and the history change', () => {
    const json = marketJson();
    const cases = [
      payload([...candles, [1763809999, 0.0301]], 0.0301),
      payload([...candles, [1763810005, 1e-7]], 1e-7), // the same history, another ticker
      payload([...candles], 0.031), // no ticker point: the last candle is newer
      payload([...candles.slice(1), [1763813600, 0.04]], 0.04), // the window moved an hour
      payload([...candles.slice(1).map(([t, v]): [number, number] => [t, v * 2]), [1763813601, 0.05]], 0.05),
      payload(
        [
          [1763809000, 0.02],
          [1763809999, 0.0301],
        ],
        0.0301,
      ),
    ];
    for (const p of cases) expect(json(p)).toBe(JSON.stringify(p));
  });
});

describe('upstream fetches shared in flight, or not (a Worker)', () => {
  /** A fetch per call, each settled by the test. */
  const fetches = () => {
    const started: Array<{ resolve: (v: number) => void; reject: (e: Error) => void }> = [];
    const fetch = () => new Promise<number>((resolve, reject) => started.push({ resolve, reject }));
    return { started, fetch };
  };

  it('shared: a request arriving meanwhile waits on the one fetch; a failure is dropped once it settles', async () => {
    const { started, fetch } = fetches();
    const flight = singleFlight<number>();
    const a = flight.start(fetch);
    expect(flight.pending).toBe(a);
    started[0]!.reject(new Error('500'));
    await expect(a).rejects.toThrow('500');
    expect(flight.pending).toBeUndefined();
  });

  it('not shared: each request its own fetch, none left pending for another request to wait on', async () => {
    const { started, fetch } = fetches();
    const flight = singleFlight<number>(false);
    const a = flight.start(fetch);
    expect(flight.pending).toBeUndefined();
    const b = flight.start(fetch);
    expect(started).toHaveLength(2);
    started[0]!.reject(new Error('500'));
    started[1]!.resolve(7);
    await expect(a).rejects.toThrow('500');
    expect(await b).toBe(7);
    const ticker = freshFlight(fetch, false);
    const [c, d] = [ticker(), ticker()];
    expect(started).toHaveLength(4);
    started[2]!.resolve(1);
    started[3]!.resolve(2);
    expect([await c, await d]).toEqual([1, 2]);
  });
});
