import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { googleOverridesYaml, startFakeGoogle, type FakeGoogle } from '../fixtures/fake-google.js';
import { expectAccessible, freePort, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

/**
 * The Accounts page's Antigravity and Gemini sign-ins in Chromium against a fake Google: the
 * ban-risk acknowledgement, the waiting sign-in with its address and paste box, the account after
 * Google sent the browser back to the loopback callback.
 */
test.use({ actionTimeout: 10_000 });

let app: Served;
let google: FakeGoogle;
let agyPort: number;
let geminiPort: number;
const SHOTS = 'docs/screenshots';

test.beforeAll(async () => {
  google = await startFakeGoogle();
  agyPort = await freePort();
  geminiPort = await freePort();
  const proxyPort = await freePort();
  app = await serve(async ({ home }) => {
    await fs.mkdir(path.join(home, 'proxy'), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(home, 'config.yaml'), `proxy:\n  update_feed_url: http://127.0.0.1:9/releases/latest\ncursor:\n  upstream_url: http://127.0.0.1:9\n${googleOverridesYaml(google.origin)}`, { mode: 0o600 });
    await fs.writeFile(
      path.join(home, 'proxy', 'config.yaml'),
      `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\nproviders:\n  agy:\n    oauth_port: ${agyPort}\n  gemini:\n    oauth_port: ${geminiPort}\n`,
    );
  });
  await fs.mkdir(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await app.stop();
  await google.close();
});

/** The page opens nothing: the test plays the browser, so the waiting state can be seen. */
async function keepPopupsClosed(page: Page): Promise<void> {
  await page.evaluate(() => void ((globalThis as unknown as { open: () => null }).open = () => null));
}

/** The browser's part: Google's page redirects to the loopback callback, which the browser loads. */
async function playBrowser(url: string): Promise<void> {
  const location = (await fetch(url, { redirect: 'manual' })).headers.get('location')!;
  const page = await fetch(location.replace('//localhost:', '//127.0.0.1:'));
  expect(page.status).toBe(200);
}

test('agy: acknowledge the ban risk once, wait for Google with the address and a paste box, then the account is listed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const watch = watchPage(page);
  // The first try is the contract's 400 that asks for the acknowledgement.
  watch.allow(/^POST \/api\/accounts\/agy\/sign-in → 400$/);
  await page.goto(`${app.url}/#/accounts`);
  await keepPopupsClosed(page);
  const card = page.getByTestId('sign-in-agy');
  await expect(card).toContainText('banned');
  await card.getByRole('button', { name: 'Sign in', exact: true }).click();

  const ack = page.getByTestId('acknowledge-agy');
  await expect(ack).toContainText('Antigravity accounts used through third-party tools get banned');
  await expect(ack).not.toContainText('"acknowledge"');
  const go = ack.getByRole('button', { name: 'Continue to Google' });
  await expect(go).toBeDisabled();
  await ack.getByRole('checkbox').check();
  await expect(go).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/agy-acknowledge.png`, fullPage: true });
  await expectAccessible(page, 'accounts (agy acknowledgement)');
  await go.click();

  const active = page.getByTestId('sign-in-active');
  await expect(active).toContainText('Waiting for Google');
  const link = active.getByRole('link', { name: 'open it' });
  const url = (await link.getAttribute('href'))!;
  expect(url.startsWith(`${google.origin}/o/oauth2/v2/auth?`)).toBe(true);
  expect(new URL(url).searchParams.get('redirect_uri')).toBe(`http://localhost:${agyPort}/oauth-callback`);
  await expect(active.getByRole('button', { name: /Copy/ })).toBeVisible();
  await expect(active.getByLabel(/Paste the address/)).toHaveAttribute('placeholder', 'http://localhost:51121/oauth-callback?code=…');
  await page.screenshot({ path: `${SHOTS}/agy-browser.png`, fullPage: true });
  await expectAccessible(page, 'accounts (agy waiting)');

  await playBrowser(url);
  await expect(page.getByTestId('sign-in-result')).toContainText('pilot@example.com');
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByTestId('account-agy-pilot@example.com');
  await expect(row).toContainText('active');
  // The binary refreshes agy tokens, so the row offers no Refresh.
  await expect(row.getByRole('button', { name: 'Refresh' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/agy-signed-in.png`, fullPage: true });
  await expectAccessible(page, 'accounts (agy signed in)');

  // Remembered: the next agy sign-in goes straight to Google.
  await card.getByRole('button', { name: 'Paste the address' }).click();
  await expect(page.getByTestId('sign-in-active')).toContainText('Open the sign-in page on any machine');
  await expect(page.getByTestId('acknowledge-agy')).toHaveCount(0);
  await page.getByTestId('sign-in-active').getByRole('button', { name: 'Cancel' }).click();
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('gemini: the retirement explained, Sign in asks for the Code Assist project, the account follows', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  google.onboardPending = 0;
  google.loadAnswer = { allowedTiers: [{ id: 'standard-tier', isDefault: true }] };
  await page.goto(`${app.url}/#/accounts`);
  await keepPopupsClosed(page);
  const card = page.getByTestId('sign-in-gemini');
  await expect(page.getByTestId('note-gemini')).toContainText('2026-06-18');
  const signIn = card.getByRole('button', { name: 'Sign in', exact: true });
  await expect(signIn).toBeDisabled();
  await card.getByLabel(/Google Cloud project id/).fill('my-team-project');
  await signIn.click();
  const active = page.getByTestId('sign-in-active');
  await expect(active).toContainText('Waiting for Google');
  const url = (await active.getByRole('link', { name: 'open it' }).getAttribute('href'))!;
  expect(new URL(url).searchParams.get('redirect_uri')).toBe(`http://localhost:${geminiPort}/oauth2callback`);
  await playBrowser(url);
  await expect(page.getByTestId('sign-in-result')).toContainText('pilot@example.com');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('account-gemini-pilot@example.com')).toContainText('active');
});
