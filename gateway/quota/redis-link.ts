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
//
// A cluster's slot map is checked in the one reply ioredis walks, never in a read of its own beside it
// (a node may answer two reads differently: issue 41): ioredis's documented reply transformer for its
// `cluster` command refuses a map out of bounds before ioredis sees it, and a connector of ours (its
// `Connector` option) caps the bytes of the connection that map arrives on.
import { AbstractConnector, Cluster, Command, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { RedisTarget } from '../../builders/lib/redis-url.ts';
import { keyOf, slotMapRefusal, stateSample } from './cluster-map.ts';

/**
 * Bytes received with no command answered: the quota script answers one integer per key, at most
 * 1,000 keys a call (redis-store.ts), about 15 KB, so this much without an answer is no answer of
 * ours (an endless bulk string).
 */
const MAX_UNANSWERED_BYTES = 1024 * 1024;

/**
 * Bytes of one slot map. A map of 1,000 nodes (cluster-map.ts), a replica each, is about 90 KB; decoding
 * 16,384 entries costs ioredis tens of milliseconds per attempt, and 20,000 ranges (1.8 MB) were seconds.
 */
export const MAX_SLOT_MAP_BYTES = 256 * 1024;

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
  /** The nodes of a cluster's slot map just taken: the seeds of the next opening. */
  onMap: (nodes: NodeAddress[]) => void;
  /** A node the cluster of an open link named since (a seed of the next opening). */
  onNode: (node: NodeAddress) => void;
  /** A seed (`host:port`) that could not be reached or failed to answer: it is not asked again. */
  onSeedFailed: (key: string) => void;
}

/**
 * Opens a link within `connectTimeoutMs`. The URL's node is asked first (AUTH and SELECT from the URL,
 * PING, then CLUSTER INFO): a standalone Redis refuses CLUSTER INFO and is used alone; a cluster node
 * must hand out a slot map within the bounds of cluster-map.ts, and the link becomes a Cluster client
 * seeded with it. When `seeds` (nodes a cluster named before) are known and the URL's node has not
 * opened a link within half the deadline, the rest of it goes to a Cluster client seeded with them, so
 * that the cluster is found again when the URL names the master that failed; a seed that fails is
 * forgotten (`onSeedFailed`). The URL's node always comes first: a node back at the URL is used at the
 * next attempt, whatever a node before it named.
 */
export type OpenLink = (seeds: readonly NodeAddress[], events: LinkEvents) => Promise<Link>;

/** A failure of opening stated by this file (never in the store's words). */
export class HandshakeError extends Error {
  override readonly name = 'HandshakeError';
}

/** A slot map refused before ioredis walked it: its store's answers are at fault. */
export class SlotMapRefused extends HandshakeError {}

/**
 * ioredis's reply transformer for its own `cluster` command, the one it reads the slot map with (its
 * `.cluster('SLOTS')`, on the connection it names `ioredis-cluster(refresher)`): ioredis walks every slot
 * of every range it is given (`for (slot = start; slot <= end; slot++)`), so one range `[0, 4294967295]`
 * took 2 GB and crashed the gateway, and 20,000 full ranges blocked it 3.3 s. A map out of the bounds of
 * cluster-map.ts is thrown here, which rejects the command: ioredis reports it as the node's error
 * (`node error`) and keeps its previous map. The gateway sends no other `cluster` command whose answer
 * is an array (its own CLUSTER INFO goes through `call`, under another name), so every array here is a
 * slot map. Process-wide, as ioredis's transformers are; registered once with this module.
 */
export function checkedClusterReply(result: unknown): unknown {
  if (!Array.isArray(result)) return result;
  const refusal = slotMapRefusal(result);
  if (refusal !== undefined) throw new SlotMapRefused(refusal);
  return result;
}
Command.setReplyTransformer('cluster', checkedClusterReply);

/** The name ioredis gives the connection it reads a slot map on (cluster/util.js getConnectionName). */
const SLOT_MAP_CONNECTION = /^ioredis-cluster\(refresher\)/;

/**
 * The `Connector` of a Cluster client's connections (ioredis's option, inherited by every node and by the
 * connection a slot map is read on): TCP, or TLS as the node options say, as ioredis's own connector
 * connects. The slot-map connection carries one answer, so it is cut at MAX_SLOT_MAP_BYTES received
 * (destroyed: ioredis's disconnect only half-closes, and what is on its way would still be decoded), and
 * `onOversized` says so. The other connections are capped by `watch` below.
 */
