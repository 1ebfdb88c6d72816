// Runs one of the compiled programs (.build/*.mjs) as a child process and collects its output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: the parent's minus anything that would reach a real upstream or token. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !/^(GITHUB_|MARKET_|RATE_LIMIT_|TRUST_PROXY|SITE_URL|SOURCE_DATE_EPOCH|DIST_DIR|PORT|HOST)/.test(k)
    )
      env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
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

/** The variables that point every upstream at one fake server. */
export function upstreamEnv(url: string): Record<string, string> {
  return { MARKET_API_URL: url, GITHUB_API_URL: url, GITHUB_WEB_URL: url, GITHUB_ACCOUNT: 'octocat' };
}
