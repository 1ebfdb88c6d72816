// Caps on open connections, so that clients who hold sockets (slowloris, half-open peers that never
// close, slow request bodies) cannot take every descriptor of the process: one cap for the server and
// one per client address, whatever state a connection is in (at the server's cap a connection that waits
// on its client makes room). A trusted proxy (TRUST_PROXY) speaks for many clients and is only bound by
// the server's cap. And a bound on what one connection may have read ahead of the answers it has taken
// (answerInTurn).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { normaliseAddress, quotaKey } from '../../builders/lib/client-address.ts';
import type { TrustedProxies } from '../quota/ip-ranges.ts';

export interface ConnectionCaps {
  /** Open connections of the whole server; past it an idle one makes room, else the new one goes. */
  maxConnections: number;
  /** Open connections from one client address (an IPv6 client's /64, as for the quota). */
  maxConnectionsPerClient: number;
}

/** The answer node has begun on a connection, if any. */
const answerOf = (socket: Socket) => (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;

/** No answer in progress: keep-alive idle, waiting for its first request, or still sending headers. */
const isIdle = (socket: Socket) => !answerOf(socket);

/**
 * Runs `fn` once the event loop has polled for I/O again: the requests that had already arrived on
 * connections accepted before have then been read (setImmediate runs after the poll phase; the second
 * one after the next poll, which sees the connections the first poll accepted).
 */
const afterNextPoll = (fn: () => void) => setImmediate(() => setImmediate(fn));

export function capConnections(server: Server, caps: ConnectionCaps, trustProxy: TrustedProxies): void {
  const open = new Map<string, number>();
  /**
   * Every open connection, least recently active first: a Set keeps insertion order, and each request
   * moves its connection to the end.
   */
  const active = new Set<Socket>();
  /**
   * Connections accepted since the event loop last polled: what their clients sent may not be read
   * yet, so they cannot be told idle from busy, and none is closed to make room.
   */
  const fresh = new Set<Socket>();
  /** Each connection's request in progress, to tell a body still arriving. */
  const requests = new WeakMap<Socket, IncomingMessage>();

  server.on('connection', (socket: Socket) => {
    if (!admitPerClient(socket)) return void socket.destroy();
    // At the cap, as nginx does: a connection that waits on its client is closed so that the new client
    // is served, so that idle connections (5,000 that never sent a byte) or slow bodies cannot lock
    // others out; if every other connection is busy or just accepted, the new one goes. Decided now, so
    // that the open connections never pass the cap, whatever state they are in.
    if (active.size >= caps.maxConnections && !closeOneWaiting()) return void socket.destroy();
    active.add(socket);
    fresh.add(socket);
    afterNextPoll(() => fresh.delete(socket));
    socket.once('close', () => {
      active.delete(socket);
      fresh.delete(socket);
    });
  });
  server.on('request', (req: IncomingMessage) => {
    requests.set(req.socket, req);
    if (active.delete(req.socket)) active.add(req.socket);
  });

  /**
   * Whether the connection waits on its client: no answer in progress (keep-alive idle, never sent a
   * byte, still sending its headers), or an answer not begun while the request's body still arrives.
   */
  const waitsOnClient = (socket: Socket) => {
    const answer = answerOf(socket);
    if (!answer) return true;
    const req = requests.get(socket);
    return req !== undefined && !req.complete && !answer.headersSent;
  };

  /**
   * Closes the connection idle longest, else the one slowest to send its body (least recently active
   * first), never one just accepted: a client that connected just before a flood has its request read
   * by the next poll, so it is busy, not idle.
   */
  function closeOneWaiting(): boolean {
    for (const test of [isIdle, waitsOnClient]) {
      for (const socket of active) {
        if (fresh.has(socket) || !test(socket)) continue;
        // Out of the set now: its 'close' comes later, and the new connection takes its place at once.
        active.delete(socket);
        socket.destroy();
        return true;
      }
    }
    return false;
  }

  function admitPerClient(socket: Socket): boolean {
    const peer = socket.remoteAddress;
    if (peer === undefined) return true;
    const address = normaliseAddress(peer);
    if (trustProxy.ranges.length > 0 && trustProxy.has(address)) return true;
    const key = quotaKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > caps.maxConnectionsPerClient) return false;
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
    return true;
  }
}

/**
 * Ends a socket with a last answer and then releases it: `end` alone sends FIN but keeps the socket
 * (and its descriptor) until the peer closes its side too, which a hostile peer never does. The answer
 * gets `graceMs` to drain; a peer that does not read it is cut off then.
 */
export function endAndRelease(socket: Socket, answer: string, graceMs = 1000): void {
  const cut = setTimeout(() => socket.destroy(), graceMs);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
  socket.end(answer, () => socket.destroy());
}

export interface PipelineLimits {
  /** Requests of one connection that may wait behind an answer not yet handed to the kernel. */
  maxPipelined: number;
  /**
   * Bytes of answers one connection is handed in one run of requests it sent ahead of them: past it
   * the connection is closed, whatever the route (see answerInTurn).
   */
  maxPipelinedBytes: number;
  /** How long a connection that pipelined past the bound gets to take the answers it is owed. */
  graceMs: number;
}

interface Pipeline {
  /** Requests read but not yet answered because an earlier answer is still being sent. */
  queued: number;
  /** The client pipelined past a bound: no request after the one in progress is answered. */
  over: boolean;
  /** socket.bytesWritten when the current run of requests sent ahead began. */
  runStart: number;
}

/**
 * Requests node's parser is given at a time (see answerInTurn): node parses every request of what it
 * is given at once, so this, not the size of a read, bounds what one turn of a connection costs.
 */
const REQUESTS_PER_FEED = 4;

