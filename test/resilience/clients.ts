// The clients of a resilience run, all on loopback and bounded in number: keep-alive load loops over
// a mix of routes, slowloris connections (silent, or headers one byte at a time) and POSTs whose
// bodies arrive slowly.
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Observed } from './checks.ts';

export interface RequestSpec {
  method: string;
  path: string;
  weight: number;
}

/** What the load clients ask for: mostly the data routes (live upstream work), some of everything else. */
export const REQUEST_MIX: readonly RequestSpec[] = [
  { method: 'GET', path: '/api/v1/mon-price', weight: 20 },
  { method: 'GET', path: '/api/mon-price', weight: 8 },
  { method: 'GET', path: '/api/v1/github-contributions', weight: 14 },
  { method: 'GET', path: '/api/github-contributions', weight: 6 },
  { method: 'HEAD', path: '/api/v1/mon-price', weight: 3 },
  { method: 'HEAD', path: '/api/github-contributions', weight: 3 },
  { method: 'GET', path: '/api', weight: 8 },
  { method: 'GET', path: '/openapi.json', weight: 4 },
  { method: 'GET', path: '/', weight: 4 },
  { method: 'GET', path: '/api/v2/mon-price', weight: 3 },
  { method: 'POST', path: '/api/v1/mon-price', weight: 3 },
  { method: 'DELETE', path: '/api/github-contributions', weight: 2 },
];

export function pickRequest(mix: readonly RequestSpec[], r: number): RequestSpec {
  const total = mix.reduce((s, m) => s + m.weight, 0);
  let x = r * total;
  for (const m of mix) {
    x -= m.weight;
    if (x < 0) return m;
  }
  return mix[mix.length - 1]!;
}

export type Outcome =
  | { kind: 'response'; response: Observed; ms: number }
  | { kind: 'transport'; spec: RequestSpec; error: string; reusedSocket: boolean; hung: boolean };

/** One request; a transport failure (reset, refused, no answer within `timeoutMs`) is an outcome too. */
export function send(base: string, spec: RequestSpec, agent: Agent | false, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const done = (o: Outcome) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    const req = request(base + spec.path, { method: spec.method, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({
          kind: 'response',
          ms: performance.now() - started,
          response: {
            method: spec.method,
            path: spec.path,
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          },
        }),
      );
      res.on('error', (e) =>
        done({ kind: 'transport', spec, error: e.message, reusedSocket: req.reusedSocket, hung: false }),
      );
    });
    req.on('timeout', () => {
      done({
        kind: 'transport',
        spec,
        error: `no answer within ${timeoutMs} ms`,
        reusedSocket: req.reusedSocket,
        hung: true,
      });
      req.destroy();
    });
    req.on('error', (e: NodeJS.ErrnoException) =>
      done({ kind: 'transport', spec, error: e.code ?? e.message, reusedSocket: req.reusedSocket, hung: false }),
    );
    req.end();
  });
}

/** What PROBE prints: the answer, timed from its connection, or the failure. */
const PROBE = `
const http = require('node:http');
const [url, timeoutMs] = process.argv.slice(1);
let started = performance.now();
const say = (o) => { process.stdout.write(JSON.stringify(o)); process.exit(0); };
const req = http.get(url, { agent: false, timeout: Number(timeoutMs) }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => say({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('base64'), ms: performance.now() - started }));
  res.on('error', (e) => say({ error: e.message }));
});
req.once('socket', (s) => s.once('connect', () => (started = performance.now())));
req.on('timeout', () => say({ error: 'no answer within ' + timeoutMs + ' ms', hung: true }));
req.on('error', (e) => say({ error: e.code || e.message }));
`;

/**
 * One `GET` made by a process of its own, timed from its connection: the bound then judges the
 * gateway, not this process (whose event loop carries the load, the faults and a thousand attackers'
 * sockets) nor the kernel's listen backlog (a SYN dropped behind a flood is retried after 1 s).
 */
export function probeApart(base: string, path: string, timeoutMs: number): Promise<Outcome> {
  const spec: RequestSpec = { method: 'GET', path, weight: 0 };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', PROBE, base + path, String(timeoutMs)],
      { timeout: timeoutMs + 10_000 },
      (error, stdout) => {
        let o: {
          status?: number;
          headers?: Observed['headers'];
          body?: string;
          ms?: number;
          error?: string;
          hung?: boolean;
        };
        try {
          o = JSON.parse(stdout) as typeof o;
        } catch {
          o = { error: `the probe process failed (${error?.message ?? 'no output'})` };
        }
        if (o.error !== undefined || o.status === undefined)
          return resolve({
            kind: 'transport',
            spec,
            error: o.error ?? 'no status',
            reusedSocket: false,
            hung: o.hung ?? false,
          });
        resolve({
          kind: 'response',
          ms: o.ms!,
          response: {
            method: 'GET',
            path,
            status: o.status,
            headers: o.headers!,
            body: Buffer.from(o.body!, 'base64'),
          },
        });
      },
    );
  });
}

