// docs/architecture.md's recipe, followed to the letter: a dataset with an upstream of its own (one npm
// package's weekly downloads, test/fixtures/dataset-recipe/downloads/: its schema, its variables, its client,
// view, picture and card) dropped into a copy of the repository as one folder, plus its import and its line
// in the registry. Nothing else changes. The copy type-checks; its build asks the dataset's own upstream
// (a loopback server speaking the registry's wire format) once and publishes the payload at both paths;
// its gateway answers them and lists the MCP tool; its cli.mjs has the command; a refused variable of the
// dataset's own is exit 2 naming it. Its fast suite in that copy: test/slow/dataset-recipe-suite.test.ts.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { upstreamEnv } from '../helpers/run.ts';
import { copyRepository, runIn, startGatewayIn } from '../helpers/repo-copy.ts';
import { addDataset } from '../helpers/dataset-recipe.ts';

const ANSWER = { downloads: 1_234_567, start: '2026-11-16', end: '2026-11-22', package: 'left-pad' };

describe("a dataset with an upstream of its own, by the recipe: its folder and the registry's line", () => {
  let dir: string;
  let fake: FakeUpstreams;
  let npm: Server;
  const asked: string[] = [];
  let gateway: { child: ChildProcess; url: string } | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await copyRepository('dataset-recipe-');
    await addDataset(dir);
    fake = await startFakeUpstreams();
    npm = createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/downloads/point/last-week/left-pad') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ANSWER));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"package not found"}');
      }
    });
    await new Promise<void>((resolve) => npm.listen(0, '127.0.0.1', resolve));
    const npmUrl = `http://127.0.0.1:${(npm.address() as AddressInfo).port}`;
    env = {
      ...upstreamEnv(fake.url),
      SITE_URL: 'http://127.0.0.1:8080',
      MARKET_WS_URL: 'off',
      DOWNLOADS_API_URL: npmUrl,
      DOWNLOADS_PACKAGE: 'left-pad',
    };
  }, 120_000);

  afterAll(async () => {
    gateway?.child.kill('SIGTERM');
    await fake?.close();
    await new Promise((resolve) => npm?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('type-checks', async () => {
    const result = await runIn(dir, ['node_modules/typescript-native/bin/tsc', '--noEmit']);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 180_000);

  it('builds: its own upstream asked once, its payload at both paths, its cards and its two operations', async () => {
    expect((await runIn(dir, ['builders/tools/bundle.mjs'])).code).toBe(0);
    const build = await runIn(dir, ['.build/build.mjs'], env);
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
    expect(asked).toEqual(['/downloads/point/last-week/left-pad']);
    const dist = (file: string) => readFile(join(dir, 'dist', file), 'utf8');
    const payload = JSON.parse(await dist('api/v1/npm-downloads')) as Record<string, unknown>;
    expect(payload).toEqual({ ...ANSWER, asOf: expect.any(String) });
    expect(await dist('api/npm-downloads')).toBe(await dist('api/v1/npm-downloads'));
    expect(await dist('cards/npm-downloads.svg')).toContain('1234567 downloads of left-pad');
    expect(await dist('cards/npm-downloads-dark.svg')).toContain('<svg');
    const openapi = JSON.parse(await dist('openapi.json')) as {
      paths: Record<string, { get?: { operationId: string } }>;
    };
    expect(openapi.paths['/api/v1/npm-downloads']?.get?.operationId).toBe('getV1NpmDownloads');
    expect(openapi.paths['/api/npm-downloads']?.get?.operationId).toBe('getNpmDownloads');
    expect(await dist('index.html')).toContain('data-preview="downloads"');
  }, 180_000);

  it('its gateway answers both paths and lists the MCP tool; cli.mjs has the command', async () => {
    gateway = await startGatewayIn(dir, env);
    for (const path of ['/api/v1/npm-downloads', '/api/npm-downloads']) {
      const response = await fetch(new URL(path, gateway.url));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject(ANSWER);
    }
    const tools = await fetch(new URL('/mcp', gateway.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(await tools.text()).toContain('"getV1NpmDownloads"');
    const json = await runIn(dir, ['dist/cli.mjs', 'downloads', '--json', '--base-url', gateway.url]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject(ANSWER);
    const text = await runIn(dir, ['dist/cli.mjs', 'downloads', '--base-url', gateway.url]);
    expect(text.stdout).toContain('1234567 downloads');
  }, 60_000);

  it("a refused variable of the dataset's own is exit 2, one line naming it, nothing asked", async () => {
    asked.length = 0;
    const build = await runIn(dir, ['.build/build.mjs', '--out', join(dir, 'refused')], {
      ...env,
      DOWNLOADS_API_URL: 'ftp://example.org',
    });
    expect(build.code).toBe(2);
    expect(build.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^build: invalid configuration: DOWNLOADS_API_URL: /),
    ]);
    expect(asked).toEqual([]);
  }, 60_000);
});
