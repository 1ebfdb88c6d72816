// Sockets and hosts (issue #12): a socket answered 408 is released even when its peer never closes,
// open connections are capped for the server and per client address, and the Host field is checked
// as RFC 9112 §3.2 requires. Clients that do not take their answers (issue #21): pipelined requests are
// answered in turn and bounded, an answer not taken closes the connection after the inactivity limit,
// and at the connection cap the oldest idle connection makes room for a new client. Requests sent
// ahead are parsed only as they may be answered (issue 37).
import { connect, type Socket } from 'node:net';

import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeUpstreams } from './fakes/upstreams.ts';
import { afterHeads } from '../gateway/http/connection-limits.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { get, makeDist, rawExchange, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';

/** 12:00 in Toronto: the fake and every gateway here share this clock. */
const now = () => Date.parse('2026-11-22T17:00:00.000Z');

let fake: FakeUpstreams;
let fixture: DistFixture;

shareUpstreams({ now }, (shared) => void ({ fake, fixture } = shared));

/** A site with one file larger than loopback's socket buffers: a client that does not read stalls it. */
let bigSite: DistFixture;
const BIG = 'big.bin';
const FORTY = 'forty.bin';
beforeAll(
  async () =>
    void (bigSite = await makeDist({ [BIG]: Buffer.alloc(32 * 2 ** 20, 7), [FORTY]: Buffer.alloc(40 * 1024, 1) })),
);
afterAll(async () => {
  if (bigSite) await rm(bigSite.base, { recursive: true, force: true });
});

async function withGateway(
  limits: Parameters<typeof startTestGateway>[3] extends infer O ? (O extends { limits?: infer L } ? L : never) : never,
  test: (gw: TestGateway) => Promise<void>,
  dist = fixture.dist,
): Promise<void> {
  const gw = await startTestGateway(fake.url, dist, {}, { limits, now });
  try {
    await test(gw);
  } finally {
    await gw.close();
  }
}

/** A raw connection that never closes its side: it ignores the server's FIN (allowHalfOpen). */
function halfOpenClient(url: string, localAddress = '127.0.0.1') {
  const { port, hostname } = new URL(url);
  const socket: Socket = connect({ port: Number(port), host: hostname, localAddress, allowHalfOpen: true });
  let received = '';
  const ended = new Promise<void>((resolve) => socket.once('end', resolve));
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, ended, received: () => received };
}

const connections = (gw: TestGateway) =>
  new Promise<number>((resolve, reject) => gw.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));

async function eventually(check: () => Promise<boolean>, tries = 60, everyMs = 50): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return false;
}

describe('after a 408', () => {
  it('the server releases the socket even when the client never closes its side', async () => {
    await withGateway({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 }, async (gw) => {
      const client = halfOpenClient(gw.url);
      await client.connected;
      client.socket.write('GET / HTTP/1.1\r\nHost: example.test\r\nX-Slow: '); // never finished
      await client.ended;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      // The client keeps its side open; the server's descriptor must go anyway.
      expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
      client.socket.destroy();
    });
  });
});

describe('connection caps', () => {
  it('one client address may hold at most maxConnectionsPerClient; others are still served', async () => {
    await withGateway({ maxConnectionsPerClient: 3 }, async (gw) => {
      const held = Array.from({ length: 3 }, () => halfOpenClient(gw.url));
      await Promise.all(held.map((c) => c.connected));
      expect(await eventually(async () => (await connections(gw)) === 3)).toBe(true);
      const extra = halfOpenClient(gw.url);
      await extra.ended; // cut without an answer
      expect(extra.received()).toBe('');
      // Another address is not affected.
      expect((await get(gw.url, '/', { localAddress: '127.0.0.2' })).status).toBe(200);
      for (const c of held) c.socket.destroy();
      expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
      expect((await get(gw.url, '/')).status).toBe(200);
    });
  });

  it('the server holds at most maxConnections in all: busy ones keep a new client out', async () => {
    await withGateway(
      { maxConnections: 4 },
      async (gw) => {
        const held = await Promise.all(Array.from({ length: 4 }, (_, i) => stalledClient(gw.url, `127.0.0.${i + 1}`)));
        expect(await eventually(async () => (await connections(gw)) === 4)).toBe(true);
        const extra = halfOpenClient(gw.url, '127.0.0.9');
        await extra.ended;
        expect(extra.received()).toBe('');
        for (const c of held) c.destroy();
        expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
        expect((await get(gw.url, '/')).status).toBe(200);
      },
      bigSite.dist,
    );
  });

  it('at the cap the connection idle longest is closed so that a new client is served', async () => {
    await withGateway(
      { maxConnections: 4 },
      async (gw) => {
        // One busy connection (its answer stalled), then three that never send a byte, oldest first.
        const busy = await stalledClient(gw.url, '127.0.0.1');
        const idle: ReturnType<typeof halfOpenClient>[] = [];
        for (let i = 0; i < 3; i++) {
          const client = halfOpenClient(gw.url, `127.0.0.${i + 2}`);
          await client.connected;
          expect(await eventually(async () => (await connections(gw)) === i + 2)).toBe(true);
          idle.push(client);
        }
        // A request on the first idle one makes it the most recently active: the second is idle longest.
        idle[0]!.socket.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
        expect(await eventually(async () => idle[0]!.received().startsWith('HTTP/1.1 200 '))).toBe(true);
        // The newcomer keeps its connection open: one of the four must make room for it.
        const newcomer = halfOpenClient(gw.url, '127.0.0.9');
        await newcomer.connected;
        newcomer.socket.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
        expect(await eventually(async () => newcomer.received().startsWith('HTTP/1.1 200 '))).toBe(true);
        await idle[1]!.ended;
        expect(idle[1]!.received()).toBe('');
        // The busy one, older still, was kept.
        expect(busy.destroyed).toBe(false);
        busy.destroy();
        for (const c of [...idle, newcomer]) c.socket.destroy();
      },
      bigSite.dist,
    );
  });
});

