// The gateway as a program (.build/gateway.mjs, PORT=0), beyond the fast suite's smoke tests
// (test/gateway-program.test.ts: the `listening on` line, SIGTERM, a fresh clone's `npm start`): SIGINT, a
// stdout nobody reads, errors on stderr, configuration errors (exit 2), and `npm start` on a dist/ that
// lacks a snapshot, was built for another port or another SITE_URL.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../fakes/ports.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { GATEWAY_NODE_FLAGS } from '../../gateway/node-flags.ts';
import { BUILD_NODE_FLAGS } from '../../builders/build/build.ts';
import { listFiles } from '../helpers/files.ts';
import { get, makeDist, runGatewayToExit, spawnGateway, spawnStart, type DistFixture } from '../helpers/gateway.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, ROOT, runProgram, upstreamEnv } from '../helpers/run.ts';

let fake: FakeUpstreams;
let fixture: DistFixture;

beforeAll(async () => {
  fake = await startFakeUpstreams({ slowMs: 1000 });
  fixture = await makeDist();
});
afterAll(async () => {
  await fake.close();
  await rm(fixture.base, { recursive: true, force: true });
});
beforeEach(() => {
  // A spawned gateway always runs on the real clock (docs/configuration.md), so the fake answers on it too,
  // unless a test dates its builds (datedBuilds).
  fake.now = Date.now;
  fake.market = { mode: 'ok', tradeIdAsString: false };
  fake.github = { mode: 'ok' };
  fake.resetCalls();
});

/**
 * For a test that reads only what `build --if-stale` wrote (files, static answers), never a live route:
 * its builds and the fake share one fixed instant, so no date of the real calendar can change them.
 */
const BUILD_CLOCK = Date.parse('2026-11-23T15:00:00Z');
function datedBuilds(): Record<string, string> {
  fake.now = () => BUILD_CLOCK;
  return { SOURCE_DATE_EPOCH: String(BUILD_CLOCK / 1000) };
}

const env = (extra: Record<string, string> = {}) => ({
  ...upstreamEnv(fake.url),
  DIST_DIR: fixture.dist,
  // Ample: on two busy cores a build of five datasets at 3 s could time out (exit 1) where none is meant.
  UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
  ...extra,
});

