// A "Redis" on loopback that speaks RESP2 but answers what the test says: nonsense, nothing, or a bulk
// string that never ends. It reads commands as a client sends them (arrays of bulk strings, or inline
// lines) and counts them, so tests can tell what the gateway asked and whether it hung up. It can also
// play a one-node Redis Cluster (asClusterNode) whose cluster_state the test sets, or the seed of a hostile
// "cluster" (asHostileSeed) whose slot map names thousands of nodes that accept and never answer
// (startBlackHole), or one whose map is cheap to send and costly to walk (asWalkBombSeed).
import { createServer, type AddressInfo, type Socket } from 'node:net';

/** A raw reply, `undefined` for none at all (the store hangs), or ENDLESS: `$999999999` and then bytes forever. */
export type FakeAnswer = string | undefined | typeof ENDLESS;
export const ENDLESS = Symbol('endless bulk reply');

export interface FakeRedis {
  port: number;
  url: string;
  /** Every command received, as its words (the first upper-cased). */
  commands: string[][];
  connections: number;
  /** Connections the client closed (not the fake). */
  closedByClient: number;
  /** Bytes of endless replies written before the client hung up. */
  endlessBytes: number;
  /** Resolves when the client has closed a connection that was receiving an endless reply. */
  endlessClosed: Promise<void>;
  close(): Promise<void>;
}

/**
 * The handshake answered as a standalone Redis does (PING, and CLUSTER INFO refused because cluster
 * support is off), everything else by `answer`.
 */
export const withPong =
  (answer: (command: string[]) => FakeAnswer) =>
  (command: string[]): FakeAnswer =>
    command[0] === 'PING'
      ? '+PONG\r\n'
      : command[0] === 'CLUSTER'
        ? '-ERR This instance has cluster support disabled\r\n'
        : answer(command);

/**
 * A node of a Redis Cluster whose every slot one master owns: CLUSTER INFO answers
 * `cluster_state:<state()>`, CLUSTER SLOTS names the master on 127.0.0.1:`owner` (by default this fake:
 * a one-node cluster) for slots 0 to 16383, PING answers PONG, CLIENT (ioredis names its slot-map
 * connection) OK, everything else `answer`.
 */
export const asClusterNode =
  (state: () => string, answer: (command: string[]) => FakeAnswer, owner?: () => number) =>
  (command: string[], fake: FakeRedis): FakeAnswer => {
    if (command[0] === 'PING') return '+PONG\r\n';
    if (command[0] === 'CLIENT') return '+OK\r\n';
    if (command[0] !== 'CLUSTER') return answer(command);
    const sub = command[1]?.toUpperCase();
    if (sub === 'INFO') return bulk(`cluster_state:${state()}\r\ncluster_slots_assigned:16384\r\n`);
    if (sub === 'SLOTS')
      return `*1\r\n*3\r\n:0\r\n:16383\r\n*3\r\n${bulk('127.0.0.1')}:${owner?.() ?? fake.port}\r\n${bulk('f'.repeat(40))}`;
    return '-ERR unknown subcommand\r\n';
  };

/**
 * The seed of a hostile "cluster": CLUSTER INFO answers `cluster_state:ok`, CLUSTER SLOTS hands the
 * 16,384 slots out, in equal ranges, to `nodes()` masters (at most one per slot), each named by its own
 * loopback address (127.1.0.1, 127.1.0.2, …) on `port` (a black hole: startBlackHole), PING answers
 * PONG, everything else `answer`. A map of 0 nodes is a healthy one-node cluster (this fake owns every
 * slot), so a test can turn the attack on and off.
 */
export const asHostileSeed =
  (nodes: () => number, port: number, answer: (command: string[]) => FakeAnswer) =>
  (command: string[], fake: FakeRedis): FakeAnswer => {
    const count = Math.min(nodes(), 16_384);
    if (count === 0 || command[0] !== 'CLUSTER' || command[1]?.toUpperCase() !== 'SLOTS') {
      return asClusterNode(() => 'ok', answer)(command, fake);
    }
    if (hostileReplies.get(port)?.count === count) return hostileReplies.get(port)!.reply;
    const parts = [`*${count}\r\n`];
    for (let i = 0; i < count; i++) {
      const first = Math.floor((i * 16_384) / count);
      const last = Math.floor(((i + 1) * 16_384) / count) - 1;
      const host = `127.1.${(i + 1) >> 8}.${(i + 1) & 255}`;
      parts.push(`*3\r\n:${first}\r\n:${last}\r\n*3\r\n${bulk(host)}:${port}\r\n${bulk(String(i).padStart(40, '0'))}`);
    }
    const reply = parts.join('');
    hostileReplies.set(port, { count, reply });
    return reply;
  };

/** The last map of each black hole's port: 1.5 MB made once, not at every ask. */
const hostileReplies = new Map<number, { count: number; reply: string }>();

/** Slot maps that cost ioredis a walk over every slot of every range they name. */
export type WalkBomb = 'range' | 'ranges';

