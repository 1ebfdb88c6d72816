// The link of the Redis quota store (docs/gateway.md#the-quota): one ioredis connection to a standalone
// Redis, or an ioredis Cluster client, opened within one deadline and dropped at the first thing wrong.
//
// ioredis is configured for a hostile store: RESP2 and no ready check (nothing is sent but AUTH, SELECT
// and what this file and the store send), no offline queue (a command on a closed link fails at once), no
// retry of a command and no reconnection of its own (the store's circuit breaker decides), a command
// timeout, and a cap on the bytes received without an answer (an endless bulk string is refused early).
//
// Opening is bounded whatever the store does: the connect deadline covers every step (connection,
// handshake, the cluster's slot map and state), and a client that ends meanwhile fails the opening at
// once. ioredis alone does not bound it: a Cluster client whose ready check fails with its retry strategy
// off ends without settling the promise of connect(), which left the store opening for ever (issue 27).
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { isIP, type Socket } from 'node:net';
import type { RedisTarget } from '../../lib/redis-url.ts';

/**
 * Bytes received with no command answered: the quota script answers one integer per key, at most
 * 1,000 keys a call (redis-store.ts), about 15 KB, so this much without an answer is no answer of
 * ours (an endless bulk string).
 */
const MAX_UNANSWERED_BYTES = 1024 * 1024;

/**
 * Error codes Redis puts first in an error reply. Only these are named in a log line: the rest of an
 * error reply is the store's own text, which may quote what it was sent (a password in AUTH).
 */
const REDIS_ERROR_CODES = new Set([
  'ERR',
  'WRONGPASS',
  'NOAUTH',
  'NOPERM',
  'NOSCRIPT',
  'OOM',
  'BUSY',
  'LOADING',
  'READONLY',
  'MASTERDOWN',
  'MISCONF',
  'MOVED',
  'ASK',
  'CROSSSLOT',
  'CLUSTERDOWN',
  'TRYAGAIN',
  'WRONGTYPE',
  'NOREPLICAS',
  'EXECABORT',
]);

export interface NodeAddress {
  host: string;
  port: number;
}

/** One connection (or one Cluster client) that has shaken hands; dropped at the first thing wrong. */
export interface Link {
  client: Redis | Cluster;
  /** Bytes received since the last answer; see MAX_UNANSWERED_BYTES. */
  unanswered: number;
  /** Only an open link reports its failure: one that fails while opening rejects the opening instead. */
  state: 'opening' | 'open' | 'dropped';
  /** The last error a connection emitted: a refused AUTH closes the connection and says why only there. */
  lastError?: unknown;
}

export interface LinkEvents {
  /** An open link failed: `badAnswer` when the store's answer, not the connection, was at fault. */
  onDown: (link: Link, reason: string, badAnswer?: boolean) => void;
  /** A node of the cluster the link belongs to (a seed of the next opening). */
  onNode: (node: NodeAddress) => void;
}

/**
 * Opens a link within `connectTimeoutMs`. With no `clusterNodes` known, the URL's node is asked first
 * (AUTH and SELECT from the URL, PING, then CLUSTER INFO): a standalone Redis refuses CLUSTER INFO and is
 * used alone; a cluster node makes the link a Cluster client. Once a cluster is known, the next link is a
 * Cluster client seeded with the URL's node and every node the cluster named, so that it is found again
 * when the URL's node is the master that failed. (A URL whose node leaves cluster mode for good is
 * therefore followed only after a restart of the gateway.)
 */
export type OpenLink = (clusterNodes: readonly NodeAddress[], events: LinkEvents) => Promise<Link>;

/** A failure of opening stated by this file (never in the store's words). */
export class HandshakeError extends Error {
  override readonly name = 'HandshakeError';
}

/** The failure of a store, named without its text: the error's class and, for an error reply, its code. */
export function describeStoreError(error: unknown): string {
  if (!(error instanceof Error)) return 'a failure that is no Error';
  if (error instanceof HandshakeError) return error.message;
  const code = /^([A-Z]+)(?:\s|$)/.exec(error.message)?.[1];
  if (error.name === 'ReplyError') return code !== undefined && REDIS_ERROR_CODES.has(code) ? code : 'ReplyError';
  // A system error (a refused or reset connection) is named by its code, without the address.
  const system = (error as NodeJS.ErrnoException).code;
  if (typeof system === 'string' && /^E[A-Z]{2,20}$/.test(system)) return system;
  // ioredis's own errors (a closed connection, a timeout) say nothing the store sent.
  return error.name === 'Error' ? oneWord(error.message) : error.name;
}

