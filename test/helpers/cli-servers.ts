// The two kinds of site the CLI tests read: the real `serve` package serving a built dist/, and a tiny
// gateway-less static server of our own (node:http) that can also be told to answer an error.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { CONTENT_DOCUMENTS } from '../../builders/contract/pages.ts';
import { API_INDEX, DISCOVERY } from '../../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import { ROOT } from './run.ts';

export interface Site {
  url: string;
  close(): Promise<void>;
}

export interface CannedAnswer {
  status: number;
  contentType: string;
  body: string;
  /** More headers, e.g. a redirect's Location. */
  headers?: Record<string, string>;
}

export interface StaticSite extends Site {
  /** Path -> the answer to give instead of the file (an error, a wrong body). */
  answers: Map<string, CannedAnswer>;
  /** Paths requested, in order. */
  requests: string[];
  /** Requests that get no answer at all (the socket stays open until close). */
  hang: Set<string>;
}

const TYPES: Record<string, string> = {
  '.md': 'text/markdown; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.mjs': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
};

/** Route-table paths whose dist/ file is not the path itself. */
const MAPPED = new Map<string, { file: string; contentType: string }>([
  [API_INDEX.path, API_INDEX],
  ...Object.values(DISCOVERY).map((d) => [d.path, d] as const),
  ...Object.values(CONTENT_DOCUMENTS).map((d) => [d.path, d] as const),
  ...[...DEFAULT_SERVICE.paths.keys()].map((p) => [p, { file: p.slice(1), contentType: 'application/json' }] as const),
]);

/** A static file server that knows the route table and nothing else: no gateway, no quota, no upstream. */
export async function startStaticSite(dir: string, options: { prefix?: string } = {}): Promise<StaticSite> {
  // A site published under a path prefix (`https://host/prefix/...`): everything outside it is a 404.
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const answers = new Map<string, CannedAnswer>();
  const requests: string[] = [];
  const hang = new Set<string>();
  const server = createServer(async (req, res) => {
    const full = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(full);
    if (prefix && !full.startsWith(`${prefix}/`)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const path = full.slice(prefix.length);
    if (hang.has(path)) return;
    const canned = answers.get(path);
    if (canned) {
      res.writeHead(canned.status, { 'content-type': canned.contentType, ...canned.headers }).end(canned.body);
      return;
    }
    const mapped = MAPPED.get(path);
    const file = mapped?.file ?? (path.endsWith('/') ? `${path.slice(1)}index.html` : path.slice(1));
    const target = normalize(join(dir, file));
    try {
      if (!target.startsWith(dir) || !(await stat(target)).isFile()) throw new Error('not a file');
      const body = await readFile(target);
      res
        .writeHead(200, { 'content-type': mapped?.contentType ?? TYPES[extname(file)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    }
  });
  const url = (await listen(server)) + prefix;
  return { url, answers, requests, hang, close: () => closeServer(server) };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A loopback port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `serve <dir>` from the installed package, on a free loopback port, as its own process. */
export async function startServe(dir: string): Promise<Site> {
  const port = await closedPort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/serve/build/main.js'),
      '-l',
      `tcp://127.0.0.1:${port}`,
      '--no-clipboard',
      '--no-request-logging',
      '--no-port-switching',
      dir,
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d));
  child.stderr?.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`serve exited: ${output}`);
    if (await canConnect(port)) break;
    if (attempt > 200) {
      child.kill();
      throw new Error(`serve did not listen on ${port}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
