// Static servers over a built dist/ for the site tests: the real `serve` CLI as a child process, or
// serve-handler (the same code `serve` runs per request) inside node:http. Both on loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanEnv, ROOT } from './run.ts';

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** `serve <dir>` (the serve package's own bin) on an ephemeral loopback port; resolves with its address. */
export function startServeCli(dir: string): Promise<StaticServer> {
  const bin = join(ROOT, 'node_modules/serve/build/main.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, dir, '--listen', 'tcp://127.0.0.1:0', '--no-clipboard', '--no-request-logging'],
    {
      cwd: ROOT,
      // NO_UPDATE_CHECK: serve would otherwise ask the npm registry for a newer version; tests stay offline.
      env: cleanEnv({ NO_UPDATE_CHECK: '1', NODE_ENV: 'production' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${output}`));
    }, 15_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /Accepting connections at (http:\/\/[\d.]+:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${output}`));
    });
  });
}

/** serve-handler in-process, reading dist/serve.json the way the serve CLI does. */
export async function startServeHandler(dir: string): Promise<StaticServer> {
  const handler = createRequire(import.meta.url)('serve-handler') as (
    req: unknown,
    res: unknown,
    config: object,
  ) => Promise<void>;
  const config = {
    ...(JSON.parse(await readFile(join(dir, 'serve.json'), 'utf8')) as object),
    public: dir,
    etag: true,
  };
  const server: Server = createServer((req, res) => {
    handler(req, res, config).catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
