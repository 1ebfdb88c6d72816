// A few thousand concurrent loopback connections against the gateway in process (the slow suite: thousands
// of sockets at once depend on what else the machine is doing). Every one gets its answer, and the
// contribution requests among them share one upstream fetch.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { FakeUpstreams } from '../fakes/upstreams.ts';
import { shareUpstreams } from '../helpers/shared-upstreams.ts';
import { get, startTestGateway, type DistFixture } from '../helpers/gateway.ts';

/** 12:00 in Toronto: the fake and the gateway share this clock. */
const now = () => Date.parse('2026-11-22T17:00:00.000Z');

let fake: FakeUpstreams;
let fixture: DistFixture;

shareUpstreams({ now }, (shared) => void ({ fake, fixture } = shared));

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

describe('load', () => {
  it('keeps answering a few thousand concurrent connections from loopback', async () => {
    // A gateway of its own, so the calendar cache is cold and the one upstream fetch is this test's.
    const cold = await startTestGateway(fake.url, fixture.dist, {}, { now });
    fake.resetCalls();
    try {
      const count = 2000;
      const expected = new Map([
        ['/', 200],
        ['/api', 200],
        ['/api/v1/github-contributions', 200],
        ['/nope', 404],
        ['/api/nope', 404],
      ]);
      const paths = [...expected.keys()];
      const sockets = await Promise.all(
        Array.from(
          { length: count },
          (_, i) =>
            new Promise<{ status: number; i: number }>((resolve) => {
              const url = new URL(cold.url);
              // From 20 loopback addresses: one address may hold at most maxConnectionsPerClient.
              const socket = connect({
                port: Number(url.port),
                host: url.hostname,
                localAddress: `127.0.0.${1 + (i % 20)}`,
              });
              let data = '';
              socket.setTimeout(20_000, () => socket.destroy());
              socket.on('connect', () =>
                socket.write(`GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
              );
              socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
              socket.on('close', () => resolve({ status: statusOf(data), i }));
              socket.on('error', () => undefined);
            }),
        ),
      );
      const wrong = sockets.filter((s) => s.status !== expected.get(paths[s.i % paths.length]!));
      expect(wrong).toEqual([]);
      // every contribution request was served from one upstream fetch
      expect(fake.calls.html).toBe(1);
      expect((await get(cold.url, '/')).status).toBe(200);
    } finally {
      await cold.close();
    }
  });
});
