import { defineConfig } from 'vitest/config';

// Every suite of vitest, one project each (docs/testing.md): `npm test` runs `shared` and `isolated`, the
// fast suite, in-process and on loopback; `npm run test:slow` runs `slow`, test/slow/: what needs a
// browser, Java, a Redis cluster, fault injection, thousands of sockets or a demo process; `npm run bench`
// runs `timing` first, test/timing/, which measures CPU time. test/resilience/ is `npm run
// test:resilience`'s program, not a vitest suite.
const NOT_FAST = ['test/slow/**', 'test/timing/**', 'test/resilience/**', 'node_modules/**'];
/**
 * Files that replace a module (vi.mock, to play a bug) get a fork of their own: in a shared fork the
 * replacement would leak into the files after them, and a module already loaded would not be replaced.
 */
const ISOLATED = ['test/internal-error.test.ts'];
/**
 * Run alone, one file after another, after the slow suite (`npm run test:slow`), so that no other file's CPU
 * starves them: the connection-load test, and the copy's whole fast suite of the dataset recipe.
 */
const ALONE = ['test/slow/gateway-load.test.ts', 'test/slow/dataset-recipe-suite.test.ts'];

// What the fast and slow suites share. Each project is complete in itself (no `extends`): vitest
// concatenates a project's include and exclude with the root's, which would run every file in both.
const common = {
  globalSetup: ['test/global-setup.ts'],
  setupFiles: ['test/teardown.ts'],
  // A test's and a hook's time limits are a guard against a hang, not a measure: on two cores shared by
  // others (load 45 to 58) a test that spawns three builds took more than 30 s. They are far above that,
  // so that a loaded machine makes the suite slower, never red; a real hang is still reported.
  testTimeout: 120_000,
  hookTimeout: 180_000,
  pool: 'forks' as const,
  // expect.poll gives up after 1 s by default, and a poll whose callback asks a browser or a server can take
  // that long on a loaded machine: it is a wait for something to happen, so it gets the time a wait gets.
  expect: { poll: { timeout: 30_000 } },
};

export default defineConfig({
  test: {
    // Two cores, four forks: a fork often waits (an upstream's retry backoff, a socket's deadline, a spawned
    // program), and the others keep both cores busy meanwhile. Measured on two idle cores, vitest alone: two
    // forks took 56 s, three 46 s, four 43 s, five 45 s (each fork loads the modules and warms up on its own,
    // 2 to 3 s of CPU). Four pass with eight busy loops beside them (docs/testing.md#how-long-it-takes).
    maxWorkers: 4,
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...NOT_FAST, ...ISOLATED],
          // Each fork runs file after file without reloading the modules they share (the gateway, the build,
          // the fakes): that loading was half the CPU of the small files. No test here changes a module's
          // state or process.env; each starts its own servers and closes them (test/teardown.ts kills any
          // gateway left).
          isolate: false,
        },
      },
      { test: { ...common, name: 'isolated', include: ISOLATED, isolate: true } },
      {
        test: {
          ...common,
          name: 'slow',
          include: ['test/slow/**/*.test.ts'],
          // Thousands of sockets at once, a whole fast suite: run alone afterwards (the `load` project).
          exclude: ALONE,
          // Browsers, Java and child processes: more time per test than the in-process suite needs.
          testTimeout: 180_000,
          // Faults injected into Redis and processes: each file in a fresh fork.
          isolate: true,
        },
      },
      {
        test: { ...common, name: 'load', include: ALONE, testTimeout: 180_000, isolate: true, fileParallelism: false },
      },
      {
        // CPU-time ratios on this machine, which neither test suite may depend on: run with the benchmarks,
        // one file at a time (`--max-workers=1` in `npm run bench`) so that they do not compete.
        test: { name: 'timing', include: ['test/timing/**/*.test.ts'], pool: 'forks' as const, testTimeout: 120_000 },
      },
    ],
  },
});
