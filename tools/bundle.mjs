// Compiles the TypeScript entry points into .build/*.mjs with esbuild. Run by the npm scripts before they
// start a program. The gateway is one self-contained file, its packages included: resolving and loading
// them module by module from node_modules was a third of its start time. The other programs (build,
// bench, tests' helpers) keep their packages external, resolved from node_modules at run time.
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
  'fetch-previous': 'builders/fetch-previous-main.ts',
  'lint-openapi': 'builders/lint-openapi-main.ts',
  'fake-upstreams': 'fakes/main.ts',
  edge: 'edge/main.ts',
};

/** Entries whose packages are bundled into them (see above). */
const SELF_CONTAINED = new Set(['gateway']);

/**
 * Bundled CommonJS packages (ajv, its formats) call require() for Node's built-in modules, which an
 * ES module does not have: the banner gives the file one.
 */
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export async function bundle() {
  const entries = Object.entries(ENTRIES)
    .filter(([, source]) => existsSync(root + source))
    .map(([out, source]) => ({ out, in: root + source }));
  const common = {
    outdir: root + '.build',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: entries.filter((e) => !SELF_CONTAINED.has(e.out)), packages: 'external' }),
    esbuild.build({
      ...common,
      entryPoints: entries.filter((e) => SELF_CONTAINED.has(e.out)),
      banner: { js: REQUIRE_BANNER },
    }),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
}
