import { expect, test } from '@playwright/test';
import { apiGet, startApp, watchPage, type App } from './fixtures.js';

// Restart from the dashboard (issue 28.7): the Proxy card's button and the tokens notice's.
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
});

/** What the running proxy answers a client that sends `key`. */
async function proxyAnswers(key: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${app.proxyPort}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

test('Restart proxy on the card; after a key change, "Restart proxy now" puts the new key in effect', async ({ page }) => {
  test.setTimeout(180_000);
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/proxy/status`);
  const control = page.getByTestId('proxy-control');
  await expect(control.getByRole('button', { name: 'Restart', exact: true })).toBeDisabled();
  await control.getByRole('button', { name: 'Start proxy', exact: true }).click();
  await expect(control.getByTestId('proxy-state')).toHaveText(/Running/, { timeout: 90_000 });
  const first = await apiGet<{ pid: number }>(page, '/api/proxy/proxy-status');

  await control.getByRole('button', { name: 'Restart', exact: true }).click();
  await expect(control.getByText(new RegExp(`^Restarted on port ${app.proxyPort} \\(PID \\d+\\)\\.$`))).toBeVisible({ timeout: 90_000 });
  const second = await apiGet<{ running: boolean; pid: number }>(page, '/api/proxy/proxy-status');
  expect(second.running).toBe(true);
  expect(second.pid).not.toBe(first.pid);
  await page.setViewportSize({ width: 1100, height: 760 });
  await control.screenshot({ path: 'docs/screenshots/proxy-restart.png' });

  const oldKey = (await apiGet<{ apiKey: { value: string } }>(page, '/api/settings/auth/tokens/raw')).apiKey.value;
  await page.goto(`${app.url}/#/proxy/tokens`);
  await page.getByRole('button', { name: 'Regenerate API key' }).click();
  await page.getByRole('dialog', { name: /Regenerate the API key/ }).getByRole('button', { name: 'Regenerate API key' }).click();
  await expect(page.getByTestId('token-message')).toHaveText('Restart the proxy to apply the change');
  const newKey = (await apiGet<{ apiKey: { value: string } }>(page, '/api/settings/auth/tokens/raw')).apiKey.value;
  expect(newKey).not.toBe(oldKey);
  expect(await proxyAnswers(newKey)).toBe(401); // not in effect before the restart

  await page.getByRole('button', { name: 'Restart proxy now' }).click();
  await expect(page.getByTestId('restart-result')).toHaveText(`The new tokens are in effect on port ${app.proxyPort}.`, { timeout: 90_000 });
  await page.screenshot({ path: 'docs/screenshots/tokens-restart-done.png' });
  expect(await proxyAnswers(newKey)).toBe(200);
  expect(await proxyAnswers(oldKey)).toBe(401);
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
