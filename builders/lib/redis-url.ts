// RATE_LIMIT_REDIS_URL read once, into what a connection needs (docs/configuration.md#variables). The form is the provisional
// IANA scheme, redis[s]://[[user]:password@]host[:port][/db]: a TCP address (a Unix socket has no
// place in it), a numbered database, credentials percent-encoded. Whatever else a URL may carry
// (a query, a fragment, a path that is no number) would be silently ignored, so it is refused here.
import { ConfigError } from './errors.ts';

const VARIABLE = 'RATE_LIMIT_REDIS_URL';

export interface RedisTarget {
  tls: boolean;
  /** A host name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
  db: number;
  username: string | undefined;
  password: string | undefined;
  /** host:port/db for error lines: never the credentials. */
  label: string;
}

/** Redis numbers its databases from 0; the server decides how many there are (`databases`, 16 by default). */
const DB_PATH = /^\/(\d{1,9})?$/;

export function redisTarget(value: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not echoed: an unparsable value may carry a password anywhere (base64 passwords hold '/' and '+').
    throw new ConfigError(VARIABLE, 'is not a valid URL (expected redis://[username:password@]host[:port][/db])');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(VARIABLE, `must use redis: or rediss:, not ${url.protocol}`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new ConfigError(VARIABLE, 'names no host (a Unix socket path cannot be used)');
  const port = url.port === '' ? 6379 : Number(url.port);
  if (port === 0) throw new ConfigError(VARIABLE, `port 0 cannot be connected to`);
  const where = `${url.hostname}:${port}`;
  const path = DB_PATH.exec(url.pathname);
  if (url.pathname !== '' && path === null) {
    throw new ConfigError(VARIABLE, `the path of ${where} must be a database number such as /0`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(VARIABLE, `${where} must not carry a query or fragment`);
  }
  const db = path?.[1] === undefined ? 0 : Number(path[1]);
  let username: string | undefined;
  let password: string | undefined;
  try {
    username = url.username === '' ? undefined : decodeURIComponent(url.username);
    password = url.password === '' ? undefined : decodeURIComponent(url.password);
  } catch {
    throw new ConfigError(VARIABLE, `the credentials of ${where} are not valid percent-encoding`);
  }
  // AUTH takes a password, optionally preceded by a user name (Redis 6 ACL); a lone user name would be
  // dropped without a word.
  if (username !== undefined && password === undefined) {
    throw new ConfigError(
      VARIABLE,
      `the credentials of ${where} name a user but no password (redis://user:password@…)`,
    );
  }
  return {
    tls: url.protocol === 'rediss:',
    host,
    port,
    db,
    username,
    password,
    label: `${where}${db === 0 ? '' : `/${db}`}`,
  };
}
