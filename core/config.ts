// Configuration: the committed site file under site/, overridden by the environment (CONTRACT §2).
// Parsed once where the program starts; every invalid value is a ConfigError naming its variable.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from './errors.ts';
import { redisTarget } from './redis-url.ts';

export interface SiteFile {
  siteUrl: string;
  title: string;
  tagline: string;
  author: string;
  githubAccount: string;
  marketSourceName: string;
  language: string;
}

export interface ProxyRange {
  /** Address family of the range. */
  family: 4 | 6;
  /** The network address as a big integer and the prefix length. */
  network: bigint;
  prefix: number;
}

export interface Config {
  site: SiteFile;
  /** Origin used in every absolute link, without a trailing slash. */
  siteUrl: string;
  githubAccount: string;
  githubToken: string | undefined;
  githubApiUrl: string;
  githubWebUrl: string;
  marketApiUrl: string;
  marketSourceName: string;
  upstreamTimeoutMs: number;
  /** Build only: the instant used as "now", in milliseconds. */
  sourceDateEpochMs: number | undefined;
  host: string;
  port: number;
  rateLimitQuota: number | undefined;
  rateLimitWindow: number;
  rateLimitRedisUrl: string | undefined;
  trustProxy: ProxyRange[];
  /** DIST_DIR as an absolute path (default dist/ in the working directory): written by the build, served by the gateway. */
  distDir: string;
  /** DEMO_SIMULATED=1, set by `npm run demo`: the site says its data are simulated. */
  demoSimulated: boolean;
}

export const SITE_FILE_URL = new URL('../site/site.json', import.meta.url);

export function readSiteFile(url: URL = SITE_FILE_URL): SiteFile {
  return JSON.parse(readFileSync(url, 'utf8')) as SiteFile;
}

type Env = Record<string, string | undefined>;

/** Reads CONTRACT §2's variables. Empty strings count as unset, as shells and CI files tend to produce them. */
export function loadConfig(env: Env = process.env, site: SiteFile = readSiteFile()): Config {
  const get = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const githubAccount = get('GITHUB_ACCOUNT') ?? site.githubAccount;
  // The account becomes a URL path segment and a GraphQL variable: refuse only what could change the
  // URL's meaning (separators, spaces, controls). GitHub's own login rules are left to GitHub, which
  // answers an unknown account with a 404 or NOT_FOUND that the build reports.
  if (!/^[^\s/\\?#%\x00-\x1f\x7f]{1,100}$/.test(githubAccount)) {
    throw new ConfigError(
      'GITHUB_ACCOUNT',
      `${JSON.stringify(githubAccount.slice(0, 120))} cannot be an account name (no spaces, slashes, ?, # or %)`,
    );
  }
  const quota = get('RATE_LIMIT_QUOTA');
  const redisUrl = get('RATE_LIMIT_REDIS_URL');
  // Checked whole here, before the gateway listens: the store reads it again with the same function.
  if (redisUrl !== undefined) redisTarget(redisUrl);
  return {
    site,
    siteUrl: origin('SITE_URL', get('SITE_URL') ?? site.siteUrl),
    githubAccount,
    githubToken: get('GITHUB_TOKEN'),
    githubApiUrl: origin('GITHUB_API_URL', get('GITHUB_API_URL') ?? 'https://api.github.com'),
    githubWebUrl: origin('GITHUB_WEB_URL', get('GITHUB_WEB_URL') ?? 'https://github.com'),
    marketApiUrl: origin('MARKET_API_URL', get('MARKET_API_URL') ?? 'https://api.exchange.coinbase.com'),
    marketSourceName: get('MARKET_SOURCE_NAME') ?? site.marketSourceName,
    upstreamTimeoutMs: integer('UPSTREAM_TIMEOUT_MS', get('UPSTREAM_TIMEOUT_MS') ?? '5000', 1, 600_000),
    sourceDateEpochMs: optional(
      get('SOURCE_DATE_EPOCH'),
      (v) => integer('SOURCE_DATE_EPOCH', v, 0, 253402300799) * 1000,
    ),
    host: host(get('HOST') ?? '127.0.0.1'),
    port: integer('PORT', get('PORT') ?? '8080', 0, 65535),
    rateLimitQuota: optional(quota, (v) => integer('RATE_LIMIT_QUOTA', v, 1, 1_000_000_000)),
    rateLimitWindow: integer('RATE_LIMIT_WINDOW', get('RATE_LIMIT_WINDOW') ?? '60', 1, 31_536_000),
    rateLimitRedisUrl: redisUrl,
    trustProxy: optional(get('TRUST_PROXY'), parseTrustProxy) ?? [],
    distDir: resolve(get('DIST_DIR') ?? 'dist'),
    demoSimulated: get('DEMO_SIMULATED') === '1',
  };
}

function optional<T>(value: string | undefined, parse: (v: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

function integer(variable: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value))
    throw new ConfigError(variable, `${JSON.stringify(value.slice(0, 40))} is not a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(variable, `${value} is out of range (${min} to ${max})`);
  return n;
}

function parseUrl(variable: string, value: string, protocols: string[]): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, `${JSON.stringify(withoutUserinfo(value))} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(variable, `must use ${protocols.join(' or ')}, not ${url.protocol}`);
  }
  return url;
}

/**
 * A URL as it may appear in an error line: a URL's userinfo (redis://user:password@host) is a secret,
 * so whatever precedes an "@" is masked, even in text that does not parse as a URL.
 */
function withoutUserinfo(value: string): string {
  return value.replace(/[^\s/@]*@/g, '…@');
}

/** An origin such as https://example.org (a path prefix is kept, a trailing slash is not). */
function origin(variable: string, value: string): string {
  const url = parseUrl(variable, value, ['http:', 'https:']);
  // The query may hold a key; name the URL without it.
  if (url.search || url.hash)
    throw new ConfigError(variable, `"${url.origin}${url.pathname}" must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** RFC 1123 §2.1 host name labels: letters, digits and inner hyphens, 1 to 63 characters. */
const HOST_NAME =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

function host(value: string): string {
  if (isIP(value) !== 0) return value;
  // All digits and dots but not an IPv4 address (256.1.1.1, 10.0.0): a mistyped address, not a name.
  if (/^[\d.]+$/.test(value) || !HOST_NAME.test(value))
    throw new ConfigError('HOST', `"${value}" is not a host name or address`);
  return value;
}

/** TRUST_PROXY: comma-separated addresses or CIDRs, IPv4 or IPv6 (an IPv4-mapped entry counts as IPv4). */
export function parseTrustProxy(value: string): ProxyRange[] {
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
