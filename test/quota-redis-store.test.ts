// The Redis store's own reports (docs/gateway.md): it names what went wrong by class, never in the
// store's words (an error reply may quote the password it was sent); a store that refuses the quota
// script is asked again after the backoff and the outage is said again periodically while it lasts; a
// store that alternates good and bad answers does not reset the backoff or fill the log.
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeRedis, withPong, type FakeRedis } from '../fakes/redis.ts';
import { startFakeUpstreams } from '../fakes/upstreams.ts';
import { redisQuotaStore, type RedisQuotaStore } from '../gateway/quota/redis-store.ts';
import { get, makeDist, spawnGateway } from './helpers/gateway.ts';
import { inline, privateRedis, SKIP_REDIS } from './helpers/gateway-redis.ts';
import { upstreamEnv } from './helpers/run.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function fakeRedis(answer: Parameters<typeof startFakeRedis>[0]): Promise<FakeRedis> {
  const f = await startFakeRedis(answer);
  open.push(f);
  return f;
}

function store(url: string, lines: string[], reportEveryMs = 60_000): RedisQuotaStore {
  const s = redisQuotaStore(url, { onStateChange: (l) => lines.push(l), reportEveryMs });
  open.push(s);
  return s;
}

/** Asks the store once, after waiting for its connection: resolves with the count or the refusal. */
async function ask(s: RedisQuotaStore, key = 'k'): Promise<number | Error> {
  await s.ready(2000);
  try {
    return await s.increment(key, 60);
  } catch (error) {
    return error as Error;
  }
}

/** Asks until `done()` holds (at most `max` times, 50 ms apart): a store that is away refuses at once. */
async function askUntil(s: RedisQuotaStore, done: () => boolean, max = 200): Promise<void> {
  for (let i = 0; i < max && !done(); i++) {
    await ask(s);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const evals = (f: FakeRedis) => f.commands.filter((c) => c[0] === 'EVAL').length;

describe('a store that quotes the password in its AUTH error', () => {
  it('the password appears nowhere in the gateway’s stdout or stderr; the error is named by its code', async () => {
    const password = 'Quoted-Secret-4c1d';
    const f = await fakeRedis((c) =>
      c[0] === 'AUTH' ? `-WRONGPASS invalid password '${c.at(-1)}' for this user\r\n` : '+PONG\r\n',
    );
    const [fake, fixture] = await Promise.all([startFakeUpstreams(), makeDist()]);
    open.push(fake, { close: () => rm(fixture.base, { recursive: true, force: true }) });
    const gw = await spawnGateway({
      ...upstreamEnv(fake.url),
      DIST_DIR: fixture.dist,
      RATE_LIMIT_QUOTA: '10',
      RATE_LIMIT_REDIS_URL: `redis://quota:${password}@127.0.0.1:${f.port}`,
    });
    for (let i = 0; i < 3; i++) expect((await get(gw.url, '/api/v1/mon-price')).status).toBe(200);
    await gw.stop();
    // The fake did receive it: the test would prove nothing if the gateway never sent AUTH.
    expect(f.commands.some((c) => c[0] === 'AUTH' && c.includes(password))).toBe(true);
    expect(gw.stdout() + gw.stderr()).not.toContain(password);
    expect(gw.stderr()).toMatch(/quota store 127\.0\.0\.1:\d+ unavailable: .*WRONGPASS/);
  });
});

describe('a store that refuses the quota script', () => {
  it('OOM: asked again after the backoff, reported by code, and again while the outage lasts', async () => {
    const f = await fakeRedis(
      withPong(() => "-OOM command not allowed when used memory > 'maxmemory' (secret-detail)\r\n"),
    );
    const lines: string[] = [];
    const s = store(f.url, lines, 100);
    await askUntil(s, () => evals(f) >= 3 && lines.some((l) => /still unavailable/.test(l)));
    expect(evals(f)).toBeGreaterThanOrEqual(3); // retried, each time on a new connection after the backoff
    expect(f.connections).toBeGreaterThanOrEqual(evals(f));
    expect(lines[0]).toMatch(/connected$/);
    expect(lines[1]).toMatch(/unavailable: the quota script was refused \(OOM\)$/);
    expect(lines.slice(2).every((l) => /still unavailable after \d+ s: .*\(OOM\)$/.test(l))).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('\n')).not.toMatch(/maxmemory|secret-detail/);
  });

  it.skipIf(SKIP_REDIS)('a real Redis user without scripting (ACL): NOPERM, then counts once allowed', async () => {
    const redis = await privateRedis();
    open.push({ close: () => redis.stop() });
    expect(await inline(redis.port, 'ACL SETUSER quota on >quota-pass ~* +@all -@scripting')).toBe('+OK\r\n');
    const lines: string[] = [];
    const s = store(`redis://quota:quota-pass@127.0.0.1:${redis.port}`, lines);
    expect(await ask(s)).toBeInstanceOf(Error);
    expect(lines).toEqual([expect.stringMatching(/connected$/), expect.stringMatching(/refused \(NOPERM\)$/)]);
    expect(await inline(redis.port, 'ACL SETUSER quota +@scripting')).toBe('+OK\r\n');
    let count: number | Error = new Error('not asked');
    for (let i = 0; i < 100 && typeof count !== 'number'; i++) {
      count = await ask(s);
      if (typeof count !== 'number') await new Promise((r) => setTimeout(r, 50));
    }
    expect(count).toBe(1);
  });
});

describe('a store that alternates good and bad answers', () => {
  it('is reported once, not at every reconnection', async () => {
    let n = 0;
    const f = await fakeRedis(withPong(() => (n++ % 2 === 0 ? '*1\r\n:1\r\n' : '+OK\r\n')));
    const lines: string[] = [];
    const s = store(f.url, lines);
    await askUntil(s, () => f.connections >= 5);
    expect(f.connections).toBeGreaterThanOrEqual(5);
    // every connection answered one count and one +OK; a good answer right after a reconnection is no
    // recovery (that takes a run of them), so the whole episode is two lines
    expect(lines).toEqual([expect.stringMatching(/connected$/), expect.stringMatching(/unavailable: /)]);
  });
});
