// The cost bound of a Redis Cluster's slot map (gateway/quota/cluster-map.ts, docs/gateway.md#the-quota):
// a map names at most 1,000 nodes (a bigger one is an outage said once, and no node of it is
// connected to), the cluster's state is asked of three masters, never every one, and the seeds of the
// next opening are the last map's nodes less those that failed, after the URL's node. The hostile seed
// itself, in a spawned gateway, is test/slow/quota-redis-hostile-map.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import {
  asClusterNode,
  asHostileSeed,
  asWalkBombSeed,
  startBlackHole,
  startFakeRedis,
  type FakeRedis,
  type WalkBomb,
} from './fakes/redis.ts';
import {
  ClusterSeeds,
  MAX_MAP_NODES,
  slotMapRefusal,
  stateSample,
  STATE_SAMPLE,
} from '../gateway/quota/cluster-map.ts';
import { checkedClusterReply, SlotMapRefused } from '../gateway/quota/redis-link.ts';
import { redisQuotaStore, type RedisQuotaStore } from '../gateway/quota/redis-store.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** The store's next count of one key, asked again every 50 ms while it is unavailable (at most 20 s). */
async function firstCount(s: RedisQuotaStore): Promise<number | undefined> {
  for (let i = 0; i < 400; i++) {
    const count = await Promise.resolve(s.increment('{w}:k', 60)).catch(() => undefined);
    if (count !== undefined) return count;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** A slot-map entry as ioredis decodes CLUSTER SLOTS: `[start, end, [host, port, id], replicas…]`. */
const entry = (start: number, end: number, ...ports: number[]) => [
  start,
  end,
  ...ports.map((p) => ['127.0.0.1', p, String(p).padStart(40, '0')]),
];

describe('a CLUSTER SLOTS reply', () => {
  it('of a real cluster (three masters, a replica each) is taken', () => {
    const map = [entry(0, 5460, 7000, 7003), entry(5461, 10922, 7001, 7004), entry(10923, 16383, 7002, 7005)];
    expect(slotMapRefusal(map)).toBeUndefined();
  });

  it('of one node per slot is taken up to 1,000 nodes and refused past them', () => {
    const map = (nodes: number) => Array.from({ length: nodes }, (_, i) => entry(i, i, 10_000 + i));
    expect(slotMapRefusal(map(MAX_MAP_NODES))).toBeUndefined();
    expect(slotMapRefusal(map(MAX_MAP_NODES + 1))).toBe('the cluster names more than 1000 nodes');
    expect(slotMapRefusal(map(16_384))).toBe('the cluster names more than 1000 nodes');
  });

  it('counts nodes, not entries: 16,384 one-slot ranges of one node are one node', () => {
    expect(slotMapRefusal(Array.from({ length: 16_384 }, (_, i) => entry(i, i, 7000)))).toBeUndefined();
  });

  it('is refused when its ranges overlap past 16,384 slots, lie out of bounds, or name no address', () => {
    // ioredis walks every slot of every range: 30,000 copies of 0–16383 would be half a billion steps.
    expect(slotMapRefusal([entry(0, 16383, 7000), entry(0, 0, 7000)])).toMatch(/more than 16384 slots/);
    expect(slotMapRefusal([entry(0, 16384, 7000)])).toMatch(/out of bounds/);
    expect(slotMapRefusal([entry(9, 3, 7000)])).toMatch(/out of bounds/);
    expect(slotMapRefusal([[0, 16383, ['127.0.0.1', 0]]])).toMatch(/no address/);
    expect(slotMapRefusal([[0, 16383, 'x']])).toMatch(/no address/);
    expect(slotMapRefusal('+OK')).toMatch(/no array/);
    expect(slotMapRefusal([[0, 16383]])).toMatch(/no slot range/);
  });
});

describe('the slot map ioredis walks (its reply transformer for `cluster`)', () => {
  it('passes a map within the bounds, and any reply that is no array (CLUSTER INFO), as it is', () => {
    const map = [entry(0, 8191, 7000), entry(8192, 16383, 7001)];
    expect(checkedClusterReply(map)).toBe(map);
    expect(checkedClusterReply('cluster_state:ok\r\n')).toBe('cluster_state:ok\r\n');
  });

  it('throws a map ioredis would walk past the 16,384 slots, or that names too many nodes, before it walks it', () => {
    expect(() => checkedClusterReply([entry(0, 4294967295, 7000)])).toThrow(SlotMapRefused);
    expect(() => checkedClusterReply([entry(0, 4294967295, 7000)])).toThrow(/out of bounds/);
    const full = Array.from({ length: 20_000 }, () => entry(0, 16383, 7000));
    expect(() => checkedClusterReply(full)).toThrow(/more than 16384 slots/);
    const nodes = Array.from({ length: MAX_MAP_NODES + 1 }, (_, i) => entry(i, i, 10_000 + i));
    expect(() => checkedClusterReply(nodes)).toThrow('the cluster names more than 1000 nodes');
  });
});

describe('a seed whose slot map, read by ioredis alone, costs a walk over billions of slots', () => {
  const counting = (c: string[]) => (c[0] === 'EVAL' ? `*${c[2]}\r\n${':1\r\n'.repeat(Number(c[2]))}` : '-ERR\r\n');

  it.each<[WalkBomb, string]>([
    ['range', 'CLUSTER SLOTS answered a slot range out of bounds'],
    ['ranges', 'CLUSTER SLOTS answered more than 256 KiB'],
  ])('%s: an outage said once, never walked, and counted again once the map is healthy', async (kind, reason) => {
    let bomb: WalkBomb | undefined = kind;
    const seed = await startFakeRedis(asWalkBombSeed(() => bomb, counting));
    open.push(seed);
    const lines: string[] = [];
    // A deadline no loaded machine reaches: the outage's reason is the map's, not a slow opening's.
    const s = redisQuotaStore(seed.url, { onStateChange: (l) => lines.push(l), connectTimeoutMs: 10_000 });
    open.push(s);
    await s.ready(20_000);
    const slotsAsked = () => seed.commands.filter((c) => c[0] === 'CLUSTER' && c[1] === 'SLOTS').length;
    // Asked again after the backoff, and still refused: the process is alive to say so.
    for (let i = 0; i < 400 && slotsAsked() < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(slotsAsked()).toBeGreaterThanOrEqual(3);
    expect(lines).toEqual([`quota store 127.0.0.1:${seed.port} unavailable: ${reason}`]);
    // Only ioredis asked for the map: no read of the store's own beside the one ioredis walks.
    expect(seed.commands.filter((c) => c[0] === 'CLIENT' && c[1]?.toUpperCase() === 'SETNAME').length).toBe(
      slotsAsked(),
    );
    bomb = undefined;
    expect(await firstCount(s)).toBe(1);
    expect(lines.at(-1)).toBe(`quota store 127.0.0.1:${seed.port} connected`);
  });

  it('mid-service, at the refresh a MOVED asks for: the link is dropped and the outage said', async () => {
    let bomb: WalkBomb | undefined;
    let moved = false;
    const seed = await startFakeRedis(
      asWalkBombSeed(
        () => bomb,
        (c) => {
          if (c[0] !== 'EVAL' || !moved) return counting(c);
          moved = false;
          return '-MOVED 1 127.0.0.1:1\r\n';
        },
      ),
    );
    open.push(seed);
    const lines: string[] = [];
    const s = redisQuotaStore(seed.url, { onStateChange: (l) => lines.push(l), connectTimeoutMs: 10_000 });
    open.push(s);
    expect(await firstCount(s)).toBe(1);
    bomb = 'range';
    moved = true;
    await Promise.resolve(s.increment('{w}:k', 60)).catch(() => undefined);
    const down = `quota store 127.0.0.1:${seed.port} unavailable: CLUSTER SLOTS answered a slot range out of bounds`;
    for (let i = 0; i < 400 && !lines.includes(down); i++) await new Promise((r) => setTimeout(r, 50));
    expect(lines).toContain(down);
    expect(lines.filter((l) => l === down)).toHaveLength(1);
  });
});

describe('the masters asked for the cluster state', () => {
  it('are the URL’s node when it is one, then the others by address, three at most', () => {
    const masters = ['127.0.0.1:7002', '127.0.0.1:7000', '127.0.0.1:7001', '127.0.0.1:7003'];
    expect(stateSample(masters, '127.0.0.1:7003')).toEqual(['127.0.0.1:7003', '127.0.0.1:7000', '127.0.0.1:7001']);
    expect(stateSample(masters, '127.0.0.1:9999')).toEqual(['127.0.0.1:7000', '127.0.0.1:7001', '127.0.0.1:7002']);
    const many = Array.from({ length: MAX_MAP_NODES }, (_, i) => `10.0.${i >> 8}.${i & 255}:6379`);
    expect(stateSample(many, many[500]!)).toHaveLength(STATE_SAMPLE);
  });
});

describe('the remembered seeds', () => {
  const node = (port: number) => ({ host: '127.0.0.1', port });
  it('are the last map’s nodes, not every map’s, at most 64, less those that failed', () => {
    const seeds = new ClusterSeeds();
    seeds.replace([node(1), node(2), node(3)]);
    seeds.replace([node(4), node(5)]);
    expect(seeds.list()).toEqual([node(4), node(5)]);
    seeds.forget('127.0.0.1:4');
    expect(seeds.list()).toEqual([node(5)]);
    seeds.add(node(6));
    expect(seeds.list()).toEqual([node(5), node(6)]);
    seeds.replace(Array.from({ length: 500 }, (_, i) => node(10_000 + i)));
    expect(seeds.size).toBe(64);
  });
});

describe('a seed whose slot map names 1,001 nodes that never answer', () => {
  it('is an outage said once, no node of it is connected to, and a healthy map at the URL counts again', async () => {
    const hole = await startBlackHole();
    open.push(hole);
    let nodes = MAX_MAP_NODES + 1;
    const counting = (c: string[]) => (c[0] === 'EVAL' ? `*${c[2]}\r\n${':1\r\n'.repeat(Number(c[2]))}` : '-ERR\r\n');
    const seed: FakeRedis = await startFakeRedis(asHostileSeed(() => nodes, hole.port, counting));
    open.push(seed);
    const lines: string[] = [];
    // Deadlines far above a loaded machine's delays: what this test scripts is refusals, not silence.
    const s: RedisQuotaStore = redisQuotaStore(seed.url, {
      onStateChange: (l) => lines.push(l),
      connectTimeoutMs: 10_000,
      deadlineMs: 10_000,
    });
    open.push(s);
    await s.ready(20_000);
    const slotsAsked = () => seed.commands.filter((c) => c[0] === 'CLUSTER' && c[1] === 'SLOTS').length;
    // Asked again after the backoff, and still refused.
    for (let i = 0; i < 400 && slotsAsked() < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(slotsAsked()).toBeGreaterThanOrEqual(3);
    expect(lines).toEqual([`quota store 127.0.0.1:${seed.port} unavailable: the cluster names more than 1000 nodes`]);
    expect(hole.connections).toBe(0);
    // A healthy one-node cluster back at the URL: counted at the next attempt, through the URL.
    nodes = 0;
    expect(await firstCount(s)).toBe(1);
    expect(lines.at(-1)).toBe(`quota store 127.0.0.1:${seed.port} connected`);
    expect(hole.connections).toBe(0);
  });
});

describe('a cluster whose URL node names a master that later never answers', () => {
  it('counts again at the URL’s node, asked before the seeds', async () => {
    const counting = (c: string[]) => (c[0] === 'EVAL' ? `*${c[2]}\r\n${':1\r\n'.repeat(Number(c[2]))}` : '-ERR\r\n');
    let silent = false;
    const master = await startFakeRedis((command, fake) =>
      silent ? undefined : asClusterNode(() => 'ok', counting)(command, fake),
    );
    open.push(master);
    let owner = master.port;
    const urlNode = await startFakeRedis(
      asClusterNode(
        () => 'ok',
        counting,
        () => owner,
      ),
    );
    open.push(urlNode);
    const lines: string[] = [];
    // The decision deadline is what finds the silent master, and every answered count must beat it: 5 s,
    // above a loaded machine's delays (300 ms was not), at the price of one 5 s wait.
    const s = redisQuotaStore(urlNode.url, {
      onStateChange: (l) => lines.push(l),
      connectTimeoutMs: 10_000,
      deadlineMs: 5_000,
    });
    open.push(s);
    expect(await firstCount(s)).toBe(1);
    // The master hangs; the URL's node now owns every slot itself.
    silent = true;
    owner = urlNode.port;
    const before = urlNode.commands.filter((c) => c[0] === 'EVAL').length;
    for (let i = 0; i < 400 && urlNode.commands.filter((c) => c[0] === 'EVAL').length === before; i++) {
      await Promise.resolve(s.increment('{w}:k', 60)).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(urlNode.commands.filter((c) => c[0] === 'EVAL').length).toBeGreaterThan(before);
    expect(lines.at(-1)).toBe(`quota store 127.0.0.1:${urlNode.port} connected`);
  });
});
