import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, startApp, watchPage, type App } from './fixtures.js';

test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(() => app.stop());

test('the settings form saves config.yaml, keeping its comments, and usage follows the zone', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/settings`);
  await page.getByLabel('Timezone for grouping by day and hour').fill('Asia/Tokyo');
  await page.getByLabel('Launch at login').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  const { config } = await apiGet<{ config: { usage: { timezone: string }; desktop: { launch_at_login: boolean } } }>(page, '/api/config');
  expect(config.usage.timezone).toBe('Asia/Tokyo');
  expect(config.desktop.launch_at_login).toBe(true);
  expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toContain('# e2e config');

  await page.getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByLabel('Timezone', { exact: true })).toHaveValue('Asia/Tokyo');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('invalid config is refused with the API message next to the field', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/PUT \/api\/config → 400/);
  await page.goto(`${app.url}/#/settings`);
  await page.getByLabel('Update feed URL').fill('not a url');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const field = page.getByLabel('Update feed URL');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('.field-invalid')).toContainText('proxy.update_feed_url');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('the agent settings editor saves JSON and refuses what is not an object', async ({ page }) => {
  await page.goto(`${app.url}/#/agent-tool`);
  const editor = page.getByLabel(app.agentSettingsFile);
  await editor.fill('{"model": ');
  await expect(page.locator('.editor-problems')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await editor.fill('{\n  "model": "claude-sonnet-4-5"\n}\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect(JSON.parse(await fs.readFile(app.agentSettingsFile, 'utf8'))).toEqual({ model: 'claude-sonnet-4-5' });
  await expect(page.getByRole('region', { name: 'Diagnostics' }).getByTestId('agent-settings-file')).toContainText('Present');
});

test('an outside edit of the agent settings file opens the conflict dialog', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/PUT \/api\/agent-tool\/settings → 409/);
  await fs.mkdir(path.dirname(app.agentSettingsFile), { recursive: true });
  await fs.writeFile(app.agentSettingsFile, '{\n  "model": "first"\n}\n');
  await page.goto(`${app.url}/#/agent-tool`);
  const editor = page.getByLabel(app.agentSettingsFile);
  await expect(editor).toHaveValue(/"first"/);
  await fs.writeFile(app.agentSettingsFile, '{\n  "model": "outside"\n}\n');
  const later = new Date(Date.now() + 5_000);
  await fs.utimes(app.agentSettingsFile, later, later);

  await editor.fill('{\n  "model": "mine"\n}\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /changed on disk/ });
  await expect(dialog.getByLabel('Version on disk')).toContainText('"outside"');
  await expect(dialog.getByLabel('Your version (unsaved)')).toContainText('"mine"');
  await dialog.getByRole('button', { name: 'Overwrite with my version' }).click();
  await expect(dialog).toBeHidden();
  expect(JSON.parse(await fs.readFile(app.agentSettingsFile, 'utf8'))).toEqual({ model: 'mine' });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
