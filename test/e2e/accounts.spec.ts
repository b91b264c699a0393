import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { overridesYaml, startFakeAccountProviders, type FakeAccountProviders } from '../fixtures/fake-account-providers.js';
import { expectAccessible, freePort, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

/**
 * The Accounts page in Chromium against fake auth.openai.com and GitHub: Sign in opens the
 * provider's page, the provider redirects back to the loopback callback, and the account appears.
 */
test.use({ actionTimeout: 10_000 });

let app: Served;
let fake: FakeAccountProviders;
let callbackPort: number;
const SHOTS = 'docs/screenshots';

test.beforeAll(async () => {
  fake = await startFakeAccountProviders();
  callbackPort = await freePort();
  const proxyPort = await freePort();
  app = await serve(async ({ home }) => {
    await fs.mkdir(path.join(home, 'proxy'), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(home, 'config.yaml'), `proxy:\n  update_feed_url: http://127.0.0.1:9/releases/latest\ncursor:\n  upstream_url: http://127.0.0.1:9\n${overridesYaml(fake.origin)}`, { mode: 0o600 });
    await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\nproviders:\n  codex:\n    oauth_port: ${callbackPort}\n`);
  });
  await fs.mkdir(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await app.stop();
  await fake.close();
});

test('signed out → codex sign-in in the browser → the account appears with its quota', async ({ page, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/accounts`);
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await expect(page.getByText('No accounts yet.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/accounts-signed-out.png`, fullPage: true });
  await expectAccessible(page, 'accounts (signed out)');

  const popup = context.waitForEvent('page');
  await page.getByTestId('sign-in-codex').getByRole('button', { name: 'Sign in', exact: true }).click();
  const provider = await popup;
  // The fake provider's authorize page redirects to http://localhost:<port>/auth/callback.
  await expect(provider.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  expect(new URL(provider.url()).port).toBe(String(callbackPort));
  await provider.close();

  await expect(page.getByTestId('sign-in-result')).toContainText('coder@example.com (plus)');
  const row = page.getByTestId('account-codex-coder@example.com');
  await expect(row).toContainText('active');
  await expect(row.locator('meter').first()).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.screenshot({ path: `${SHOTS}/accounts-signed-in.png`, fullPage: true });
  await expectAccessible(page, 'accounts (signed in)');

  await row.getByRole('button', { name: 'Pause' }).click();
  await expect(row).toContainText('paused');
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row).toContainText('active');

  // One step (issue 29.4): the codex profile made at sign-in goes into Claude Code's settings and
  // the stopped proxy it routes through is started.
  await row.getByRole('button', { name: 'Use with Claude Code' }).click();
  await expect(row).toContainText('Claude Code now uses the codex profile through the proxy on port');
  await expect(row).toContainText('(started now)');
  const status = (await (await fetch(`${app.url}/api/proxy/proxy-status`)).json()) as { running: boolean };
  expect(status.running).toBe(true);
  const claudeSettings = JSON.parse(await fs.readFile(path.join(app.agentDir, 'settings.json'), 'utf8')) as { env: Record<string, string> };
  expect(claudeSettings.env.ANTHROPIC_MODEL).toBe('gpt-5.4');
  expect(claudeSettings.env.ANTHROPIC_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('ghcp: the device code with copy and countdown, then the account once approved', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/accounts`);
  // The verification page opens in a new tab; the code is what matters here.
  await page.evaluate(() => void ((globalThis as unknown as { open: () => null }).open = () => null));
  await page.getByTestId('sign-in-ghcp').getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('device-code')).toHaveText('WXYZ-5678');
  await expect(page.getByRole('button', { name: /Copy/ }).first()).toBeVisible();
  await expect(page.getByRole('timer')).toContainText(/expires in \d+m/);
  await page.screenshot({ path: `${SHOTS}/accounts-device-code.png`, fullPage: true });
  await expectAccessible(page, 'accounts (device code)');
  fake.approveGithubDevice();
  await expect(page.getByTestId('sign-in-result')).toContainText('octocat');
  await expect(page.getByTestId('account-ghcp-octocat')).toContainText('active');
});

test('gemini and kiro import cards, the gemini retirement note, the agy card and iflow shown as discontinued', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${app.url}/#/accounts`);
  await expect(page.getByTestId('sign-in-gemini').getByRole('button', { name: 'Import from Gemini CLI' })).toHaveAttribute('title', 'Reads ~/.gemini/oauth_creds.json');
  // Gemini signs in only with a Code Assist project (accounts-google.spec.ts signs one in).
  await expect(page.getByTestId('sign-in-gemini').getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  await expect(page.getByTestId('note-gemini')).toContainText('2026-06-18');
  await expect(page.getByTestId('sign-in-kiro').getByRole('button', { name: 'Import from Kiro IDE' })).toHaveAttribute('title', 'Reads ~/.aws/sso/cache/kiro-auth-token.json');
  await expect(page.getByTestId('note-iflow')).toContainText('shut down on 2026-04-17');
  await expect(page.getByTestId('note-agy')).toContainText('banned');
  await expect(page.getByTestId('sign-in-iflow').getByRole('button')).toHaveCount(0);
  await page.getByTestId('accounts-sign-in').screenshot({ path: `${SHOTS}/accounts-providers.png` });
  await expectAccessible(page, 'accounts (provider cards)');
});
