// Configuration: the committed site file under site/, overridden by the environment (docs/configuration.md#variables).
// Parsed once where the program starts; every invalid value is a ConfigError naming its variable.
import { readFileSync } from 'node:fs';
import { liesUnder, realFolder } from './real-path.ts';
import { isIP } from 'node:net';
import { IANAZone } from 'luxon';
import { resolve } from 'node:path';
import { ConfigError } from './errors.ts';
import { jsonBoundExceeded } from './json-bound.ts';
import { firstUnseen } from './text/unicode.ts';
import { redisTarget } from './redis-url.ts';
import { SIMULATED_MARKET_SOURCE } from './simulated.ts';
import { DEFAULT_MARKET_PRODUCT, DEFAULT_MARKET_WS_URL, DEFAULT_TIME_ZONE } from './service-defaults.ts';
import { repoUrl } from './repo-url.ts';

export { DEFAULT_MARKET_WS_URL } from './service-defaults.ts';

export interface SiteFile {
  siteUrl: string;
  title: string;
  tagline: string;
  author: string;
  githubAccount: string;
  marketSourceName: string;
  language: string;
  /** The look (docs/site.md#themes), optional: checked by the build against the themes (builders/render/themes.ts). */
  theme?: unknown;
  accent?: unknown;
  // A dataset may read a section of its own (`"languages": {…}`) through builders/lib/site-section.ts, which its folder checks.
}

export interface Config {
  site: SiteFile;
  /** Origin used in every absolute link, without a trailing slash. */
  siteUrl: string;
  githubAccount: string;
  githubToken: string | undefined;
  githubApiUrl: string;
  githubWebUrl: string;
  marketSourceName: string;
  upstreamTimeoutMs: number;
  /** Build only: the instant used as "now", in milliseconds. */
  sourceDateEpochMs: number | undefined;
  host: string;
  port: number;
  rateLimitQuota: number | undefined;
  rateLimitWindow: number;
  rateLimitRedisUrl: string | undefined;
  /** TRUST_PROXY as written: the gateway parses it into ranges at start (gateway/quota/ip-ranges.ts). */
  trustProxy: string | undefined;
  /** DIST_DIR as an absolute path (default dist/ in the working directory): written by the build, served by the gateway. */
  distDir: string;
  /**
   * BUILD_CACHE_DIR as an absolute path (default .cache/build/ in the working directory), where the build
   * keeps what it made from its content (pictures, compressed copies) for the next build; undefined for `off`.
   */
  buildCacheDir: string | undefined;
  /** DEMO_SIMULATED=1, set by `npm run demo`: the site says its data are simulated, and marketSourceName names the simulated provider. */
  demoSimulated: boolean;
  /** Origins allowed on /mcp besides the site's own (MCP_ALLOWED_ORIGINS), each as a browser sends it. */
  mcpAllowedOrigins: string[];
  /** MARKET_PRODUCT: a Coinbase Exchange product `<BASE>-USD`, or null for `off` (no market dataset). */
  marketProduct: string | null;
  /** CALENDAR_TIME_ZONE: the calendar's IANA zone. */
  calendarTimeZone: string;
  /**
   * MARKET_WS_URL: the market feed (Coinbase Exchange's WebSocket wire format, docs/upstreams.md#the-live-feed)
   * the home page and `cli.mjs price --watch` subscribe to, or null for `off`. Baked in at build time.
   */
  marketWsUrl: string | null;
  /** STREAK_REST_DAYS: the weekdays that neither break nor count in a contribution streak, full English names, Monday first. */
  streakRestDays: string[];
  /**
   * The environment the configuration was read from: where a dataset's own variables are read, by its
   * folder (`datasetVariables`), when the program connects its upstream.
   */
  env: Readonly<Env>;
}

export const SITE_FILE_URL = repoUrl('site/site.json', import.meta.url);

/** What each field of the site file is, for the line that says one is missing or wrong. */
const SITE_FILE_FIELDS: Record<Exclude<keyof SiteFile, 'theme' | 'accent'>, string> = {
  siteUrl: 'the address the site is published at, such as https://you.github.io/repo',
  title: "the site's name, in every page's title",
  tagline: 'one line under your name on the home page',
  author: 'your name, in the footer and the feeds',
  githubAccount: 'the GitHub account whose contribution calendar the site shows',
  marketSourceName: 'the name of the market-data provider, such as Coinbase Exchange',
  language: 'the language of the pages, such as en',
};

/**
 * The longest each text field may be, in characters (docs/site.md#how-long-a-text-may-be): far past any
 * name or line a page shows, and a bound the owner can read before a page, a feed or a picture is drawn.
 */
export const SITE_FILE_BOUNDS = { title: 100, tagline: 300, author: 100 } as const;

