// `npm run demo` as a program (docs/configuration.md#commands): it serves every route from simulated data, says so, and
// Ctrl-C (SIGINT) stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator as OpenApiValidator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSiteFile } from '../../builders/lib/config.ts';
import { API_INDEX, DISCOVERY } from '../../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import { createValidator } from '../../builders/contract/schemas.ts';
import {
  SIMULATED_MARKET_SOURCE,
  SIMULATED_NOTICE_TITLE,
  simulatedNoticeMarkdown,
} from '../../builders/lib/simulated.ts';
import { DEFAULT_MARKET_WS_URL } from '../../builders/lib/config.ts';
import { cleanEnv, ROOT } from '../helpers/run.ts';
import { browserAvailability, launchChromium } from '../helpers/browser.ts';

const validator = createValidator();
const BROWSER = browserAvailability();
const READY_TIMEOUT_MS = 90_000;

/** Every live process whose parent chain leads to `root` (Linux /proc), the gateway among them. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may itself contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended while we were reading
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of parents) if (ppid === parent) (found.push(pid), queue.push(pid));
  }
  return found;
}

/** Whether `pid` still runs. A zombie has ended: it only waits for a parent that may never reap it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

interface RunningDemo {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  done: () => boolean;
}

/** Starts the demo as a child and resolves once it has printed the gateway's `listening on` URL. */
async function startDemo(command: string, args: string[], env: Record<string, string> = {}): Promise<RunningDemo> {
  const child = spawn(command, args, { cwd: ROOT, env: cleanEnv({ PORT: '0', ...env }) });
  let output = '';
  let done = false;
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the demo printed no URL within ${READY_TIMEOUT_MS} ms:\n${output}`)),
      READY_TIMEOUT_MS,
    );
    child.stdout!.on('data', () => {
      const match = /listening on (https?:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ''));
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited, done: () => done };
}

/** Test cleanup after a failed assertion: kills whatever the demo left running. */
async function killAll(demo: RunningDemo | undefined): Promise<void> {
  if (!demo || demo.done()) return;
  for (const pid of descendants(demo.child.pid!)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended meanwhile
    }
  }
  demo.child.kill('SIGKILL');
  await demo.exited;
}

/** Waits (bounded) until none of `pids` is alive; returns the ones still alive at the end. */
async function gone(pids: number[], boundMs = 15_000): Promise<number[]> {
  for (let waited = 0; waited < boundMs && pids.some(alive); waited += 50) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(alive);
}

/**
 * Runs a command the demo printed, through a shell as a reader pastes it, with `env` added. Every request
 * it would send outside loopback goes to a proxy (Node's fetch honours HTTPS_PROXY under NODE_USE_ENV_PROXY)
 * that records it and refuses it: `asked` lists them.
 */
async function runPrinted(
  command: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; asked: string[] }> {
  const asked: string[] = [];
  const proxy = createServer((req, res) => {
    asked.push(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  proxy.on('connect', (req, socket) => {
    asked.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn('sh', ['-c', command], {
        cwd: ROOT,
        env: cleanEnv({
          ...env,
          NODE_USE_ENV_PROXY: '1',
          HTTP_PROXY: proxyUrl,
          HTTPS_PROXY: proxyUrl,
          NO_PROXY: '127.0.0.1,localhost,::1',
        }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr, asked }));
    });
  } finally {
    proxy.close();
  }
}

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo(process.execPath, [`${ROOT}.build/demo.mjs`]);
}, READY_TIMEOUT_MS + 5000);
afterAll(() => killAll(demo));

const get = (path: string) => fetch(`${demo.url}${path}`);

describe('npm run demo', () => {
  it.runIf(BROWSER.available || BROWSER.mustFail)(
    "the home page receives simulated ticks from the demo's live feed within 20 s, still labelled simulated",
    async () => {
      if (!BROWSER.available) throw new Error(BROWSER.reason);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${demo.url}/`);
        const figure = page.locator('[data-preview="market"]');
        await expect.poll(() => figure.getAttribute('data-live'), { timeout: 20_000 }).toBe('true');
        expect(await figure.locator('.stat-wide dt').textContent()).toBe('Live (simulated), as of');
        expect(await page.locator('body').textContent()).toMatch(/simulated/i);
      } finally {
        await browser.close();
      }
    },
  );

  it('says plainly on the console that the data are simulated, before and after the URL', async () => {
    for (let waited = 0; waited < 10_000 && !/Ctrl-C/.test(demo.output()); waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    const [before, after] = demo.output().split(/listening on https?:\/\/\S+/);
    expect(before).toMatch(/SIMULATED/);
    expect(after).toMatch(/SIMULATED/);
    // one line says what it simulates, each part as the variable that changes it
    expect(before).toContain(
      `demo: simulating MON-USD at about 0.03 USD, GitHub account ${readSiteFile().githubAccount}, calendar days in America/Toronto, streak rest days: none\n`,
    );
    // and how a build of one's own against its provider says so too
    expect(after).toMatch(/To build against it: DEMO_SIMULATED=1 MARKET_API_URL=http:\/\/127\.0\.0\.1:\d+ /);
  });

  it('prints the one build command that builds against it completely: exit 0, no outside address asked', async () => {
    const command = /^ {2}To build against it: (.+)$/m.exec(demo.output())?.[1];
    expect(command).toMatch(/ npm run build$/);
    const dist = mkdtempSync(join(tmpdir(), 'demo-printed-build-'));
    try {
      const built = await runPrinted(command!, { DIST_DIR: dist });
      expect(built.stderr).not.toMatch(/^build: /m);
      expect(built.code).toBe(0);
      expect(built.asked).toEqual([]);
      // The page's live feed is the demo's, never the real provider's.
      const home = readFileSync(join(dist, 'index.html'), 'utf8');
      const feed = /its live feed at (ws:\/\/127\.0\.0\.1:\d+)/.exec(demo.output())?.[1];
      expect(feed).toBeDefined();
      expect(home).toContain(feed!);
      expect(home).not.toContain(new URL(DEFAULT_MARKET_WS_URL).host);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('says to restart it when a build names another account than the one it simulates', async () => {
    const command = /^ {2}To build against it: (.+)$/m.exec(demo.output())?.[1];
    const dist = mkdtempSync(join(tmpdir(), 'demo-other-account-'));
    try {
      // The same as site/site.json naming another account after the demo started.
      const built = await runPrinted(command!, { DIST_DIR: dist, GITHUB_ACCOUNT: 'someone-else' });
      expect(built.code).toBe(1);
      expect(built.stderr).toMatch(
        /^build: contribution calendar not written: github-html: account "someone-else" not found \(404\): this demo simulates GitHub account "\S+", not "someone-else": stop it \(Ctrl-C\) and run npm run demo again$/m,
      );
      expect(built.asked).toEqual([]);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('names no real source on any card: the calendar cards say their calendar is simulated', async () => {
    for (const card of ['github-contributions', 'github-streak', 'mon-price']) {
      const svg = await (await get(`/cards/${card}.svg`)).text();
      expect(svg, card).toContain('SIMULATED DATA (demo), not real');
      expect(svg, card).not.toMatch(/Source: (GitHub|Coinbase)/);
    }
  });

  it('serves every data route with 200 and a schema-valid body built from the simulated provider', async () => {
    for (const [path, resource] of DEFAULT_SERVICE.paths) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      const body = (await res.json()) as Record<string, unknown>;
      validator.validate(resource.schema, body);
      if (resource.id === 'contributions') expect(body.username).toBe(readSiteFile().githubAccount);
    }
  });

  it('serves the API index with 200, schema-valid, with authentication "none"', async () => {
    const index = await get(API_INDEX.path);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await index.json()) as { authentication?: unknown };
    expect(body.authentication).toBe('none');
    validator.validate('ApiIndex', body);
  });

  it.each(Object.values(DISCOVERY).map((route) => [route.path, route] as const))(
    'serves %s with 200, its content type and a usable body',
    async (path, route) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')?.split(';')[0]).toBe(route.contentType.split(';')[0]);
      const text = await res.text();
      expect(text.length).toBeGreaterThan(0);
      if (route === DISCOVERY.openapi) {
        const result = await new OpenApiValidator().validate(JSON.parse(text) as Record<string, unknown>);
        expect(result.errors).toBeUndefined();
        expect(result.valid).toBe(true);
      }
      if (route === DISCOVERY.apiCatalog) {
        // RFC 9264 §4.2: the linkset is the only member of the top-level object.
        const catalog = JSON.parse(text) as Record<string, unknown>;
        expect(Object.keys(catalog)).toEqual(['linkset']);
        expect(Array.isArray(catalog.linkset)).toBe(true);
      }
    },
  );

  it('names the simulated provider as the market source, never the real one', async () => {
    for (const [path, resource] of DEFAULT_SERVICE.paths) {
      if (resource.id !== 'market') continue;
      const body = (await (await get(path)).json()) as { source?: unknown };
      expect(body.source, path).toBe(SIMULATED_MARKET_SOURCE);
      expect(body.source, path).not.toBe(readSiteFile().marketSourceName);
    }
  });

  it('says in the API index that the data are simulated, as a flag and in its description', async () => {
    const body = (await (await get(API_INDEX.path)).json()) as { simulated?: unknown; description?: string };
    expect(body.simulated).toBe(true);
    expect(body.description).toContain(SIMULATED_NOTICE_TITLE);
  });

  it.each([DISCOVERY.llms.path, DISCOVERY.llmsFull.path, DISCOVERY.developersMarkdown.path, '/index.md'])(
    'opens %s with the simulated-data notice, before any data',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const text = await res.text();
      const notice = simulatedNoticeMarkdown(readSiteFile().marketSourceName);
      expect(text).toContain(notice);
      // right under the title/summary or the front matter: a reader meets it before the first section
      expect(text.indexOf(notice)).toBeLessThan(text.indexOf('\n## '));
    },
  );

  it('shows its sample résumé, labelled simulated, on /resume, /resume.md and /resume.json (the owner has none)', async () => {
    const page = await (await get('/resume')).text();
    expect(page).toContain(SIMULATED_NOTICE_TITLE);
    expect(page).toMatch(/sample résumé, simulated/);
    expect(page).toMatch(/<h2[^>]*>Work<\/h2>/);
    const twin = await (await get('/resume.md')).text();
    expect(twin.indexOf(simulatedNoticeMarkdown(readSiteFile().marketSourceName))).toBeLessThan(twin.indexOf('\n## '));
    const document = (await (await get('/resume.json')).json()) as { basics: { label: string } };
    expect(document.basics.label).toMatch(/simulated/);
  });

  it('shows the simulated-data notice on the home page', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/simulated (data|provider)/i);
  });

  it('stops the gateway and itself on SIGINT, leaving no process behind', async () => {
    const children = descendants(demo.child.pid!);
    expect(children.length).toBeGreaterThan(0); // the gateway
    demo.child.kill('SIGINT');
    expect(await demo.exited).toEqual({ code: 0, signal: null });
    expect(children.filter(alive)).toEqual([]);
    // and nothing answers on the demo's address any more
    await expect(get('/')).rejects.toThrow();
  });
});

