import { defineConfig } from 'vitest/config';

// `npm test`: the fast suite, in-process and on loopback (docs/testing.md). What needs a browser, Java, a
// Redis cluster, fault injection, thousands of sockets or a demo process is the slow suite under test/slow/
// (vitest.slow.config.ts, `npm run test:slow`); test/timing/ measures CPU time, in `npm run bench`
// (vitest.timing.config.ts); test/resilience/ is `npm run test:resilience`'s program.
const NOT_FAST = ['test/slow/**', 'test/timing/**', 'test/resilience/**', 'node_modules/**'];
/**
 * Files that replace a module (vi.mock, to play a bug) get a fork of their own: in a shared fork the
 * replacement would leak into the files after them, and a module already loaded would not be replaced.
 */
const ISOLATED = ['test/internal-error.test.ts'];

// What every suite shares (vitest.slow.config.ts too). Each project is complete in itself (no `extends`): vitest concatenates a project's include and exclude
// with the root's, which would run every file in both.
export const common = {
  globalSetup: ['test/global-setup.ts'],
  setupFiles: ['test/teardown.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // Two cores: two forks keep both busy without starving the programs the smoke tests spawn.
    maxWorkers: 2,
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
    ],
  },
});