function slotMapCapped(onOversized: (reason: string) => void) {
  return class SlotMapCappedConnector extends AbstractConnector {
    private readonly options: RedisOptions;
    /** ioredis passes the connection's options (a node's, or the slot-map connection's). */
    constructor(options: unknown) {
      const given = options as RedisOptions;
      super(given.disconnectTimeout ?? 2000);
      this.options = given;
    }
    connect(): Promise<Socket> {
      const { host, port, tls, connectionName } = this.options;
      this.connecting = true;
      // A new socket on the next tick, as ioredis's connector does: a disconnect() before it cancels it.
      return new Promise((resolve, reject) => {
        process.nextTick(() => {
          if (!this.connecting) return reject(new Error('Connection is closed.'));
          const stream: Socket = tls ? tlsConnect({ host, port, ...tls }) : tcpConnect({ host: host!, port: port! });
          this.stream = stream;
          stream.once('error', (error) => void (this.firstError = error));
          if (SLOT_MAP_CONNECTION.test(connectionName ?? '')) {
            let received = 0;
            stream.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received <= MAX_SLOT_MAP_BYTES || stream.destroyed) return;
              stream.destroy();
              onOversized(`CLUSTER SLOTS answered more than ${MAX_SLOT_MAP_BYTES / 1024} KiB`);
            });
          }
          resolve(stream);
        });
      });
    }
  };
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

/** One way of opening tried within an opening: the URL's node, or the remembered seeds. */
interface Attempt {
  /** Whether a link of it that ends fails the whole opening (not so for the URL's node tried first). */
  fatal: boolean;
  abandoned: boolean;
  current: Link | undefined;
}