/** `clients` loops, each sending one request after the other on a shared keep-alive agent until `stop()`. */
export async function runLoad(
  base: string,
  clients: number,
  stop: () => boolean,
  rand: () => number,
  onOutcome: (o: Outcome) => void,
  timeoutMs: number,
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const loop = async () => {
    while (!stop()) onOutcome(await send(base, pickRequest(REQUEST_MIX, rand()), agent, timeoutMs));
  };
  await Promise.all(Array.from({ length: clients }, loop));
  agent.destroy();
}

/**
 * GETs of the contribution calendar (a data route whose answer the gateway keeps, so the quota decision
 * is most of the work), `concurrency` at a time on keep-alive connections, as fast as answered, until
 * `untilMs` (performance.now()).
 */
export async function burst(base: string, untilMs: number, concurrency: number, timeoutMs: number): Promise<Outcome[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const data = REQUEST_MIX.filter((m) => m.method === 'GET' && m.path.endsWith('github-contributions'));
  const outcomes: Outcome[] = [];
  const loop = async () => {
    while (performance.now() < untilMs)
      outcomes.push(await send(base, data[outcomes.length % data.length]!, agent, timeoutMs));
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  return outcomes;
}

export interface SlowlorisReport {
  opened: number;
  /** Connections the server closed (timed out) before we gave up on them. */
  closedByServer: number;
  /** Status lines the server wrote to them (e.g. 408 after its header timeout). */
  statuses: Record<string, number>;
  /** Seconds from open to the server's close, for those it closed. */
  closeAfterSeconds: number[];
}

/**
 * Opens `silent` connections that send nothing and `trickle` connections that send a request's
 * headers one byte every `byteEveryMs`; keeps them until the server closes them or `holdMs` passes.
 */
export async function slowloris(
  host: string,
  port: number,
  silent: number,
  trickle: number,
  holdMs: number,
  byteEveryMs = 400,
): Promise<SlowlorisReport> {
  const report: SlowlorisReport = { opened: 0, closedByServer: 0, statuses: {}, closeAfterSeconds: [] };
  const headers = `GET /api HTTP/1.1\r\nHost: ${host}:${port}\r\nUser-Agent: slowloris\r\nX-Padding: ${'a'.repeat(200)}\r\n\r\n`;
  const one = (trickles: boolean) =>
    new Promise<void>((resolve) => {
      const socket: Socket = connect(port, host);
      const openedAt = performance.now();
      let ours = false;
      let received = '';
      let timer: NodeJS.Timeout | undefined;
      const hold = setTimeout(() => {
        ours = true;
        socket.destroy();
      }, holdMs);
      socket.on('connect', () => {
        report.opened++;
        if (!trickles) return;
        let i = 0;
        timer = setInterval(() => {
          if (i >= headers.length || socket.destroyed) return clearInterval(timer);
          socket.write(headers[i++]!);
        }, byteEveryMs);
      });
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(hold);
        if (timer) clearInterval(timer);
        if (!ours) {
          report.closedByServer++;
          report.closeAfterSeconds.push((performance.now() - openedAt) / 1000);
        }
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
        if (status) report.statuses[status] = (report.statuses[status] ?? 0) + 1;
        resolve();
      });
    });
  await Promise.all([
    ...Array.from({ length: silent }, () => one(false)),
    ...Array.from({ length: trickle }, () => one(true)),
  ]);
  return report;
}

