// Runs the built dist/cli.mjs as a child process (stdin closed, stdout a pipe, so never a TTY).
import { cleanEnv, runNode, type RunResult } from './run.ts';

export function runCli(
  cliPath: string,
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 20_000,
): Promise<RunResult> {
  // NO_COLOR, COLUMNS and TERM from the developer's shell would change the output under test.
  const childEnv = cleanEnv();
  for (const name of ['NO_COLOR', 'COLUMNS', 'TERM', 'FORCE_COLOR']) delete childEnv[name];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return runNode(cliPath, args, childEnv, timeoutMs);
}
