// What the quota store takes from a Redis Cluster's slot map, and its cost bound (docs/gateway.md#the-quota):
// the map itself (ranges within the 16,384 slots, at most MAX_MAP_NODES nodes, a bigger map is an
// outage; redis-link.ts checks it in the very reply ioredis walks), the masters asked for the cluster's
// state (a small sample, never every master), and the seeds remembered for the next opening (replaced by
// each map taken, a seed that failed forgotten). A hostile node at RATE_LIMIT_REDIS_URL that names 16,384
// nodes that never answer cost the gateway 16,349 sockets, 380 MiB and seconds of a blocked event loop
// before these bounds (issue 37); one range [0, 4294967295] cost it 2 GB and a crash (issue 41).
import type { NodeAddress } from './redis-link.ts';

/**
 * Most distinct nodes taken from one slot map. A real cluster has at most a few hundred (Redis advises
 * no more than 1,000 nodes); ioredis makes one client per node, about 25 µs and 6 KiB each.
 */
export const MAX_MAP_NODES = 1000;

/** Masters asked for `cluster_state` at each opening. */
export const STATE_SAMPLE = 3;

/** Most nodes remembered as seeds of the next opening. */
export const MAX_SEEDS = 64;

/** "The cluster has 16384 slots" (Redis Cluster specification, key distribution model). */
const SLOTS = 16_384;

/**
 * Why a `CLUSTER SLOTS` reply is not taken, or undefined when it is. The reply is an array of
 * `[start, end, [host, port, id…], replicas…]`: the ranges must lie in 0–16383 and cover at most 16,384
 * slots in all (ranges of a real map never overlap, and ioredis walks every slot of every range), and
 * the map may name at most `maxNodes` distinct nodes.
 */
export function slotMapRefusal(reply: unknown, maxNodes = MAX_MAP_NODES): string | undefined {
  if (!Array.isArray(reply)) return 'CLUSTER SLOTS answered no array';
  const nodes = new Set<string>();
  let slots = 0;
  for (const entry of reply as unknown[]) {
    if (!Array.isArray(entry) || entry.length < 3) return 'CLUSTER SLOTS answered an entry that is no slot range';
    const [start, end] = entry as unknown[];
    if (!isSlot(start) || !isSlot(end) || end < start) return 'CLUSTER SLOTS answered a slot range out of bounds';
    slots += end - start + 1;
    if (slots > SLOTS) return `CLUSTER SLOTS answered ranges over more than ${SLOTS} slots`;
    for (let i = 2; i < entry.length; i++) {
      const node: unknown = entry[i];
      if (!Array.isArray(node) || typeof node[0] !== 'string' || !isPort(node[1])) {
        return 'CLUSTER SLOTS answered a node that is no address';
      }
      nodes.add(`${node[0]}:${node[1]}`);
      if (nodes.size > maxNodes) return tooManyNodes(maxNodes);
    }
  }
  return undefined;
}

export const tooManyNodes = (maxNodes = MAX_MAP_NODES) => `the cluster names more than ${maxNodes} nodes`;

const isSlot = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) < SLOTS;
const isPort = (n: unknown) => Number.isInteger(n) && (n as number) > 0 && (n as number) < 65_536;

/**
 * The masters asked for the cluster's state: `first` (the URL's node) when it is one, then the others
 * in the order of their address, at most `size`. Always the same ones for the same map, so that an
 * outage is said with the same reason at every attempt.
 */
export function stateSample(masters: readonly string[], first: string, size = STATE_SAMPLE): string[] {
  const rest = masters.filter((m) => m !== first).sort();
  return (masters.includes(first) ? [first, ...rest] : rest).slice(0, size);
}

/**
 * The seeds of the next opening besides the URL's node: the nodes of the last map taken (replaced,
 * never accumulated across maps), less those that failed since.
 */
export class ClusterSeeds {
  readonly #nodes = new Map<string, NodeAddress>();
  constructor(readonly max = MAX_SEEDS) {}

  get size(): number {
    return this.#nodes.size;
  }
  list(): NodeAddress[] {
    return [...this.#nodes.values()];
  }
  /** The nodes of a map just taken become the seeds. */
  replace(nodes: Iterable<NodeAddress>): void {
    this.#nodes.clear();
    for (const node of nodes) this.add(node);
  }
  /** A node the cluster named since (a replica promoted, a node a MOVED pointed to). */
  add(node: NodeAddress): void {
    if (this.#nodes.size < this.max) this.#nodes.set(keyOf(node), node);
  }
  /** A seed that could not be reached or answered nonsense is not asked again. */
  forget(key: string): void {
    this.#nodes.delete(key);
  }
}

export const keyOf = (node: NodeAddress) => `${node.host}:${node.port}`;
