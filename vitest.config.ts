import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/resilience/**', 'node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/teardown.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep parallel forks modest so child processes and the browser are not starved.
    pool: 'forks',
    maxWorkers: 2,
  },
});
