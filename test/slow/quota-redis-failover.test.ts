// The Redis quota store always comes back (docs/gateway.md, issue 27): on a six-node local Redis Cluster
// (three masters, three replicas, cluster-node-timeout 2 s) joined by redis-cli, two gateway programs
// under load lose the master that owns the current window's slot to `kill -9` and send RateLimit headers
// again within 30 s of cluster_state:ok; a gateway started while the cluster is down says so on stderr
// and counts within 30 s of its recovery; a one-second window under 20 concurrent clients never asks
// for a script call across two slots (CROSSSLOT). The store's keys are `{ratelimit:public-api:<window>}:
// <client>` (docs/gateway.md), so the slot of a window is that of its hash tag.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { get, makeDist, spawnGateway, type DistFixture, type GatewayProcess } from '../helpers/gateway.ts';
import {
  inline,
  privateRedisCluster,
  SKIP_REDIS,
  type ClusterNode,
  type PrivateCluster,
} from '../helpers/gateway-redis.ts';
import { upstreamEnv } from '../helpers/run.ts';

const DATA = ['/api/v1/mon-price', '/api/mon-price', '/api/v1/github-contributions', '/api/github-contributions'];
const YEAR = 31_536_000;
/** How soon after cluster_state:ok the headers must be back (the bound). */
const RECOVERY_MS = 30_000;

interface Sample {
  at: number;
  gateway: number;
  status: number;
  accounted: boolean;
}

/**
 * `clients` loops, each its own client (127.0.0.<2+i>) on gateway i % n, one request after another with
 * `pauseMs` between: the samples say when each answer came and whether it carried quota headers.
 */
