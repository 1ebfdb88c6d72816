// IP addresses and CIDR ranges for the quota's client identity: TRUST_PROXY parsed into ranges, and
// addresses as numbers so that every spelling of one address (IPv4-mapped IPv6 included) is one value.
// Only the gateway needs them; TRUST_PROXY is parsed when it starts (gateway/server.ts).
import { isIP } from 'node:net';
import { ConfigError } from '../../lib/errors.ts';

export interface ProxyRange {
  /** Address family of the range. */
  family: 4 | 6;
  /** The network address as a big integer and the prefix length. */
  network: bigint;
  prefix: number;
}

/** TRUST_PROXY: comma-separated addresses or CIDRs, IPv4 or IPv6 (an IPv4-mapped entry counts as IPv4). */
export function parseTrustProxy(value: string | undefined): ProxyRange[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const pieces = part.split('/');
      const parsed = pieces.length <= 2 ? parseAddress(pieces[0]!) : undefined;
      if (parsed === undefined) throw new ConfigError('TRUST_PROXY', `"${part}" is not an IP address or CIDR`);
      const written = isIP(pieces[0]!) === 4 ? 32 : 128;
      const prefixText = pieces[1];
      if (prefixText !== undefined && (!/^\d+$/.test(prefixText) || Number(prefixText) > written)) {
        throw new ConfigError('TRUST_PROXY', `"${part}" has an invalid prefix length`);
      }
      const bits = parsed.family === 4 ? 32 : 128;
      // ::ffff:10.0.0.0/104 is 10.0.0.0/8: the mapped prefix counts from the 96 bits of the mapping.
      // Below 96 it would reach past the mapping (::ffff:10.0.0.0/8 read as "every IPv4 address").
      if (prefixText !== undefined && Number(prefixText) < written - bits) {
        throw new ConfigError(
          'TRUST_PROXY',
          `"${part}" is an IPv4-mapped address with a prefix below 96; write the IPv4 range instead (e.g. 10.0.0.0/8)`,
        );
      }
      const prefix = prefixText === undefined ? bits : Number(prefixText) - (written - bits);
      // Every address a proxy: each client's own X-Forwarded-For would choose its quota bucket.
      if (prefix === 0) {
        throw new ConfigError(
          'TRUST_PROXY',
          `"${part}" trusts every address, so every client could name its own quota bucket; list your proxies' addresses`,
        );
      }
      return { family: parsed.family, network: maskAddress(parsed.value, bits, prefix), prefix };
    });
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

export function addressInRanges(address: string, ranges: ProxyRange[]): boolean {
  const parsed = parseAddress(address);
  if (parsed === undefined) return false;
  const bits = parsed.family === 4 ? 32 : 128;
  return ranges.some((r) => r.family === parsed.family && maskAddress(parsed.value, bits, r.prefix) === r.network);
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
  // Expand IPv6, including an embedded IPv4 tail.
  let text = address;
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