describe('the gateway program', () => {
  it('exits 0 on SIGINT', async () => {
    const gw = await spawnGateway(env());
    expect((await get(gw.url, '/')).status).toBe(200);
    expect(await gw.stop('SIGINT')).toBe(0);
  });

  it('keeps serving when whoever reads its stdout stops reading (the access log never blocks requests)', async () => {
    const gw = await spawnGateway(env());
    gw.child.stdout.pause(); // the pipe buffer (64 KiB) fills after a few hundred log lines
    const statuses: number[] = [];
    for (let round = 0; round < 60; round++) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${gw.url}/developers?padding=${'x'.repeat(200)}`).then((r) => r.status),
        ),
      );
      statuses.push(...batch);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(3000);
    gw.child.stdout.resume();
    expect(await gw.stop()).toBe(0);
    expect(
      gw
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{"time"')).length,
    ).toBeGreaterThan(0);
  });

  it('writes upstream failures to stderr as one line each, without a stack', async () => {
    const gw = await spawnGateway(env());
    fake.market.mode = 'not-found';
    expect((await get(gw.url, '/api/mon-price')).status).toBe(502);
    expect(await gw.stop()).toBe(0);
    const lines = gw.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gateway: market: coinbase: .*404/);
    expect(gw.stderr()).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['RATE_LIMIT_QUOTA', '0'],
    ['RATE_LIMIT_QUOTA', 'abc'],
    ['RATE_LIMIT_WINDOW', '-5'],
    ['PORT', '70000'],
    ['SITE_URL', 'not a url'],
    ['RATE_LIMIT_REDIS_URL', 'http://127.0.0.1:6379'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '0.0.0.0/0'],
    ['TRUST_PROXY', '::/0'],
    ['MARKET_API_URL', 'ftp://example.org'],
    ['HOST', '256.1.1.1'],
    ['HOST', 'not a host'],
    ['HOST', '192.0.2.1'], // well-formed, but TEST-NET-1 is never an address of this machine
  ])('refuses to start with %s=%s: one line naming it, exit 2', async (name, value) => {
    const result = await runGatewayToExit(env({ [name]: value }));
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(result.stdout).toBe('');
  });

  it.each(['redis://127.0.0.1:1/abc', 'redis:///var/run/redis.sock', 'redis://%ZZ@127.0.0.1:1'])(
    'refuses RATE_LIMIT_REDIS_URL=%s with a quota, before listening: one line naming it, exit 2',
    async (value) => {
      const result = await runGatewayToExit(env({ RATE_LIMIT_QUOTA: '5', RATE_LIMIT_REDIS_URL: value }), 10_000);
      expect(result.code).toBe(2);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^gateway: invalid configuration: RATE_LIMIT_REDIS_URL: /);
      expect(result.stdout).toBe('');
    },
  );

  it('refuses to start when DIST_DIR is not a folder: one line, exit 1', async () => {
    const file = join(fixture.base, 'not-a-folder');
    await writeFile(file, 'x');
    const result = await runGatewayToExit(env({ DIST_DIR: file }));
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot start: .*not-a-folder/);
  });

  it('refuses to start when the port is taken: one line naming the port and the way out, exit 1', async () => {
    const first = await spawnGateway(env());
    const port = Number(new URL(first.url).port);
    const result = await runGatewayToExit(env({ PORT: String(port) }));
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `gateway: cannot start: port ${port} on 127.0.0.1 is taken (EADDRINUSE); stop what listens there or set PORT to another port (PORT=${port + 1} npm start)`,
    ]);
    expect(result.stdout).toBe('');
    expect(await first.stop()).toBe(0);
  });
});

describe('npm start', () => {
  it('compiles, builds dist/ when it is missing or stale, then runs the gateway, which builds nothing itself', async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toBe(
      `node builders/tools/node-floor.cjs && node builders/tools/bundle.mjs && node ${BUILD_NODE_FLAGS.join(' ')} .build/build.mjs --if-stale && exec node ${GATEWAY_NODE_FLAGS.join(' ')} .build/gateway.mjs`,
    );
    const dist = join(fixture.base, 'never-built');
    const result = await runGatewayToExit(env({ DIST_DIR: dist }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/never-built does not exist or is not a folder; run npm run build first/);
    expect(result.stderr).not.toContain('building');
    expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
  });
});

describe('a fresh clone: dist/ missing', () => {
  it('still serves when an upstream is down during that build, and says which one', async () => {
    const dist = join(fixture.base, 'fresh-dist-down');
    fake.market.mode = 'server-error';
    try {
      const gw = await spawnStart(env({ DIST_DIR: dist, UPSTREAM_TIMEOUT_MS: '1500' }));
      // The reason is the 500 or, on a loaded machine, the deadline its retries ran into.
      expect(gw.stderr()).toMatch(/build: market preview not written: coinbase: .*(answered 500|timed out)/);
      expect((await get(gw.url, '/api/mon-price')).status).toBe(502);
      fake.market.mode = 'ok';
      expect((await get(gw.url, '/api/mon-price')).status).toBe(200);
      expect(await gw.stop()).toBe(0);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('a dist/ whose last build lacked a snapshot (an offline first start)', () => {
  it('is built again at the next start: the snapshot appears, and its cards draw it, once the upstream answers', async () => {
    const dist = join(fixture.base, 'offline-first-dist');
    const market = ['api/v1/mon-price', 'api/mon-price'];
    const present = async () => {
      const files = new Set(await listFiles(dist));
      return market.filter((file) => files.has(file));
    };
    // A missing dataset's card says "unavailable" with no number (builders/build/cards.ts); a fresh one draws its price.
    const cardSays = async () =>
      /unavailable/i.test(await readFile(join(dist, 'cards/mon-price.svg'), 'utf8')) ? 'unavailable' : 'data';
    const dated = datedBuilds();
    try {
      fake.market.mode = 'server-error';
      const offline = await spawnStart(env({ ...dated, DIST_DIR: dist, UPSTREAM_TIMEOUT_MS: '1500' }));
      expect(offline.stderr()).toMatch(/is missing; building it first/);
      expect(offline.stderr()).toMatch(/build: market preview not written: /);
      expect(await present()).toEqual([]);
      expect((await get(offline.url, '/cards/mon-price.svg')).status).toBe(200);
      expect(await cardSays()).toBe('unavailable');
      expect(await readFile(join(dist, 'index.html'), 'utf8')).toContain('data-unavailable="market"');
      expect(await offline.stop()).toBe(0);

      // Still down: one line saying why it builds again, the failure once more, and the gateway serves anyway.
      const stillDown = await spawnStart(env({ ...dated, DIST_DIR: dist, UPSTREAM_TIMEOUT_MS: '1500' }));
      const reason = `build: ${dist} lacks the market preview snapshot; building it again`;
      // The lines they mean: why it builds again, then the market's failure (another dataset's upstream slow
      // on a loaded machine may add its own line).
      const stillDownLines = stillDown
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('build: '));
      expect(stillDownLines[0]).toBe(reason);
      expect(stillDownLines.filter((line) => line.startsWith('build: market preview'))).toEqual([
        expect.stringMatching(/^build: market preview not written: /),
      ]);
      expect(await present()).toEqual([]);
      expect(await cardSays()).toBe('unavailable');
      expect(await stillDown.stop()).toBe(0);

      fake.market.mode = 'ok';
      const online = await spawnStart(env({ ...dated, DIST_DIR: dist }));
      const onlineLines = online
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('build: '));
      expect(onlineLines[0]).toBe(reason);
      expect(onlineLines.filter((line) => line.startsWith('build: market preview'))).toEqual([]);
      expect(await present()).toEqual(market);
      expect((await get(online.url, '/cards/mon-price.svg')).status).toBe(200);
      expect(await cardSays()).toBe('data');
      expect(await readFile(join(dist, 'index.html'), 'utf8')).not.toContain('data-unavailable');
      expect(await online.stop()).toBe(0);

      // Complete now: the next start builds nothing and asks no upstream.
      fake.resetCalls();
      const again = await spawnStart(env({ ...dated, DIST_DIR: dist }));
      expect(again.stderr()).not.toContain('build: ');
      expect(again.buildStdout).toMatch(
        /^build: .* is up to date: built .* UTC for octocat at http:\/\/localhost:\d+\n$/,
      );
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      expect(await again.stop()).toBe(0);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('npm start without SITE_URL', () => {
  it('links to the PORT it listens on, and builds again when started on another port', async () => {
    const dist = join(fixture.base, 'port-dist');
    const links = async () => ({
      sitemap: await readFile(join(dist, 'sitemap.xml'), 'utf8'),
      canonical: /<link rel="canonical" href="([^"]+)">/.exec(await readFile(join(dist, 'index.html'), 'utf8'))?.[1],
    });
    try {
      const ports = [await freePort()];
      while (ports.length < 2) {
        const port = await freePort();
        if (port !== ports[0]) ports.push(port);
      }
      for (const port of ports) {
        const gw = await spawnStart(env({ ...datedBuilds(), DIST_DIR: dist, PORT: String(port) }));
        expect(gw.url).toBe(`http://127.0.0.1:${port}`);
        expect(gw.stderr()).toContain(
          port === ports[0]
            ? 'port-dist is missing; building it first'
            : `was built for SITE_URL=http://localhost:${ports[0]}; building it again for SITE_URL=http://localhost:${port}`,
        );
        const { sitemap, canonical } = await links();
        expect(sitemap).toContain(`<loc>http://localhost:${port}/</loc>`);
        expect(sitemap).not.toContain('localhost:8080');
        expect(canonical).toBe(`http://localhost:${port}/`);
        expect(JSON.parse((await get(gw.url, '/api/nope')).text).type).toMatch(
          new RegExp(`^http://localhost:${port}/developers#`),
        );
        expect(await gw.stop()).toBe(0);
      }
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('dist/ built with other site settings', () => {
  const buildInto = (dist: string, extra: Record<string, string>) =>
    runProgram('build', ['--out', dist], { ...env(), ...extra });
  const serversOf = async (url: string) =>
    (JSON.parse((await get(url, '/openapi.json')).text) as { servers: Array<{ url: string }> }).servers.map(
      (s) => s.url,
    );

  it("is built again for the gateway's SITE_URL, so its documents and its problems name one site", async () => {
    const dist = join(fixture.base, 'other-site-dist');
    try {
      expect((await buildInto(dist, { SITE_URL: 'http://first.test' })).code).toBe(0);
      const gw = await spawnStart(env({ DIST_DIR: dist, SITE_URL: 'http://second.test' }));
      expect(gw.stderr()).toContain(
        'was built for SITE_URL=http://first.test; building it again for SITE_URL=http://second.test',
      );
      expect(await serversOf(gw.url)).toEqual(['http://second.test']);
      expect(JSON.parse((await get(gw.url, '/api/nope')).text).type).toMatch(/^http:\/\/second\.test\/developers#/);
      expect(await gw.stop()).toBe(0);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it('is served as it is when the settings match: no build, no upstream call at start', async () => {
    const dist = join(fixture.base, 'same-site-dist');
    try {
      expect((await buildInto(dist, { SITE_URL: 'http://same.test' })).code).toBe(0);
      fake.resetCalls();
      const gw = await spawnStart(env({ DIST_DIR: dist, SITE_URL: 'http://same.test' }));
      expect(gw.stderr()).not.toContain('building it');
      expect(gw.buildStdout).toContain('is up to date: built ');
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      expect(await serversOf(gw.url)).toEqual(['http://same.test']);
      expect(await gw.stop()).toBe(0);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});
