// Who a request counts against in the quota. Without TRUST_PROXY the socket address is the client.
// With it, a request arriving from a trusted proxy is attributed to the right-most X-Forwarded-For
// entry that is not itself a trusted proxy: every proxy appends the address it saw, so entries to the
// right of that one were written by our proxies and entries to its left may be forged by the client.
// The quota key is the address in one canonical form, so spellings of one address share a bucket.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { ipv4Text, maskAddress, normaliseAddress, parseAddress, type TrustedProxies } from './ip-ranges.ts';

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

/** IPv6 clients are counted per /64 network. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The bucket an address counts against: an IPv4 address in dotted form, or for IPv6 the /64 it lies in,
 * written `2001:db8:0:0::/64`. RFC 6177 has ISPs hand each subscriber at least a /64 and SLAAC
 * (RFC 4862) lets every host pick any of its 2^64 addresses, so one client can take fresh addresses
 * at will; the /64 is the smallest unit that is one subscriber. Text that is no address keys as itself.
 */
export function quotaKey(address: string): string {
  const parsed = parseAddress(address);
  if (parsed === undefined) return address;
  if (parsed.family === 4) return ipv4Text(parsed.value);
  const network = maskAddress(parsed.value, 128, IPV6_CLIENT_PREFIX);
  const groups = [112n, 96n, 80n, 64n].map((shift) => ((network >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/${IPV6_CLIENT_PREFIX}`;
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
