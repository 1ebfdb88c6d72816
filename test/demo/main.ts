// `npm run demo` (docs/configuration.md#commands): an offline preview. Starts the fake upstreams as a simulated provider on
// loopback, builds the site against them into .build/demo-dist (never the user's dist/), then starts the
// gateway on the same simulated upstreams. Ctrl-C or SIGTERM stops everything it started.
// Runs bundled as .build/demo.mjs, so the sibling programs live next to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../../builders/lib/config.ts';
import { ConfigError } from '../../builders/lib/errors.ts';
import { freePort } from '../fakes/ports.ts';
import { startFakeUpstreams, type FakeUpstreams } from '../fakes/upstreams.ts';
import { priceLevel } from '../fakes/data.ts';
import { startFakeFeed, type FakeFeed } from '../fakes/live-feed.ts';
import { datasetOriginsEnv } from '../fakes/env.ts';
import { GATEWAY_NODE_FLAGS } from '../../gateway/node-flags.ts';
import { demoBuildCommand, restartHint } from './build-command.ts';

const BUILD_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(BUILD_DIR);
const DEMO_DIST = join(BUILD_DIR, 'demo-dist');
/** The content the demo builds: a copy of site/, with the sample résumé when site/ has no résumé of its own. */
const DEMO_SITE = join(BUILD_DIR, 'demo-site');
/** A JSON Resume document that says it is a simulated sample (docs/site.md#resumejson). */
const SAMPLE_RESUME = join(ROOT, 'test', 'demo', 'resume.json');
/** The token the simulated GraphQL endpoint accepts; never a real credential. */
const DEMO_TOKEN = 'demo-simulated-token';
/** How long the gateway gets to finish in-flight requests after SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;

const BANNER = [
  '',
  '  ************************************************************************',
  '  *  DEMO: every number on this site is SIMULATED.                       *',
  '  *  Prices and contributions come from a fake provider on this machine, *',
  '  *  not from Coinbase or GitHub. Do not quote or publish them.          *',
  '  ************************************************************************',
  '',
];

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string) => process.stderr.write(`demo: ${line}\n`);

/**
 * The one line that says what the demo simulates: the product and the scale of its prices, the account,
 * the calendar's zone and the streak's rest days, each as the variable that changes it.
 */
function simulatesLine(
  config: Pick<Config, 'marketProduct' | 'githubAccount' | 'calendarTimeZone' | 'streakRestDays'>,
): string {
  const market =
    config.marketProduct === null
      ? 'no market (MARKET_PRODUCT=off)'
      : `${config.marketProduct} at about ${priceLevel(config.marketProduct).toLocaleString('en-US')} USD`;
  const rest = config.streakRestDays.length ? config.streakRestDays.join(', ') : 'none';
  return (
    `demo: simulating ${market}, GitHub account ${config.githubAccount}, ` +
    `calendar days in ${config.calendarTimeZone}, streak rest days: ${rest}`
  );
}

/** The address a browser can open: a wildcard listen address is reached through loopback. */
function browsableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** The owner's site/ copied for the demo, with the simulated sample résumé unless site/ has a résumé. */
async function demoContent(): Promise<void> {
  await rm(DEMO_SITE, { recursive: true, force: true });
  await cp(join(ROOT, 'site'), DEMO_SITE, { recursive: true });
  if (!existsSync(join(DEMO_SITE, 'resume.json'))) await copyFile(SAMPLE_RESUME, join(DEMO_SITE, 'resume.json'));
}

/** Runs `npm run build`'s program into the demo folder; `onStart` receives the child so a signal can stop it. */
function runBuild(
  env: NodeJS.ProcessEnv,
  onStart: (child: ChildProcess) => void,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BUILD_DIR, 'build.mjs'), '--out', DEMO_DIST, '--content', DEMO_SITE], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    onStart(child);
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

const running = (child: ChildProcess | undefined): child is ChildProcess =>
  child !== undefined && child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL after the grace period; resolves once the child is gone. */
