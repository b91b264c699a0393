import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { OFFLINE_CONFIG_YAML } from '../helpers/offline-config.js';
import { expectAccessible, freePort, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

/**
 * Kiro's sign-in on the Accounts page in Chromium, through the fake CLIProxyAPI placed in
 * proxy/bin as an install leaves it: Builder ID shows the device code, IAM Identity Center asks
 * for the start URL and region, and the account appears once the binary reports success.
 */
test.use({ actionTimeout: 10_000 });

let app: Served;
const SHOTS = 'docs/screenshots';

test.beforeAll(async () => {
  const proxyPort = await freePort();
  app = await serve(async ({ home }) => {
    const bin = path.join(home, 'proxy', 'bin');
    await fs.mkdir(bin, { recursive: true, mode: 0o700 });
    const exe = path.join(bin, 'cli-proxy-api-plus');
    await fs.writeFile(exe, `#!/bin/sh\nexec "${process.execPath}" "${path.resolve('test/fixtures/fake-cliproxy.mjs')}" "$@"\n`, { mode: 0o755 });
    await fs.writeFile(path.join(bin, 'version.json'), JSON.stringify({ backend: 'plus', version: '6.9.45-0', path: exe }));
    // The Accounts page asks for the new kiro account's quota: every quota host is a closed local port.
    await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML, { mode: 0o600 });
    await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\n`);
  });
  await fs.mkdir(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/cliproxy/stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
});

async function fakeControl(route: string, body: unknown): Promise<void> {
  const { port } = (await (await fetch(`${app.url}/api/proxy/cliproxy`)).json()) as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/fake/kiro/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

test('Builder ID: the device code big with copy and a link, waiting, then the account', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/accounts`);
  // The AWS page would open in a new tab; the code on this page is what matters here.
  await page.evaluate(() => void ((globalThis as unknown as { open: () => null }).open = () => null));
  await page.getByTestId('sign-in-kiro').getByRole('button', { name: 'Sign in with Builder ID' }).click();
  const code = page.getByTestId('device-code');
  await expect(code).toHaveText(/^FAKE-\w{4}$/);
  await expect(page.getByRole('button', { name: /Copy/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open sign-in page' })).toHaveAttribute('href', /^https:\/\/view\.awsapps\.com\/start\/#\/device\?user_code=FAKE-/);
  await expect(page.getByRole('timer')).toContainText(/Waiting for AWS… this sign-in expires in \d+m/);
  await page.screenshot({ path: `${SHOTS}/kiro-device-code.png`, fullPage: true });
  await expectAccessible(page, 'accounts (kiro device code)');

  await fakeControl('complete', { email: 'builder@example.com' });
  await expect(page.getByTestId('sign-in-result')).toContainText('kiro account builder@example.com is ready');
  await expect(page.getByTestId('account-kiro-builder@example.com')).toContainText('active');
  await page.getByRole('button', { name: 'Done' }).click();
  expect(watch.errors).toEqual([]);
});

test('IAM Identity Center: start URL and region, then the code; a binary error is shown', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/accounts`);
  await page.evaluate(() => void ((globalThis as unknown as { open: () => null }).open = () => null));
  const card = page.getByTestId('sign-in-kiro');
  await card.screenshot({ path: `${SHOTS}/kiro-card.png` });
  await card.getByRole('button', { name: 'IAM Identity Center…' }).click();
  await expect(card.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  await card.getByLabel('Start URL').fill('https://my-org.awsapps.com/start');
  await card.getByLabel('Region').fill('eu-west-1');
  await card.screenshot({ path: `${SHOTS}/kiro-idc-form.png` });
  await expectAccessible(page, 'accounts (kiro IAM Identity Center form)');
  await card.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('device-code')).toHaveText(/^FAKE-/);
  await expect(page.getByRole('link', { name: 'Open sign-in page' })).toHaveAttribute('href', /^https:\/\/my-org\.awsapps\.com\/start\/#\/device/);
  await fakeControl('fail', { error: 'Token creation failed' });
  await expect(page.getByTestId('sign-in-result')).toContainText('Sign-in error');
  await expect(page.getByTestId('sign-in-result')).toContainText('kiro: Token creation failed');
});
