// Who a client is, as both runtimes count it: an address in one canonical form, and the quota key it
// counts against (an IPv4 address, or the /64 of an IPv6 one). The Node gateway keys the socket's (or a
// trusted proxy's) address with it, the Worker Cloudflare's CF-Connecting-IP, so one client is one
// count on either. Pure but for node:net's isIP, which nodejs_compat gives a Worker too.
import { isIP } from 'node:net';

/** IPv6 clients are counted per /64 network. */
export const IPV6_CLIENT_PREFIX = 64;

/**
 * The bucket an address counts against: an IPv4 address in dotted form, or for IPv6 the /64 it lies in,
 * written `2001:db8:0:0::/64`. RFC 6177 has ISPs hand each subscriber at least a /64 and SLAAC
 * (RFC 4862) lets every host pick any of its 2^64 addresses, so one client can take fresh addresses
 * at will; the /64 is the smallest unit that is one subscriber. Every spelling of one address (upper
 * case, zeros written out, an embedded IPv4 tail, IPv4-mapped IPv6) is one key. Text that is no
 * address keys as itself.
 */
export function quotaKey(address: string): string {
  const parsed = parseAddress(address);
  if (parsed === undefined) return address;
  if (parsed.family === 4) return ipv4Text(parsed.value);
  const network = maskAddress(parsed.value, 128, IPV6_CLIENT_PREFIX);
  const groups = [112n, 96n, 80n, 64n].map((shift) => ((network >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/${IPV6_CLIENT_PREFIX}`;
}

/** Writes an IPv4-mapped IPv6 address (::ffff:1.2.3.4 in any spelling), as Node reports dual-stack sockets, as plain IPv4. */
export function normaliseAddress(address: string): string {
  const parsed = parseAddress(address);
  return parsed?.family === 4 && isIP(address) === 6 ? ipv4Text(parsed.value) : address;
}

const IPV4_MAPPED_PREFIX = 0xffffn << 32n;

/**
 * An address as its family and numeric value, or undefined. IPv4-mapped IPv6 (::ffff:0:0/96, RFC 4291
 * §2.5.5.2) counts as IPv4 whatever its spelling (::ffff:1.2.3.4, ::ffff:102:304, 0:0:0:0:0:ffff:...),
 * so that one client is one address.
 */
export function parseAddress(address: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const value = addressToBigInt(address);
  if (family === 6 && value >> 32n === IPV4_MAPPED_PREFIX >> 32n) return { family: 4, value: value & 0xffffffffn };
  return { family: family as 4 | 6, value };
}

export function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

export function maskAddress(value: bigint, bits: number, prefix: number): bigint {
  if (prefix === 0) return 0n;
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  return value & mask;
}

function addressToBigInt(address: string): bigint {
  if (isIP(address) === 4) {
    return address.split('.').reduce((acc, octet) => (acc << 8n) + BigInt(Number(octet)), 0n);
  }
  // Expand IPv6, including an embedded IPv4 tail; a zone (fe80::1%eth0) names no other address.
  let text = address.split('%')[0]!;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const n = addressToBigInt(v4[1]);
    text = text.slice(0, -v4[1].length) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [...headParts, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailParts];
  return parts.reduce((acc, group) => (acc << 16n) + BigInt(parseInt(group, 16)), 0n);
}
