// docs/configuration.md#variables: defaults from site/site.json, overrides from the environment, one clear error per bad value.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveFeedUrl, loadConfig, readSiteFile, STOCK_SITE_URL } from '../builders/lib/config.ts';
import { parseTrustProxy } from '../gateway/quota/ip-ranges.ts';
import { ConfigError } from '../builders/lib/errors.ts';
import { SIMULATED_MARKET_SOURCE } from '../builders/lib/simulated.ts';
import { DEFAULT_API_URL as MARKET_DEFAULT_API_URL } from '../builders/datasets/market/source.ts';
import { connectSources, datasets } from '../builders/datasets/registry.ts';
import { httpOptions } from '../builders/upstreams/http.ts';

/**
 * What every program checks of its environment at its start: the service's variables (loadConfig), then
 * the datasets' own, which their folders read as their upstreams connect (no request is made).
 */
function startCheck(env: Record<string, string>): void {
  const config = loadConfig(env);
  connectSources(datasets(config), config, httpOptions(config));
}

describe('loadConfig', () => {
  it('takes its defaults from the site file and docs/configuration.md#variables', () => {
    const site = readSiteFile();
    const config = loadConfig({});
    expect(config.siteUrl).toBe('http://localhost:8080');
    expect(config.githubAccount).toBe(site.githubAccount);
    expect(config.githubToken).toBeUndefined();
    expect(config.githubApiUrl).toBe('https://api.github.com');
    expect(config.githubWebUrl).toBe('https://github.com');
    // The market's own variable, read by its folder (builders/datasets/market/source.ts).
    expect(MARKET_DEFAULT_API_URL).toBe('https://api.exchange.coinbase.com');
    expect(config.marketSourceName).toBe('Coinbase Exchange');
    expect(config.upstreamTimeoutMs).toBe(5000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8080);
    expect(config.rateLimitQuota).toBeUndefined();
    expect(config.rateLimitWindow).toBe(60);
    expect(config.trustProxy).toBeUndefined();
    expect(config.distDir).toBe(resolve('dist'));
    expect(config.demoSimulated).toBe(false);
    expect(config.marketWsUrl).toBe('wss://ws-feed.exchange.coinbase.com');
  });

  it('reads MARKET_WS_URL as a ws: or wss: URL, or off; no feed without a market', () => {
    expect(loadConfig({ MARKET_WS_URL: 'ws://127.0.0.1:9000/' }).marketWsUrl).toBe('ws://127.0.0.1:9000');
    expect(loadConfig({ MARKET_WS_URL: 'wss://feed.example/v1' }).marketWsUrl).toBe('wss://feed.example/v1');
    expect(loadConfig({ MARKET_WS_URL: 'OFF' }).marketWsUrl).toBeNull();
    expect(loadConfig({ MARKET_WS_URL: 'ws://[::1]:9000' }).marketWsUrl).toBe('ws://[::1]:9000');
    expect(() => loadConfig({ MARKET_WS_URL: 'wss://*.example' })).toThrow(
      'MARKET_WS_URL: "*.example" is not a host name or address',
    );
    expect(liveFeedUrl(loadConfig({}))).toBe('wss://ws-feed.exchange.coinbase.com');
    expect(liveFeedUrl(loadConfig({ MARKET_WS_URL: 'off' }))).toBeNull();
    expect(liveFeedUrl(loadConfig({ MARKET_PRODUCT: 'off' }))).toBeNull();
  });

  it('reads BUILD_CACHE_DIR as an absolute path, .cache/pictures by default; off is none', () => {
    expect(loadConfig({}).buildCacheDir).toBe(resolve('.cache/build'));
    expect(loadConfig({ BUILD_CACHE_DIR: ' ' }).buildCacheDir).toBe(resolve('.cache/build'));
    expect(loadConfig({ BUILD_CACHE_DIR: 'kept' }).buildCacheDir).toBe(resolve('kept'));
    expect(loadConfig({ BUILD_CACHE_DIR: '/var/cache/build' }).buildCacheDir).toBe('/var/cache/build');
    expect(loadConfig({ BUILD_CACHE_DIR: 'off' }).buildCacheDir).toBeUndefined();
  });

  it('reads DIST_DIR as an absolute path; an empty one is unset like every variable', () => {
    expect(loadConfig({ DIST_DIR: '' }).distDir).toBe(resolve('dist'));
    expect(loadConfig({ DIST_DIR: '   ' }).distDir).toBe(resolve('dist'));
    expect(loadConfig({ DIST_DIR: ' public ' }).distDir).toBe(resolve('public'));
    expect(loadConfig({ DIST_DIR: '/srv/site' }).distDir).toBe('/srv/site');
    expect(loadConfig({ DEMO_SIMULATED: '1' }).demoSimulated).toBe(true);
  });

  it('names the simulated provider as the market source of a demo, whatever MARKET_SOURCE_NAME says', () => {
    expect(loadConfig({ MARKET_SOURCE_NAME: 'Kraken' }).marketSourceName).toBe('Kraken');
    expect(loadConfig({ DEMO_SIMULATED: '1' }).marketSourceName).toBe(SIMULATED_MARKET_SOURCE);
    expect(loadConfig({ DEMO_SIMULATED: '1', MARKET_SOURCE_NAME: 'Kraken' }).marketSourceName).toBe(
      SIMULATED_MARKET_SOURCE,
    );
  });

  const messageOf = (env: Record<string, string>): string => {
    try {
      startCheck(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
    throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
  };

  it.each([
    ['RATE_LIMIT_REDIS_URL', 'http://user:s3cr3t@redis.internal:6379'],
    ['RATE_LIMIT_REDIS_URL', 'redis://user:s3cr3t@redis internal:6379'],
    ['RATE_LIMIT_REDIS_URL', 'redis//user:s3cr3t@redis.internal:6379'],
    ['SITE_URL', 'https://user:s3cr3t@example.org/?key=s3cr3t'],
    ['MARKET_API_URL', 'ftp://user:s3cr3t@example.org'],
  ])('%s=%s: the error names the variable but never echoes the password or query', (variable, value) => {
    const message = messageOf({ [variable]: value });
    expect(message).toContain(variable);
    expect(message).not.toContain('s3cr3t');
    expect(message).not.toContain('user:');
  });

  it('lets the environment override, dropping a trailing slash from URLs', () => {
    const config = loadConfig({
      SITE_URL: 'https://example.org/',
      MARKET_SOURCE_NAME: 'Fake Exchange',
      RATE_LIMIT_QUOTA: '60',
      SOURCE_DATE_EPOCH: '1795356187',
      GITHUB_ACCOUNT: 'fake-user',
    });
    expect(config.siteUrl).toBe('https://example.org');
    expect(config.marketSourceName).toBe('Fake Exchange');
    expect(config.rateLimitQuota).toBe(60);
    expect(config.sourceDateEpochMs).toBe(1795356187000);
    expect(config.githubAccount).toBe('fake-user');
  });

  it.each([
    ['RATE_LIMIT_QUOTA', '0'],
    ['RATE_LIMIT_QUOTA', 'abc'],
    ['RATE_LIMIT_QUOTA', '1.5'],
    ['RATE_LIMIT_WINDOW', '0'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['SITE_URL', 'example.org'],
    ['GITHUB_API_URL', 'http://'],
    ['MARKET_API_URL', 'mailto:x@example.org'],
    ['RATE_LIMIT_REDIS_URL', 'http://127.0.0.1:6379'],
    ['HOST', '256.1.1.1'],
    ['HOST', '10.0.0'],
    ['HOST', 'bad_host'],
    ['HOST', '-leading.example'],
    ['UPSTREAM_TIMEOUT_MS', 'fast'],
    ['SOURCE_DATE_EPOCH', 'yesterday'],
    ['GITHUB_ACCOUNT', 'two words'],
    ['GITHUB_ACCOUNT', '../etc'],
    // GitHub's login rule (issue #21).
    ['GITHUB_ACCOUNT', 'fake_user'],
    ['GITHUB_ACCOUNT', '-octocat'],
    ['GITHUB_ACCOUNT', 'octocat-'],
    ['GITHUB_ACCOUNT', 'octo--cat'],
    ['GITHUB_ACCOUNT', 'a'.repeat(40)],
    // Control, bidi and zero-width characters in any operator string (issue #21).
    ['GITHUB_ACCOUNT', 'octo\u202Ecat'],
    ['GITHUB_ACCOUNT', 'octo\u200Bcat'],
    ['MARKET_SOURCE_NAME', 'Coinbase\u0007Exchange'],
    ['MARKET_SOURCE_NAME', 'Coinbase \u2066Exchange'],
    ['MARKET_SOURCE_NAME', 'Coinbase\u0085Exchange'],
    ['SITE_URL', 'https://exa\u200Bmple.org'],
    ['SITE_URL', 'https://example.org/\u0000'],
    ['MCP_ALLOWED_ORIGINS', 'https://agent.example,https://ev\u202Eil.example'],
    ['MCP_ALLOWED_ORIGINS', 'https://agent.example/path'],
    ['MCP_ALLOWED_ORIGINS', 'null'],
    ['TRUST_PROXY', '10.0.0.1\u0000'],
    // The values test/build.test.ts once spawned a build for, each to see exit 2 (the program's line for
    // any ConfigError is spawned there once).
    ['PORT', '70000'],
    ['MARKET_API_URL', 'not a url'],
    ['SITE_URL', 'ftp://example.org'],
    ['UPSTREAM_TIMEOUT_MS', '-5'],
    ['GITHUB_ACCOUNT', 'bad/name'],
    ['MARKET_WS_URL', 'https://ws-feed.exchange.coinbase.com'],
    ['MARKET_WS_URL', 'not a url'],
    ['MARKET_WS_URL', 'wss://feed.example/?key=1'],
    ['MARKET_WS_URL', 'wss://user:pw@feed.example'],
    ['MARKET_WS_URL', 'wss://*.example'],
    ['MARKET_WS_URL', 'wss://*'],
    ['MARKET_WS_URL', 'ws://feed_x.example'],
    ['MARKET_WS_URL', 'http://feed.example'],
  ])('%s=%j is a ConfigError naming the variable', (variable, value) => {
    let error: unknown;
    try {
      startCheck({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(variable);
  });
});

describe('operator strings (issue #21)', () => {
  it('names the character, never the value: a token with a control character is not echoed', () => {
    let message = '';
    try {
      loadConfig({ GITHUB_TOKEN: 'ghp_s3cr3t\u0001' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('GITHUB_TOKEN');
    expect(message).toContain('U+0001');
    expect(message).not.toContain('s3cr3t');
  });

  it('checks the site file too, naming its field', () => {
    const site = { ...readSiteFile(), title: 'Portfolio\u202E' };
    expect(() => loadConfig({}, site)).toThrow(/site\/site\.json title: .*U\+202E/);
  });

  it('keeps what scripts and emoji need (the zero-width joiner) and real logins', () => {
    const config = loadConfig({ MARKET_SOURCE_NAME: 'Börse 👩\u200D💻', GITHUB_ACCOUNT: 'a-b-c9' });
    expect(config.marketSourceName).toBe('Börse 👩\u200D💻');
    expect(loadConfig({ GITHUB_ACCOUNT: 'a'.repeat(39) }).githubAccount).toHaveLength(39);
  });

  it('reads MCP_ALLOWED_ORIGINS as origins, as browsers send them', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
    expect(
      loadConfig({ MCP_ALLOWED_ORIGINS: ' https://Agent.Example , http://localhost:6274/ ' }).mcpAllowedOrigins,
    ).toEqual(['https://agent.example', 'http://localhost:6274']);
  });
});

describe('TRUST_PROXY ranges', () => {
  it.each([
    '10.0.0.0/33',
    'proxy.local',
    '10.0.0.0/8/9',
    '10.0.0.0/',
    '::ffff:10.0.0.0/8', // would be every IPv4 address
    '0.0.0.0/0', // every client would choose its own bucket
    '::/0',
    '10.0.0.1, 0.0.0.0/0',
    '::ffff:0.0.0.0/96', // 0.0.0.0/0 in IPv4-mapped form
  ])('TRUST_PROXY=%j is a ConfigError naming the variable (the gateway parses it at start)', (value) => {
    let error: unknown;
    try {
      parseTrustProxy(value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('TRUST_PROXY');
    expect((error as ConfigError).message).toContain('TRUST_PROXY');
  });

  it('unset or empty trusts no proxy', () => {
    expect(parseTrustProxy(undefined).ranges).toEqual([]);
    expect(parseTrustProxy(loadConfig({ TRUST_PROXY: ' ' }).trustProxy).ranges).toEqual([]);
  });

  const ranges = parseTrustProxy('127.0.0.1, 10.0.0.0/8, ::1, fd00::/8');
  it.each([
    ['127.0.0.1', true],
    ['::ffff:127.0.0.1', true],
    ['127.0.0.2', false],
    ['10.200.3.4', true],
    ['11.0.0.1', false],
    ['::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', false],
    ['not-an-ip', false],
    // IPv4-mapped IPv6 in any spelling is the IPv4 address
    ['::ffff:a00:1', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['::ffff:b00:1', false],
  ])('%s trusted: %s', (address, trusted) => {
    expect(ranges.has(address)).toBe(trusted);
  });

  it('reads an IPv4-mapped entry as the IPv4 address or network it maps', () => {
    const mapped = parseTrustProxy('::ffff:10.0.0.1, ::ffff:192.168.0.0/112');
    expect(mapped.ranges).toEqual(['10.0.0.1/32', '192.168.0.0/16']);
    expect(mapped.ranges).toEqual(parseTrustProxy('10.0.0.1, 192.168.0.0/16').ranges);
    expect(mapped.has('10.0.0.1')).toBe(true);
    expect(mapped.has('192.168.77.1')).toBe(true);
    expect(mapped.has('::ffff:192.168.77.1')).toBe(true);
    expect(mapped.has('192.169.0.1')).toBe(false);
  });

  it('without SITE_URL, names the HOST and PORT the gateway listens on while the site file holds the stock value', () => {
    const site = readSiteFile();
    expect(site.siteUrl).toBe(STOCK_SITE_URL);
    expect(loadConfig({ PORT: '9000' }).siteUrl).toBe('http://localhost:9000');
    for (const HOST of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'])
      expect(loadConfig({ HOST, PORT: '9001' }).siteUrl).toBe('http://localhost:9001');
    expect(loadConfig({ HOST: '192.0.2.7', PORT: '9002' }).siteUrl).toBe('http://192.0.2.7:9002');
    expect(loadConfig({ HOST: '2001:db8::7', PORT: '9003' }).siteUrl).toBe('http://[2001:db8::7]:9003');
    expect(loadConfig({ HOST: 'preview.internal', PORT: '80' }).siteUrl).toBe('http://preview.internal');
    // Any free port: unknown when the build writes the links.
    expect(loadConfig({ PORT: '0' }).siteUrl).toBe(STOCK_SITE_URL);
    // SITE_URL, or a site file naming its own address, wins over the listen address.
    expect(loadConfig({ PORT: '9000', SITE_URL: 'https://ada.example.org' }).siteUrl).toBe('https://ada.example.org');
    expect(loadConfig({ PORT: '9000' }, { ...site, siteUrl: 'https://ada.example.org/' }).siteUrl).toBe(
      'https://ada.example.org',
    );
  });

  it('accepts host names and addresses for HOST', () => {
    for (const host of ['0.0.0.0', '::', 'localhost', 'gateway.internal', 'xn--bcher-kva.example'])
      expect(loadConfig({ HOST: host }).host).toBe(host);
  });
});
