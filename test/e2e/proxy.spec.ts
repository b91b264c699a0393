import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, ERROR_LOG, QUOTA_ACCOUNT, startApp, watchPage, type App } from './fixtures.js';

// A disabled button must fail fast, not wait for the whole test timeout.
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  // Never leave the engine running: stop through the API before the server goes.
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
});

test('the proxy starts and stops from the dashboard', async ({ page }) => {
  test.setTimeout(300_000);
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/proxy/status`);
  const control = page.getByTestId('proxy-control');
  await expect(control.getByTestId('proxy-state')).toHaveText(/Stopped/);
  await control.getByRole('button', { name: 'Start proxy' }).click();
  await expect(control.getByText(`Started on port ${app.proxyPort}.`)).toBeVisible({ timeout: 90_000 });
  await expect(control.getByTestId('proxy-state')).toHaveText(/Running/);
  await expect(control.getByText(String(app.proxyPort), { exact: true })).toBeVisible();
  const status = await apiGet<{ running: boolean; port: number }>(page, '/api/proxy/proxy-status');
  expect(status).toMatchObject({ running: true, port: app.proxyPort });

  // With the proxy up, the models view asks it for its list.
  await page.getByRole('navigation', { name: 'Proxy sections' }).getByRole('link', { name: 'Models' }).click();
  await expect(page.getByRole('heading', { name: 'Models by category' })).toBeVisible();
  await expect(page.locator('.notice-error')).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Proxy sections' }).getByRole('link', { name: 'Status' }).click();
  await control.getByRole('button', { name: 'Stop proxy' }).click();
  await expect(control.getByText(/^Stopped \(PID \d+/)).toBeVisible({ timeout: 90_000 });
  await expect(control.getByTestId('proxy-state')).toHaveText(/Stopped/);
  expect(await apiGet<{ running: boolean }>(page, '/api/proxy/proxy-status')).toEqual({ running: false });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('an error log opens in the split request/response viewer', async ({ page }) => {
  await page.goto(`${app.url}/#/proxy/logs`);
  const table = page.getByTestId('error-logs');
  const row = table.getByRole('row').filter({ hasText: 'gpt-e2e-model' });
  await expect(row).toContainText('502');
  await row.getByRole('button', { name: `View ${ERROR_LOG}` }).click();
  const viewer = page.getByTestId('log-viewer');
  await expect(viewer.getByTestId('log-request')).toContainText('POST /v1/chat/completions');
  await expect(viewer.getByTestId('log-request')).toContainText(/"model": ?"gpt-e2e-model"/);
  await expect(viewer.getByTestId('log-response')).toContainText('upstream connection refused');
  await expect(viewer.getByTestId('log-response')).not.toContainText('POST /v1');
  await expect(viewer.getByText('Status 502')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/error-log-viewer.png', fullPage: true });
});

test('a token is regenerated and the restart notice appears', async ({ page }) => {
  await page.goto(`${app.url}/#/proxy/tokens`);
  const before = await apiGet<{ managementSecret: { value: string; isCustom: boolean } }>(page, '/api/settings/auth/tokens/raw');
  await expect(page.getByTestId('secret-value')).toHaveText('********');
  await page.getByRole('button', { name: 'Regenerate secret' }).click();
  await page.getByRole('dialog', { name: /Regenerate the management secret/ }).getByRole('button', { name: 'Regenerate' }).click();
  await expect(page.getByTestId('token-message')).toHaveText('Restart the proxy to apply the change');
  const after = await apiGet<{ managementSecret: { value: string; isCustom: boolean } }>(page, '/api/settings/auth/tokens/raw');
  expect(after.managementSecret.value).not.toBe(before.managementSecret.value);
  expect(after.managementSecret.value).toMatch(/^[A-Za-z0-9]{32}$/);
  expect(after.managementSecret.isCustom).toBe(true);
  // Reveal shows the new raw value, on request only.
  await page.getByRole('button', { name: 'Reveal values' }).click();
  await expect(page.getByTestId('secret-value')).toHaveText(after.managementSecret.value);
  await page.getByRole('button', { name: 'Hide values' }).click();
  await expect(page.getByTestId('secret-value')).toHaveText('********');

  // Setting a custom key, then resetting both, round-trips through the same panel.
  await page.getByLabel('New API key').fill('bad key');
  await page.getByRole('button', { name: 'Save tokens' }).click();
  await expect(page.getByText('8–256 printable characters, no spaces')).toBeVisible();
  await page.getByLabel('New API key').fill('sk-custom-e2e-key-0001');
  await page.getByRole('button', { name: 'Save tokens' }).click();
  await expect(page.getByTestId('token-message')).toHaveText('Restart the proxy to apply the change');
  await expect(page.getByTestId('api-key-value').locator('..')).toContainText('custom');
  expect((await apiGet<{ apiKey: { value: string } }>(page, '/api/settings/auth/tokens/raw')).apiKey.value).toBe('sk-custom-e2e-key-0001');
  await page.getByRole('button', { name: 'Reset both to defaults' }).click();
  await page.getByRole('dialog', { name: 'Reset both tokens?' }).getByRole('button', { name: 'Reset tokens' }).click();
  await expect(page.getByTestId('api-key-value').locator('..')).toContainText('default');
  await expect(page.getByTestId('secret-value').locator('..')).toContainText('default');
});

test('the YAML editor shows syntax and server validation errors in place', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/PUT \/api\/proxy\/config\.yaml → 400/);
  await page.goto(`${app.url}/#/proxy/config`);
  const editor = page.getByLabel('config.yaml');
  await expect(editor).toHaveValue(new RegExp(`port: ${app.proxyPort}`));
  const original = await editor.inputValue();

  await editor.fill('server:\n  port: [1, 2\n');
  await expect(page.locator('.editor-problems')).toContainText('Line');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

  // Valid YAML with a wrong type: only the server knows, and its message shows at the editor.
  await editor.fill('server:\n  port: "not a number"\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.editor-problems')).toContainText('Invalid YAML');
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  const onDisk = await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8');
  expect(onDisk).toContain(`port: ${app.proxyPort}`);

  await editor.fill(original.replace(/\n*$/, '\n') + '# e2e comment\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Restart the proxy to apply it.')).toBeVisible();
  expect(await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8')).toContain('# e2e comment');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('auth files list with a download, and quota per account with reset countdowns', async ({ page }) => {
  await page.goto(`${app.url}/#/proxy/auth`);
  const file = `codex-${QUOTA_ACCOUNT}.json`;
  const link = page.getByRole('link', { name: `Download ${file}` });
  await expect(link).toBeVisible();
  const download = page.waitForEvent('download');
  await link.click();
  expect((await download).suggestedFilename()).toBe(file);

  await page.getByRole('navigation', { name: 'Proxy sections' }).getByRole('link', { name: 'Quota' }).click();
  await page.getByRole('button', { name: `codex: ${QUOTA_ACCOUNT}` }).click();
  const five = page.getByRole('row', { name: /codex-5h/ });
  await expect(five).toContainText('42% used');
  await expect(five.getByRole('cell').last()).toHaveText(/^(59m \d+s|1h 0m)$/);
  const weekly = page.getByRole('row', { name: /codex-weekly/ });
  await expect(weekly).toContainText('91% used');
  await expect(weekly.getByRole('cell').last()).toHaveText(/^(2d 23h|3d 0h)$/);
  await page.screenshot({ path: 'test-results/screenshots/quota.png', fullPage: true });
});