/** The first words of a client-side message ("Connection is closed."), never more than a few. */
const oneWord = (message: string) => message.split(/[.:]/)[0]!.slice(0, 60) || 'Error';

/** What kind of reply `value` is, for a log line: never its content. */
export function shapeOf(value: unknown): string {
  if (value === null) return 'a nil reply';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'an integer';
  return `a ${typeof value} reply`;
}

export function linkOpener(target: RedisTarget, timing: { connectTimeoutMs: number; deadlineMs: number }): OpenLink {
  const nodeOptions = clientOptions(target, timing.connectTimeoutMs, timing.deadlineMs);
  const clusterOptions = clusterClientOptions(nodeOptions, timing.connectTimeoutMs);
  const urlNode = { host: target.host, port: target.port };
  const { connectTimeoutMs } = timing;

  return (clusterNodes, events) =>
    new Promise<Link>((resolve, reject) => {
      let current: Link | undefined;
      let settled = false;
      const giveUp = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        const reason =
          error instanceof HandshakeError ? error.message : describeStoreError(current?.lastError ?? error);
        if (current !== undefined) drop(current);
        reject(error instanceof HandshakeError ? error : new HandshakeError(`no connection (${reason})`));
      };
      const deadline = setTimeout(
        () => giveUp(new HandshakeError(`no connection within ${connectTimeoutMs} ms`)),
        connectTimeoutMs,
      );
      /** Makes `link` the one this opening drops if it fails; the one before it is done with. */
      const use = (link: Link) => {
        if (settled) {
          drop(link);
          throw new HandshakeError('opening abandoned');
        }
        const previous = current;
        current = link;
        link.client.once('end', () => {
          if (current === link) giveUp(new Error('Connection is closed.'));
        });
        if (previous !== undefined) drop(previous);
      };
      const opening =
        clusterNodes.length === 0
          ? probe(nodeOptions, events, use)
          : openCluster([urlNode, ...clusterNodes], clusterOptions, events, use);
      opening.then((link) => {
        if (settled) return; // given up meanwhile, and dropped by giveUp
        settled = true;
        clearTimeout(deadline);
        resolve(link);
      }, giveUp);
    });

  async function probe(options: RedisOptions, events: LinkEvents, use: (link: Link) => void): Promise<Link> {
    const node = new Redis(options);
    const link: Link = { client: node, unanswered: 0, state: 'opening' };
    use(link);
    watch(link, node, events.onDown);
    await node.connect();
    const pong: unknown = await node.ping();
    if (pong !== 'PONG') throw new HandshakeError(`PING answered ${shapeOf(pong)}, not PONG`);
    // A standalone Redis refuses CLUSTER INFO (ERR … cluster support disabled), so does a user without
    // the permission (NOPERM): either way the URL's node is used alone.
    const info: unknown = await node.call('CLUSTER', 'INFO').catch((error: unknown) => error);
    if (info instanceof Error) return link;
    if (typeof info !== 'string' || !/^cluster_state:/m.test(info)) {
      throw new HandshakeError(`CLUSTER INFO answered ${shapeOf(info)}`);
    }
    events.onNode(urlNode);
    return openCluster([urlNode], clusterOptions, events, use);
  }
}

function drop(link: Link) {
  link.state = 'dropped';
  link.client.disconnect();
}

/** ioredis options of one connection: every automatic behaviour that could queue or repeat is off. */
function clientOptions(target: RedisTarget, connectTimeoutMs: number, deadlineMs: number): RedisOptions {
  return {
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    db: target.db,
    // TLS verifies the server against Node's CA store; a private CA: NODE_EXTRA_CA_CERTS (docs/gateway.md).
    tls: target.tls ? { servername: isIP(target.host) === 0 ? target.host : undefined } : undefined,
    // RESP2, no HELLO: what every Redis since 2.6 answers, and nothing to negotiate with a broken store.
    protocol: 2,
    disableClientInfo: true,
    lazyConnect: true,
    enableReadyCheck: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    reconnectOnError: () => false,
    autoResendUnfulfilledCommands: false,
    autoResubscribe: false,
    connectTimeout: connectTimeoutMs,
    commandTimeout: deadlineMs,
    keepAlive: 10_000,
    noDelay: true,
  };
}

