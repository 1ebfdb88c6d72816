// The Publish workflow's first step (builders/build/previous.ts fetchPrevious, .build/fetch-previous.mjs): the live site's
// snapshots copied into a folder for `npm run build -- --previous <dir>`, from a site on loopback under a fork's
// path. A 404 is a first deploy; every other failure leaves no file, and nothing is read past its bound.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchPrevious, PREVIOUS_MAX_BYTES } from '../builders/build/previous.ts';
import { dataResource, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS, datasets } from '../builders/datasets/registry.ts';
import { AMPLE_UPSTREAM_TIMEOUT_MS, runProgram } from './helpers/run.ts';
import { sharedSite } from './helpers/site-dist.ts';

const MARKET = dataResource(DEFAULT_SERVICE, 'market').snapshotFiles[0]!;
const CALENDAR = dataResource(DEFAULT_SERVICE, 'contributions').snapshotFiles[0]!;
/** Whether the site's data are simulated: read beside the snapshots (builders/build/previous.ts previousSimulated). */
const STATUS = DISCOVERY.status.file;

/** How the site answers each path below /my-fork/; a path it does not list is a 404. */
let answers: Record<string, (res: ServerResponse) => void>;
let seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
let siteUrl: string;
let dir: string;
const sockets = new Set<Socket>();
const server = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  const answer = answers[(req.url ?? '').replace(/^\/my-fork\//, '')];
  if (answer) answer(res);
  else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
});
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/my-fork`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  answers = {};
  seen = [];
  dir = await mkdtemp(join(tmpdir(), 'previous-'));
  return () => rm(dir, { recursive: true, force: true });
});

/**
 * The outcomes of the market's and the calendar's snapshots and of status.json, which the tests answer; every other dataset's
 * snapshot is one this site never published (a 404: absent).
 */
const fetchInto = async (target = dir, timeoutMs = Number(AMPLE_UPSTREAM_TIMEOUT_MS)) => {
  const outcomes = await fetchPrevious({
    siteUrl,
    datasets: datasets(DEFAULT_SERVICE_OPTIONS),
    dir: target,
    timeoutMs,
    userAgent: 'public-data-preview/1.0 (+test)',
  });
  const answered = (o: { file: string }) => o.file === MARKET || o.file === CALENDAR || o.file === STATUS;
  expect(outcomes.filter((o) => !answered(o)).map((o) => o.outcome)).toEqual(
    outcomes.filter((o) => !answered(o)).map(() => 'absent'),
  );
  everyOutcome = outcomes;
  return outcomes.filter(answered);
};
/** The last run's outcomes, every dataset's. */
let everyOutcome: Array<{ file: string }> = [];
const exists = (file: string) =>
  stat(join(dir, file)).then(
    () => true,
    () => false,
  );
const plant = async (file: string) => {
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), 'from an earlier run');
};

describe('fetchPrevious', () => {
  it('copies each published snapshot and status.json byte for byte; a 404 (nothing published yet) leaves no file there', async () => {
    const market = await readFile(join(sharedSite().dir, MARKET));
    const status = await readFile(join(sharedSite().dir, STATUS));
    answers[MARKET] = (res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(market);
    answers[STATUS] = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(status);
    await plant(CALENDAR); // a stale copy is not left to pass for the site's
    const target = join(dir, 'nested/previous');
    const outcomes = await fetchInto(target);
    expect(outcomes).toEqual([
      { file: MARKET, url: `${siteUrl}/${MARKET}`, outcome: 'fetched', detail: `${market.byteLength} bytes` },
      { file: CALENDAR, url: `${siteUrl}/${CALENDAR}`, outcome: 'absent', detail: 'not published (404)' },
      { file: STATUS, url: `${siteUrl}/${STATUS}`, outcome: 'fetched', detail: `${status.byteLength} bytes` },
    ]);
    expect((await readFile(join(target, MARKET))).equals(market)).toBe(true);
    expect((await readFile(join(target, STATUS))).equals(status)).toBe(true);
    expect(await exists(`nested/previous/${CALENDAR}`)).toBe(false);
    await fetchInto(); // into the folder that held the stale copy
    expect(await exists(CALENDAR)).toBe(false);
    // Each v1 snapshot of the deployment asked once per run.
    const v1 = everyOutcome.map((o) => `/my-fork/${o.file}`);
    expect(seen.map((r) => r.url).sort()).toEqual([...v1, ...v1].sort());
    expect(seen.every((r) => r.headers['user-agent'] === 'public-data-preview/1.0 (+test)')).toBe(true);
  });

  it('writes nothing for an answer past its bound or a redirect, which it does not follow', async () => {
    answers[MARKET] = (res) => {
      // no Content-Length: the bound is met while reading
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent <= PREVIOUS_MAX_BYTES; sent += chunk.length) res.write(chunk);
      res.end();
    };
    answers[CALENDAR] = (res) => res.writeHead(301, { location: 'https://elsewhere.example/x' }).end();
    await plant(MARKET);
    expect(await fetchInto()).toEqual([
      expect.objectContaining({
        file: MARKET,
        outcome: 'failed',
        detail: `answer larger than ${PREVIOUS_MAX_BYTES} bytes`,
      }),
      expect.objectContaining({
        file: CALENDAR,
        outcome: 'failed',
        detail: 'answered 301 (to https://elsewhere.example/x)',
      }),
      expect.objectContaining({ file: STATUS, outcome: 'absent' }),
    ]);
    expect(await exists(MARKET)).toBe(false);
    expect(await exists(CALENDAR)).toBe(false);
    expect(seen.filter((r) => [MARKET, CALENDAR, STATUS].some((file) => r.url === `/my-fork/${file}`))).toHaveLength(3);
  });

  it('gives up at its deadline on a site that does not answer, and names a server error', async () => {
    answers[MARKET] = () => {}; // never answered
    answers[CALENDAR] = (res) => res.writeHead(503).end('busy');
    expect(await fetchInto(dir, 300)).toEqual([
      expect.objectContaining({ file: MARKET, outcome: 'failed', detail: 'timed out after 300 ms' }),
      expect.objectContaining({ file: CALENDAR, outcome: 'failed', detail: 'answered 503' }),
      expect.objectContaining({ file: STATUS, outcome: 'absent' }),
    ]);
    expect(await exists(MARKET)).toBe(false);
  });
});

describe('node .build/fetch-previous.mjs', () => {
  it('--out <dir>: one line per snapshot, stdout for fetched and absent, stderr for failed; exit 0 either way', async () => {
    answers[MARKET] = (res) => res.writeHead(200).end('{}');
    answers[CALENDAR] = (res) => res.writeHead(500).end();
    const result = await runProgram('fetch-previous', ['--out', dir], {
      SITE_URL: siteUrl,
      UPSTREAM_TIMEOUT_MS: AMPLE_UPSTREAM_TIMEOUT_MS,
    });
    expect(result.code).toBe(0);
    // The lines they mean (each other dataset's snapshot, never published here, has its "not published" line).
    expect(result.stdout.split('\n')).toContain(`fetch-previous: ${siteUrl}/${MARKET}: 2 bytes, into ${dir}`);
    expect(result.stderr).toBe(`fetch-previous: ${siteUrl}/${CALENDAR}: answered 500\n`);
    expect(await readFile(join(dir, MARKET), 'utf8')).toBe('{}');
  });

  it.each([
    [[], {}, "option '--out <dir>' needs a folder (usage: fetch-previous --out <dir>)"],
    [['--out', 'x', '--bogus'], {}, "Unknown option '--bogus'"],
    [['--out', 'x'], { SITE_URL: 'ftp://example.org' }, 'fetch-previous: invalid configuration: SITE_URL'],
  ])('%j %j: exit 2 with one line, nothing asked', async (args, env, message) => {
    const result = await runProgram('fetch-previous', args, { SITE_URL: siteUrl, ...env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
    expect(seen).toEqual([]);
  });
});
