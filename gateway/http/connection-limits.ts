// Caps on open connections, so that clients who hold sockets (slowloris, half-open peers that never
// close) cannot take every descriptor of the process: one cap for the server and one per client
// address (at the server's cap the connection idle longest makes room). A trusted proxy (TRUST_PROXY)
// speaks for many clients and is only bound by the server's cap. And a bound on what one connection
// may have read ahead of the answers it has taken (answerInTurn).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { quotaKey } from '../quota/client-identity.ts';
import { normaliseAddress, type TrustedProxies } from '../quota/ip-ranges.ts';

export interface ConnectionCaps {
  /** Open connections of the whole server; past it an idle one makes room, else the new one goes. */
  maxConnections: number;
  /** Open connections from one client address (an IPv6 client's /64, as for the quota). */
  maxConnectionsPerClient: number;
}

/** No answer in progress: keep-alive idle, waiting for its first request, or still sending headers. */
const isIdle = (socket: Socket) => !(socket as Socket & { _httpMessage?: unknown })._httpMessage;

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
  server.on('connection', (socket: Socket) => {
    if (!admitPerClient(socket)) return void socket.destroy();
    const over = active.size >= caps.maxConnections;
    active.add(socket);
    socket.once('close', () => active.delete(socket));
    // At the cap, as nginx does: the connection idle longest is closed so that the new client is
    // served, and idle connections (5,000 that never sent a byte) cannot lock others out; if every
    // connection is busy, the new one goes. Decided after the next poll: a client that connected just
    // before a flood has its request read by then, so it is busy, not idle.
    if (over) afterNextPoll(() => void (socket.destroyed || closeLongestIdle(socket) || socket.destroy()));
  });
  server.on('request', (req: IncomingMessage) => {
    if (active.delete(req.socket)) active.add(req.socket);
  });

  function closeLongestIdle(newcomer: Socket): boolean {
    for (const socket of active) {
      if (socket === newcomer || !isIdle(socket)) continue;
      // Out of the set now: its 'close' comes later, and the new connection takes its place at once.
      active.delete(socket);
      socket.destroy();
      return true;
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
  /** The last request allowed to wait: its answer is the connection's last. */
  tail?: ServerResponse;
  /** The client pipelined past a bound: the requests read after it are never answered. */
  over: boolean;
  /** socket.bytesWritten when the current run of requests sent ahead began. */
  runStart: number;
}

/**
 * Answers a connection's pipelined requests one at a time, each once the previous answer has been
 * handed to the kernel, and bounds how many may wait and how many bytes their answers may take.
 *
 * node:http parses every request of a read at once (up to 64 KiB of them) and, left alone, answers
 * them all into memory behind the first; a client that pipelines and never reads then holds a
 * request, a response and its headers per request for as long as the connection lives (4,200 such
 * clients held 3 GiB). Here a waiting request holds no answer, so what one connection keeps unsent is
 * at most one answer; node itself stops reading a connection while that answer is not taken (its
 * writable side needs draining) and resumes on 'drain'. The requests one read brings beyond
 * `maxPipelined` are the rest: past the bound the connection gets the answers it is owed (the last
 * with `Connection: close`), then it is closed, and cut off if it has not taken them within
 * `graceMs`.
 *
 * Two more bounds, for the client that does not read. The kernel takes megabytes of answers into a
 * loopback socket's buffers before a write stalls, so a count alone let 11 to 16 answers of a 70 kB
 * page through per connection, one after the other in a single turn of the event loop: once the
 * answers of one run of requests sent ahead reach `maxPipelinedBytes`, the connection is closed
 * without the next. And every request node read stays in its queues until the connection closes, so
 * a connection past the count whose client has not taken the answer in progress is closed at once.
 * A client must be ready to send again what a closed connection left unanswered (RFC 9112 §9.3.2);
 * browsers do not pipeline at all.
 */
export function answerInTurn(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  limits: PipelineLimits,
): (req: IncomingMessage, res: ServerResponse) => void {
  const pipelines = new WeakMap<Socket, Pipeline>();
  return (req, res) => {
    // The usual case: nothing before it on the connection, so node gave the response the socket.
    if (res.socket) return handler(req, res);
    const socket = req.socket;
    let pipeline = pipelines.get(socket);
    if (pipeline === undefined) pipelines.set(socket, (pipeline = { queued: 0, over: false, runStart: 0 }));
    if (pipeline.over) return;
    if (pipeline.queued === limits.maxPipelined) {
      pipeline.over = true;
      if (socket.writableLength > 0) return void socket.destroy();
      // The tail is still waiting, so its headers are not written yet: node closes after it.
      if (pipeline.tail !== undefined) pipeline.tail.shouldKeepAlive = false;
      const cut = setTimeout(() => socket.destroy(), limits.graceMs);
      cut.unref();
      socket.once('close', () => clearTimeout(cut));
      return;
    }
    if (pipeline.queued === 0) pipeline.runStart = socket.bytesWritten;
    pipeline.queued++;
    pipeline.tail = res;
    const state = pipeline;
    // node hands the socket to the next response once the previous one has finished, that is once
    // the kernel has taken it: destroying the socket then loses no byte of the answers before.
    res.once('socket', () => {
      state.queued--;
      if (socket.bytesWritten - state.runStart >= limits.maxPipelinedBytes) {
        state.over = true;
        return void socket.destroy();
      }
      handler(req, res);
    });
  };
}
