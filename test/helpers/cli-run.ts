// The CLI two ways: in-process, builders/cli/run.ts's run() as dist/cli.mjs calls it (the tests of what it prints and
// exits with), and the built dist/cli.mjs as a child process (the few tests of the artifact itself: its
// baked-in default site and version, a real terminal, its memory). Either way stdout is never a TTY.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliSchemas } from '../../builders/build/cli-artifact.ts';
import { run } from '../../builders/cli/run.ts';
import type { SchemaSet } from '../../builders/cli/schema-check.ts';
import { cleanEnv, HANG_GUARD_MS, ROOT, runNode, type RunResult } from './run.ts';

/** What the build bakes into cli.mjs (builders/build/cli-artifact.ts): the package's version and the schemas. */
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SCHEMAS = cliSchemas() as SchemaSet;

/**
 * `node cli.mjs <args>` without a process: run() with `env` as its whole environment (nothing of this
 * process's NO_COLOR, COLUMNS or TERM), stdout a pipe (or, with `tty`, a terminal as `script` gives a child),
 * and `defaultBaseUrl` as the build would bake it.
 */
export async function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: { tty?: boolean; defaultBaseUrl?: string; now?: number; waitNoticeMs?: number } = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(
    args,
    {
      env,
      stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
      stderr: { write: (text: string) => (stderr += text) },
      ...(options.now === undefined ? {} : { now: () => options.now! }),
      // A loaded machine can make any answer take 2 s: only the tests of that notice see it (docs/cli.md).
      waitNoticeMs: options.waitNoticeMs ?? 60_000,
    },
    options.defaultBaseUrl ?? 'http://localhost:8080',
    VERSION,
    SCHEMAS,
  );
  return { code, stdout, stderr };
}

/** The built cli.mjs as a child process (stdin closed, stdout a pipe). */
export function spawnCli(
  cliPath: string,
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = HANG_GUARD_MS,
): Promise<RunResult> {
  // NO_COLOR, COLUMNS and TERM from the developer's shell would change the output under test.
  const childEnv = cleanEnv();
  for (const name of ['NO_COLOR', 'COLUMNS', 'TERM', 'FORCE_COLOR']) delete childEnv[name];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return runNode(cliPath, args, childEnv, timeoutMs);
}
