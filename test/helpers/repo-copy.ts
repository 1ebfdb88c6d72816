// A copy of the repository's tracked files in a temporary folder, with this checkout's node_modules linked
// in: where the slow suite adds a dataset as a maintainer would (test/slow/dataset-copy.test.ts,
// test/slow/dataset-recipe.test.ts), then runs the copy's own programs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { cleanEnv, ROOT, type RunResult } from './run.ts';

/** A new folder holding every tracked file of the repository, and a link to its node_modules. */
export async function copyRepository(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(join(ROOT, file), join(dir, file)).catch(() => undefined);
  }
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Node with `args` in the copy, its environment cleaned of anything that reaches a real upstream. */
export function runIn(dir: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The copy's gateway on a free loopback port, resolved with its `listening on` URL. */
export function startGatewayIn(
  dir: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['.build/gateway.mjs'], {
      cwd: dir,
      env: cleanEnv({ ...env, HOST: '127.0.0.1', PORT: '0' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^listening on (\S+)/.exec(line);
      if (m) resolve({ child, url: m[1]! });
    });
  });
}