/** A BCP 47 language tag in its common shape: `en`, `fr-CA`, `zh-Hant-TW`. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The site file (site/site.json, the owner's to edit): read, bounded before it is parsed (builders/lib/json-bound.ts),
 * and every field checked, so that a mistake in it stops a program at start with one line naming the file
 * and the field (exit 2, a ConfigError) instead of failing later as an internal error. `name` is how the
 * line names the file.
 */
export function readSiteFile(url: URL = SITE_FILE_URL, name = 'site/site.json'): SiteFile {
  let text: string;
  try {
    text = readFileSync(url, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(name, code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? 'error'})`);
  }
  if (!liesUnder(realFolder(new URL('.', url)), url))
    throw new ConfigError(
      name,
      'resolves to a file outside its folder (a symbolic link); copy the file into the folder instead',
    );
  const exceeded = jsonBoundExceeded(text);
  if (exceeded !== null) throw new ConfigError(name, `is refused unparsed: ${exceeded}; it is one flat object`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(name, `is not valid JSON (${(error as Error).message})`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new ConfigError(name, 'must be one JSON object of fields ({"title": "…", …})');
  const fields = data as Record<string, unknown>;
  for (const [field, meaning] of Object.entries(SITE_FILE_FIELDS)) {
    const value = fields[field];
    if (value === undefined) throw new ConfigError(name, `"${field}" is missing; add it: ${meaning}`);
    if (typeof value !== 'string' || value.trim() === '')
      throw new ConfigError(name, `"${field}" must be a non-empty string: ${meaning}`);
    const max = (SITE_FILE_BOUNDS as Record<string, number>)[field];
    const length = max === undefined ? 0 : [...value].length;
    if (max !== undefined && length > max)
      throw new ConfigError(name, `"${field}" is ${length} characters long, more than ${max}; shorten it`);
  }
  const site = fields as unknown as SiteFile;
  origin(`${name} "siteUrl"`, site.siteUrl);
  if (!LANGUAGE_TAG.test(site.language))
    throw new ConfigError(
      name,
      `"language" ${JSON.stringify(site.language.slice(0, 40))} is not a language tag such as en or fr-CA`,
    );
  return site;
}

type Env = Record<string, string | undefined>;

/** The build's folder of what it made: `off` for none, else a path from the working directory. */
function buildCacheDir(value: string | undefined): string | undefined {
  return value === 'off' ? undefined : resolve(value ?? '.cache/build');
}

/**
 * Every variable loadConfig reads (docs/configuration.md#variables); `get` takes only these names, so the
 * list cannot miss one. The Worker's bundle carries their values as `npm run build:edge` found them (gateway/worker/).
 */
export const CONFIG_VARIABLES = [
  'SITE_URL',
  'GITHUB_ACCOUNT',
  'GITHUB_TOKEN',
  'GITHUB_API_URL',
  'GITHUB_WEB_URL',
  'MARKET_SOURCE_NAME',
  'UPSTREAM_TIMEOUT_MS',
  'SOURCE_DATE_EPOCH',
  'HOST',
  'PORT',
  'RATE_LIMIT_QUOTA',
  'RATE_LIMIT_WINDOW',
  'RATE_LIMIT_REDIS_URL',
  'TRUST_PROXY',
  'DIST_DIR',
  'BUILD_CACHE_DIR',
  'DEMO_SIMULATED',
  'MCP_ALLOWED_ORIGINS',
  'MARKET_PRODUCT',
  'CALENDAR_TIME_ZONE',
  'STREAK_REST_DAYS',
  'MARKET_WS_URL',
] as const;
export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/** Reads docs/configuration.md#variables's variables. Empty strings count as unset, as shells and CI files tend to produce them. */
export function loadConfig(env: Env = process.env, site: SiteFile = readSiteFile()): Config {
  const get = (name: ConfigVariable): string | undefined => {
    const value = env[name];
    if (value === undefined || value.trim() === '') return undefined;
    return operatorText(name, value.trim());
  };
  for (const [field, value] of Object.entries(site))
    if (typeof value === 'string') operatorText(`site/site.json ${field}`, value);
  const githubAccount = get('GITHUB_ACCOUNT') ?? site.githubAccount;
  // The account becomes a URL path segment and a GraphQL variable, and GitHub answers an account it
  // cannot have with a 404 the build would report much later: its own login rule is checked here.
  if (!GITHUB_LOGIN.test(githubAccount)) {
    throw new ConfigError(
      'GITHUB_ACCOUNT',
      `${JSON.stringify(githubAccount.slice(0, 120))} is not a GitHub login (1 to 39 letters, digits or single inner hyphens)`,
    );
  }
  const quota = get('RATE_LIMIT_QUOTA');
  const redisUrl = get('RATE_LIMIT_REDIS_URL');
  // Checked whole here, before the gateway listens: the store reads it again with the same function.
  if (redisUrl !== undefined) redisTarget(redisUrl);
  const demoSimulated = get('DEMO_SIMULATED') === '1';
  const listenHost = host(get('HOST') ?? '127.0.0.1');
  const port = integer('PORT', get('PORT') ?? '8080', 0, 65535);
  return {
    site,
    siteUrl: origin('SITE_URL', get('SITE_URL') ?? defaultSiteUrl(site.siteUrl, listenHost, port)),
    githubAccount,
    githubToken: get('GITHUB_TOKEN'),
    githubApiUrl: origin('GITHUB_API_URL', get('GITHUB_API_URL') ?? 'https://api.github.com'),
    githubWebUrl: origin('GITHUB_WEB_URL', get('GITHUB_WEB_URL') ?? 'https://github.com'),
    // A demo's payload names the simulated provider: its numbers must not pass for the real provider's.
    marketSourceName: demoSimulated ? SIMULATED_MARKET_SOURCE : (get('MARKET_SOURCE_NAME') ?? site.marketSourceName),
    upstreamTimeoutMs: integer('UPSTREAM_TIMEOUT_MS', get('UPSTREAM_TIMEOUT_MS') ?? '5000', 1, 600_000),
    sourceDateEpochMs: optional(
      get('SOURCE_DATE_EPOCH'),
      (v) => integer('SOURCE_DATE_EPOCH', v, 0, 253402300799) * 1000,
    ),
    host: listenHost,
    port,
    rateLimitQuota: optional(quota, (v) => integer('RATE_LIMIT_QUOTA', v, 1, 1_000_000_000)),
    rateLimitWindow: integer('RATE_LIMIT_WINDOW', get('RATE_LIMIT_WINDOW') ?? '60', 1, 31_536_000),
    rateLimitRedisUrl: redisUrl,
    trustProxy: get('TRUST_PROXY'),
    distDir: resolve(get('DIST_DIR') ?? 'dist'),
    buildCacheDir: buildCacheDir(get('BUILD_CACHE_DIR')),
    demoSimulated,
    mcpAllowedOrigins: (get('MCP_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => browserOrigin('MCP_ALLOWED_ORIGINS', entry)),
    marketProduct: marketProduct(get('MARKET_PRODUCT') ?? DEFAULT_MARKET_PRODUCT),
    calendarTimeZone: timeZone(get('CALENDAR_TIME_ZONE') ?? DEFAULT_TIME_ZONE),
    marketWsUrl: feedUrl(get('MARKET_WS_URL') ?? DEFAULT_MARKET_WS_URL),
    streakRestDays: restDays(get('STREAK_REST_DAYS') ?? ''),
    env,
  };
}

/**
 * A dataset's own variables (docs/architecture.md#add-a-dataset), read from the program's configuration by
 * the dataset's folder and checked as every variable is: a refused value is a ConfigError naming it (exit 2).
 * Empty counts as unset.
 */
export function datasetVariables(config: Pick<Config, 'env'>) {
  const get = (name: string): string | undefined => {
    const value = config.env[name];
    if (value === undefined || value.trim() === '') return undefined;
    return operatorText(name, value.trim());
  };
  return {
    text: get,
    /** An http(s) origin without a trailing slash. */
    origin: (name: string, fallback: string) => origin(name, get(name) ?? fallback),
    integer: (name: string, fallback: number, min: number, max: number) =>
      integer(name, get(name) ?? String(fallback), min, max),
  };
}

/**
 * MARKET_WS_URL: a ws: or wss: URL, or `off`. It is published in every page (and its origin in the
 * pages' Content-Security-Policy), so it carries no userinfo, query or fragment: a key has no place there.
 */
function feedUrl(value: string): string | null {
  if (value.toLowerCase() === 'off') return null;
  const url = parseUrl('MARKET_WS_URL', value, ['ws:', 'wss:']);
  // Its origin is the pages' connect-src: a host like `*.example` would be a wildcard there, and no
  // socket can open to it anyway. One host name or address, as HOST takes.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(hostname) === 0 && (/^[\d.]+$/.test(hostname) || !HOST_NAME.test(hostname)))
    throw new ConfigError('MARKET_WS_URL', `${JSON.stringify(hostname.slice(0, 80))} is not a host name or address`);
  if (url.username || url.password || url.search || url.hash)
    throw new ConfigError(
      'MARKET_WS_URL',
      `"${url.origin}${url.pathname}" must not carry a user, password, query or fragment`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * The feed a deployment's pages and CLI subscribe to: none without a market (MARKET_PRODUCT=off) or
 * with MARKET_WS_URL=off.
 */
export function liveFeedUrl(config: Pick<Config, 'marketProduct' | 'marketWsUrl'>): string | null {
  return config.marketProduct === null ? null : config.marketWsUrl;
}

/** The weekdays in the order the streak's `restDays` lists them: Monday first (ISO 8601). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/**
 * STREAK_REST_DAYS: comma-separated English weekday names or their three-letter forms, any case
 * (`Sat,Sun`, `saturday, SUNDAY`); empty or unset is none. Returned as full names, Monday first, each once.
 */
function restDays(value: string): string[] {
  const named = new Set<string>();
  for (const entry of value.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const day = WEEKDAYS.find(
      (d) => d.toLowerCase() === entry.toLowerCase() || d.slice(0, 3).toLowerCase() === entry.toLowerCase(),
    );
    if (day === undefined)
      throw new ConfigError(
        'STREAK_REST_DAYS',
        `${JSON.stringify(entry.slice(0, 40))} is not an English weekday (Monday to Sunday, or Mon to Sun), comma-separated`,
      );
    named.add(day);
  }
  return WEEKDAYS.filter((d) => named.has(d));
}

/**
 * A Coinbase Exchange product id is `<BASE>-<QUOTE>` in capitals (`BTC-USD`, `1INCH-USD`). Only USD
 * quotes are taken: every value, label and schema of the market preview says USD. The base becomes a
 * path segment and an operationId, so it is letters and digits only.
 */
const USD_PRODUCT = /^([A-Z0-9]{1,20})-USD$/;

function marketProduct(value: string): string | null {
  if (value.toLowerCase() === 'off') return null;
  const product = value.toUpperCase();
  if (!USD_PRODUCT.test(product))
    throw new ConfigError(
      'MARKET_PRODUCT',
      `${JSON.stringify(value.slice(0, 40))} is not a Coinbase Exchange product quoted in USD (<BASE>-USD, e.g. BTC-USD) or off`,
    );
  return product;
}

/**
 * An IANA zone name as luxon (and so Intl) knows it. Offsets (`+05:00`) are refused: a fixed offset
 * has no midnight rule of a place. A name in other capitals (`europe/berlin`) is published as the
 * database spells it.
 */
function timeZone(value: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value) || !IANAZone.isValidZone(value))
    throw new ConfigError(
      'CALENDAR_TIME_ZONE',
      `${JSON.stringify(value.slice(0, 64))} is not an IANA time zone (e.g. Europe/Berlin)`,
    );
  const spelled = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  return spelled.toLowerCase() === value.toLowerCase() ? spelled : value;
}

/** The site URL site/site.json ships with: it stands for "wherever `npm start` listens", not for a chosen address. */
export const STOCK_SITE_URL = 'http://localhost:8080';

/**
 * SITE_URL when the variable is unset: the site file's, unless that is still the stock value, which then
 * names the address the gateway actually listens on (`PORT=9000 npm start` links to port 9000, not 8080).
 * A loopback or wildcard address reads as `localhost`; PORT=0 (any free port) is not known until the
 * gateway listens, after the build has written the links, so it keeps the stock value, as does an IPv6
 * address with a zone (fe80::1%eth0), which has no URL form.
 */
export function defaultSiteUrl(siteFileUrl: string, listenHost: string, port: number): string {
  if (siteFileUrl !== STOCK_SITE_URL || port === 0 || listenHost.includes('%')) return siteFileUrl;
  const name = LOCAL_ADDRESSES.has(listenHost)
    ? 'localhost'
    : listenHost.includes(':')
      ? `[${listenHost}]`
      : listenHost;
  return `http://${name}:${port}`;
}

/** Listen addresses a browser on this machine reaches as `localhost`. */
const LOCAL_ADDRESSES = new Set(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost']);

/** GitHub's login rule: 1 to 39 characters, letters, digits and hyphens, no hyphen first, last or doubled. */
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/**
 * An operator's string (a variable or a site-file field): it ends up in pages, cards, documents and
 * URLs, where a control character makes XML malformed and a bidi or zero-width one makes text read
 * otherwise than it is. Refused at start, naming the character's code point but not the value, which
 * may be a secret (a token, a password in a URL).
 */
function operatorText(variable: string, value: string): string {
  const bad = firstUnseen(value);
  if (bad !== null) throw new ConfigError(variable, `contains ${bad.kind} (${bad.code}); remove it`);
  return value;
}

/** An origin as a browser sends it in `Origin` (scheme://host[:port], no path). */
function browserOrigin(variable: string, value: string): string {
  const url = parseUrl(variable, value, ['http:', 'https:']);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    throw new ConfigError(variable, `${JSON.stringify(url.origin)} must be an origin only (scheme, host and port)`);
  return url.origin;
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
