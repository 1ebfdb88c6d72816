// Test helpers of the gateway: a dist/ fixture with awkward files beside normal ones, the gateway in
// process (injectable clock) or as the real program (.build/gateway.mjs), and raw HTTP clients that
// send a request target exactly as written (fetch would normalise "..", "%2e" and backslashes away).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig, type Config } from '../../builders/lib/config.ts';
import { startGateway, type Gateway, type GatewayOptions } from '../../gateway/server.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, cleanEnv, HANG_GUARD_MS, ROOT, runProgram, upstreamEnv } from './run.ts';
import { GATEWAY_NODE_FLAGS } from '../../gateway/node-flags.ts';
import { compressedArtifacts } from '../../builders/build/compressed-artifacts.ts';

/** Marker text of files that must never be served. */
export const SECRET = 'TOP-SECRET-MUST-NOT-LEAK';

export interface DistFixture {
  /** The parent folder; it holds secret.txt outside dist/. */
  base: string;
  dist: string;
}

/**
 * A small site: pages, discovery files, and files the gateway must refuse (dot-files, links out). As a
 * build does, it writes the compressed copies (`x.br`, `x.gz`) beside each file the build compresses,
 * with the build's own function (builders/build/compressed-artifacts.ts, which compresses a body once per
 * process): the gateway loads them instead of compressing at start, which was most of the CPU time of the
 * tests' hundred or so gateway starts. test/compressed-copies.test.ts removes a file's copies to see the
 * gateway compress it itself.
 */
export async function makeDist(files: Record<string, string | Buffer> = {}): Promise<DistFixture> {
  const base = await mkdtemp(join(tmpdir(), 'gateway-'));
  const dist = join(base, 'dist');
  const longText = Array.from({ length: 400 }, (_, i) => `Line ${i}: the developer page explains every route.`).join(
    '\n',
  );
  const all: Record<string, string | Buffer> = {
    'index.html': `<!doctype html><title>Home</title><p>home page</p>\n${longText}`,
    'index.md': '---\ntitle: Home\n---\n# Home\n',
    '404.html': '<!doctype html><title>Not found</title><p>This page does not exist.</p>',
    'developers.html': `<!doctype html><title>Developers</title><h2 id="upstream-unavailable">Upstream</h2>\n${longText}`,
    'developers.md': '# Developers\n',
    'writings.html': '<!doctype html><title>Writings</title>',
    'writings/first-post.html': '<!doctype html><title>First post</title>',
    'writings/first-post.md': '# First post\n',
    'api/index.json': JSON.stringify({ authentication: 'none', routes: ['/api/v1/mon-price'] }),
    'openapi.json': JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, pad: longText }),
    '.well-known/api-catalog': JSON.stringify({ linkset: [{ anchor: 'http://localhost:8080/api' }] }),
    'llms.txt': '# Site\n',
    'llms-full.txt': `# Site\n${longText}`,
    'sitemap.xml': '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>',
    'cli.mjs': 'console.log("cli");\n',
    'fünke.txt': 'umlaut file\n',
    'with space.txt': 'space file\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array(600).fill(7)]),
    // Never served:
    '.nojekyll': '',
    '.env': `TOKEN=${SECRET}`,
    '.git/config': SECRET,
    'writings/.draft.html': SECRET,
    '.well-known/.hidden': SECRET,
    _headers: `/* X-Secret: ${SECRET}`,
    'serve.json': '{"cleanUrls": true}',
    ...files,
  };
  const written = Object.entries(all).map(([file, body]) => ({ file, body }));
  for (const { file, body } of [...written, ...(await compressedArtifacts(written))]) {
    await mkdir(dirname(join(dist, file)), { recursive: true });
    await writeFile(join(dist, file), body);
  }
  await writeFile(join(base, 'secret.txt'), SECRET);
  await symlink(join(base, 'secret.txt'), join(dist, 'linked-secret.txt'));
  await symlink(base, join(dist, 'linked-parent'));
  return { base, dist };
}

/** Configuration as the program would load it, with every upstream on the fake. */
export function gatewayConfig(fakeUrl: string, env: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    ...upstreamEnv(fakeUrl),
    HOST: '127.0.0.1',
    PORT: '0',
    UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
    SITE_URL: 'https://example.test',
    ...env,
  });
}

export interface TestGateway extends Gateway {
  stdout: string[];
  stderr: string[];
  /** Parsed access-log lines so far. */
  accessLog(): Array<Record<string, unknown>>;
}

