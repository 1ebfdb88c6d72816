// TRUST_PROXY parsed into a node:net BlockList: the proxies whose word about the client is believed.
// Only Node's programs need it (a Worker's node:net has no BlockList): the gateway parses it when it
// starts (gateway/server.ts), start:edge's local front door too (gateway/worker/front.ts). One address in
// every spelling is builders/lib/client-address.ts.
import { BlockList, isIP } from 'node:net';
import { normaliseAddress, parseAddress } from '../../builders/lib/client-address.ts';
import { ConfigError } from '../../builders/lib/errors.ts';

/** TRUST_PROXY read into a node:net BlockList, which matches IPv4, IPv6 and IPv4-mapped IPv6 alike. */
export interface TrustedProxies {
  /** The ranges as read (an IPv4-mapped entry as the IPv4 range it maps): `10.0.0.0/8`, `::1/128`. */
  readonly ranges: readonly string[];
  /** Whether `address` (any spelling of it) is a trusted proxy. */
  has(address: string): boolean;
}

/** TRUST_PROXY: comma-separated addresses or CIDRs, IPv4 or IPv6 (an IPv4-mapped entry counts as IPv4). */
export function parseTrustProxy(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  const ranges = (value ?? '')
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
      const network = normaliseAddress(pieces[0]!.toLowerCase());
      list.addSubnet(network, prefix, parsed.family === 4 ? 'ipv4' : 'ipv6');
      return `${network}/${prefix}`;
    });
  return {
    ranges,
    has: (address) => {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
