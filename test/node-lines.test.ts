// The Node.js lines each program runs on. `npm start`, `npm run build`, `npm run demo` and `npm test` need
// package.json's engines.node and refuse an older Node in one line, exit 2, before any work
// (builders/tools/node-floor.cjs, read from package.json, never repeated); the published cli.mjs runs on older
// lines too (docs/cli.md). The older Node is the machine's own when it has one (Debian's /usr/bin/node is
// Node 20 on this project's machine); CI's containers hold only their one line, so there these tests
// skip, saying so.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from './helpers/run.ts';
import { sharedSite } from './helpers/site-dist.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const GUARD = join(ROOT, 'builders/tools/node-floor.cjs');
/** "22.12" of ">=22.12". */
const FLOOR = /^>=\s*([\d.]+)$/.exec(PACKAGE.engines.node)![1]!;

const version = (text: string) => text.replace(/^v/, '').split('.').map(Number);
const older = (a: number[], b: number[]) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

/** The first Node.js binary on this machine older than the floor, with its version, or why there is none. */
function findOlderNode(): { path: string; version: string } | { reason: string } {
  const candidates = ['/usr/bin/node', '/usr/bin/nodejs', '/usr/local/bin/node'];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const out = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    if (/^v\d+\.\d+\.\d+$/.test(out) && older(version(out), version(FLOOR))) return { path, version: out.slice(1) };
  }
  return { reason: `no Node.js older than ${FLOOR} on this machine (looked at ${candidates.join(', ')})` };
}
const OLD = findOlderNode();
const oldNode = (skip: (condition: boolean, note: string) => void) => {
  skip('reason' in OLD, 'reason' in OLD ? OLD.reason : '');
  return OLD as { path: string; version: string };
};

const run = (node: string, args: string[], cwd = ROOT, env: Record<string, string> = cleanEnv()) =>
  spawnSync(node, args, { cwd, env, encoding: 'utf8', timeout: 30_000 });

describe('the Node.js floor (builders/tools/node-floor.cjs)', () => {
  const refusal = (current: string) =>
    `node-floor: this project needs Node.js ${FLOOR} or newer (package.json engines.node "${PACKAGE.engines.node}"); this is Node.js ${current}`;

  it('refuses an older Node in one line naming the required version, exit 2, nothing on stdout', ({ skip }) => {
    const old = oldNode(skip);
    const result = run(old.path, [GUARD]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${refusal(old.version)} (${old.path})\n`);
  });

  it('lets this Node through silently', () => {
    const result = run(process.execPath, [GUARD]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('reads the floor from package.json: another floor there is the one it applies', () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-floor-'));
    try {
      mkdirSync(join(dir, 'builders/tools'), { recursive: true });
      copyFileSync(GUARD, join(dir, 'builders/tools/node-floor.cjs'));
      const withEngines = (node: string) => {
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ engines: { node } }));
        return run(process.execPath, [join(dir, 'builders/tools/node-floor.cjs')], dir);
      };
      const future = withEngines('>=99.1');
      expect(future.status).toBe(2);
      expect(future.stderr).toMatch(
        /^node-floor: this project needs Node\.js 99\.1 or newer \(package\.json engines\.node ">=99\.1"\); this is Node\.js \d+\.\d+\.\d+ \(.+\)\n$/,
      );
      expect(withEngines('>=1.0').status).toBe(0);
      expect(withEngines(`>=${process.versions.node}`).status).toBe(0);
      // a range it does not understand is refused, not guessed at
      const caret = withEngines('^22');
      expect(caret.status).toBe(2);
      expect(caret.stderr).toMatch(
        /^node-floor: engines\.node in .*package\.json is "\^22"; expected ">=<major>\.<minor>"\n$/,
      );
      rmSync(join(dir, 'package.json'));
      const missing = run(process.execPath, [join(dir, 'builders/tools/node-floor.cjs')], dir);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toMatch(/^node-floor: cannot read engines\.node from .*package\.json: .+\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(['start', 'build', 'demo', 'test'])('npm %s runs it first, before any other command', (script) => {
    expect(PACKAGE.scripts[script]!.startsWith('node builders/tools/node-floor.cjs && ')).toBe(true);
  });

  it('npm run build on an older Node exits 2 with the one line and nothing else', ({ skip }) => {
    const old = oldNode(skip);
    const npm = join(dirname(old.path), 'npm');
    skip(!existsSync(npm), `no npm beside ${old.path}`);
    // the older Node first on PATH, as for someone whose shell has it
    const result = run(npm, ['run', '--silent', 'build'], ROOT, cleanEnv({ PATH: `${dirname(old.path)}:/bin` }));
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`${refusal(old.version)} (${old.path})\n`);
    expect(result.stdout).toBe('');
  });
});

describe('npm ci on an older Node (.npmrc engine-strict)', () => {
  it('stops before installing anything, naming the Node.js it needs', ({ skip }) => {
    const old = oldNode(skip);
    const npm = join(dirname(old.path), 'npm');
    skip(!existsSync(npm), `no npm beside ${old.path}`);
    // A copy of what npm ci reads (the manifest, the lock file, the project's .npmrc), so a refusal that
    // did not happen installs into a temporary folder rather than over this checkout's node_modules.
    const dir = mkdtempSync(join(tmpdir(), 'engine-strict-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc'])
        copyFileSync(join(ROOT, file), join(dir, file));
      const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--offline'], {
        cwd: dir,
        env: cleanEnv({ PATH: `${dirname(old.path)}:/bin`, npm_config_cache: join(dir, '.npm') }),
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(result.error).toBeUndefined(); // not killed by the bound (a guard against a hang, not a measure)
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('EBADENGINE');
      expect(result.stderr).toContain(`Required: {"node":"${PACKAGE.engines.node}"}`);
      expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** As run(), without blocking the event loop: for a child that talks to a server in this process. */
function runAsync(node: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('the published cli.mjs on an older Node', () => {
  let serve: StaticServer;
  const site = sharedSite();
  beforeAll(async () => {
    expect(site.result.code).toBe(0);
    serve = await startServeHandler(site.dir);
  });
  afterAll(() => serve?.close());

  it('prints its help and reads a site with an older Node than the project needs', async ({ skip }) => {
    const old = oldNode(skip);
    const cli = join(site.dir, 'cli.mjs');
    const help = run(old.path, [cli, '--help']);
    expect(help.stderr).toBe('');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^cli\.mjs: read the site's public documents/);
    expect(help.stdout).toContain('Usage: node cli.mjs <command> [--json] [--base-url <url>]');
    // a real request on loopback with that Node's own fetch
    const profile = await runAsync(old.path, [cli, 'profile', '--json', '--base-url', serve.url]);
    expect(profile.stderr).toBe('');
    expect(profile.status).toBe(0);
    expect(JSON.parse(profile.stdout)).toEqual(await site.json('profile.json'));
  });

  it('price --watch on a Node without WebSocket says what it needs in one line, exit 2', async ({ skip }) => {
    const old = oldNode(skip);
    const watch = await runAsync(old.path, [join(site.dir, 'cli.mjs'), 'price', '--watch', '--base-url', serve.url]);
    expect(watch.status).toBe(2);
    expect(watch.stdout).toBe('');
    expect(watch.stderr).toBe(
      `cli.mjs: --watch needs Node.js 22.12 or later (its built-in WebSocket client); this is Node.js v${old.version}\n`,
    );
  });
});