export async function startTestGateway(
  fakeUrl: string,
  dist: string,
  env: Record<string, string | undefined> = {},
  options: Partial<GatewayOptions> = {},
): Promise<TestGateway> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const gateway = await startGateway(gatewayConfig(fakeUrl, env), {
    distDir: dist,
    stdout: (c) => void stdout.push(c),
    stderr: (c) => void stderr.push(c),
    ...options,
    // A client starved by a loaded machine may send on a keep-alive connection just as the gateway closes
    // it for idleness (5 s): fetch then fails with ECONNRESET (mcp did, at load 50). The tests' gateways
    // keep idle connections for a minute, unless a test sets its own limits; closing the gateway ends them.
    limits: { keepAliveTimeout: 60_000, ...options.limits },
  });
  return {
    ...gateway,
    stdout,
    stderr,
    accessLog: () =>
      stdout
        .join('')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One request with node:http; `path` is sent exactly as given. A fresh connection each time. */
export function get(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
        localAddress: options.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Writes raw bytes on a fresh socket and returns everything the server sent until it closed, or went
 * quiet for `quietMs` after its last byte (the first byte may take up to `firstByteMs`).
 */
export function rawExchange(
  base: string,
  bytes: string | Buffer,
  quietMs = 300,
  firstByteMs = 10_000,
): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(finish, quietMs);
    };
    socket.on('connect', () => {
      socket.write(bytes);
      timer = setTimeout(finish, firstByteMs);
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      quiet();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (e) => (chunks.length ? finish() : reject(e)));
  });
}

export interface GatewayProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /**
   * Resolves once stderr matches `pattern`, or after `ms` (the caller then asserts it). A line the gateway
   * queued before an answer is written a few milliseconds later, on another stream than the answer
   * (gateway/http/log-writer.ts), so it may arrive after the answer was read.
   */
  stderrMatch(pattern: RegExp, ms?: number): Promise<void>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/**
 * Gateways spawned and not yet exited. A test that fails between spawning and stopping one would
 * leave it running after the suite (observed: an orphan serving for half an hour); test/teardown.ts
 * kills what is left after each test file.
 */
const running = new Set<ChildProcessWithoutNullStreams>();

export async function killLeftoverGateways(): Promise<number> {
  const left = [...running];
  for (const child of left) child.kill('SIGKILL');
  await Promise.all(
    left.map(
      (child) =>
        new Promise((resolve) =>
          child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve),
        ),
    ),
  );
  return left.length;
}

/** Runs .build/gateway.mjs with a clean environment and waits for its `listening on` line. */
export function spawnGateway(
  env: Record<string, string | undefined>,
  timeoutMs = HANG_GUARD_MS,
): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...GATEWAY_NODE_FLAGS, `${ROOT}.build/gateway.mjs`], {
    cwd: ROOT,
    env: cleanEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  let err = '';
  // 'close', not 'exit': at 'exit' the child's last output may still be in the pipes.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start within ${timeoutMs} ms; stdout: ${out}; stderr: ${err}`));
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          child,
          stdout: () => out,
          stderr: () => err,
          stderrMatch: async (pattern, ms = 5000) => {
            for (const t0 = performance.now(); !pattern.test(err) && performance.now() - t0 < ms;)
              await new Promise((r) => setTimeout(r, 50));
          },
          exited,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d));
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code} before listening; stdout: ${out}; stderr: ${err}`));
    });
  });
}

/** Runs .build/gateway.mjs expecting it to exit by itself (configuration errors). */
export function runGatewayToExit(
  env: Record<string, string | undefined>,
  timeoutMs = HANG_GUARD_MS,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...GATEWAY_NODE_FLAGS, `${ROOT}.build/gateway.mjs`], {
    cwd: ROOT,
    env: cleanEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/**
 * What `npm start` runs after compiling: `build --if-stale`, then the gateway (package.json, checked in
 * test/slow/gateway-process.test.ts). The build's stderr comes first in the returned stderr, as on the terminal.
 */
export async function spawnStart(env: Record<string, string | undefined>) {
  const built = await runProgram('build', ['--if-stale'], env);
  if (built.code !== 0) throw new Error(`build --if-stale exited ${built.code}: ${built.stderr}`);
  const gw = await spawnGateway(env, 60_000);
  return { ...gw, stderr: () => built.stderr + gw.stderr(), buildStdout: built.stdout };
}
