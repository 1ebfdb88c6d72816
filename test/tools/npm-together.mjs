// Runs the npm scripts named on its command line side by side and, after `--`, one command beside them;
// exits with the first failure's status (scripts in the order named, then the command), or 0. `npm test`
// runs `lint`, `typecheck` and vitest so: Prettier's check uses one core and most of a fresh clone's lint
// is that check, so the type-check and vitest's first files overlap it on the other core instead of
// waiting for it (docs/testing.md#how-long-it-takes). The command keeps the terminal (vitest's live
// report, its colours); each script's output, stdout and stderr in the order they came, is printed whole
// once the command has ended, in the order named, so that no two outputs ever interleave and a lint
// failure is the last thing on screen.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const scripts = split === -1 ? args : args.slice(0, split);
const command = split === -1 ? [] : args.slice(split + 1);
if (scripts.length === 0 && command.length === 0) {
  process.stderr.write('usage: node test/tools/npm-together.mjs <npm script>... [-- <command> <arg>...]\n');
  process.exit(2);
}

// The npm that runs this script (npm sets npm_execpath), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

/** Runs a program to its end: its status, and its output when `collect`. */
const run = (name, file, argv, collect) =>
  new Promise((resolve) => {
    const chunks = [];
    const child = spawn(file, argv, { stdio: ['ignore', collect ? 'pipe' : 'inherit', collect ? 'pipe' : 'inherit'] });
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ output: Buffer.from(`${name}: ${error.message}\n`), status: 1 }));
    child.on('close', (code, signal) => resolve({ output: Buffer.concat(chunks), status: code ?? (signal ? 1 : 0) }));
  });

const runs = scripts.map((script) => run(script, npm[0], [...npm.slice(1), 'run', script], true));
// npm run puts node_modules/.bin on PATH, so the command is found as a script's would be.
const last = command.length > 0 ? run(command[0], command[0], command.slice(1), false) : undefined;

let status = 0;
const own = last === undefined ? undefined : await last;
for (const pending of runs) {
  const { output, status: code } = await pending;
  process.stdout.write(output);
  if (status === 0) status = code;
}
if (own !== undefined) {
  process.stderr.write(own.output);
  if (status === 0) status = own.status;
}
process.exitCode = status;