/** A connection's requests, read and answered in turn: `listener` serves them, `read` parses them. */
export interface InTurn {
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Puts every connection of `server` under the bound; call once, after createServer. */
  read: (server: Server) => void;
}

/**
 * Answers a connection's pipelined requests one at a time, each once the previous answer has been
 * handed to the kernel, parses them only as they may be answered, and bounds how many may wait and
 * how many bytes their answers may take.
 *
 * node:http parses every request of a read at once (a read is up to 64 KiB: 200 requests of 70 bytes,
 * or 3,000 of the shortest) into a request and a response each, before any handler sees them, and
 * keeps them until the connection closes. 1,024 clients that each pipelined 200 requests in one write
 * and never read so made 200,000 of each in one burst: 300 to 950 MiB of resident memory, and four
 * seconds of parsing during which a fresh client waited (issue 37). So node's parser is not given the
 * connection's bytes (`read`): they are given to it a few requests at a time (REQUESTS_PER_FEED), and
 * only while fewer than `maxPipelined` requests wait. A client that sends more ahead is past the bound:
 * what it sent after is never parsed, the answer in progress is its last (it gets `graceMs` to take
 * it), and the requests waiting behind it are never begun. What one connection costs is then at most
 * `maxPipelined + REQUESTS_PER_FEED` parsed requests and one answer past the bound, whatever it sends:
 * on the live market route, one ticker fetch shared with every other connection, not one per request.
 *
 * A waiting request holds no answer, so what one connection keeps unsent is at most one answer; node
 * itself stops reading a connection while that answer is not taken (its writable side needs
 * draining) and resumes on 'drain'. Two more bounds, for the client that does not read. The kernel
 * takes megabytes of answers into a loopback socket's buffers before a write stalls, so a count alone
 * let 11 to 16 answers of a 70 kB page through per connection, one after the other in a single turn
 * of the event loop: once the answers of one run of requests sent ahead reach `maxPipelinedBytes`, the
 * connection is closed without the next. And a connection past the count whose client has not taken
 * the answer in progress is closed at once. A client must be ready to send again what a closed
 * connection left unanswered (RFC 9112 §9.3.2); browsers do not pipeline at all.
 */
export function answerInTurn(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  limits: PipelineLimits,
): InTurn {
  const pipelines = new WeakMap<Socket, Pipeline>();

  /**
   * The client sent more than may wait: the answer in progress is the connection's last. It gets
   * `graceMs` to be taken; the requests waiting behind it are never begun.
   */
  const overflow = (socket: Socket, pipeline: Pipeline) => {
    pipeline.over = true;
    if (socket.writableLength > 0) return void socket.destroy();
    const cut = setTimeout(() => socket.destroy(), limits.graceMs);
    cut.unref();
    socket.once('close', () => clearTimeout(cut));
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // The usual case: nothing before it on the connection, so node gave the response the socket.
    if (res.socket) return handler(req, res);
    const socket = req.socket;
    let pipeline = pipelines.get(socket);
    if (pipeline === undefined) pipelines.set(socket, (pipeline = newPipeline()));
    if (pipeline.over) return;
    if (pipeline.queued === limits.maxPipelined) return overflow(socket, pipeline);
    if (pipeline.queued === 0) pipeline.runStart = socket.bytesWritten;
    pipeline.queued++;
    const state = pipeline;
    // node hands the socket to the next response once the previous one has finished, that is once
    // the kernel has taken it: destroying the socket then loses no byte of the answers before.
    res.once('socket', () => {
      state.queued--;
      if (state.over || socket.bytesWritten - state.runStart >= limits.maxPipelinedBytes) {
        state.over = true;
        return void socket.destroy();
      }
      handler(req, res);
    });
  };

  const read = (server: Server) => {
    server.on('connection', (socket: Socket) => {
      // node:http has attached its parser to the connection as its one 'data' listener; a 'data'
      // listener of ours makes node read through 'data' events instead of straight from the socket.
      const listeners = socket.listeners('data');
      if (listeners.length !== 1) return; // not node's usual connection: left as node made it
      const parse = listeners[0] as (chunk: Buffer) => void;
      socket.removeListener('data', parse);
      let pending: Buffer | undefined;
      const feed = () => {
        while (pending !== undefined) {
          // node pauses a connection whose answers pile up, and frees its parser on upgrade or close.
          if (socket.destroyed || socket.isPaused() || !(socket as Socket & { parser?: unknown }).parser) return;
          const pipeline = pipelines.get(socket);
          if (pipeline?.over) return void (pending = undefined);
          if (pipeline !== undefined && pipeline.queued >= limits.maxPipelined) {
            pending = undefined;
            return overflow(socket, pipeline);
          }
          const end = afterHeads(pending, REQUESTS_PER_FEED);
          const slice = end === pending.length ? pending : pending.subarray(0, end);
          pending = end === pending.length ? undefined : pending.subarray(end);
          parse(slice);
        }
      };
      socket.on('data', (chunk: Buffer) => {
        pending = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
        feed();
      });
      socket.on('resume', feed);
    });
  };

  return { listener, read };
}

const newPipeline = (): Pipeline => ({ queued: 0, over: false, runStart: 0 });

/**
 * Where the `count`-th request head in `bytes` ends (after its empty line), or the end of `bytes`:
 * a head ends with an empty line, CRLF CRLF or, leniently read, LF LF (RFC 9112 §2.2). A cut in the
 * middle of a body or a head is harmless: the parser takes a connection's bytes in any pieces.
 */
export function afterHeads(bytes: Buffer, count: number): number {
  let found = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) {
    const next = bytes[at + 1];
    const end = next === 0x0a ? at + 2 : next === 0x0d && bytes[at + 2] === 0x0a ? at + 3 : -1;
    if (end !== -1 && ++found === count) return end;
  }
  return bytes.length;
}