describe('slow request bodies (issue 41)', () => {
  /** A POST /mcp that announces a body and sends only its first bytes: the answer waits on the client. */
  async function slowBody(url: string, localAddress: string) {
    const client = halfOpenClient(url, localAddress);
    await client.connected;
    client.socket.write(
      'POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
        'Content-Length: 1000\r\n\r\n{"jsonrpc"',
    );
    return client;
  }

  it('count toward the per-client cap', async () => {
    await withGateway({ maxConnectionsPerClient: 3 }, async (gw) => {
      const slow = await Promise.all(Array.from({ length: 3 }, () => slowBody(gw.url, '127.0.0.1')));
      expect(await eventually(async () => (await connections(gw)) === 3)).toBe(true);
      const extra = halfOpenClient(gw.url);
      await extra.ended; // cut without an answer
      expect(extra.received()).toBe('');
      expect((await get(gw.url, '/', { localAddress: '127.0.0.2' })).status).toBe(200);
      for (const c of slow) c.socket.destroy();
    });
  });

  it('count toward the cap, and at the cap the slowest makes room: a fresh client is answered', async () => {
    await withGateway({ maxConnections: 4 }, async (gw) => {
      const slow: Awaited<ReturnType<typeof slowBody>>[] = [];
      for (let i = 0; i < 4; i++) {
        slow.push(await slowBody(gw.url, `127.0.0.${i + 1}`));
        expect(await eventually(async () => (await connections(gw)) === i + 1)).toBe(true);
      }
      // The cap is full of bodies that never end; every fresh client is still answered, each in turn
      // taking the place of the slow body that waited longest, and the count never passes the cap.
      let most = 0;
      const sampler = setInterval(() => void connections(gw).then((n) => (most = Math.max(most, n))), 5);
      try {
        for (let i = 0; i < 6; i++) {
          const fresh = await get(gw.url, '/', { localAddress: `127.0.1.${i + 1}` });
          expect(fresh.status).toBe(200);
        }
      } finally {
        clearInterval(sampler);
      }
      expect(most).toBeLessThanOrEqual(4);
      await slow[0]!.ended;
      expect(slow[0]!.received()).toBe('');
      for (const c of slow) c.socket.destroy();
    });
  });

  it('have a deadline: a body not in by then gets the 408 and the connection is released', async () => {
    await withGateway({ headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 }, async (gw) => {
      const client = await slowBody(gw.url, '127.0.0.1');
      await client.ended;
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
      client.socket.destroy();
    });
  });
});

/** A connection that asks for the big file and never reads: its answer stays in progress. */
async function stalledClient(
  url: string,
  localAddress = '127.0.0.1',
  request = `GET /${BIG} HTTP/1.1\r\nHost: a\r\n\r\n`,
) {
  const { port, hostname } = new URL(url);
  const socket: Socket = connect({ port: Number(port), host: hostname, localAddress });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.pause();
  socket.write(request);
  return socket;
}

/** The answers of a raw exchange, in order (a body here never contains a status line). */
const answers = (exchange: string) => exchange.split(/(?=HTTP\/1\.1 \d{3} )/).filter((a) => a !== '');
const statusLines = (exchange: string) => answers(exchange).map((a) => a.slice(0, a.indexOf('\r\n')));

