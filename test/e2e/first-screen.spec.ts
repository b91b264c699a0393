import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { serve, type Served } from './serve.js';
import { watchPage } from './fixtures.js';

/**
 * Issue 28.4 on a fresh install: the first screen shows only what needs the user. The deprecated
 * bridge is not there until it is enabled; the Agent tool page says plainly that no agent is
 * installed (PATH here holds none of the known agents).
 */
test.use({ actionTimeout: 10_000 });
test.describe.configure({ mode: 'serial' });

const SHOTS = 'docs/screenshots';
let app: Served;
let emptyBin = '';

test.beforeAll(async () => {
  // The server looks for agents on its PATH: an empty directory, so the answer does not depend
  // on what this machine has installed. Node itself is started by its full path.
  emptyBin = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-e2e-nobin-'));
  const saved = process.env.PATH;
  process.env.PATH = emptyBin;
  try {
    app = await serve();
  } finally {
    process.env.PATH = saved;
  }
});
test.afterAll(async () => {
  await app?.stop();
  await fs.rm(emptyBin, { recursive: true, force: true });
});

test('the Overview of a fresh install has no bridge panel; enabling the bridge brings it', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  // The bridge's absence is judged after its status has been read, not before.
  const bridgeRead = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/bridge/status');
  await page.goto(`${app.url}/#/overview`);
  await bridgeRead;
  await expect(page.getByTestId('recent-anomalies')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Anomalies · last 7 days' })).toBeVisible();
  await expect(page.getByTestId('proxy-state')).not.toBeEmpty();
  await expect(page.getByTestId('bridge-control')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/first-screen-fresh.png`, fullPage: true });

  const enabled = await page.request.put(`${app.url}/api/bridge/settings`, { data: { enabled: true } });
  expect(enabled.status(), await enabled.text()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('bridge-control')).toBeVisible();
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('the Agent tool page says plainly that no agent tool is installed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${app.url}/#/agent-tool`);
  const diag = page.getByTestId('agent-diagnostics');
  await expect(diag.getByText('No agent tool is installed')).toBeVisible();
  await expect(diag).toContainText('droid, claude, gemini and opencode');
  // No second warning about droid's missing binary or settings file, and no editor for a file of no agent.
  await expect(diag).not.toContainText("Agent tool binary 'droid' was not found");
  await expect(page.locator('#agent-settings')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/agent-tool-none.png`, fullPage: true });
});
