// The live feed's edges in process (docs/upstreams.md#the-live-feed): the pages' policy as a function of
// MARKET_WS_URL (the gateway, _headers and serve.json share it), the home page's figure naming the feed,
// and `price --watch` through the CLI's run() against the fake feed on loopback with Node's WebSocket.
// The browser and the spawned cli.mjs are test/slow/live-feed.test.ts.
import { serviceTables } from '../builders/datasets/registry.ts';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, feedOrigin } from '../builders/contract/service.ts';
import { headersFile, serveJson } from '../builders/build/static-host.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { run } from '../builders/cli/run.ts';
import { cliSchemas } from '../builders/build/cli-artifact.ts';
import type { SchemaSet } from '../builders/cli/schema-check.ts';
import { startFakeFeed, type FakeFeed } from './fakes/live-feed.ts';
import { sharedSite } from './helpers/site-dist.ts';
import { fixtureApiIndex } from './helpers/cli-fixtures.ts';

const FILES = ['index.html', 'developers.html', '404.html'];

describe("the pages' policy names exactly the feed", () => {
  it("connect-src names the feed's origin (scheme, host and port), never a path or a wildcard", () => {
    expect(feedOrigin('wss://ws-feed.exchange.coinbase.com')).toBe('wss://ws-feed.exchange.coinbase.com');
    expect(feedOrigin('ws://127.0.0.1:9000/feed/v1')).toBe('ws://127.0.0.1:9000');
    expect(feedOrigin('wss://feed.example:443')).toBe('wss://feed.example');
    expect(contentSecurityPolicy('ws://127.0.0.1:9000/x')).toBe(
      "default-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self' ws://127.0.0.1:9000; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(contentSecurityPolicy(null)).not.toContain('connect-src');
  });

  it.each([
    [{}, "connect-src 'self' wss://ws-feed.exchange.coinbase.com"],
    [{ MARKET_WS_URL: 'ws://127.0.0.1:9000' }, "connect-src 'self' ws://127.0.0.1:9000"],
    [{ MARKET_WS_URL: 'off' }, null],
    [{ MARKET_PRODUCT: 'off' }, null],
  ])('%j: _headers and serve.json say %s', (env, directive) => {
    const config = loadConfig(env);
    for (const text of [
      headersFile({ config, service: serviceTables(config) }, FILES),
      JSON.stringify(serveJson({ config, service: serviceTables(config) }, FILES)),
    ]) {
      if (directive === null) {
        expect(text).not.toContain('connect-src');
        expect(text).not.toMatch(/wss?:\/\//);
      } else expect(text).toContain(directive);
      expect(text).not.toMatch(/connect-src[^;"]*\*/);
    }
  });

  it("the default build's home page names Coinbase's feed and the product on the market figure", () => {
    const home = readFileSync(`${sharedSite().dir}/index.html`, 'utf8');
    expect(home).toMatch(
      /<figure [^>]*data-preview="market"[^>]* data-live-feed="wss:\/\/ws-feed\.exchange\.coinbase\.com" data-live-product="MON-USD">/,
    );
  });
});

describe('price --watch in process', () => {
  let feed: FakeFeed;
  /** A site whose API index names the fake feed as its live feed, and one whose index names none. */
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    feed = await startFakeFeed();
    site = createServer((req, res) => {
      const prefix = /^\/(without-feed|unreachable-feed)\//.exec(req.url!)?.[1];
      const base = `${siteUrl}${prefix ? `/${prefix}` : ''}`;
      if (!/^(\/[a-z-]+)?\/api\/?$/.test(req.url!)) return res.writeHead(404).end();
      // A feed nobody listens on, with a path as long as a real one can be: its line must still fit.
      const url = prefix === 'unreachable-feed' ? `ws://127.0.0.1:9/${'feed/'.repeat(12)}v1` : feed.url;
      const index = {
        ...fixtureApiIndex(base),
        ...(prefix === 'without-feed'
          ? {}
          : { liveFeed: { url, product: 'MON-USD', format: 'coinbase-exchange-websocket' } }),
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(index));
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await feed?.close();
    await new Promise((resolve) => site?.close(resolve));
  });
  const schemas = cliSchemas() as SchemaSet;

  /** run() as cli.mjs calls it, reading `base` (default: the site naming the fake feed), stopped by `interrupt()`. */
  function watch(args: string[], socket: unknown = WebSocket, base = siteUrl) {
    let stdout = '';
    let stderr = '';
    let interrupt: () => void = () => undefined;
    const code = run(
      [...args, '--base-url', base],
      {
        env: {},
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t) },
        onInterrupt: (stop) => (interrupt = stop),
        nodeVersion: 'v20.0.0',
        WebSocket: socket as typeof WebSocket,
        // The ticks below are of 2026-11-23: judged by a clock of that day, not today's.
        now: () => Date.parse('2026-11-23T15:11:00Z'),
        // What is said of a slow site is test/cli.test.ts's; a loaded machine must not add a line here.
        waitNoticeMs: 60_000,
      },
      'http://127.0.0.1:9',
      'test',
      schemas,
    );
    return { code, stdout: () => stdout, stderr: () => stderr, interrupt: () => interrupt() };
  }

  it('follows the feed the site at --base-url names in its API index, not one baked into cli.mjs', async () => {
    const before = feed.subscriptions.length;
    const w = watch(['price', '--watch', '--json']);
    await feed.waitForSubscriptions(before + 1, 10_000);
    w.interrupt();
    expect(await w.code).toBe(0);
  });

  it('says it cannot reach the feed in lines that fit COLUMNS (80), the long URL shortened', async () => {
    let stderr = '';
    let interrupt: () => void = () => undefined;
    const code = run(
      ['price', '--watch', '--json', '--base-url', `${siteUrl}/unreachable-feed`],
      {
        env: { COLUMNS: '80' },
        stdout: { write: () => undefined },
        stderr: { write: (t: string) => (stderr += t) },
        onInterrupt: (stop) => (interrupt = stop),
        nodeVersion: 'v24.0.0',
        WebSocket,
        waitNoticeMs: 60_000,
      },
      'http://127.0.0.1:9',
      'test',
      schemas,
    );
    await expect.poll(() => stderr, { timeout: 10_000 }).toContain('cannot reach the live feed');
    interrupt();
    expect(await code).toBe(0);
    const lines = stderr.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(lines.join(' ')).toMatch(/still trying \(Ctrl-C stops\)$/);
  });

  it('a site whose API index names no live feed: one line, exit 2, no socket opened', async () => {
    const before = feed.subscriptions.length;
    const w = watch(['price', '--watch', '--json'], WebSocket, `${siteUrl}/without-feed`);
    expect(await w.code).toBe(2);
    expect(w.stdout()).toBe('');
    expect(w.stderr()).toBe(`cli.mjs: --watch: ${siteUrl}/without-feed/ names no live feed in its API index\n`);
    expect(feed.subscriptions.length).toBe(before);
  });

  it('--json: one {product, price, time} line per accepted tick (at most one a second), none for the rest; Ctrl-C exits 0', async () => {
    const before = feed.subscriptions.length;
    const w = watch(['price', '--watch', '--json']);
    await feed.waitForSubscriptions(before + 1, 10_000);
    expect(feed.subscriptions.at(-1)).toEqual({ product_ids: ['MON-USD'], channels: ['ticker', 'heartbeat'] });
    feed.tick({ price: '0.0311', time: '2026-11-23T15:10:00.000001Z' });
    feed.tick({ product: 'BTC-USD', price: '0.0999', time: '2026-11-23T15:10:01Z' });
    feed.tick({ price: '0', time: '2026-11-23T15:10:02Z' });
    feed.tick({ price: 'abc', time: '2026-11-23T15:10:02Z' });
    feed.tick({ price: '0.0888', time: '2026-11-23T15:09:00Z' });
    feed.sendRaw('not json');
    feed.tick({ price: '0.0312', time: '2026-11-23T15:10:03Z' });
    await expect.poll(() => w.stdout().split('\n').length, { timeout: 5_000 }).toBe(3);
    expect(
      w
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { product: 'MON-USD', price: 0.0311, time: '2026-11-23T15:10:00.000001Z' },
      { product: 'MON-USD', price: 0.0312, time: '2026-11-23T15:10:03Z' },
    ]);
    w.interrupt();
    expect(await w.code).toBe(0);
    expect(w.stderr()).toBe('');
  });

  it('subscribes again after the feed closes the socket', async () => {
    const before = feed.subscriptions.length;
    const w = watch(['price', '--watch', '--json']);
    await feed.waitForSubscriptions(before + 1, 10_000);
    feed.closeAll();
    await feed.waitForSubscriptions(before + 2, 10_000);
    w.interrupt();
    expect(await w.code).toBe(0);
  });

  it('on a Node without WebSocket: one line saying what it needs, exit 2, nothing fetched', async () => {
    const w = watch(['price', '--watch'], null);
    expect(await w.code).toBe(2);
    expect(w.stdout()).toBe('');
    expect(w.stderr()).toBe(
      'cli.mjs: --watch needs Node.js 22.12 or later (its built-in WebSocket client); this is Node.js v20.0.0\n',
    );
  });

  it('another command with --watch is a usage error naming the one that watches', async () => {
    const w = watch(['contributions', '--watch']);
    expect(await w.code).toBe(2);
    expect(w.stderr()).toMatch(/^cli\.mjs: --watch works only with price\n/);
  });
});

describe('the fake feed closes what its clients close', () => {
  let feed: FakeFeed;
  beforeAll(async () => {
    feed = await startFakeFeed();
  });
  afterAll(() => feed?.close());

  /** A raw client past the WebSocket handshake: the fake has counted it open. */
  async function upgraded(options: { allowHalfOpen: boolean }): Promise<Socket> {
    const { port } = new URL(feed.url.replace(/^ws/, 'http'));
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: options.allowHalfOpen });
    socket.write(
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await new Promise<void>((resolve, reject) => {
      let head = '';
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        if (head.startsWith('HTTP/1.1 101')) resolve();
        else reject(new Error(`no upgrade: ${head}`));
      };
      socket.on('data', onData);
      socket.once('error', reject);
    });
    return socket;
  }

  it('a client that half-closes right after the handshake (a browser context closed) is no longer open', async () => {
    const socket = await upgraded({ allowHalfOpen: false });
    expect(feed.open).toBe(1);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.end();
    await expect.poll(() => feed.open, { timeout: 5_000 }).toBe(0);
    await closed; // the feed closed its side too
  });

  it('after a client-initiated close, a client that keeps its side open is cut off', async () => {
    const socket = await upgraded({ allowHalfOpen: true });
    const frames: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => frames.push(chunk));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    // A masked close frame with code 1000 (RFC 6455 §5.5.1); the client then never closes its side.
    const mask = Buffer.from([1, 2, 3, 4]);
    const code = Buffer.from([0x03, 0xe8]);
    socket.write(Buffer.concat([Buffer.from([0x88, 0x82]), mask, code.map((b, i) => b ^ mask[i % 4]!)]));
    try {
      await ended; // the feed's close frame, then its FIN
      expect(Buffer.concat(frames).subarray(0, 4)).toEqual(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
      await expect.poll(() => feed.open, { timeout: 5_000 }).toBe(0);
    } finally {
      socket.destroy();
    }
  });
});
