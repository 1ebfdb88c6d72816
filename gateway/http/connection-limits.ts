// Caps on open connections, so that clients who hold sockets (slowloris, half-open peers that never
// close) cannot take every descriptor of the process: one cap for the server and one per client
// address. A trusted proxy (TRUST_PROXY) speaks for many clients and is only bound by the server's cap.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { quotaKey } from '../quota/client-identity.ts';
import { addressInRanges, normaliseAddress, type ProxyRange } from '../quota/ip-ranges.ts';

export interface ConnectionCaps {
  /** Open connections of the whole server; more are closed at once by node (server.maxConnections). */
  maxConnections: number;
  /** Open connections from one client address (an IPv6 client's /64, as for the quota). */
  maxConnectionsPerClient: number;
}

export function capConnections(server: Server, caps: ConnectionCaps, trustProxy: readonly ProxyRange[]): void {
  server.maxConnections = caps.maxConnections;
  const open = new Map<string, number>();
  const ranges = [...trustProxy];
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined) return;
    const address = normaliseAddress(peer);
    if (ranges.length > 0 && addressInRanges(address, ranges)) return;
    const key = quotaKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > caps.maxConnectionsPerClient) return void socket.destroy();
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
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
