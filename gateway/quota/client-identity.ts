// Who a request counts against in the quota. Without TRUST_PROXY the socket address is the client.
// With it, a request arriving from a trusted proxy is attributed to the right-most X-Forwarded-For
// entry that is not itself a trusted proxy: every proxy appends the address it saw, so entries to the
// right of that one were written by our proxies and entries to its left may be forged by the client.
// The quota key is the address in one canonical form (builders/lib/client-address.ts, the Worker's too), so
// spellings of one address, and addresses of one IPv6 /64, share a bucket.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { normaliseAddress, quotaKey } from '../../builders/lib/client-address.ts';
import type { TrustedProxies } from './ip-ranges.ts';

/** The client's quota key, or null when a trusted proxy gave no usable address (served without quota). */
export type ClientIdentity = (req: IncomingMessage) => string | null;

export function clientIdentity(trustProxy: TrustedProxies): ClientIdentity {
  if (trustProxy.ranges.length === 0) {
    return (req) => {
      const address = req.socket.remoteAddress;
      return address === undefined ? null : quotaKey(address);
    };
  }
  return (req) => {
    const peer = req.socket.remoteAddress;
    if (peer === undefined) return null;
    const address = normaliseAddress(peer);
    if (!trustProxy.has(address)) return quotaKey(address); // a direct client: its X-Forwarded-For means nothing
    const forwarded = req.headers['x-forwarded-for'];
    const client = forwardedClient(Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trustProxy);
    return client === null ? null : quotaKey(client);
  };
}

/** The right-most untrusted entry of X-Forwarded-For (Node joins repeated fields with ", "). */
export function forwardedClient(header: string | undefined, trustProxy: TrustedProxies): string | null {
  if (header === undefined) return null;
  const entries = header.split(',');
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = plainAddress(entries[i]!.trim());
    if (address === null) return null; // what our own proxy appended is unreadable: no usable client
    if (!trustProxy.has(address)) return address;
  }
  return null;
}

/** An entry without port or brackets ("203.0.113.7:5060", "[2001:db8::1]:443"), or null. */
function plainAddress(entry: string): string | null {
  let text = entry;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return null;
    text = text.slice(1, end);
  } else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) {
    text = text.slice(0, text.lastIndexOf(':'));
  }
  return isIP(text) === 0 ? null : normaliseAddress(text.toLowerCase());
}
