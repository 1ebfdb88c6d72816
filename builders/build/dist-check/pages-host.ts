// A static host that behaves like GitHub Pages, for checking a built dist/ before it is deployed: no
// rewrites, no custom headers, the site mounted under its base path (a fork's `/<repo>/`), and a path
// resolved the way Pages resolves it (slorber/trailing-slash-guide measures it): the file itself, else
// `x.html` for `/x` (even when a folder `x/` exists), else a folder with an index.html answers `/x` with a
// 301 to `/x/`; `/x/` serves `x/index.html` only. Everything else is a 404. Files are whatever the Pages
// artifact holds: the publish workflow uploads dist/ with its hidden files, so `.well-known/` is served.
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

export interface PagesHost {
  /** Origin plus base path, with a trailing slash: `http://127.0.0.1:PORT/my-fork/`. */
  url: string;
  close(): Promise<void>;
}

/** Pages serves by extension; an extension-less file goes out as application/octet-stream. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
};

/** What a request path resolves to: a file to send, a redirect, or nothing. */
export type Resolution = { kind: 'file'; file: string } | { kind: 'redirect'; location: string } | { kind: 'none' };

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

/**
 * Resolves a decoded path below the base path (`rel` without its leading slash, '' for the root) to a
 * file under `root`, in Pages' order. `requestPath` is the full path, for the redirect's Location.
 */
export async function resolvePagesPath(root: string, rel: string, requestPath: string): Promise<Resolution> {
  const target = resolve(root, rel);
  if (target !== root && !target.startsWith(root + sep)) return { kind: 'none' };
  if (rel === '' || rel.endsWith('/')) {
    const index = join(target, 'index.html');
    return (await isFile(index)) ? { kind: 'file', file: index } : { kind: 'none' };
  }
  if (await isFile(target)) return { kind: 'file', file: target };
  if (await isFile(`${target}.html`)) return { kind: 'file', file: `${target}.html` };
  if (await isFile(join(target, 'index.html'))) return { kind: 'redirect', location: `${requestPath}/` };
  return { kind: 'none' };
}

/** Starts the host on an ephemeral loopback port, serving `dir` under `basePath` ("" or "/my-fork"). */
export async function startPagesHost(dir: string, basePath: string): Promise<PagesHost> {
  const root = resolve(dir);
  const base = basePath.replace(/\/+$/, '');
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    const path = (req.url ?? '/').split('?')[0]!;
    // The site's own root without its slash: Pages redirects a project site's `/<repo>` to `/<repo>/`.
    if (base !== '' && path === base) return redirect(res, `${base}/`);
    if (!path.startsWith(`${base}/`)) return notFound(res, root);
    let rel: string;
    try {
      rel = decodeURIComponent(path.slice(base.length + 1));
    } catch {
      return send(res, 400, 'text/plain', 'bad request');
    }
    if (rel.includes('\0') || rel.split('/').includes('..')) return notFound(res, root);
    const found = await resolvePagesPath(root, rel, path);
    if (found.kind === 'redirect') return redirect(res, found.location);
    if (found.kind === 'none') return notFound(res, root);
    const type = CONTENT_TYPES[extname(found.file)] ?? 'application/octet-stream';
    send(res, 200, type, await readFile(found.file), req.method === 'HEAD');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, 'text/plain', 'internal error'));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base}/`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headOnly = false): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(headOnly ? undefined : body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(301, { Location: location, 'Content-Length': 0 });
  res.end();
}

/** Pages answers a miss with the site's 404.html (a project site: the one at its own root). */
async function notFound(res: ServerResponse, root: string): Promise<void> {
  const page = await readFile(join(root, '404.html')).catch(() => 'not found');
  send(res, 404, 'text/html; charset=utf-8', page);
}