/** POSTs whose bodies arrive `chunk` bytes every `everyMs`, with a Content-Length or chunked. */
export async function slowBodies(base: string, count: number, timeoutMs: number): Promise<Outcome[]> {
  const targets = ['/api/v1/mon-price', '/api/github-contributions', '/api/nope', '/'];
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const path = targets[i % targets.length]!;
      const chunked = i % 2 === 1;
      const spec: RequestSpec = { method: 'POST', path, weight: 0 };
      const total = 4000;
      const chunk = 40;
      return new Promise<Outcome>((resolve) => {
        const started = performance.now();
        let settled = false;
        const done = (o: Outcome) => {
          if (!settled) {
            settled = true;
            clearInterval(timer);
            resolve(o);
          }
        };
        const req = request(
          base + path,
          {
            method: 'POST',
            agent: false,
            timeout: timeoutMs,
            headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(total) }) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              done({
                kind: 'response',
                ms: performance.now() - started,
                response: {
                  method: 'POST',
                  path,
                  status: res.statusCode ?? 0,
                  headers: res.headers,
                  body: Buffer.concat(chunks),
                },
              });
              req.destroy();
            });
          },
        );
        let sent = 0;
        const timer = setInterval(() => {
          if (req.destroyed) return clearInterval(timer);
          if (sent >= total) {
            clearInterval(timer);
            return void req.end();
          }
          req.write('x'.repeat(chunk));
          sent += chunk;
        }, 100);
        req.on('timeout', () => {
          done({ kind: 'transport', spec, error: `no answer within ${timeoutMs} ms`, reusedSocket: false, hung: true });
          req.destroy();
        });
        // Once the answer is in, the server may cut the rest of the body: not a failure.
        req.on('error', (e: NodeJS.ErrnoException) =>
          done({ kind: 'transport', spec, error: e.code ?? e.message, reusedSocket: false, hung: false }),
        );
      });
    }),
  );
}

export interface HalfOpenReport {
  opened: number;
  /** Status lines the server wrote (408 after its header timeout). */
  statuses: Record<string, number>;
  /** Connections the server answered and ended (its FIN arrived). */
  ended: number;
  /** Of those, the ones it released: a byte written afterwards is refused (RST: EPIPE or ECONNRESET). */
  released: number;
}

/**
 * Opens `count` connections that send half a request and never close their side, even after the
 * server's FIN (allowHalfOpen). After the server's answer, a byte is written every 500 ms: a server that
 * only ended its side keeps reading (and keeps the descriptor); one that released the socket answers RST.
 */
export async function halfOpenClients(
  host: string,
  port: number,
  count: number,
  holdMs: number,
): Promise<HalfOpenReport> {
  const report: HalfOpenReport = { opened: 0, statuses: {}, ended: 0, released: 0 };
  const one = () =>
    new Promise<void>((resolve) => {
      const socket: Socket = connect({ port, host, allowHalfOpen: true });
      let received = '';
      let poke: NodeJS.Timeout | undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(hold);
        clearInterval(poke);
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
        if (status) report.statuses[status] = (report.statuses[status] ?? 0) + 1;
        socket.destroy();
        resolve();
      };
      const hold = setTimeout(finish, holdMs);
      socket.on('connect', () => {
        report.opened++;
        socket.write(`GET /api HTTP/1.1\r\nHost: ${host}:${port}\r\nX-Half-Open: `);
      });
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
      socket.on('end', () => {
        report.ended++;
        poke = setInterval(() => socket.write('x'), 500);
      });
      socket.on('error', () => {
        if (poke !== undefined) report.released++;
        finish();
      });
      socket.on('close', finish);
    });
  await Promise.all(Array.from({ length: count }, one));
  return report;
}

/** What a flood of connections saw: how many opened, and how many the gateway closed before the end. */
export interface FloodReport {
  opened: number;
  /** Failed to connect at all (refused, reset at accept). */
  refused: number;
  closedByServer: number;
}

/** Local addresses 127.0.0.2, 127.0.0.3, … (each is its own client of the per-address cap). */
export const loopbackAddresses = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `127.0.0.${2 + i}`);

/**
 * Opens `count` connections spread over `addresses` (round robin), each sending `request` once (or
 * nothing) and never reading: the socket is paused, so the kernel's buffers fill and the gateway's
 * writes stall. Resolves once all are open (or failed); `release()` closes those still open and
 * returns the report.
 */
export async function openFlood(
  host: string,
  port: number,
  count: number,
  addresses: readonly string[],
  request: string | undefined,
): Promise<{ report: FloodReport; release: () => FloodReport }> {
  const report: FloodReport = { opened: 0, refused: 0, closedByServer: 0 };
  const sockets = new Set<Socket>();
  let releasing = false;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const socket = connect({ port, host, localAddress: addresses[i % addresses.length] });
      socket.on('connect', () => {
        report.opened++;
        sockets.add(socket);
        if (request !== undefined) socket.write(request);
        socket.pause();
        resolve();
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        if (!sockets.delete(socket)) {
          report.refused++;
          return resolve();
        }
        if (!releasing) report.closedByServer++;
      });
    });
  // All at once, as an attacker does (docs/resilience.md): the SYNs the listen backlog drops are retried
  // by the kernel, and the gateway must bear the burst, not a polite ramp.
  await Promise.all(Array.from({ length: count }, (_, i) => one(i)));
  return {
    report,
    release: () => {
      releasing = true;
      for (const s of sockets) s.destroy();
      return report;
    },
  };
}
