// Runs one of the compiled programs (.build/*.mjs) as a child process and collects its output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from '../fakes/env.ts';
import { exitStatus, type MainIo } from '../../builders/lib/run-main.ts';
import { main as checkDistMain } from '../../builders/build/dist-check/main.ts';

// The fakes' environment helpers, here too so that the tests import one helper module.
export { cleanEnv, upstreamEnv } from '../fakes/env.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * UPSTREAM_TIMEOUT_MS for a test whose upstreams answer (or fail at once): far beyond the machine's
 * worst delay, so that a loaded machine slows the test down rather than turning an answer into a
 * timeout (at load 46, one calendar fetch took longer than the 1.5 s these tests used to give it). A
 * test about the deadline itself gives a short one: load can only make a timeout come later.
 */
export const AMPLE_UPSTREAM_TIMEOUT_MS = '20000';

/**
 * How long a spawned program may run before it is killed: a guard against a hang, not a measure, below
 * vitest's 120 s limit of a test so that the program's output is reported rather than a bare timeout.
 */
export const HANG_GUARD_MS = 100_000;

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
  timeoutMs = HANG_GUARD_MS,
): Promise<RunResult> {
  return runNode(`${ROOT}.build/${program}.mjs`, args, cleanEnv(env), timeoutMs);
}

/** An environment and output for a program run in this process, and its RunResult once it has ended. */
export function collectedIo(env: Record<string, string | undefined>): MainIo & { result(code: number): RunResult } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    env,
    stdout: { write: (text: string) => stdout.push(text) },
    stderr: { write: (text: string) => stderr.push(text) },
    result: (code) => ({ code, stdout: stdout.join(''), stderr: stderr.join('') }),
  };
}

/**
 * A program's main() without a process: `env` alone is its environment (no variable of this process
 * reaches it), its stdout and stderr are collected, and its exit status is the one the program gives
 * (builders/lib/run-main.ts: 70, with one line, for anything main throws). What only the process shows, the exit
 * status as the operating system sees it, is left to one spawned test per program (runProgram).
 */
export async function runMainInProcess(
  name: string,
  env: Record<string, string | undefined>,
  main: (io: MainIo) => Promise<number>,
): Promise<RunResult> {
  const io = collectedIo(env);
  const code = await exitStatus(
    name,
    () => main(io),
    (line) => io.stderr.write(`${line}\n`),
  );
  return io.result(code);
}

/** `node .build/check-dist.mjs <args>` (`npm run check:dist`) as runMainInProcess runs it. */
export function runCheckDist(args: string[], env: Record<string, string | undefined>): Promise<RunResult> {
  return runMainInProcess('check:dist', env, (io) => checkDistMain(args, io));
}
