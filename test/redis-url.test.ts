// RATE_LIMIT_REDIS_URL (docs/configuration.md#variables): what a connection needs, read once; every form the store could
// not use, or would silently misread, is a ConfigError naming the variable and never the password.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../builders/lib/config.ts';
import { ConfigError } from '../builders/lib/errors.ts';
import { redisTarget } from '../builders/lib/redis-url.ts';

describe('RATE_LIMIT_REDIS_URL', () => {
  it.each([
    ['redis://127.0.0.1', { tls: false, host: '127.0.0.1', port: 6379, db: 0, label: '127.0.0.1:6379' }],
    ['redis://redis.internal:6380/', { host: 'redis.internal', port: 6380, db: 0 }],
    ['redis://redis.internal:6379/3', { db: 3, label: 'redis.internal:6379/3' }],
    ['rediss://[::1]:6379/0', { tls: true, host: '::1', label: '[::1]:6379' }],
    ['redis://:p%40ss@h', { username: undefined, password: 'p@ss', label: 'h:6379' }],
    ['redis://app:s%3Acret@h/1', { username: 'app', password: 's:cret' }],
  ])('%s is read as %o', (url, expected) => {
    expect(redisTarget(url)).toMatchObject(expected);
    expect(loadConfig({ RATE_LIMIT_REDIS_URL: url }).rateLimitRedisUrl).toBe(url);
  });

  it.each([
    ['redis://127.0.0.1:6379/abc', /database number/],
    ['redis://127.0.0.1:6379/0/1', /database number/],
    ['redis:///var/run/redis.sock', /no host/],
    ['redis://%ZZ@127.0.0.1', /percent-encoding/],
    ['redis://:%E0%A4%A@127.0.0.1', /percent-encoding/],
    ['redis://s3cr3t@127.0.0.1', /no password/],
    ['redis://127.0.0.1:0', /port 0/],
    ['redis://127.0.0.1?db=2', /query/],
    ['redis://127.0.0.1#x', /query/],
    ['http://127.0.0.1:6379', /redis: or rediss:/],
    ['redis://user:s3cr3t@redis internal:6379', /not a valid URL/],
    // A base64 password with '/' ends the authority early: the value is not echoed at all.
    ['redis://user:s3/cr3t@redis:6379', /not a valid URL/],
  ])('%s is refused: %s', (url, reason) => {
    let error: unknown;
    try {
      loadConfig({ RATE_LIMIT_REDIS_URL: url });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe('RATE_LIMIT_REDIS_URL');
    expect((error as ConfigError).message).toMatch(reason);
    expect((error as ConfigError).message).not.toContain('s3cr3t');
    expect((error as ConfigError).message).not.toMatch(/s3\/|user:s3/);
    expect((error as ConfigError).message).not.toContain('%ZZ');
  });
});
