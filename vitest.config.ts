import { defineConfig } from 'vitest/config';

// `npm test`: the fast suite, in-process and on loopback (docs/testing.md). What needs a browser, Java, a
// Redis cluster, fault injection, thousands of sockets or a demo process is the slow suite under test/slow/
// (vitest.slow.config.ts, `npm run test:slow`); test/timing/ measures CPU time, in `npm run bench`
// (vitest.timing.config.ts); test/resilience/ is `npm run test:resilience`'s program.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/slow/**', 'test/timing/**', 'test/resilience/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/teardown.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two forks keep both busy without starving the programs the smoke tests spawn.
    pool: 'forks',
    maxWorkers: 2,
    // Each fork runs file after file without reloading the modules they share (the gateway, the build, the
    // fakes): that loading was half the CPU of the small files. No test changes a module's state or
    // process.env; each starts its own servers and closes them (test/teardown.ts kills any gateway left).
    isolate: false,
  },
});