describe('clients that pipeline or do not read (issue #21)', () => {
  it('pipelined requests within the bound are all answered, in order, on a kept-alive connection', async () => {
    await withGateway({ maxPipelined: 4 }, async (gw) => {
      const paths = ['/', '/developers', '/api', '/llms.txt', '/nowhere'];
      const answer = await rawExchange(gw.url, paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: a\r\n\r\n`).join(''));
      expect(statusLines(answer)).toEqual([
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 404 Not Found',
      ]);
      expect(answer).not.toMatch(/\r\nConnection: close\r\n/i);
    });
  });

  it('past the bound the answer in progress is the last: the waiting requests are never begun', async () => {
    await withGateway({ maxPipelined: 3 }, async (gw) => {
      const answer = await rawExchange(gw.url, 'GET /api HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(40));
      // The first is answered at once; three wait behind it and the client sent more: past the bound,
      // the connection closes after the first answer, and the rest are never even parsed.
      expect(statusLines(answer)).toEqual(['HTTP/1.1 200 OK']);
      expect(gw.accessLog().filter((l) => l.path === '/api')).toHaveLength(1);
      expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
    });
  });

  it('requests sent ahead are parsed only as they may be answered (issue 37)', async () => {
    // 200 requests in one write, as the slow-reader attack sends them: before, node parsed all 200 into
    // requests the handler saw (and dropped); now the parser stops a few requests past the bound.
    let seen = 0;
    await withGateway({ maxPipelined: 3 }, async (gw) => {
      gw.server.prependListener('request', () => void seen++);
      await rawExchange(gw.url, 'GET /api HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(200));
      expect(seen).toBeGreaterThanOrEqual(4);
      expect(seen).toBeLessThanOrEqual(3 + 1 + 4);
    });
  });

  it('the head of a request is found whether its lines end in CRLF or, leniently, LF', () => {
    const twice = Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\nHost: a\n\nGET /');
    expect(afterHeads(twice, 1)).toBe('GET / HTTP/1.1\r\nHost: a\r\n\r\n'.length);
    expect(afterHeads(twice, 2)).toBe(twice.length - 'GET /'.length);
    expect(afterHeads(twice, 3)).toBe(twice.length);
    expect(afterHeads(Buffer.alloc(0), 1)).toBe(0);
  });

  it('the answers to one run of pipelined requests stop at maxPipelinedBytes, whatever the count', async () => {
    await withGateway(
      { maxPipelined: 16, maxPipelinedBytes: 100 * 1024 },
      async (gw) => {
        const answer = await rawExchange(gw.url, `GET /${FORTY} HTTP/1.1\r\nHost: a\r\n\r\n`.repeat(10));
        // The first is answered at once; the three after it bring the run to 120 KiB, past the bound,
        // so the fifth is not begun and the connection closes (ten would fit the count of 16).
        expect(statusLines(answer)).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
        expect(answer.length).toBeGreaterThan(4 * 40 * 1024);
        expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
      },
      bigSite.dist,
    );
  });

  it('past the count, a client that has not taken the answer in progress is closed at once', async () => {
    await withGateway(
      { maxPipelined: 2, pipelineGraceMs: 60_000 },
      async (gw) => {
        const socket = await stalledClient(gw.url, '127.0.0.1', `GET /${BIG} HTTP/1.1\r\nHost: a\r\n\r\n`.repeat(10));
        // Not after the (here one-minute) grace: nothing more is owed to a client that does not read.
        expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
        socket.destroy();
      },
      bigSite.dist,
    );
  });

  it('a client that pipelines past the bound and never reads is cut off after the grace', async () => {
    await withGateway(
      { maxPipelined: 2, pipelineGraceMs: 200 },
      async (gw) => {
        const socket = await stalledClient(gw.url, '127.0.0.1', `GET /${BIG} HTTP/1.1\r\nHost: a\r\n\r\n`.repeat(10));
        expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
        socket.destroy();
      },
      bigSite.dist,
    );
  });

  it('an answer the client does not take closes the connection after the inactivity limit', async () => {
    await withGateway(
      { timeout: 300 },
      async (gw) => {
        const socket = await stalledClient(gw.url);
        expect(await eventually(async () => (await connections(gw)) === 1)).toBe(true);
        expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
        socket.destroy();
      },
      bigSite.dist,
    );
  });
});

describe('the Host field (RFC 9112 §3.2)', () => {
  it.each([
    ['two Host lines', 'Host: example.test\r\nHost: other.test\r\n'],
    ['two Host lines, same value', 'Host: example.test\r\nhost: example.test\r\n'],
    ['a path in Host', 'Host: example.test/x\r\n'],
    ['userinfo in Host', 'Host: user@example.test\r\n'],
    ['an unclosed IP literal', 'Host: [::1\r\n'],
    ['two ports', 'Host: example.test:80:80\r\n'],
    ['a bad percent-encoding', 'Host: ex%zzample.test\r\n'],
  ])('%s → 400 and the connection closes', async (_, host) => {
    await withGateway({}, async (gw) => {
      const answer = await rawExchange(gw.url, `GET / HTTP/1.1\r\n${host}\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    });
  });

  it.each(['example.test', 'example.test:8080', '127.0.0.1:80', '[::1]:8080', 'xn--bcher-kva.example', ''])(
    'Host: %s is served',
    async (host) => {
      await withGateway({}, async (gw) => {
        const answer = await rawExchange(gw.url, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      });
    },
  );
});