export function linkOpener(target: RedisTarget, timing: { connectTimeoutMs: number; deadlineMs: number }): OpenLink {
  const nodeOptions = clientOptions(target, timing.connectTimeoutMs, timing.deadlineMs);
  const clusterOptions = clusterClientOptions(nodeOptions, timing.connectTimeoutMs);
  const urlNode = { host: target.host, port: target.port };
  const { connectTimeoutMs } = timing;

  return (seeds, events) =>
    new Promise<Link>((resolve, reject) => {
      const attempts: Attempt[] = [];
      let settled = false;
      const abandon = (attempt: Attempt, keep?: Link) => {
        attempt.abandoned = true;
        if (attempt.current !== undefined && attempt.current !== keep) drop(attempt.current);
      };
      const giveUp = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        const lastError = attempts.at(-1)?.current?.lastError;
        for (const attempt of attempts) abandon(attempt);
        // A failure this file stated (a cap it enforced) is said as it is; the rest by its class. ioredis's
        // slot-map refresh has half the connect deadline (clusterClientOptions) and says only "timeout"
        // when it runs out: that is this opening's deadline too, said as the deadline timer says it, so
        // one silent node gives one line whichever of the two timers a loaded machine fires first.
        const stated =
          error instanceof HandshakeError ? error : lastError instanceof HandshakeError ? lastError : undefined;
        const timedOut = lastError instanceof Error && lastError.message === 'timeout';
        reject(
          stated ??
            new HandshakeError(
              timedOut
                ? `no connection within ${connectTimeoutMs} ms`
                : `no connection (${describeStoreError(lastError ?? error)})`,
            ),
        );
      };
      const deadline = setTimeout(
        () => giveUp(new HandshakeError(`no connection within ${connectTimeoutMs} ms`)),
        connectTimeoutMs,
      );
      const attempt = (fatal: boolean): Attempt => {
        const a: Attempt = { fatal, abandoned: false, current: undefined };
        attempts.push(a);
        return a;
      };
      /** Makes `link` the one `a` drops if it fails; the one before it is done with. */
      const use = (a: Attempt) => (link: Link) => {
        if (settled || a.abandoned) {
          drop(link);
          throw new HandshakeError('opening abandoned');
        }
        const previous = a.current;
        a.current = link;
        link.client.once('end', () => {
          if (a.fatal && a.current === link) giveUp(new Error('Connection is closed.'));
        });
        if (previous !== undefined) drop(previous);
      };

      /** The URL's node within half the deadline, then the seeds within the rest. */
      const urlFirst = async (): Promise<Link> => {
        const first = attempt(false);
        let timer: NodeJS.Timeout | undefined;
        const opened = await Promise.race([
          probe(nodeOptions, events, use(first)).catch(() => undefined),
          new Promise<undefined>((r) => (timer = setTimeout(r, connectTimeoutMs / 2, undefined))),
        ]);
        clearTimeout(timer);
        if (opened !== undefined && !first.abandoned) return opened;
        abandon(first);
        return openCluster(seeds, clusterOptions, events, use(attempt(true)), urlNode, true);
      };

      const opening = seeds.length === 0 ? probe(nodeOptions, events, use(attempt(true))) : urlFirst();
      opening.then((link) => {
        if (settled) return; // given up meanwhile, and dropped by giveUp
        settled = true;
        clearTimeout(deadline);
        for (const a of attempts) abandon(a, link);
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
    // The slot map is read by the Cluster client alone, checked where ioredis reads it (above).
    return openCluster([urlNode], clusterOptions, events, use, urlNode, false);
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

/**
 * The Cluster client, once it has a slot map within the bounds and a sample of its masters says
 * cluster_state:ok. `fromSeeds`: the seeds are remembered ones, and one that fails is forgotten. A map
 * refused (checkedClusterReply, slotMapCapped), at the opening or at any later refresh (a MOVED), is an
 * outage said with its reason; no node of it is connected to.
 */
async function openCluster(
  seeds: readonly NodeAddress[],
  options: ClusterOptions,
  events: LinkEvents,
  use: (link: Link) => void,
  urlNode: NodeAddress,
  fromSeeds: boolean,
): Promise<Link> {
  /** A map refused by the byte cap of its connection: an outage, said with its reason. */
  const oversized = (reason: string) => {
    link.lastError = new SlotMapRefused(reason);
    if (link.state === 'open') events.onDown(link, reason, true);
  };
  const cluster = new Cluster(uniqueNodes(seeds), {
    ...options,
    redisOptions: { ...options.redisOptions, Connector: slotMapCapped(oversized) },
  });
  const link: Link = { client: cluster, unanswered: 0, state: 'opening' };
  use(link);
  cluster.on('+node', (node: Redis) => {
    watch(link, node, events.onDown);
    if (link.state === 'open') events.onNode(addressOf(node));
  });
  cluster.on('node error', (error: unknown, key: unknown) => {
    if (error instanceof SlotMapRefused) {
      if (link.state === 'open') events.onDown(link, error.message, true);
    } else if (link.lastError instanceof SlotMapRefused) {
      return; // the connection the byte cap cut: its reason is said already
    }
    link.lastError = error;
    if (fromSeeds && typeof key === 'string') events.onSeedFailed(key);
  });
  cluster.on('error', () => {});
  cluster.on('end', () => {
    if (link.state === 'open') events.onDown(link, 'connection closed');
  });
  await cluster.connect();
  // A cluster that lost a master and its replicas still hands out its slot map, but refuses every key
  // (CLUSTERDOWN) until it is whole again: it carries no decisions while a master it names says so.
  // Every node says so once the failure is agreed, so a few masters are asked, never every one (each
  // is a connection), and always the same few for the same map, so that the reason said is the same
  // at every attempt.
  const masters = new Map(cluster.nodes('master').map((node) => [keyOf(addressOf(node)), node]));
  const sample = stateSample([...masters.keys()], keyOf(urlNode)).map((key) => masters.get(key)!);
  const answers = await Promise.allSettled(sample.map((node) => node.call('CLUSTER', 'INFO')));
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
  events.onMap(cluster.nodes('all').map(addressOf));
  return link;
}

const addressOf = (node: Redis): NodeAddress => ({ host: node.options.host!, port: node.options.port! });

function uniqueNodes(nodes: readonly NodeAddress[]): NodeAddress[] {
  const byKey = new Map<string, NodeAddress>();
  for (const node of nodes) byKey.set(keyOf(node), node);
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
      // ioredis's disconnect() only half-closes: what is already on its way would still be decoded.
      socket.destroy();
      const reason = `more than ${MAX_UNANSWERED_BYTES} bytes without an answer`;
      if (link.state === 'open') return onDown(link, reason, true);
      link.lastError = new HandshakeError(reason);
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
