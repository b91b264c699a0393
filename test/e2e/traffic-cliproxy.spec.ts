import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeCliproxy, type FakeCliproxyProcess } from '../fixtures/fake-cliproxy-process.js';
import { startApp, watchPage, type App } from './fixtures.js';

/**
 * A kiro request forwarded by the real engine to the (fake) managed CLIProxyAPI shows on the
 * Traffic page as such: "kiro · via CLIProxyAPI" (issue 31 point 2).
 */
test.use({ actionTimeout: 10_000 });

let app: App;
let binary: FakeCliproxyProcess;

test.beforeAll(async () => {
  app = await startApp();
  const proxyDir = path.join(app.home, 'proxy');
  await fs.mkdir(path.join(proxyDir, 'auth'), { recursive: true, mode: 0o700 });
  await fs.writeFile(path.join(proxyDir, 'auth', 'kiro-imported-KIRO1.json'), JSON.stringify({ type: 'kiro', email: 'kiro@example.com', access_token: 'aoa-kiro' }), { mode: 0o600 });
  // Written where the app's runner writes the binary's config, so the engine finds its port and key.
  binary = await startFakeCliproxy(proxyDir);
});

test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await binary?.stop();
  await app?.stop();
});

test('a request served through CLIProxyAPI says so in its Traffic row', async ({ page }) => {
  test.setTimeout(90_000);
  const watch = watchPage(page);
  const started = await fetch(`${app.url}/api/proxy/proxy-start`, { method: 'POST' });
  expect(started.status, await started.text()).toBe(200);
  const tokens = (await (await fetch(`${app.url}/api/settings/auth/tokens/raw`)).json()) as { apiKey: { value: string } };
  const res = await fetch(`http://127.0.0.1:${app.proxyPort}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': tokens.apiKey.value, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'kiro-claude-sonnet-4-6', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(res.status).toBe(200);
  await res.text();

  await page.setViewportSize({ width: 1280, height: 880 });
  await page.goto(`${app.url}/#/traffic`);
  const row = page.getByTestId('traffic-table').getByTestId('traffic-row').first();
  await expect(row).toContainText('kiro-claude-sonnet-4-6');
  await expect(row).toContainText('kiro · via CLIProxyAPI');
  await expect(row).toContainText('21 / 7');
  await expect(row.getByTestId('traffic-via')).toHaveAttribute('title', 'Forwarded to the managed CLIProxyAPI, which chose the account');
  // Tall enough for the row without a full-page capture (which shifts the sticky sidebar).
  await page.screenshot({ path: 'docs/screenshots/traffic-via-cliproxy.png' });
  expect(watch.errors).toEqual([]);
});
