// Runs one of the compiled programs (.build/*.mjs) as a child process and collects its output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../../tools/fakes/env.ts';

// The fakes' environment helpers, here too so that the tests import one helper module.
export { cleanEnv, upstreamEnv } from '../../tools/fakes/env.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script as a child with the given environment, stdin closed, and collects its output. */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** One of the compiled programs, .build/<program>.mjs. */
export function runProgram(
  program: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<RunResult> {
  return runNode(`${ROOT}.build/${program}.mjs`, args, cleanEnv(env), timeoutMs);
}