function load(gateways: GatewayProcess[], clients: number, pauseMs: number) {
  const samples: Sample[] = [];
  let running = true;
  const loops = Array.from({ length: clients }, async (_, i) => {
    const gateway = i % gateways.length;
    for (let n = 0; running; n++) {
      const r = await get(gateways[gateway]!.url, DATA[n % 4]!, { localAddress: `127.0.0.${2 + i}` }).catch(
        () => undefined,
      );
      samples.push({
        at: performance.now(),
        gateway,
        status: r?.status ?? 0,
        accounted: r?.headers['ratelimit'] !== undefined,
      });
      if (pauseMs > 0) await sleep(pauseMs);
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it holds; fails after `ms`. */
async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(100);
  }
}

interface NodeView {
  id: string;
  port: number;
  flags: string[];
  masterId: string;
  slots: Array<[number, number]>;
}

/** CLUSTER NODES as one node sees the cluster. */
async function clusterView(port: number): Promise<NodeView[]> {
  const text = await inline(port, 'CLUSTER NODES');
  return text
    .split(/\r?\n/)
    .filter((line) => /^[0-9a-f]{40} /.test(line))
    .map((line) => {
      const [id, address, flags, masterId, , , , , ...slots] = line.split(' ');
      return {
        id: id!,
        port: Number(/:(\d+)@/.exec(address!)![1]),
        flags: flags!.split(','),
        masterId: masterId!,
        slots: slots
          .filter((s) => /^\d/.test(s))
          .map((s) => s.split('-').map(Number) as [number, number])
          .map(([from, to]) => [from, to ?? from] as [number, number]),
      };
    });
}

const stateOf = async (port: number) => /cluster_state:(\w+)/.exec(await inline(port, 'CLUSTER INFO'))?.[1];

async function allOk(ports: number[]): Promise<boolean> {
  const states = await Promise.all(ports.map(stateOf));
  return states.every((s) => s === 'ok');
}

/**
 * The spawned gateways count on the real clock (docs/configuration.md: only the build takes
 * SOURCE_DATE_EPOCH), so the test reads the same clock to name the window they count in. A year-long
 * window holds still for the whole file, except within minutes of its one boundary a year: then the file
 * waits until that boundary has passed (at most BOUNDARY_MARGIN_S), so no date makes the slot move mid-test.
 */
const BOUNDARY_MARGIN_S = 300;
async function awayFromWindowBoundary(): Promise<void> {
  const toBoundaryS = YEAR - ((Date.now() / 1000) % YEAR);
  if (toBoundaryS < BOUNDARY_MARGIN_S) await sleep(toBoundaryS * 1000 + 1000);
}

/** The slot of the current window's keys (a year-long window: it stays the same during the test). */
async function windowSlot(port: number): Promise<number> {
  const window = Math.floor(Date.now() / 1000 / YEAR);
  return Number(/^:(\d+)/.exec(await inline(port, `CLUSTER KEYSLOT ratelimit:public-api:${window}`))![1]);
}

const storeLines = (g: GatewayProcess) =>
  g
    .stderr()
    .split('\n')
    .filter((l) => /quota store/.test(l));

describe.skipIf(SKIP_REDIS)('gateways on a six-node Redis Cluster that loses nodes', () => {
  let fake: FakeUpstreams;
  let fixture: DistFixture;
  let cluster: PrivateCluster;
  const gateways: GatewayProcess[] = [];

  beforeAll(
    async () => {
      await awayFromWindowBoundary();
      [fake, fixture, cluster] = await Promise.all([
        startFakeUpstreams(),
        makeDist(),
        privateRedisCluster(6, { replicas: 1, nodeTimeoutMs: 2000 }),
      ]);
    },
    90_000 + (BOUNDARY_MARGIN_S + 1) * 1000,
  );
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.stop('SIGKILL')));
    await cluster?.stop();
    await fake?.close();
    if (fixture) await rm(fixture.base, { recursive: true, force: true });
  });

  async function gateway(redisUrl: string, window: number): Promise<GatewayProcess> {
    const g = await spawnGateway({
      ...upstreamEnv(fake.url),
      DIST_DIR: fixture.dist,
      RATE_LIMIT_QUOTA: '1000000000',
      RATE_LIMIT_WINDOW: String(window),
      RATE_LIMIT_REDIS_URL: redisUrl,
    });
    gateways.push(g);
    return g;
  }

  it('a one-second window, 20 concurrent clients for 8 s: no script call spans two slots', async () => {
    const pair = await Promise.all([gateway(cluster.urls[0]!, 1), gateway(cluster.urls[3]!, 1)]);
    const run = load(pair, 20, 0);
    await sleep(8000);
    await run.stop();
    await Promise.all(pair.map((g) => g.stop()));
    const stderr = pair.map((g) => g.stderr()).join('');
    expect(stderr).not.toMatch(/CROSSSLOT/);
    expect(run.samples.every((s) => s.status === 200)).toBe(true);
    const accounted = run.samples.filter((s) => s.accounted).length;
    expect(accounted).toBeGreaterThan(0);
    console.log(
      `window 1 s: ${run.samples.length} answers in 8 s, ${accounted} with quota headers; store lines: ${JSON.stringify(storeLines(pair[0]!).concat(storeLines(pair[1]!)))}`,
    );
  }, 60_000);

  /**
   * Two gateways under load, one given the master that owns the window's slot and one another master;
   * `fail` takes that master away. Returns how long after cluster_state:ok each sent headers again.
   */
  async function failover(fail: (master: ClusterNode) => Promise<void>, after: (master: ClusterNode) => void) {
    const seed = cluster.nodes[0]!.port;
    const slot = await windowSlot(seed);
    // A node the test before restarted rejoins as a replica of the master that replaced it, but the seed's
    // view says so only once gossip has spread it (until then it may show no replica, or the node still
    // failed): the view is read again until the slot's master has a replica that is not failed.
    let view: Awaited<ReturnType<typeof clusterView>> = [];
    const masterIn = (v: typeof view) =>
      v.find((n) => n.flags.includes('master') && n.slots.some(([a, b]) => slot >= a && slot <= b));
    const replicaIn = (v: typeof view) =>
      v.find((n) => n.masterId === masterIn(v)?.id && !n.flags.some((f) => f.startsWith('fail')));
    await waitFor(
      async () => replicaIn((view = await clusterView(seed))) !== undefined,
      30_000,
      "a replica of the window's master in the cluster's view",
    );
    const master = masterIn(view)!;
    const replica = replicaIn(view)!;
    const other = view.find((n) => n.flags.includes('master') && n.slots.length > 0 && n !== master)!;
    // A replica that has not synced (a node restarted by an earlier test) would not take over.
    await waitFor(
      async () => /master_link_status:up/.test(await inline(replica.port, 'INFO replication')),
      30_000,
      'the replica synced',
    );
    // Gateway 0 is given the very master that fails: it must find the cluster through the nodes it learnt.
    const node = (port: number) => cluster.nodes.find((n) => n.port === port)!;
    const pair = await Promise.all([gateway(node(master.port).url, YEAR), gateway(node(other.port).url, YEAR)]);
    const run = load(pair, 8, 20);
    try {
      await waitFor(() => [0, 1].every((g) => run.samples.some((s) => s.gateway === g && s.accounted)), 20_000, 'warm');
      const failedAt = performance.now();
      await fail(node(master.port));
      const live = view.filter((v) => v !== master && !v.flags.some((f) => f.startsWith('fail'))).map((v) => v.port);
      await waitFor(
        async () => /role:master/.test(await inline(replica.port, 'INFO replication')) && (await allOk(live)),
        60_000,
        'the replica promoted and every live node ok',
      );
      const okAt = performance.now();
      after(node(master.port));
      const back = [0, 1].map(() => Number.NaN);
      await waitFor(
        () => {
          for (const g of [0, 1]) {
            const first = run.samples.find((s) => s.gateway === g && s.accounted && s.at > okAt);
            if (first !== undefined) back[g] = first.at - okAt;
          }
          return back.every((ms) => !Number.isNaN(ms));
        },
        RECOVERY_MS + 10_000,
        'headers on both gateways after cluster_state:ok',
      );
      // The failure did take the quota away: answers went out without headers in between.
      const outage = run.samples.filter((s) => s.at > failedAt && s.at < okAt);
      expect(outage.some((s) => !s.accounted)).toBe(true);
      expect(run.samples.every((s) => s.status === 200)).toBe(true);
      for (const g of pair) console.log(storeLines(g).join('\n'));
      return { toOk: okAt - failedAt, back };
    } finally {
      await run.stop();
      await Promise.all(pair.map((g) => g.stop()));
    }
  }

  it('kill -9 of the master owning the window’s slot: headers again on both gateways within 30 s of cluster_state:ok', async () => {
    let restarted = Promise.resolve();
    const { toOk, back } = await failover(
      (master) => master.kill(),
      // Back on its port, it rejoins as a replica of the one that replaced it: the next test loses a master again.
      (master) => void (restarted = master.start()),
    );
    await restarted;
    console.log(
      `kill -9: cluster_state:ok ${Math.round(toOk)} ms after the kill; first RateLimit header after it: ` +
        `gateway on the killed master ${Math.round(back[0]!)} ms, gateway on another master ${Math.round(back[1]!)} ms`,
    );
    for (const ms of back) expect(ms).toBeLessThanOrEqual(RECOVERY_MS);
  }, 150_000);

  it('SIGSTOP of that master for 5 s: headers again on both gateways within 30 s of cluster_state:ok', async () => {
    let stoppedAt = 0;
    const { toOk, back } = await failover(
      async (master) => {
        master.pause();
        stoppedAt = performance.now();
      },
      // Woken 5 s after it stopped, once its replica took over: it rejoins as a replica.
      (master) => void setTimeout(() => master.resume(), Math.max(0, stoppedAt + 5000 - performance.now())),
    );
    console.log(
      `SIGSTOP 5 s: cluster_state:ok ${Math.round(toOk)} ms after the stop; first RateLimit header after it: ` +
        `gateway on the stopped master ${Math.round(back[0]!)} ms, gateway on another master ${Math.round(back[1]!)} ms`,
    );
    for (const ms of back) expect(ms).toBeLessThanOrEqual(RECOVERY_MS);
  }, 150_000);

  it('a gateway started while cluster_state:fail says so, and counts within 30 s of the recovery', async () => {
    const alive = async (port: number) => (await stateOf(port)) !== undefined;
    const liveNodes: typeof cluster.nodes = [];
    for (const n of cluster.nodes) if (await alive(n.port)) liveNodes.push(n);
    const view = await clusterView(liveNodes[0]!.port);
    const isLive = (port: number) => liveNodes.some((n) => n.port === port);
    // A master with a live replica: losing both leaves slots without a node, and the cluster down.
    const master = view.find(
      (n) =>
        n.flags.includes('master') &&
        n.slots.length > 0 &&
        isLive(n.port) &&
        view.some((r) => r.masterId === n.id && isLive(r.port)),
    )!;
    const replica = view.find((r) => r.masterId === master.id && isLive(r.port))!;
    const url = liveNodes.find((n) => n.port !== master.port && n.port !== replica.port)!;
    await Promise.all([master, replica].map((v) => cluster.nodes.find((n) => n.port === v.port)!.kill()));
    await waitFor(async () => (await stateOf(url.port)) === 'fail', 30_000, 'cluster_state:fail');

    // A start whose first connection misses its 1 s wait (a loaded machine) says so first, and an outage
    // is said once: that start says nothing of the cluster, so another gateway is started (twice at most).
    let g!: GatewayProcess;
    for (let start = 0; start < 3; start++) {
      g = await gateway(url.url, YEAR);
      await waitFor(() => storeLines(g).length > 0, 10_000, 'a line about the store');
      if (!/unavailable: no connection within \d+ ms$/.test(storeLines(g)[0]!)) break;
      await g.stop();
    }
    expect(storeLines(g)[0]).toBe(
      `gateway: quota store 127.0.0.1:${url.port} unavailable: the cluster is down (cluster_state:fail)`,
    );
    for (const path of DATA) {
      const r = await get(g.url, path);
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit']).toBeUndefined();
    }

    await cluster.nodes.find((n) => n.port === master.port)!.start();
    const live = liveNodes.map((n) => n.port).filter((p) => p !== replica.port);
    await waitFor(() => allOk(live), 60_000, 'every live node ok again');
    const okAt = performance.now();
    let back = Number.NaN;
    await waitFor(
      async () => {
        const r = await get(g.url, DATA[0]!);
        if (r.headers['ratelimit'] !== undefined) back = performance.now() - okAt;
        return !Number.isNaN(back);
      },
      RECOVERY_MS + 10_000,
      'headers after the recovery',
    );
    console.log(`started during cluster_state:fail: cluster_state:ok to first RateLimit header ${Math.round(back)} ms`);
    console.log(storeLines(g).join('\n'));
    expect(back).toBeLessThanOrEqual(RECOVERY_MS);
    // stderr is a pipe: its line may come after the answer it preceded
    const connected = `gateway: quota store 127.0.0.1:${url.port} connected`;
    await waitFor(() => storeLines(g).at(-1) === connected, 5000, 'the line saying the store is back');
    await g.stop();
  }, 150_000);
});
