// A seed at RATE_LIMIT_REDIS_URL whose slot map is cheap to send and costly to walk (issue 41,
// docs/gateway.md#the-quota): to ioredis's own slot-map connection it names one range [0, 4294967295]
// (about 100 bytes: ioredis walked four billion slots, took 1.99 GB and died with `Invalid array length`),
// or 20,000 copies of [0, 16383] (1.8 MB: 3.3 s of a blocked gateway at each reconnection), while any
// other connection gets a healthy map. Hostile at the gateway's start, then healthy (counted), then
// hostile again mid-service at the refresh a MOVED asks for, then the 1.8 MB map at every reopening: the
// gateway stays up, a steady client gets every request answered 200 within 1 s, RSS stays within 300 MiB,
// and each outage is one stderr line.
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asWalkBombSeed, startFakeRedis, type FakeRedis, type WalkBomb } from '../fakes/redis.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { get, makeDist, spawnGateway, type DistFixture, type GatewayProcess } from '../helpers/gateway.ts';
import { upstreamEnv } from '../helpers/run.ts';

const DATA = ['/api/v1/mon-price', '/api/v1/github-contributions'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a cluster seed whose slot map costs a walk over billions of slots', () => {
  let fake: FakeUpstreams;
  let fixture: DistFixture;
  let seed: FakeRedis;
  let gw: GatewayProcess;
  /** The same gateway without a quota store, asked alongside: what this machine's load alone costs. */
  let control: GatewayProcess;
  let bomb: WalkBomb | undefined = 'range';
  /** The next quota script call is answered MOVED, which makes ioredis read the slot map again. */
  let moved = false;

  beforeAll(async () => {
    [fake, fixture] = await Promise.all([startFakeUpstreams(), makeDist()]);
    seed = await startFakeRedis(
      asWalkBombSeed(
        () => bomb,
        (c) => {
          if (c[0] !== 'EVAL') return '-ERR\r\n';
          if (moved) {
            moved = false;
            return `-MOVED 1 127.0.0.1:${seed.port}\r\n`;
          }
          return `*${c[2]}\r\n${':1\r\n'.repeat(Number(c[2]))}`;
        },
      ),
    );
    [gw, control] = await Promise.all([
      spawnGateway({
        ...upstreamEnv(fake.url),
        DIST_DIR: fixture.dist,
        RATE_LIMIT_QUOTA: '1000000',
        RATE_LIMIT_REDIS_URL: seed.url,
      }),
      spawnGateway({ ...upstreamEnv(fake.url), DIST_DIR: fixture.dist }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
    await control?.stop();
    await seed?.close();
    await fake?.close();
    if (fixture) await rm(fixture.base, { recursive: true, force: true });
  });

  it('costs the gateway no crash, no stall and bounded memory, at the start and mid-service', async () => {
    const pid = gw.child.pid!;
    const rssMiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
    let peakRss = 0;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssMiB());
      } catch {
        // the process is gone: the statuses below say so
      }
    }, 100);
    const statuses = new Map<number | string, number>();
    const latencies: number[] = [];
    const controlLatencies: number[] = [];
    const phases: string[] = [];
    let phase = 'start';
    let counted = 0;
    const steady = async (ms: number) => {
      const t0 = performance.now();
      for (let i = 0; performance.now() - t0 < ms; i++) {
        const start = performance.now();
        const r = await get(gw.url, DATA[i % 2]!).catch((error: NodeJS.ErrnoException) => ({
          status: error.code ?? 'error',
          headers: {} as Record<string, string>,
        }));
        latencies.push(performance.now() - start);
        phases.push(phase);
        const controlStart = performance.now();
        await get(control.url, DATA[i % 2]!);
        controlLatencies.push(performance.now() - controlStart);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.headers['ratelimit'] !== undefined) counted++;
        await sleep(20);
      }
    };
    const slotMaps = () => seed.commands.filter((c) => c[0] === 'CLUSTER' && c[1] === 'SLOTS').length;
    try {
      // Hostile from the start: the one range, read and refused at each opening.
      await steady(5_000);
      expect(slotMaps()).toBeGreaterThanOrEqual(2);
      expect(counted).toBe(0);
      // Healthy: counted again within a few attempts (the backoff is at most 2 s).
      bomb = undefined;
      phase = 'healthy';
      for (let i = 0; i < 300 && counted === 0; i++) await steady(50);
      expect(counted).toBeGreaterThan(0);
      // Mid-service: the next script call is answered MOVED, and the map ioredis reads then is the bomb.
      bomb = 'range';
      moved = true;
      phase = 'mid-service';
      await steady(4_000);
      // The 1.8 MB map at every reopening.
      bomb = 'ranges';
      phase = '1.8 MB';
      await steady(6_000);
    } finally {
      clearInterval(sampler);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `walk bomb: ${latencies.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `latency p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; ` +
        `gateway peak ${peakRss.toFixed(0)} MiB; ${slotMaps()} slot maps read; slowest per phase ` +
        JSON.stringify(
          Object.fromEntries(
            [...new Set(phases)].map((p) => [
              p,
              `${Math.max(...latencies.filter((_, i) => phases[i] === p)).toFixed(0)} ms (#${phases.indexOf(p)}..)`,
            ]),
          ),
        ) +
        `, slowest request #${latencies.indexOf(sorted.at(-1)!)}`,
    );
    expect([...statuses.keys()]).toEqual([200]);
    expect(gw.child.exitCode).toBeNull();
    // Every answer within 1 s but the gateway's first two, which fetch both upstreams and warm up (2.8 s
    // measured at a load average of 60, whatever the store does: the map is refused in microseconds). On
    // a machine so loaded that a gateway without any store is slow too, its slowest answer is allowed on top.
    const slowestControl = Math.max(...controlLatencies.slice(2));
    console.log(`the same requests to a gateway without a store: slowest ${slowestControl.toFixed(0)} ms`);
    expect(Math.max(...latencies.slice(2))).toBeLessThan(1_000 + slowestControl);
    expect(peakRss).toBeLessThanOrEqual(300);
    const outages = gw
      .stderr()
      .split('\n')
      .filter((l) => /quota store .* unavailable/.test(l));
    // One line per outage: at the start, and mid-service (the 1.8 MB map comes while it lasts). An outage is
    // said once, with its first reason: on a loaded machine the first opening may miss its 1 s wait before
    // the map is read (CI saw it at load 18); the slot maps counted above were read and refused all the same.
    expect(outages).toEqual([
      expect.stringMatching(
        /unavailable: (CLUSTER SLOTS answered a slot range out of bounds|no connection within \d+ ms)$/,
      ),
      expect.stringMatching(/unavailable: CLUSTER SLOTS answered a slot range out of bounds$/),
    ]);
    expect(gw.stderr()).not.toMatch(/Invalid array length|heap out of memory|\n\s+at /);
  }, 120_000);
});
