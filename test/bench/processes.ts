// The child processes of the bench and the resilience suite: the gateway, `serve`, nginx, Redis, the
// bare node:http peers and the fake provider in its own process,
// each on a free loopback port, all registered in one group that stops every one of them at the end,
// on an error and on Ctrl-C.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startFakeUpstreams, type FakeUpstreamOptions, type FakeUpstreams } from '../fakes/upstreams.ts';
import { freePort } from '../fakes/ports.ts';
import { GATEWAY_NODE_FLAGS } from '../../gateway/node-flags.ts';
import { repoUrl } from '../../builders/lib/repo-url.ts';

/** The repository root: this file runs bundled as .build/<name>.mjs, or as source from test/bench/. */
export const ROOT = fileURLToPath(repoUrl('', import.meta.url));

export const HOST = '127.0.0.1';

/** How long a child gets after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;

export interface Managed {
  name: string;
  child: ChildProcess;
  /** The last lines of stderr, for an error message when the child fails. */
  stderrTail(): string;
  /** Resolves with the exit code (or signal name) once the child has exited. */
  exited: Promise<number | string>;
}

export const isRunning = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/** Every process this run started; `stopAll` ends each, by its own handle, never by name. */
export class ProcessGroup {
  readonly members = new Set<Managed>();

  spawn(name: string, command: string, args: string[], options: SpawnOptions = {}): Managed {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let tail: string[] = [];
    child.stderr?.on('data', (d: Buffer) => {
      tail = [...tail, ...d.toString('utf8').split('\n')].slice(-20);
    });
    const exited = new Promise<number | string>((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
      child.once('error', (error) => resolve(`spawn error: ${error.message}`));
    });
    const managed: Managed = { name, child, stderrTail: () => tail.join('\n').trim(), exited };
    this.members.add(managed);
    void exited.then(() => this.members.delete(managed));
    return managed;
  }

  /** SIGTERM, then SIGKILL after the grace period; resolves with how it exited. */
  async stop(managed: Managed, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
    if (isRunning(managed.child)) {
      managed.child.kill(signal);
      const timer = setTimeout(() => managed.child.kill('SIGKILL'), STOP_GRACE_MS);
      const result = await managed.exited;
      clearTimeout(timer);
      return result;
    }
    return managed.exited;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.members].map((m) => this.stop(m)));
  }

  /** Last resort on process exit: synchronous, so only SIGKILL is possible. */
  killAllNow(): void {
    for (const m of this.members) if (isRunning(m.child)) m.child.kill('SIGKILL');
  }
}

/**
 * Stops the group on Ctrl-C / SIGTERM (exit status 130 / 143) and kills whatever is left when the
 * process exits for any other reason. `extra` runs first (e.g. closing the in-process fake upstream).
 */
