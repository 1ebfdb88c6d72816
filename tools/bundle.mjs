// Compiles the TypeScript entry points into .build/*.mjs with esbuild (packages stay external and are
// resolved from node_modules at run time). Run by the npm scripts before they start a program.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Output name → TypeScript entry, relative to the repository root. Missing entries are skipped. */
export const ENTRIES = {
  build: 'builders/build-main.ts',
  gateway: 'gateway/main.ts',
  demo: 'demo/main.ts',
  bench: 'bench/main.ts',
  resilience: 'test/resilience/main.ts',
  'check-dist': 'builders/check-dist-main.ts',
  'lint-openapi': 'builders/lint-openapi-main.ts',
};

export async function bundle() {
  const entryPoints = Object.entries(ENTRIES)
    .filter(([, source]) => existsSync(root + source))
    .map(([out, source]) => ({ out, in: root + source }));
  await esbuild.build({
    entryPoints,
    outdir: root + '.build',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
}