function clusterClientOptions(nodeOptions: RedisOptions, connectTimeoutMs: number): ClusterOptions {
  const { host: _host, port: _port, retryStrategy: _retry, enableOfflineQueue: _queue, ...redisOptions } = nodeOptions;
  return {
    // A cluster has only database 0; SELECT is refused there.
    redisOptions: { ...redisOptions, db: 0 },
    lazyConnect: true,
    enableOfflineQueue: false,
    // The cluster's state is asked below: ioredis's own ready check ends the client without a word.
    enableReadyCheck: false,
    clusterRetryStrategy: () => null,
    // A MOVED or ASK is followed (the slot map is refreshed); more than two in a row is no answer.
    maxRedirections: 2,
    retryDelayOnMoved: 0,
    // Seeds are asked for the slot map one after another: a frozen one leaves time for the next.
    slotsRefreshTimeout: Math.max(50, Math.floor(connectTimeoutMs / 2)),
    scaleReads: 'master',
  };
}

/** The Cluster client, once it has the slot map and a node says cluster_state:ok. */
async function openCluster(
  seeds: NodeAddress[],
  options: ClusterOptions,
  events: LinkEvents,
  use: (link: Link) => void,
): Promise<Link> {
  const cluster = new Cluster(uniqueNodes(seeds), options);
  const link: Link = { client: cluster, unanswered: 0, state: 'opening' };
  use(link);
  cluster.on('+node', (node: Redis) => {
    watch(link, node, events.onDown);
    events.onNode({ host: node.options.host!, port: node.options.port! });
  });
  cluster.on('node error', (error: unknown) => void (link.lastError = error));
  cluster.on('error', () => {});
  cluster.on('end', () => {
    if (link.state === 'open') events.onDown(link, 'connection closed');
  });
  await cluster.connect();
  // A cluster that lost a master and its replicas still hands out its slot map, but refuses every key
  // (CLUSTERDOWN) until it is whole again: it carries no decisions while a master it names says so.
  // Every master is asked, not one at random, so that the reason said is the same at every attempt.
  const answers = await Promise.allSettled(cluster.nodes('master').map((node) => node.call('CLUSTER', 'INFO')));
  let reached = false;
  for (const answer of answers) {
    if (answer.status === 'rejected') continue;
    reached = true;
    const info: unknown = answer.value;
    const state = typeof info === 'string' ? /^cluster_state:(\w{1,16})\r?$/m.exec(info)?.[1] : undefined;
    if (state === undefined) throw new HandshakeError(`CLUSTER INFO answered ${shapeOf(info)}`);
    if (state !== 'ok') throw new HandshakeError(`the cluster is down (cluster_state:${state})`);
  }
  if (!reached) throw answers.find((a) => a.status === 'rejected')?.reason ?? new Error('no master');
  return link;
}

function uniqueNodes(nodes: NodeAddress[]): NodeAddress[] {
  const byKey = new Map<string, NodeAddress>();
  for (const node of nodes) byKey.set(`${node.host}:${node.port}`, node);
  return [...byKey.values()];
}

/** Follows one connection: a failure drops the link, and bytes without an answer are capped. */
function watch(link: Link, node: Redis, onDown: LinkEvents['onDown']) {
  // Without a listener ioredis prints the error itself, store text and all; the reason is stated elsewhere.
  node.on('error', (error: unknown) => void (link.lastError = error));
  node.on('connect', () => {
    const socket = node.stream as Socket | undefined;
    socket?.on('data', (chunk: Buffer) => {
      link.unanswered += chunk.length;
      if (link.unanswered <= MAX_UNANSWERED_BYTES || link.state === 'dropped') return;
      if (link.state === 'open') return onDown(link, `more than ${MAX_UNANSWERED_BYTES} bytes without an answer`, true);
      drop(link);
    });
  });
  if (link.client === node) {
    node.on('end', () => {
      if (link.state === 'open') onDown(link, 'connection closed');
    });
  }
}

/** Bytes written on the link's connections and not yet taken by the store. */
export function unsentBytes(client: Redis | Cluster): number {
  if (client instanceof Redis) return (client.stream as Socket | undefined)?.writableLength ?? 0;
  let bytes = 0;
  for (const node of client.nodes()) bytes += (node.stream as Socket | undefined)?.writableLength ?? 0;
  return bytes;
}
