import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiGet, expectAccessible, startApp, watchPage, type App } from './fixtures.js';

// The Claude Code card tells what settings.json really holds (issue 28 point 2) and brings back the
// user's original file (issue 27 point 1).
test.use({ actionTimeout: 10_000 });

const SHOTS = process.env.SHOTS_DIR ?? 'test-results/screenshots';
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const card = (page: Page, name: string) => page.getByTestId(`profile-card-${name}`);

let app: App;
test.beforeAll(async () => {
  await fs.mkdir(SHOTS, { recursive: true });
  app = await startApp();
  await fs.writeFile(path.join(app.home, 'zed.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: 'https://zed.example/anthropic', PROVIDER_MODEL: 'zed-1' } }, null, 2));
});
test.afterAll(() => app.stop());

test('after the applied profile is edited behind the app, the card says Claude Code still uses the old values; Re-apply and Restore', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.goto(`${app.url}/#/profiles`);
  const target = (await apiGet<{ path: string }>(page, '/api/claude-code')).path;
  await fs.mkdir(path.dirname(target), { recursive: true });
  const original = '{\n  "model": "opus",\n  "env": { "ANTHROPIC_MODEL": "my-own-model" }\n}\n';
  await fs.writeFile(target, original);
  await page.reload();

  await card(page, 'zed').getByRole('button', { name: 'Use for Claude Code (zed)' }).click();
  await expect(page.getByText('zed applied to Claude Code')).toBeVisible();
  const model = async () => (JSON.parse(await fs.readFile(target, 'utf8')) as { env: Record<string, string> }).env.ANTHROPIC_MODEL;
  expect(await model()).toBe('zed-1');

  // An editor changes the profile's model; the app was not told. The card reads both files.
  await fs.writeFile(path.join(app.home, 'zed.settings.json'), JSON.stringify({ env: { PROVIDER_BASE_URL: 'https://zed.example/anthropic', PROVIDER_MODEL: 'zed-2' } }, null, 2));
  await page.reload();
  const stale = page.getByRole('alert').filter({ hasText: 'Claude Code still uses the old values' });
  await expect(stale).toBeVisible();
  await expect(page.getByTestId('claude-code-stale')).toContainText('ANTHROPIC_MODEL, PROVIDER_MODEL');
  await expect(card(page, 'zed')).toContainText('Claude Code · old values');
  await shot(page, 'claude-code-stale');
  await expectAccessible(page, 'Claude Code card, stale');

  await stale.getByRole('button', { name: 'Re-apply zed' }).click();
  await expect(page.getByText('zed applied to Claude Code')).toBeVisible();
  await expect(stale).toHaveCount(0);
  await expect(card(page, 'zed')).not.toContainText('old values');
  expect(await model()).toBe('zed-2');

  // Restore my original settings: byte for byte, after a confirmation.
  await page.getByRole('button', { name: 'Restore my original settings' }).click();
  const confirm = page.getByRole('dialog', { name: 'Restore your original Claude Code settings?' });
  await expect(confirm).toContainText('byte for byte');
  await shot(page, 'claude-code-restore-confirm');
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Original settings restored')).toBeVisible();
  expect(await fs.readFile(target, 'utf8')).toBe(original);
  await expect(page.getByTestId('claude-code-status')).toContainText('No profile applied');
  await expect(page.getByRole('button', { name: 'Restore my original settings' })).toHaveCount(0);
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
