// `npm run bench` (docs/performance.md): one run on this machine, every figure a median over alternating rounds
// and a ratio against a peer measured in the same run with the same load generator and the same files.
// Everything listens on 127.0.0.1; every process it starts is stopped at the end, on error and on Ctrl-C.
import { Agent } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runMain } from '../../builders/lib/run-main.ts';
import type { FakeUpstreams } from '../fakes/upstreams.ts';
import { cleanEnv, upstreamEnv } from '../fakes/env.ts';
import { get, loadGenerator, sequentialLatencies, type LoadGenerator, type LoadResult } from './load.ts';
import {
  childPids,
  cpuSeconds,
  GATEWAY_ENTRY,
  ProcessGroup,
  rssBytes,
  startBareNode,
  startBareProxy,
  startFakeProcess,
  startGateway,
  startNginx,
  startRedis,
  startServe,
  withHarness,
  type Gateway,
  type Peer,
} from './processes.ts';
import { fileSize, folderSize, openForReading, routesUnderTest, runBuild, type RouteUnderTest } from './site.ts';
import { GOALS, goalRows, type GoalFigures } from './goals.ts';
import {
  formatBytes,
  formatMs,
  formatNumber,
  formatRatio,
  formatTable,
  median,
  ratio,
  roundOrder,
  type TableRow,
} from './stats.ts';

const USAGE = `usage: npm run bench -- [--quick] [--json <file>] [--rounds N] [--seconds S] [--connections C]

  --quick          a shorter run (2 rounds of 1 s); the figures are noisier
  --json <file>    also write every figure as JSON to <file>
  --rounds N       rounds per target (default 3)
  --seconds S      seconds per round (default 3)
  --connections C  concurrent keep-alive connections (default 50)
  --gateway-entry  the gateway program to run (default .build/gateway.mjs)
  --cpu-prof <dir> run the main gateway under node --cpu-prof, writing its profile into <dir>`;

interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  latencySamples: number;
  buildRuns: number;
  /** Spawns of the gateway alone, each way, for its start time. */
  startRuns: number;
  quick: boolean;
}

