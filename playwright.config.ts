import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e',
  // Outer bounds only (the specs wait on conditions): generous, for a busy two-core machine.
  timeout: 300_000,
  expect: { timeout: 30_000 },
  // Two: each spec starts its own app on free ports in its own temp home, so specs never share
  // state; on two cores this took the quiet run from 117 s to 82 s.
  workers: 2,
  // Fails the run naming any process it started that is still alive at the end (test/global/).
  globalSetup: './test/global/playwright-setup.ts',
  globalTeardown: './test/global/playwright-teardown.ts',
  // `npm test` (scripts/run-tests.mjs) adds a JSON report for its closing count.
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
});
