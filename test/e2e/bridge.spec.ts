import { expect, test } from '@playwright/test';
import { freePort, startApp, watchPage, type App } from './fixtures.js';

// A disabled button must fail fast, not wait for the whole test timeout.
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await fetch(`${app.url}/api/bridge/daemon/stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
});

test('the bridge import form shows validation errors on its fields', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/bridge`);
  const form = page.getByTestId('bridge-import');
  await form.getByRole('button', { name: 'Import' }).click();
  await expect(form.getByText('Access token is required')).toBeVisible();
  await expect(form.getByText('Machine ID is required')).toBeVisible();
  await expect(form.getByLabel('Access token')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Access token').fill('too-short-token');
  await form.getByLabel('Machine ID').fill('not-hex');
  await form.getByRole('button', { name: 'Import' }).click();
  await expect(form.getByText(/longer than 50 characters \(this one has 15\)/)).toBeVisible();
  await expect(form.getByText('A machine ID is 32 hexadecimal characters')).toBeVisible();
  await expect(form.getByLabel('Machine ID')).toHaveAttribute('aria-invalid', 'true');

  // A well-formed import is accepted and the status shows the credentials.
  await form.getByLabel('Access token').fill('e2e.' + 'a'.repeat(60));
  await form.getByLabel('Machine ID').fill('0123456789abcdef0123456789abcdef');
  await form.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByText('Credentials valid')).toBeVisible();
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('starting a disabled bridge shows the API error verbatim', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/POST \/api\/bridge\/daemon\/start → 4\d\d/);
  await page.goto(`${app.url}/#/bridge`);
  await page.getByTestId('bridge-control').getByRole('button', { name: 'Start bridge' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Start bridge: Bridge is disabled (HTTP 400)' })).toBeVisible();
  expect(watch.errors).toEqual([]);
});

test('settings enable the bridge; the daemon starts, stops, and a crash shows as failed', async ({ page }) => {
  test.setTimeout(400_000);
  const port = await freePort();
  await page.goto(`${app.url}/#/bridge`);
  const settings = page.getByRole('form', { name: 'Bridge settings' });
  await settings.getByLabel('Enabled').check();
  await settings.getByLabel('Daemon port').fill(String(port));
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Bridge settings saved.')).toBeVisible();

  const control = page.getByTestId('bridge-control');
  await expect(control).toContainText('Credentials valid');
  await expect(control.getByText(String(port), { exact: true })).toBeVisible();
  await control.getByRole('button', { name: 'Start bridge' }).click();
  await expect(control.getByText(`Bridge started on port ${port}`)).toBeVisible({ timeout: 90_000 });
  await expect(control.getByText('Running')).toBeVisible();

  await control.getByRole('button', { name: 'Stop bridge' }).click();
  await expect(control.getByText('Bridge stopped.')).toBeVisible({ timeout: 90_000 });

  await control.getByRole('button', { name: 'Start bridge' }).click();
  await expect(control.getByText(`Bridge started on port ${port}`)).toBeVisible({ timeout: 90_000 });
  const { pid } = (await (await fetch(`${app.url}/api/bridge/status`)).json()) as { pid: number };
  process.kill(pid, 'SIGKILL');
  await expect(control.getByRole('alert').filter({ hasText: 'The bridge daemon failed' })).toBeVisible({ timeout: 90_000 });
  await expect(control.locator('.panel-head .badge')).toHaveText(/Failed/);
});
