// Runs the npm scripts named on its command line side by side and exits with the first failure's status
// (in the order named), or 0. `npm test` runs `lint` and `typecheck` so: Prettier's check uses one core
// and most of a fresh clone's lint is that check, which the type-check overlaps on the other core
// (docs/testing.md#how-long-it-takes). Each script's output, stdout and stderr in the order they came, is
// printed whole once it has ended, in the order named, so that two scripts' lines never interleave.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node tools/npm-together.mjs <npm script>...\n');
  process.exit(2);
}

// The npm that runs this script (npm sets npm_execpath), else the one on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const chunks = [];
      const child = spawn(npm[0], [...npm.slice(1), 'run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
      child.on('error', (error) => resolve({ output: Buffer.from(`${script}: ${error.message}\n`), status: 1 }));
      child.on('close', (code, signal) => resolve({ output: Buffer.concat(chunks), status: code ?? (signal ? 1 : 0) }));
    }),
);

let status = 0;
for (const run of runs) {
  const { output, status: own } = await run;
  process.stdout.write(output);
  if (status === 0) status = own;
}
process.exitCode = status;
