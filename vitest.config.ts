import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Fails the run naming any process it started that is still alive at the end (test/global/).
    globalSetup: ['test/global/vitest-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores: files that spawn processes compete; keep parallelism modest and stable.
    maxWorkers: process.env.CI ? 2 : undefined,
    // CI also keeps a JSON report, from which .ci/run prints one "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
  },
});