async function terminate(child: ChildProcess): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function main(): Promise<number> {
  for (const program of ['build.mjs', 'gateway.mjs']) {
    if (!existsSync(join(BUILD_DIR, program))) {
      fail(`${join(BUILD_DIR, program)} is missing: run the demo with \`npm run demo\`, which compiles it first`);
      return 1;
    }
  }
  let config: Config;
  try {
    // The caller's configuration as the build and the gateway will read it, minus what the demo sets
    // itself (every upstream, the token, the site URL): a value of those can neither stop nor leak into it.
    config = loadConfig({
      ...process.env,
      SITE_URL: undefined,
      GITHUB_TOKEN: undefined,
      GITHUB_API_URL: undefined,
      GITHUB_WEB_URL: undefined,
      MARKET_API_URL: undefined,
      MARKET_WS_URL: undefined,
      SOURCE_DATE_EPOCH: undefined,
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      fail(`invalid configuration: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const { host, githubAccount: account } = config;
  // PORT=0 means "any free port"; the site still needs its real address for its absolute links.
  const port = config.port === 0 ? await freePort(host) : config.port;
  const siteUrl = `http://${browsableHost(host)}:${port}`;

  for (const line of BANNER) say(line);
  say(simulatesLine(config));

  let fake: FakeUpstreams | undefined;
  let feed: FakeFeed | undefined;
  let builder: ChildProcess | undefined;
  let gateway: ChildProcess | undefined;
  let stopping = false;
  let exitCode = 0;

  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    await Promise.all([builder, gateway].filter(running).map(terminate));
    await fake?.close();
    await feed?.close();
    process.exitCode = exitCode;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) say(`demo: ${signal} received, stopping the gateway and the simulated provider`);
    void stop(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  fake = await startFakeUpstreams({
    account,
    token: DEMO_TOKEN,
    product: config.marketProduct ?? undefined,
    unknownAccountHint: restartHint(account),
  });
  // The fake records every request for tests; a long-running demo must not keep them all.
  const forget = setInterval(() => fake?.resetCalls(), 60_000);
  forget.unref();
  // The simulated provider's live feed (docs/upstreams.md#the-live-feed): a tick every second or so, so the
  // home page's price moves as it does with the real feed. None for MARKET_PRODUCT=off or MARKET_WS_URL=off.
  if (config.marketProduct !== null && config.marketWsUrl !== null)
    feed = await startFakeFeed({ product: config.marketProduct, tickEveryMs: 1_000, host: '127.0.0.1' });

  // Everything that would reach a real upstream is pointed at the simulated one; the rest of the
  // caller's configuration (quota, proxies) is kept so the demo can show it.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO_SIMULATED: '1',
    SITE_URL: siteUrl,
    GITHUB_ACCOUNT: account,
    GITHUB_TOKEN: DEMO_TOKEN,
    GITHUB_API_URL: fake.url,
    GITHUB_WEB_URL: fake.url,
    MARKET_API_URL: fake.url,
    ...datasetOriginsEnv(fake.url),
    MARKET_WS_URL: feed?.url ?? 'off',
    HOST: host,
    PORT: String(port),
    DIST_DIR: DEMO_DIST,
  };
  delete env.SOURCE_DATE_EPOCH;

  say('demo: building the site from the simulated provider into .build/demo-dist ...');
  await rm(DEMO_DIST, { recursive: true, force: true });
  await demoContent();
  const built = await runBuild(env, (child) => (builder = child));
  if (stopping) return exitCode;
  if (built.code !== 0) {
    fail(`the build against the simulated provider failed (exit ${built.code}); see the line above`);
    await stop(built.code === 2 ? 2 : 1);
    return exitCode;
  }
  say(`demo: ${built.stdout.trim().split('\n').at(-1) ?? 'built'}`);

  gateway = spawn(process.execPath, [...GATEWAY_NODE_FLAGS, join(BUILD_DIR, 'gateway.mjs')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The gateway's own lines are passed through unchanged, so its `listening on http://…` line is the
  // first URL on the console; the banner's reminder follows it.
  let listening = false;
  createInterface({ input: gateway.stdout! }).on('line', (line) => {
    if (listening || !/^listening on https?:\/\//.test(line)) return say(line);
    listening = true;
    // One write, so a reader never sees the URL without the notice that follows it.
    say(
      [
        line,
        '',
        `  Open ${siteUrl}/ : the data on every page are SIMULATED (simulated provider at ${fake!.url}${feed ? `, its live feed at ${feed.url}` : ''}).`,
        // A build of one's own against the provider must say so too: DEMO_SIMULATED labels every output.
        `  To build against it: ${demoBuildCommand({ provider: fake!.url, feed: feed?.url ?? null, caller: process.env })}`,
        '  Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  });
  const exited = new Promise<number>((resolve) => {
    gateway!.on('error', (error) => {
      fail(`could not start the gateway: ${error.message}`);
      resolve(1);
    });
    gateway!.on('exit', (code, signal) => {
      const how = signal ? `signal ${signal}` : `exit ${code}`;
      if (stopping) return resolve(code === 2 ? 2 : 1);
      if (listening) fail(`the gateway exited unexpectedly (${how}); stopping the demo`);
      else
        fail(
          `the gateway could not start (${how}); see its line above. If port ${port} is taken, set PORT (PORT=0 picks a free one)`,
        );
      resolve(code === 2 ? 2 : 1);
    });
  });
  const code = await exited;
  if (!stopping) await stop(code);
  return exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
    // Node exits by itself once the servers are closed and the child is gone; nothing should remain.
  },
  (error: unknown) => {
    fail(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
