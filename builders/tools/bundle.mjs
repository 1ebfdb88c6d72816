// Compiles the TypeScript entry points into .build/*.mjs with esbuild. Run by the npm scripts before they
// start a program. The gateway is one self-contained file, its packages included: resolving and loading
// them module by module from node_modules was a third of its start time. The other programs (build,
// bench, tests' helpers) keep their packages external, resolved from node_modules at run time.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Output name → TypeScript entry, relative to the repository root. Missing entries are skipped. */
export const ENTRIES = {
  build: 'builders/build/build-main.ts',
  'gateway-bundle': 'gateway/main.ts',
  demo: 'test/demo/main.ts',
  'theme-shots': 'test/demo/theme-shots.ts',
  bench: 'test/bench/main.ts',
  resilience: 'test/resilience/main.ts',
  'check-dist': 'builders/build/check-dist-main.ts',
  'fetch-previous': 'builders/build/fetch-previous-main.ts',
  'lint-openapi': 'builders/build/lint-openapi-main.ts',
  'fake-upstreams': 'test/fakes/main.ts',
  edge: 'gateway/worker/main.ts',
};

/** Entries whose packages are bundled into them (see above). */
const SELF_CONTAINED = new Set(['gateway-bundle']);

/**
 * `.build/gateway.mjs`, the gateway program: it turns on node's compile cache (V8's compiled code of the
 * bundle, kept on disk in `.build/compile-cache/`) and then loads the bundle. Compiling the 2 MB bundle was
 * the largest part of the gateway's start (docs/performance.md#what-changed-in-the-core-round-issue-34); from the second start of the same
 * bundle on, node reads the compiled code instead. A rebuilt bundle with other bytes is compiled afresh.
 */
const GATEWAY_LAUNCHER = `// Written by builders/tools/bundle.mjs: the gateway with node's compile cache (docs/performance.md#what-changed-in-the-core-round-issue-34).
import { enableCompileCache, flushCompileCache } from 'node:module';
enableCompileCache?.(new URL('./compile-cache/', import.meta.url).pathname);
await import('./gateway-bundle.mjs');
// Written now rather than at exit: a gateway stopped by SIGKILL has still filled the cache.
flushCompileCache?.();
`;

/**
 * Bundled CommonJS packages (ajv, its formats) call require() for Node's built-in modules, which an
 * ES module does not have: the banner gives the file one.
 */
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * Node's built-in modules in the gateway's bundle, taken as node's CommonJS objects
 * (`process.getBuiltinModule`) rather than through their ES module facades: a facade reads every export
 * of its module to build itself, getters included, and so loads what the gateway may never use at start
 * (node:http's WebSocket getter loads undici whole, node:fs's ReadStream its streams): together the
 * largest part of the start left after the compile cache (docs/performance.md#what-changed-in-the-core-round-issue-34). esbuild's
 * interop reads an export only when the code uses it.
 */
const builtinsWithoutFacades = {
  name: 'builtins-without-facades',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'builtin' }));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * Writes a file whole or not at all: unchanged bytes are left alone, others go to a temporary file renamed
 * over the old one. `npm test` runs lint's bundle beside vitest's global setup (test/tools/npm-together.mjs),
 * and a test that spawns a program while the other writes its file must read the old file or the new one,
 * never half of one.
 */
function writeWhole(path, bytes) {
  try {
    if (readFileSync(path).equals(bytes)) return;
  } catch {
    // not there yet
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

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
    write: false,
  };
  const results = await Promise.all([
    esbuild.build({ ...common, entryPoints: entries.filter((e) => !SELF_CONTAINED.has(e.out)), packages: 'external' }),
    esbuild.build({
      ...common,
      entryPoints: entries.filter((e) => SELF_CONTAINED.has(e.out)),
      banner: { js: REQUIRE_BANNER },
      plugins: [builtinsWithoutFacades],
    }),
  ]);
  mkdirSync(root + '.build', { recursive: true });
  for (const file of results.flatMap((result) => result.outputFiles)) writeWhole(file.path, Buffer.from(file.contents));
  writeWhole(root + '.build/gateway.mjs', Buffer.from(GATEWAY_LAUNCHER));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
}
