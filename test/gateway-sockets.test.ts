// Sockets and hosts (issue #12): a socket answered 408 is released even when its peer never closes,
// open connections are capped for the server and per client address, and the Host field is checked
// as RFC 9112 §3.2 requires.
import { connect, type Socket } from 'node:net';

import { describe, expect, it } from 'vitest';
import type { FakeUpstreams } from '../fakes/upstreams.ts';
import { shareUpstreams } from './helpers/shared-upstreams.ts';
import { get, rawExchange, startTestGateway, type DistFixture, type TestGateway } from './helpers/gateway.ts';

/** 12:00 in Toronto: the fake and every gateway here share this clock. */
const now = () => Date.parse('2026-11-22T17:00:00.000Z');

let fake: FakeUpstreams;
let fixture: DistFixture;

shareUpstreams({ now }, (shared) => void ({ fake, fixture } = shared));

async function withGateway(
  limits: Parameters<typeof startTestGateway>[3] extends infer O ? (O extends { limits?: infer L } ? L : never) : never,
  test: (gw: TestGateway) => Promise<void>,
): Promise<void> {
  const gw = await startTestGateway(fake.url, fixture.dist, {}, { limits, now });
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

  it('the server holds at most maxConnections in all', async () => {
    await withGateway({ maxConnections: 4 }, async (gw) => {
      const held = Array.from({ length: 4 }, (_, i) => halfOpenClient(gw.url, `127.0.0.${i + 1}`));
      await Promise.all(held.map((c) => c.connected));
      expect(await eventually(async () => (await connections(gw)) === 4)).toBe(true);
      const extra = halfOpenClient(gw.url, '127.0.0.9');
      await extra.ended;
      expect(extra.received()).toBe('');
      for (const c of held) c.socket.destroy();
      expect(await eventually(async () => (await connections(gw)) === 0)).toBe(true);
      expect((await get(gw.url, '/')).status).toBe(200);
    });
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