/**
 * The seed of a one-node "cluster" that answers CLUSTER SLOTS on ioredis's slot-map connection (the one
 * it names with CLIENT SETNAME) with a map out of bounds, and every other connection, as a real node
 * does, with itself owning the 16,384 slots: a check that reads the map on a connection of its own sees
 * a healthy one. `bomb()`: `range`, one range [0, 4294967295] (about 100 bytes, four billion slots to
 * walk); `ranges`, 20,000 copies of [0, 16383] (1.8 MB, 327 million slots); undefined, healthy
 * everywhere. Everything else as asClusterNode, with `answer`.
 */
export const asWalkBombSeed =
  (bomb: () => WalkBomb | undefined, answer: (command: string[]) => FakeAnswer) =>
  (command: string[], fake: FakeRedis, connection: FakeConnection): FakeAnswer => {
    const kind = bomb();
    const slots = command[0] === 'CLUSTER' && command[1]?.toUpperCase() === 'SLOTS';
    if (kind === undefined || !slots || connection.name === undefined) {
      return asClusterNode(() => 'ok', answer)(command, fake);
    }
    const node = `*3\r\n${bulk('127.0.0.1')}:${fake.port}\r\n${bulk('f'.repeat(40))}`;
    if (kind === 'range') return `*1\r\n*3\r\n:0\r\n:4294967295\r\n${node}`;
    return `*20000\r\n${`*3\r\n:0\r\n:16383\r\n${node}`.repeat(20_000)}`;
  };

/** What the fake knows of one client connection: the name the client gave it (CLIENT SETNAME). */
export interface FakeConnection {
  name?: string;
}

/**
 * A black hole on every loopback address: it accepts connections and never answers nor closes them.
 * It listens on the wildcard address (a socket bound to 127.0.0.1 takes nothing for 127.1.0.1) and
 * drops at once any connection that does not come from loopback.
 */
export async function startBlackHole(): Promise<{ port: number; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    if (!/^(?:::ffff:)?127\./.test(socket.remoteAddress ?? '')) return void socket.destroy();
    hole.connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const hole = {
    port: 0,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => resolve());
  });
  hole.port = (server.address() as AddressInfo).port;
  return hole;
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

export async function startFakeRedis(
  answer: (command: string[], fake: FakeRedis, connection: FakeConnection) => FakeAnswer,
  options: { port?: number; maxEndlessBytes?: number } = {},
): Promise<FakeRedis> {
  const sockets = new Set<Socket>();
  let closing = false;
  let endlessClosed!: () => void;
  const fake: FakeRedis = {
    port: 0,
    url: '',
    commands: [],
    connections: 0,
    closedByClient: 0,
    endlessBytes: 0,
    endlessClosed: new Promise<void>((resolve) => (endlessClosed = resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const maxEndless = options.maxEndlessBytes ?? 64 * 2 ** 20;

  const stream = (socket: Socket) => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    socket.write('$999999999\r\n');
    const more = () => {
      while (!socket.destroyed && fake.endlessBytes < maxEndless) {
        fake.endlessBytes += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', more);
      }
    };
    socket.once('close', () => endlessClosed());
    more();
  };

  const server = createServer((socket) => {
    fake.connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      if (!closing) fake.closedByClient++;
    });
    let buffer = Buffer.alloc(0);
    const connection: FakeConnection = {};
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const parsed = parseCommand(buffer);
        if (parsed === undefined) return;
        buffer = buffer.subarray(parsed.used);
        const command = [parsed.words[0]!.toUpperCase(), ...parsed.words.slice(1)];
        fake.commands.push(command);
        if (command[0] === 'CLIENT' && command[1]?.toUpperCase() === 'SETNAME') connection.name = command[2];
        const reply = answer(command, fake, connection);
        if (reply === ENDLESS) return stream(socket);
        if (reply !== undefined) socket.write(reply);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `redis://127.0.0.1:${fake.port}`;
  return fake;
}

/** One command from the start of `buffer`: a RESP array of bulk strings or an inline line. */
function parseCommand(buffer: Buffer): { words: string[]; used: number } | undefined {
  const lineEnd = (from: number) => {
    const i = buffer.indexOf('\r\n', from);
    return i === -1 ? undefined : i;
  };
  const first = lineEnd(0);
  if (first === undefined) return undefined;
  if (buffer[0] !== 0x2a) {
    const words = buffer.toString('utf8', 0, first).trim().split(/\s+/);
    return { words, used: first + 2 };
  }
  const count = Number(buffer.toString('latin1', 1, first));
  const words: string[] = [];
  let at = first + 2;
  for (let i = 0; i < count; i++) {
    const end = lineEnd(at);
    if (end === undefined) return undefined;
    const length = Number(buffer.toString('latin1', at + 1, end));
    if (buffer.length < end + 2 + length + 2) return undefined;
    words.push(buffer.toString('utf8', end + 2, end + 2 + length));
    at = end + 2 + length + 2;
  }
  return { words, used: at };
}
