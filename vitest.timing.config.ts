import { defineConfig } from 'vitest/config';

// `npm run bench`'s first part: test/timing/, checks that hostile input costs work linear in its size,
// measured as CPU-time ratios on this machine. Neither test suite may depend on this machine's speed
// (docs/testing.md), so these run with the benchmarks, one file at a time so that they do not compete.
export default defineConfig({
  test: {
    include: ['test/timing/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
  },
});
