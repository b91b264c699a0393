import os from 'node:os';
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
    // CI: two, modest and stable (files that spawn processes compete). Elsewhere vitest's default
    // (cores - 1) but never one: on a two-core laptop one worker took `npm test`'s vitest from
    // 113 s to 183 s.
    maxWorkers: process.env.CI ? 2 : Math.max(2, os.availableParallelism() - 1),
  },
});