describe('npm run demo, through npm', () => {
  let viaNpm: RunningDemo | undefined;
  let started: number[] = [];
  afterAll(async () => {
    for (const pid of started.filter(alive)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
    await killAll(viaNpm);
  });

  // npm runs the script through `sh -c`: unless the script `exec`s the program, SIGINT sent to npm
  // reaches npm and the shell but never the demo, which would keep running with its gateway.
  it(
    'serves the site and stops everything it started when npm gets SIGINT',
    async () => {
      viaNpm = await startDemo('npm', ['run', '--silent', 'demo']);
      expect((await fetch(`${viaNpm.url}/`)).status).toBe(200);
      started = descendants(viaNpm.child.pid!);
      expect(started.length).toBeGreaterThanOrEqual(2); // the demo and its gateway (and maybe a shell)
      viaNpm.child.kill('SIGINT');
      const npmExited = await Promise.race([
        viaNpm.exited.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 20_000)),
      ]);
      expect(npmExited, "npm did not exit after SIGINT: does package.json's demo script `exec` the program?").toBe(
        true,
      );
      expect(await gone(started)).toEqual([]);
    },
    READY_TIMEOUT_MS + 30_000,
  );
});

describe('npm run demo for a fork: MARKET_PRODUCT=BTC-USD CALENDAR_TIME_ZONE=Asia/Tokyo', () => {
  let fork: RunningDemo | undefined;
  afterAll(() => killAll(fork));

  it(
    'names the product and the zone on the console and prices BTC on its own scale, above 1,000 USD',
    async () => {
      fork = await startDemo(process.execPath, [`${ROOT}.build/demo.mjs`], {
        MARKET_PRODUCT: 'BTC-USD',
        CALENDAR_TIME_ZONE: 'Asia/Tokyo',
        STREAK_REST_DAYS: 'Sat,Sun',
      });
      expect(fork.output()).toMatch(
        /^demo: simulating BTC-USD at about 60,000 USD, GitHub account \S+, calendar days in Asia\/Tokyo, streak rest days: Saturday, Sunday$/m,
      );
      const market = (await (await fetch(`${fork.url}/api/v1/btc-price`)).json()) as {
        value: number;
        points: Array<{ value: number }>;
      };
      expect(market.value).toBeGreaterThan(1000);
      for (const point of market.points) expect(point.value).toBeGreaterThan(1000);
      const calendar = (await (await fetch(`${fork.url}/api/v1/github-contributions`)).json()) as { timeZone: string };
      expect(calendar.timeZone).toBe('Asia/Tokyo');
    },
    READY_TIMEOUT_MS + 30_000,
  );
});

describe('npm run demo, when its gateway dies', () => {
  let broken: RunningDemo | undefined;
  afterAll(() => killAll(broken));

  it(
    'exits non-zero with one clear line instead of running on without a server',
    async () => {
      broken = await startDemo(process.execPath, [`${ROOT}.build/demo.mjs`]);
      const gateway = descendants(broken.child.pid!).find((pid) =>
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('gateway.mjs'),
      );
      expect(gateway).toBeDefined();
      process.kill(gateway!, 'SIGKILL');
      expect(await broken.exited).toEqual({ code: 1, signal: null });
      expect(broken.output()).toMatch(/^demo: the gateway exited unexpectedly \(signal SIGKILL\); stopping the demo$/m);
    },
    READY_TIMEOUT_MS + 30_000,
  );
});