function settingsFrom(argv: string[]): {
  settings: Settings;
  json: string | undefined;
  entry: string;
  cpuProf: string | undefined;
} {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
      'gateway-entry': { type: 'string' },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const positive = (name: string, raw: string | undefined, fallback: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, not "${raw}"`);
    return n;
  };
  const quick = values.quick!;
  const settings: Settings = {
    rounds: Math.round(positive('rounds', values.rounds, quick ? 2 : 3)),
    seconds: positive('seconds', values.seconds, quick ? 1 : 3),
    warmupSeconds: quick ? 0.5 : 1,
    connections: Math.round(positive('connections', values.connections, 50)),
    latencySamples: quick ? 100 : 300,
    buildRuns: quick ? 1 : 3,
    startRuns: quick ? 3 : 7,
    quick,
  };
  return { settings, json: values.json, entry: values['gateway-entry'] ?? GATEWAY_ENTRY, cpuProf: values['cpu-prof'] };
}

class UsageError extends Error {
  override readonly name = 'UsageError';
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

type TargetName = 'gateway' | 'node' | 'nginx' | 'serve';

interface Target {
  name: TargetName;
  url: string;
  pid: number;
  version: string;
  pathOf(route: RouteUnderTest): string;
}

interface Comparison {
  route: RouteUnderTest['id'];
  label: string;
  path: Record<string, string>;
  /** Per target: each round's figures and their medians. */
  targets: Record<string, ReturnType<typeof summarize> & { bytes: number }>;
  skipped: Record<string, string>;
}

function summarize(rounds: (LoadResult & { serverCpu: number })[]) {
  return {
    rounds,
    serverCpu: median(rounds.map((r) => r.serverCpu)),
    rps: median(rounds.map((r) => r.rps)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
  };
}

/** Resident memory of a process and its children (nginx's worker is a child of its master). */
function treeRss(pid: number): number {
  return [pid, ...childPids(pid)].reduce((sum, p) => sum + rssBytes(p), 0);
}

/**
 * One load round with the server's CPU use over it: a server near 100 % of one core is the bottleneck;
 * one well below means the load generator (one Node process on the same machine) is.
 */
async function measuredLoad(
  generator: LoadGenerator,
  url: string,
  pid: number,
  settings: Settings,
  seconds = settings.seconds,
): Promise<LoadResult & { serverCpu: number }> {
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  const result = await generator.run(url, settings.connections, seconds);
  const serverCpu = (cpuSeconds(pid) - cpuBefore) / ((performance.now() - started) / 1000);
  return { ...result, serverCpu };
}

async function machine() {
  const model = cpus()[0]?.model ?? 'unknown';
  return {
    cpus: cpus().length,
    model: model.trim(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof settingsFrom>;
  try {
    parsed = settingsFrom(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { settings, json, entry, cpuProf } = parsed;
  return withHarness('bench', {}, (group, tmp, fake) => {
    const env = cleanEnv(upstreamEnv(fake.url));
    const nodeArgs = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : [];
    return run(settings, json, entry, nodeArgs, group, tmp, fake, env);
  });
}

async function run(
  settings: Settings,
  jsonFile: string | undefined,
  entry: string,
  nodeArgs: string[],
  group: ProcessGroup,
  tmp: string,
  fake: FakeUpstreams,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  const machineInfo = await machine();
  const generator = loadGenerator();
  log(
    `${machineInfo.cpus} × ${machineInfo.model}, ${machineInfo.memoryGiB} GiB, Node ${machineInfo.node}; ${settings.rounds} rounds × ${settings.seconds} s, ${settings.connections} connections, load by ${generator.label}`,
  );

  // --- the build, against the zero-latency fakes
  const builds = [];
  for (let i = 0; i < settings.buildRuns; i++) {
    const out = join(tmp, `dist-${i}`);
    const build = await runBuild(out, env);
    if (build.code !== 0) throw new Error(`the build against the fake upstreams exited ${build.code}: ${build.stderr}`);
    builds.push(build);
  }
  const dist = join(tmp, 'dist-0');
  await openForReading(tmp);
  const size = await folderSize(dist);
  const buildFigures = {
    runs: builds.length,
    wallMs: median(builds.map((b) => b.wallMs)),
    distBytes: size.bytes,
    distFiles: size.files,
    cliBytes: await fileSize(join(dist, 'cli.mjs')),
  };
  log(`build: ${formatMs(buildFigures.wallMs)}, dist/ ${formatBytes(size.bytes)} in ${size.files} files`);

  // --- the servers
  const gatewayEnv = { ...env, DIST_DIR: dist };
  const startTimes: number[] = [];
  let gateway: Gateway | undefined;
  const notes: string[] = [];
  try {
    gateway = await startGateway(group, gatewayEnv, { entry, nodeArgs, discardLog: true });
    startTimes.push(gateway.startMs);
  } catch (error) {
    notes.push(`gateway not measured: ${(error as Error).message}`);
    log(notes.at(-1)!);
  }
  const routes = await routesUnderTest(dist);
  const bare = await startBareNode(
    group,
    routes.map((r) => [r.peerPath, join(dist, r.file), r.contentType]),
  );
  const serve = await startServe(group, dist);
  const nginx = await startNginx(group, dist, tmp);
  if (!nginx) notes.push('nginx is not installed: no nginx rows');
  if (generator.name !== 'wrk')
    notes.push('wrk is not installed: the load ran in Node (autocannon), which cannot saturate a fast server');
  const peerTarget = (name: TargetName, peer: Peer): Target => ({
    name,
    url: peer.url,
    pid: peer.pid,
    version: peer.version,
    pathOf: (r) => r.peerPath,
  });
  const targets: Target[] = [
    ...(gateway
      ? [
          {
            name: 'gateway' as const,
            url: gateway.url,
            pid: gateway.pid,
            version: 'gateway',
            pathOf: (r: RouteUnderTest) => r.gatewayPath,
          },
        ]
      : []),
    peerTarget('node', bare),
    ...(nginx ? [peerTarget('nginx', nginx)] : []),
    peerTarget('serve', serve),
  ];

  // --- throughput: each route, each target, alternating rounds
  for (const id of ['snapshot', 'api-index', 'html'])
    if (!routes.some((r) => r.id === id)) notes.push(`${id}: the build wrote no file for it, not measured`);
  const comparisons: Comparison[] = [];
  const probeAgent = new Agent({ keepAlive: false });
  for (const route of routes) {
    const comparison: Comparison = { route: route.id, label: route.label, path: {}, targets: {}, skipped: {} };
    const expected = await readFile(join(dist, route.file));
    for (const target of targets) {
      const path = target.pathOf(route);
      comparison.path[target.name] = path;
      const reply = await get(target.url + path, probeAgent).catch((e: Error) => ({
        status: 0,
        body: Buffer.from(e.message),
      }));
      // The snapshot may be computed live by the gateway; static files must be the very same bytes.
      const same = route.id === 'snapshot' || reply.body.equals(expected);
      if (reply.status !== 200 || !same)
        comparison.skipped[target.name] =
          reply.status !== 200
            ? `GET ${path} answered ${reply.status}`
            : `GET ${path} is not the bytes of dist/${route.file}`;
      else comparison.targets[target.name] = { ...summarize([]), bytes: reply.body.length };
    }
    comparisons.push(comparison);
  }
  for (const c of comparisons)
    for (const [name, why] of Object.entries(c.skipped)) notes.push(`${c.label} on ${name} not measured: ${why}`);

  for (const comparison of comparisons) {
    const route = routes.find((r) => r.id === comparison.route)!;
    const measured = targets.filter((t) => comparison.targets[t.name]);
    for (const target of measured)
      await generator.run(target.url + target.pathOf(route), settings.connections, settings.warmupSeconds);
    for (let round = 0; round < settings.rounds; round++) {
      for (const target of roundOrder(measured, round)) {
        const result = await measuredLoad(generator, target.url + target.pathOf(route), target.pid, settings);
        comparison.targets[target.name]!.rounds.push(result);
      }
    }
    for (const target of measured) {
      const entry = comparison.targets[target.name]!;
      Object.assign(entry, summarize(entry.rounds));
      log(
        `${comparison.label} on ${target.name}: ${formatNumber(entry.rps)} req/s, p99 ${formatMs(entry.p99Ms)}, server CPU ${formatNumber(entry.serverCpu * 100)} % of a core`,
      );
      if (entry.non2xx || entry.errors)
        notes.push(
          `${comparison.label} on ${target.name}: ${entry.non2xx} non-2xx, ${entry.errors} errors during the load`,
        );
    }
  }
  const rssAfterLoad: Record<string, number> = {};
  for (const t of targets) rssAfterLoad[t.name] = treeRss(t.pid);

  // --- the market route's added latency over the provider's own (the ticker: its only upstream call per request)
  let marketFigures:
    | {
        samples: number;
        gatewayMedianMs: number;
        upstreamMedianMs: number;
        bareProxyMedianMs: number;
        bareFetchProxyMedianMs: number;
        addedMs: number;
        bareProxyAddedMs: number;
        bareFetchProxyAddedMs: number;
        ratio: number;
        tickerFetchesPerRequest: number;
        non200: number;
      }
    | undefined;
  if (gateway) {
    // No cache of the ticker (docs/api.md#caching): the in-process fake counts the main gateway's fetches.
    const counted = settings.latencySamples;
    fake.resetCalls();
    const check = await sequentialLatencies(`${gateway.url}/api/v1/mon-price`, counted);
    const tickerFetchesPerRequest = fake.calls.ticker / counted;
    // The provider in its own process, as a real one is: measured straight from the bench, its latency
    // includes waking it, as it does for the gateway's fetch. (The in-process fake answers the bench's
    // own client inside one event loop, which no real provider does.)
    const provider = await startFakeProcess(group);
    const marketGateway = await startGateway(
      group,
      { ...gatewayEnv, MARKET_API_URL: provider.url },
      { name: 'gateway (market)', entry, discardLog: true },
    );
    const direct = `${provider.url}/products/MON-USD/ticker`;
    const proxy = await startBareProxy(group, direct);
    // The same proxy on fetch, which ky runs on: what the transport alone costs in this setting.
    const fetchProxy = await startBareProxy(group, direct, 'fetch');
    const paths = {
      direct,
      proxy: `${proxy.url}/api/v1/mon-price`,
      fetchProxy: `${fetchProxy.url}/api/v1/mon-price`,
      gateway: `${marketGateway.url}/api/v1/mon-price`,
    } as const;
    const ua = { 'user-agent': 'bench' };
    // Warm-up as long as the measurement: until then the market route's code has run only a few
    // times and V8 has not optimised it yet.
    for (const url of Object.values(paths)) await sequentialLatencies(url, settings.latencySamples, ua);
    const ms: Record<keyof typeof paths, number[]> = { direct: [], proxy: [], fetchProxy: [], gateway: [] };
    let statuses = check.statuses;
    const peerFailures = new Set<string>();
    const perRound = Math.ceil(settings.latencySamples / settings.rounds);
    for (let round = 0; round < settings.rounds; round++) {
      for (const which of roundOrder(['direct', 'proxy', 'fetchProxy', 'gateway'] as const, round)) {
        const r = await sequentialLatencies(paths[which], perRound, ua);
        ms[which].push(...r.ms);
        if (which === 'gateway') statuses = [...statuses, ...r.statuses];
        else if (r.statuses.some((s) => s !== 200)) peerFailures.add(which);
      }
    }
    await group.stop(proxy.managed);
    await group.stop(fetchProxy.managed);
    await group.stop(marketGateway.managed);
    await group.stop(provider.managed);
    const gatewayMs = median(ms.gateway);
    const upstreamMs = median(ms.direct);
    const proxyMs = median(ms.proxy);
    const fetchProxyMs = median(ms.fetchProxy);
    marketFigures = {
      samples: ms.gateway.length,
      gatewayMedianMs: gatewayMs,
      upstreamMedianMs: upstreamMs,
      bareProxyMedianMs: proxyMs,
      bareFetchProxyMedianMs: fetchProxyMs,
      addedMs: gatewayMs - upstreamMs,
      bareProxyAddedMs: proxyMs - upstreamMs,
      bareFetchProxyAddedMs: fetchProxyMs - upstreamMs,
      ratio: ratio(gatewayMs, upstreamMs),
      tickerFetchesPerRequest,
      non200: statuses.filter((s) => s !== 200).length,
    };
    if (marketFigures.non200)
      notes.push(`market route: ${marketFigures.non200} of ${statuses.length} answers were not 200`);
    for (const peer of peerFailures) notes.push(`market route: the ${peer} peer answered something else than 200`);
    log(
      `market: +${formatMs(marketFigures.addedMs)} over the provider (${formatMs(gatewayMs)} vs ${formatMs(upstreamMs)}); bare node:http proxy +${formatMs(marketFigures.bareProxyAddedMs)}, bare fetch proxy +${formatMs(marketFigures.bareFetchProxyAddedMs)}`,
    );
  }

  // --- the cost of the quota on the contribution snapshot: none vs in-process vs Redis
  let quotaFigures: Record<string, ReturnType<typeof summarize> & { rateLimitHeader: boolean }> | undefined;
  const snapshot = routes.find((r) => r.id === 'snapshot')!;
  let redisVersion: string | undefined;
  if (gateway && comparisons.find((c) => c.route === 'snapshot')?.targets.gateway) {
    // Peers are done: stop them so that they do not share the machine with the quota rounds.
    await Promise.all([bare, serve, nginx].map((peer) => (peer ? group.stop(peer.managed) : undefined)));
    const bigQuota = { RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_WINDOW: '60' };
    const variants: { name: string; gw: Gateway }[] = [{ name: 'none', gw: gateway }];
    const memory = await startGateway(
      group,
      { ...gatewayEnv, ...bigQuota },
      { entry, name: 'gateway (in-process quota)', discardLog: true },
    );
    startTimes.push(memory.startMs);
    variants.push({ name: 'in-process', gw: memory });
    const redis = await startRedis(group);
    if (redis) {
      redisVersion = redis.version;
      const withRedis = await startGateway(
        group,
        { ...gatewayEnv, ...bigQuota, RATE_LIMIT_REDIS_URL: redis.url },
        { entry, name: 'gateway (Redis quota)', discardLog: true },
      );
      startTimes.push(withRedis.startMs);
      variants.push({ name: 'redis', gw: withRedis });
    } else notes.push('redis-server is not installed: no Redis quota row');
    quotaFigures = {};
    const headerOf: Record<string, boolean> = {};
    for (const v of variants) {
      const reply = await get(v.gw.url + snapshot.gatewayPath, probeAgent);
      headerOf[v.name] = reply.headers['ratelimit'] !== undefined;
      if (v.name !== 'none' && !headerOf[v.name])
        notes.push(`quota ${v.name}: the 200 carries no RateLimit header, so the quota was not enforced`);
      await generator.run(v.gw.url + snapshot.gatewayPath, settings.connections, settings.warmupSeconds);
    }
    const rounds: Record<string, (LoadResult & { serverCpu: number })[]> = Object.fromEntries(
      variants.map((v) => [v.name, []]),
    );
    for (let round = 0; round < settings.rounds; round++) {
      for (const v of roundOrder(variants, round))
        rounds[v.name]!.push(await measuredLoad(generator, v.gw.url + snapshot.gatewayPath, v.gw.pid, settings));
    }
    for (const v of variants) {
      quotaFigures[v.name] = { ...summarize(rounds[v.name]!), rateLimitHeader: headerOf[v.name]! };
      const q = quotaFigures[v.name]!;
      if (q.non2xx || q.errors)
        notes.push(`quota ${v.name}: ${q.non2xx} non-2xx (429?), ${q.errors} errors during the load`);
      log(
        `quota ${v.name}: ${formatNumber(q.rps)} req/s, p99 ${formatMs(q.p99Ms)}, gateway CPU ${formatNumber(q.serverCpu * 100)} % of a core`,
      );
    }
  }
  probeAgent.destroy();

  // --- the start alone (docs/performance.md#what-changed-in-the-core-round-issue-34): the gateway spawned on its own, nothing else
  // running, alternating with the same program with node's compile cache turned off, which shows what
  // compiling the bundle costs.
  // Its CPU time at the `listening on` line is read too: on a machine shared with other work it is much
  // steadier than the wall time.
  const ready: Record<'cached' | 'uncached', number[]> = { cached: [], uncached: [] };
  const readyCpu: Record<'cached' | 'uncached', number[]> = { cached: [], uncached: [] };
  for (let i = 0; i < settings.startRuns; i++) {
    for (const kind of ['cached', 'uncached'] as const) {
      const env = kind === 'cached' ? gatewayEnv : { ...gatewayEnv, NODE_DISABLE_COMPILE_CACHE: '1' };
      const alone = await startGateway(group, env, { entry, name: `gateway start (${kind})`, discardLog: true });
      readyCpu[kind].push(cpuSeconds(alone.pid) * 1000);
      ready[kind].push(alone.startMs);
      await group.stop(alone.managed);
    }
  }
  log(
    `start alone: ${formatMs(median(ready.cached))} (${formatMs(median(readyCpu.cached))} of CPU) with the compile cache, ` +
      `${formatMs(median(ready.uncached))} (${formatMs(median(readyCpu.uncached))} of CPU) without (medians of ${settings.startRuns})`,
  );

  // --- the table
  const rows: TableRow[] = [];
  const peers = targets.filter((t) => t.name !== 'gateway');
  for (const c of comparisons) {
    const gw = c.targets.gateway;
    for (const peer of peers) {
      const p = c.targets[peer.name];
      if (!gw || !p) continue;
      rows.push({
        group: c.label,
        measure: `req/s vs ${peer.name} (higher is better)`,
        value: formatNumber(gw.rps),
        peer: formatNumber(p.rps),
        ratio: formatRatio(ratio(gw.rps, p.rps)),
      });
      rows.push({
        group: c.label,
        measure: `p99 vs ${peer.name} (lower is better)`,
        value: formatMs(gw.p99Ms),
        peer: formatMs(p.p99Ms),
        ratio: formatRatio(ratio(gw.p99Ms, p.p99Ms)),
      });
      // Server CPU per request does not depend on which side of the loopback is saturated.
      const cost = (t: typeof gw) => (t.serverCpu * 1000 * 1000) / t.rps;
      rows.push({
        group: c.label,
        measure: `server CPU per 1,000 req vs ${peer.name}`,
        value: formatMs(cost(gw)),
        peer: formatMs(cost(p)),
        ratio: formatRatio(ratio(cost(gw), cost(p))),
      });
    }
  }
  if (marketFigures) {
    rows.push({
      group: 'market route',
      measure: 'median latency vs the provider direct',
      value: formatMs(marketFigures.gatewayMedianMs),
      peer: formatMs(marketFigures.upstreamMedianMs),
      ratio: formatRatio(marketFigures.ratio),
    });
    rows.push({
      group: 'market route',
      measure: 'added latency (median difference)',
      value: formatMs(marketFigures.addedMs),
      peer: '',
      ratio: '',
    });
    rows.push({
      group: 'market route',
      measure: 'added latency of a bare node:http proxy',
      value: formatMs(marketFigures.bareProxyAddedMs),
      peer: '',
      ratio: '',
    });
    rows.push({
      group: 'market route',
      measure: 'added latency of a bare fetch proxy',
      value: formatMs(marketFigures.bareFetchProxyAddedMs),
      peer: '',
      ratio: '',
    });
  }
  if (quotaFigures) {
    const none = quotaFigures.none!;
    for (const name of ['in-process', 'redis']) {
      const q = quotaFigures[name];
      if (!q) continue;
      rows.push({
        group: 'quota',
        measure: `req/s ${name} vs no quota`,
        value: formatNumber(q.rps),
        peer: formatNumber(none.rps),
        ratio: formatRatio(ratio(q.rps, none.rps)),
      });
      rows.push({
        group: 'quota',
        measure: `p99 ${name} vs no quota`,
        value: formatMs(q.p99Ms),
        peer: formatMs(none.p99Ms),
        ratio: formatRatio(ratio(q.p99Ms, none.p99Ms)),
      });
    }
  }
  rows.push({
    group: 'build',
    measure: `wall time against the fakes (median of ${buildFigures.runs})`,
    value: formatMs(buildFigures.wallMs),
    peer: '',
    ratio: '',
  });
  rows.push({
    group: 'build',
    measure: `dist/ size (${buildFigures.distFiles} files)`,
    value: formatBytes(buildFigures.distBytes),
    peer: '',
    ratio: '',
  });
  rows.push({
    group: 'build',
    measure: 'dist/cli.mjs size',
    value: formatBytes(buildFigures.cliBytes),
    peer: '',
    ratio: '',
  });
  const startMs = median(startTimes);
  rows.push({
    group: 'gateway',
    measure: `start time, spawn to "listening on" (median of ${startTimes.length})`,
    value: formatMs(startMs),
    peer: '',
    ratio: '',
  });
  rows.push(
    {
      group: 'gateway',
      measure: `start alone, with vs without the compile cache (median of ${settings.startRuns})`,
      value: formatMs(median(ready.cached)),
      peer: formatMs(median(ready.uncached)),
      ratio: formatRatio(ratio(median(ready.cached), median(ready.uncached))),
    },
    {
      group: 'gateway',
      measure: 'CPU time of that start, with vs without the compile cache',
      value: formatMs(median(readyCpu.cached)),
      peer: formatMs(median(readyCpu.uncached)),
      ratio: formatRatio(ratio(median(readyCpu.cached), median(readyCpu.uncached))),
    },
  );
  for (const peer of peers) {
    if (rssAfterLoad.gateway === undefined) break;
    rows.push({
      group: 'gateway',
      measure: `RSS after the load vs ${peer.name}`,
      value: formatBytes(rssAfterLoad.gateway),
      peer: formatBytes(rssAfterLoad[peer.name]!),
      ratio: formatRatio(ratio(rssAfterLoad.gateway, rssAfterLoad[peer.name]!)),
    });
  }

  // The goals lead the table: each judged on figures of this run (test/bench/goals.ts).
  const snapshotTargets = comparisons.find((c) => c.route === 'snapshot')?.targets;
  const goalFigures: GoalFigures = {
    marketAddedMs: marketFigures?.addedMs ?? Number.NaN,
    fetchProxyAddedMs: marketFigures?.bareFetchProxyAddedMs ?? Number.NaN,
    snapshotRps: snapshotTargets?.gateway?.rps ?? Number.NaN,
    nodeHttpRps: snapshotTargets?.node?.rps ?? Number.NaN,
    readyMs: startMs,
  };
  rows.unshift(...goalRows(goalFigures));

  const versions = [bare.version, nginx?.version, serve.version, redisVersion].filter(Boolean).join(', ');
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `\nBenchmark: ${machineInfo.cpus} × ${machineInfo.model}, ${machineInfo.memoryGiB} GiB, Node ${machineInfo.node}, ${machineInfo.platform}\n` +
      `Load: ${generator.label}, ${settings.connections} keep-alive connections, ${settings.rounds} alternating rounds × ${settings.seconds} s per target; figures are medians of the rounds.\n` +
      `Market latency: one request at a time on one keep-alive node:http connection, ${marketFigures?.samples ?? 0} samples each way, the fake provider in its own process.\n` +
      `Peers: ${versions}. Ratios are gateway / peer.\n\n` +
      `${formatTable(rows)}\n` +
      (notes.length ? `\nNotes:\n${notes.map((n) => `- ${n}`).join('\n')}\n` : '') +
      `\n(${seconds.toFixed(0)} s)\n`,
  );

  if (jsonFile) {
    const report = {
      generatedAt: new Date().toISOString(),
      machine: machineInfo,
      settings,
      generators: {
        throughput: generator.label,
        quota: generator.label,
        marketLatency: 'sequential node:http client, one keep-alive connection; the fake provider in its own process',
      },
      peers: versions,
      throughput: comparisons.map((c) => ({
        route: c.route,
        label: c.label,
        path: c.path,
        targets: c.targets,
        skipped: c.skipped,
        ratios: Object.fromEntries(
          peers
            .filter((p) => c.targets.gateway && c.targets[p.name])
            .map((p) => [
              p.name,
              {
                rps: ratio(c.targets.gateway!.rps, c.targets[p.name]!.rps),
                p99: ratio(c.targets.gateway!.p99Ms, c.targets[p.name]!.p99Ms),
              },
            ]),
        ),
      })),
      goals: { targets: GOALS, figures: goalFigures },
      market: marketFigures ?? null,
      quota: quotaFigures
        ? Object.fromEntries(
            Object.entries(quotaFigures).map(([k, q]) => [
              k,
              {
                ...q,
                rpsRatio: ratio(q.rps, quotaFigures!.none!.rps),
                p99Ratio: ratio(q.p99Ms, quotaFigures!.none!.p99Ms),
              },
            ]),
          )
        : null,
      build: buildFigures,
      gateway: {
        startMs,
        startSamples: startTimes,
        startAlone: {
          cachedMs: ready.cached,
          uncachedMs: ready.uncached,
          cachedCpuMs: readyCpu.cached,
          uncachedCpuMs: readyCpu.uncached,
        },
        rssAfterLoadBytes: rssAfterLoad.gateway ?? null,
      },
      rssAfterLoadBytes: rssAfterLoad,
      rows,
      notes,
      seconds,
    };
    // NaN is not JSON: a figure that was not measured is null.
    await writeFile(
      jsonFile,
      `${JSON.stringify(report, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`,
    );
    log(`figures written to ${jsonFile}`);
  }
  return 0;
}

runMain('bench', main);