export function stopOnExit(group: ProcessGroup, extra: () => Promise<void> = async () => {}): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${signal}: stopping every process started by this run…\n`);
    void Promise.race([
      Promise.allSettled([extra(), group.stopAll()]),
      new Promise((r) => setTimeout(r, STOP_GRACE_MS + 1000)),
    ]).then(() => {
      group.killAllNow();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => group.killAllNow());
}

/**
 * The frame of a measuring program: a process group, a temporary folder and fake upstreams, all
 * stopped and removed when `work` ends, fails, or the program gets SIGINT/SIGTERM.
 */
export async function withHarness<T>(
  name: string,
  fakeOptions: FakeUpstreamOptions,
  work: (group: ProcessGroup, tmp: string, fake: FakeUpstreams) => Promise<T>,
): Promise<T> {
  const group = new ProcessGroup();
  const tmp = await mkdtemp(join(tmpdir(), `${name}-`));
  let fake: FakeUpstreams | undefined;
  const cleanup = async () => {
    await fake?.close();
    await rm(tmp, { recursive: true, force: true });
  };
  stopOnExit(group, cleanup);
  try {
    fake = await startFakeUpstreams(fakeOptions);
    return await work(group, tmp, fake);
  } finally {
    await group.stopAll();
    await cleanup();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once a TCP connection to the port succeeds; rejects when the child exits or time runs out. */
export async function waitForPort(port: number, managed: Managed, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (!isRunning(managed.child))
      throw new Error(`${managed.name} exited before listening: ${managed.stderrTail() || 'no output'}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, HOST);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (performance.now() > deadline)
      throw new Error(`${managed.name} did not listen on ${HOST}:${port} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Resident set size of a process in bytes (Linux /proc), NaN elsewhere or once it has exited. */
export function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Open file descriptors of a process (Linux /proc), NaN elsewhere or once it has exited. */
export function openDescriptors(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on every mainstream Linux). */
const USER_HZ = 100;

/** The pids of a process's direct children (nginx's workers), from /proc. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds (user + system) used so far by a process and its direct children; NaN off Linux. */
export function cpuSeconds(pid: number): number {
  let total = 0;
  for (const p of [pid, ...childPids(pid)]) {
    try {
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / USER_HZ;
    } catch {
      return Number.NaN;
    }
  }
  return total;
}

/** An executable on PATH (or in the sbin folders PATH often lacks for non-root users), or undefined. */
export function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  return dirs.map((d) => join(d, name)).find((p) => p && existsSync(p));
}

// ---------------------------------------------------------------------------------------------------
// The gateway

export const GATEWAY_ENTRY = join(ROOT, '.build', 'gateway.mjs');

export interface Gateway {
  managed: Managed;
  url: string;
  pid: number;
  /** Milliseconds from spawn to the `listening on` line. */
  startMs: number;
  /** Every stdout line after `listening on` is handed here (access log); by default they are dropped. */
  onLine: (line: string) => void;
}

/**
 * The address of the child's one `listening on http://…` line (docs/configuration.md#commands), and when it came; every
 * later stdout line goes to `later`. Rejects when the child exits first or prints none in time.
 */
function listeningOn(
  managed: Managed,
  timeoutMs: number,
  later: (line: string) => void = () => {},
): Promise<{ url: string; atMs: number; lines: Interface }> {
  const lines = createInterface({ input: managed.child.stdout! });
  let listening = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${managed.name} printed no "listening on" line within ${timeoutMs} ms`)),
      timeoutMs,
    );
    void managed.exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`${managed.name} exited (${how}) before listening: ${managed.stderrTail() || 'no output'}`));
    });
    lines.on('line', (line) => {
      if (listening) return later(line);
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (!match) return;
      listening = true;
      clearTimeout(timer);
      resolve({ url: match[1]!.replace(/\/$/, ''), atMs: performance.now(), lines });
    });
  });
}

/**
 * Starts the gateway with PORT=0 and reads its address from the one `listening on http://…` line
 * (docs/configuration.md#commands). `env` is the complete environment of the child.
 */
export async function startGateway(
  group: ProcessGroup,
  env: Record<string, string>,
  options: {
    name?: string;
    entry?: string;
    timeoutMs?: number;
    nodeArgs?: string[];
    /**
     * Drain the access log after `listening on` without splitting it into lines (onLine is then never
     * called): the gateway writes every line as deployed, and its reader costs no more CPU than
     * nginx's log file, which matters when the reader shares two cores with the servers under load.
     */
    discardLog?: boolean;
  } = {},
): Promise<Gateway> {
  const entry = options.entry ?? GATEWAY_ENTRY;
  if (!existsSync(entry)) throw new Error(`the gateway is not built (${entry} is missing)`);
  const started = performance.now();
  const managed = group.spawn(
    options.name ?? 'gateway',
    process.execPath,
    [...GATEWAY_NODE_FLAGS, ...(options.nodeArgs ?? []), entry],
    {
      cwd: ROOT,
      env: { ...env, HOST, PORT: '0' },
    },
  );
  const gateway: Gateway = { managed, url: '', pid: managed.child.pid ?? -1, startMs: Number.NaN, onLine: () => {} };
  const listening = await listeningOn(managed, options.timeoutMs ?? 15_000, (line) => gateway.onLine(line)).catch(
    async (error: unknown) => {
      await group.stop(managed, 'SIGKILL');
      throw error;
    },
  );
  gateway.startMs = listening.atMs - started;
  gateway.url = listening.url;
  if (options.discardLog) {
    listening.lines.close();
    managed.child.stdout!.removeAllListeners('data');
    managed.child.stdout!.resume();
  }
  return gateway;
}

// ---------------------------------------------------------------------------------------------------
// The peers: serve and nginx

export const SERVE_MAIN = join(ROOT, 'node_modules', 'serve', 'build', 'main.js');

export interface Peer {
  managed: Managed;
  url: string;
  pid: number;
  version: string;
}

export const BARE_NODE_MAIN = join(ROOT, 'test', 'bench', 'bare-server.mjs');
export const BARE_PROXY_MAIN = join(ROOT, 'test', 'bench', 'bare-proxy.mjs');
export const FAKE_UPSTREAMS_ENTRY = join(ROOT, '.build', 'fake-upstreams.mjs');

/** A plain-JavaScript peer of the bench run by `node` as it is: `script <port> ...args`, its stdout drained. */
async function startNodePeer(
  group: ProcessGroup,
  name: string,
  script: string,
  args: string[],
  version: string,
): Promise<Peer> {
  const port = await freePort();
  const managed = group.spawn(name, process.execPath, [script, String(port), ...args], { cwd: ROOT });
  managed.child.stdout!.resume();
  await waitForPort(port, managed);
  return { managed, url: `http://${HOST}:${port}`, pid: managed.child.pid ?? -1, version };
}

/**
 * The Node limit: test/bench/bare-server.mjs answering each `[path, file, contentType]` with the file's bytes
 * from memory, two headers, no log. The gateway's goal is a ratio of this.
 */
export function startBareNode(group: ProcessGroup, routes: [string, string, string][]): Promise<Peer> {
  return startNodePeer(group, 'node:http', BARE_NODE_MAIN, routes.flat(), `node:http ${process.version}`);
}

/**
 * The market route's Node limit: test/bench/bare-proxy.mjs answering every request with `upstream`'s bytes,
 * fetched for that request over a keep-alive node:http agent (`http`) or Node's built-in fetch (`fetch`).
 */
export function startBareProxy(
  group: ProcessGroup,
  upstream: string,
  transport: 'http' | 'fetch' = 'http',
): Promise<Peer> {
  const version = `${transport === 'http' ? 'node:http' : 'fetch'} ${process.version}`;
  return startNodePeer(group, `${transport} proxy`, BARE_PROXY_MAIN, [upstream, transport], version);
}

/**
 * The fake upstreams in a process of their own (.build/fake-upstreams.mjs), as a real provider is: a
 * client reaches it across processes, not inside its own event loop. Its address comes from its one
 * `listening on` line. `nowMs` fixes its clock (a test's); without it the fake runs on the real clock,
 * as the gateways the bench spawns do.
 */
export async function startFakeProcess(
  group: ProcessGroup,
  nowMs?: number,
): Promise<{ managed: Managed; url: string }> {
  if (!existsSync(FAKE_UPSTREAMS_ENTRY))
    throw new Error(`${FAKE_UPSTREAMS_ENTRY} is missing; run builders/tools/bundle.mjs`);
  const args = nowMs === undefined ? [] : ['--now', String(nowMs)];
  const managed = group.spawn('fake upstreams', process.execPath, [FAKE_UPSTREAMS_ENTRY, ...args], { cwd: ROOT });
  const { url } = await listeningOn(managed, 10_000).catch(async (error: unknown) => {
    await group.stop(managed, 'SIGKILL');
    throw error;
  });
  return { managed, url };
}

/** The real `serve` CLI (the one `npx serve dist` runs), with its default settings and request log. */
export async function startServe(group: ProcessGroup, dist: string): Promise<Peer> {
  const port = await freePort();
  const managed = group.spawn(
    'serve',
    process.execPath,
    [SERVE_MAIN, '--no-clipboard', '-l', `tcp://${HOST}:${port}`, dist],
    { cwd: ROOT },
  );
  managed.child.stdout!.resume(); // its request log: drained, never buffered
  await waitForPort(port, managed);
  const version = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules', 'serve', 'package.json'), 'utf8')) as { version: string }
  ).version;
  return { managed, url: `http://${HOST}:${port}`, pid: managed.child.pid ?? -1, version: `serve ${version}` };
}

/**
 * nginx serving the same folder, as a foreground child with its own prefix, configuration, pid file and
 * logs in `tmp`. One worker, like the single-process gateway; sendfile and an access log, as deployed.
 */
export async function startNginx(group: ProcessGroup, dist: string, tmp: string): Promise<Peer | undefined> {
  const binary = which('nginx');
  if (!binary) return undefined;
  const port = await freePort();
  const prefix = join(tmp, 'nginx');
  await mkdir(prefix, { recursive: true });
  const conf = `# generated by test/bench/processes.ts for one benchmark run
worker_processes 1;
${process.getuid?.() === 0 ? 'user root;' : ''}
error_log ${prefix}/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 4096; }
http {
  types { text/html html; application/json json; text/markdown md; text/plain txt; application/xml xml; text/javascript mjs; }
  # The data snapshots are extension-less JSON files.
  default_type application/json;
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  # The build writes .gz copies beside each compressible file (nginx gzip_static serves them).
  gzip_static on;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  server {
    listen ${HOST}:${port};
    root ${dist};
    location / { try_files $uri $uri.html $uri/index.html =404; }
  }
}
`;
  await writeFile(join(prefix, 'nginx.conf'), conf);
  const managed = group.spawn(
    'nginx',
    binary,
    ['-e', `${prefix}/error.log`, '-p', prefix, '-c', 'nginx.conf', '-g', 'daemon off;'],
    { cwd: prefix },
  );
  await waitForPort(port, managed);
  const version = /nginx\/(\S+)/.exec(spawnSync(binary, ['-v'], { encoding: 'utf8' }).stderr)?.[1] ?? '?';
  return { managed, url: `http://${HOST}:${port}`, pid: managed.child.pid ?? -1, version: `nginx ${version}` };
}

// ---------------------------------------------------------------------------------------------------
// Redis: always our own server on a free port, never the machine's (e.g. on 6379)

export interface RedisServer {
  managed: Managed;
  port: number;
  url: string;
  version: string;
}

export async function startRedis(group: ProcessGroup, port?: number): Promise<RedisServer | undefined> {
  const binary = which('redis-server');
  if (!binary) return undefined;
  const chosen = port ?? (await freePort());
  const managed = group.spawn(
    'redis-server',
    binary,
    ['--port', String(chosen), '--bind', HOST, '--save', '', '--appendonly', 'no'],
    { cwd: ROOT },
  );
  managed.child.stdout!.resume();
  await waitForPort(chosen, managed);
  const version = /v=(\S+)/.exec(spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout)?.[1] ?? '?';
  return { managed, port: chosen, url: `redis://${HOST}:${chosen}/0`, version: `redis ${version}` };
}
