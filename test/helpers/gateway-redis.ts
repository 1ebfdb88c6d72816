// A private redis-server for quota tests: its own port, no persistence, started and killed by the test,
// so tests can stop Redis mid-run and never collide with other runs on the machine's shared Redis.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IS_CI } from './ci.ts';
import { freePort } from '../fakes/ports.ts';

export const REDIS_SERVER = (() => {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
})();

/** Skip the Redis tests only on a developer machine without redis-server; under CI a missing one fails them. */
export const SKIP_REDIS = REDIS_SERVER === undefined && !IS_CI;

export interface PrivateRedis {
  port: number;
  url: string;
  /** Starts (again) on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Kills it; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGSTOP: the process stays, its port accepts connections, nothing is answered (a hung Redis). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

export async function privateRedis(): Promise<PrivateRedis> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server is not installed');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        REDIS_SERVER!,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--enable-debug-command',
          'local',
        ],
        { stdio: 'ignore' },
      );
      for (let i = 0; i < 100; i++) {
        if (await answersPing(port)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`redis-server on ${port} did not start`);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async stop() {
      const c = child;
      child = undefined;
      if (c === undefined || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
  };
  await redis.start();
  return redis;
}

export interface ClusterNode {
  port: number;
  url: string;
  /** Kills the node (SIGKILL: `kill -9`); resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on its port with its cluster config file (it rejoins); resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGSTOP: the node stays, its port accepts connections, nothing is answered. */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

export interface PrivateCluster {
  /** One redis:// URL per node. */
  urls: string[];
  nodes: ClusterNode[];
  stop(): Promise<void>;
}

/** Every cluster node running, killed when the test process exits however it ends. */
const clusterChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of clusterChildren) child.kill('SIGKILL');
});

const exited = (c: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });

/**
 * A Redis Cluster of `nodes` private redis-servers (cluster mode, every slot assigned, `replicas` replicas
 * per master), joined with `redis-cli --cluster create` as an operator would; resolves once every node
 * says cluster_state:ok and every replica has synced with its master. Each node's cluster bus gets its own free port (the default, port + 10000, may
 * be taken or out of range). `nodeTimeoutMs` is `cluster-node-timeout`: how long a node may be silent
 * before the others fail it over.
 */
export async function privateRedisCluster(
  nodes = 3,
  options: { replicas?: number; nodeTimeoutMs?: number } = {},
): Promise<PrivateCluster> {
  if (REDIS_SERVER === undefined) throw new Error('redis-server is not installed');
  const server = REDIS_SERVER;
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const members: ClusterNode[] = [];
  const owned = new WeakSet<ChildProcess>();
  const stop = async () => {
    const children = [...clusterChildren].filter((c) => owned.has(c));
    await Promise.all(children.map(exited));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < nodes; i++) {
      const port = await freePort();
      const bus = await freePort();
      let child: ChildProcess | undefined;
      const node: ClusterNode = {
        port,
        url: `redis://127.0.0.1:${port}`,
        async start() {
          const c = spawn(
            server,
            [
              '--port',
              String(port),
              '--cluster-port',
              String(bus),
              '--bind',
              '127.0.0.1',
              '--cluster-enabled',
              'yes',
              '--cluster-config-file',
              join(dir, `nodes-${port}.conf`),
              '--cluster-node-timeout',
              String(options.nodeTimeoutMs ?? 15_000),
              '--dir',
              dir,
              '--save',
              '',
              '--appendonly',
              'no',
            ],
            { stdio: 'ignore' },
          );
          child = c;
          owned.add(c);
          clusterChildren.add(c);
          c.once('exit', () => clusterChildren.delete(c));
          await waitFor(() => answersPing(port), `redis-server on ${port} did not start`);
        },
        async kill() {
          if (child !== undefined) await exited(child);
        },
        pause: () => void child?.kill('SIGSTOP'),
        resume: () => void child?.kill('SIGCONT'),
      };
      members.push(node);
    }
    await Promise.all(members.map((m) => m.start()));
    const cli = server.replace(/redis-server$/, 'redis-cli');
    await promisify(execFile)(cli, [
      '--cluster',
      'create',
      ...members.map((m) => `127.0.0.1:${m.port}`),
      '--cluster-replicas',
      String(options.replicas ?? 0),
      '--cluster-yes',
    ]);
    for (const { port } of members) {
      await waitFor(async () => /cluster_state:ok/.test(await inline(port, 'CLUSTER INFO')), `node ${port} never ok`);
      // A replica that never synced with its master refuses to replace it (its data are too old to trust).
      await waitFor(async () => {
        const replication = await inline(port, 'INFO replication');
        return /role:master/.test(replication) || /master_link_status:up/.test(replication);
      }, `replica ${port} never synced`);
    }
    return { urls: members.map((m) => m.url), nodes: members, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitFor(check: () => Promise<boolean>, failure: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(failure);
}

/** One inline command's raw answer (empty when none came within 500 ms). */
export function inline(port: number, command: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(answer);
    });
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (d: Buffer) => {
      answer += d.toString();
      if (/\r\n$/.test(answer) && (!answer.startsWith('$') || answer.split('\r\n').length > 2)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', () => resolve(answer));
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(200);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d: Buffer) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
