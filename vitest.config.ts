import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Fails the run naming any process it started that is still alive at the end (test/global/).
    globalSetup: ['test/global/vitest-setup.ts'],
    // Outer bounds only: tests wait on conditions, and a busy two-core machine may be slow.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: files that spawn processes compete; keep parallelism modest and stable.
    maxWorkers: process.env.CI ? 2 : undefined,
  },
});
