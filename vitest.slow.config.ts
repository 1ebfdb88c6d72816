import { defineConfig } from 'vitest/config';
import { common } from './vitest.config.ts';

// `npm run test:slow`: test/slow/, what `npm test` leaves out (docs/testing.md): the real browser and the
// Nu HTML Checker, Redis processes and a Redis Cluster, injected faults, thousands of sockets, spawned
// gateways and the demo. The fast suite's setup (the compiled programs, the shared site), other files.
export default defineConfig({
  test: {
    ...common,
    maxWorkers: 2,
    include: ['test/slow/**/*.test.ts'],
    exclude: ['test/resilience/**', 'node_modules/**'],
    // Browsers, Java and child processes: more time per test than the in-process suite needs.
    testTimeout: 60_000,
    // Faults injected into Redis and processes: each file in a fresh fork.
    isolate: true,
  },
});
