import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAccessible, freePort, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

/**
 * The drain order on the Accounts page: two codex accounts already signed in (their auth files in
 * proxy/auth/); setting the second's priority moves it to the top and writes `priority` into its file.
 */
test.use({ actionTimeout: 10_000 });

let app: Served;
let home: string;
const SHOTS = 'docs/screenshots';

function codexFile(name: string): string {
  return JSON.stringify({ type: 'codex', access_token: `at-${name}`, refresh_token: `rt-${name}`, account_id: `acct-${name}`, email: `${name}@example.com`, expired: '2099-01-01T00:00:00Z', last_refresh: '2026-11-26T00:00:00Z' });
}

test.beforeAll(async () => {
  const proxyPort = await freePort();
  app = await serve(async (dirs) => {
    home = dirs.home;
    await fs.mkdir(path.join(home, 'proxy', 'auth'), { recursive: true, mode: 0o700 });
    await fs.writeFile(path.join(home, 'config.yaml'), 'proxy:\n  update_feed_url: http://127.0.0.1:9/releases/latest\ncursor:\n  upstream_url: http://127.0.0.1:9\nnetwork:\n  origin_overrides:\n    "https://chatgpt.com": "http://127.0.0.1:9"\n', { mode: 0o600 });
    await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\n`);
    for (const who of ['alice', 'bob']) await fs.writeFile(path.join(home, 'proxy', 'auth', `codex-${who}@example.com-plus.json`), codexFile(who), { mode: 0o600 });
  });
  await fs.mkdir(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await app.stop();
});

test('setting a priority moves the account up the drain order and writes it to its auth file', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/accounts`);
  const rows = page.getByTestId('account-list').locator(':scope > li');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('alice@example.com');

  const bob = page.getByTestId('account-codex-bob@example.com');
  const input = bob.getByLabel(/Priority of bob/);
  await expect(input).toHaveValue('0');
  await expect(bob.getByRole('button', { name: 'Set' })).toBeDisabled();
  await input.fill('5');
  await bob.getByRole('button', { name: 'Set' }).click();
  await expect(rows.nth(0)).toContainText('bob@example.com');
  await expect(page.getByTestId('account-codex-bob@example.com').getByLabel(/Priority of bob/)).toHaveValue('5');
  const file = JSON.parse(await fs.readFile(path.join(home, 'proxy', 'auth', 'codex-bob@example.com-plus.json'), 'utf8')) as Record<string, unknown>;
  expect(file.priority).toBe(5);
  await page.screenshot({ path: `${SHOTS}/accounts-priority.png`, fullPage: true });
  await expectAccessible(page, 'accounts (priority)');
  expect(watch.errors).toEqual([]);
});

test('an account the engine rests shows why and until when', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // The engine's side (GET /v0/management/accounts → coolingUntil in GET /api/accounts) is tested
  // against a real engine process in account-routing.test.ts; here only the page's rendering of it.
  const until = new Date();
  until.setHours(14, 5, 0, 0);
  if (until.getTime() <= Date.now()) until.setDate(until.getDate() + 1);
  await page.route('**/api/accounts', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { accounts: Array<Record<string, unknown>> };
    for (const a of body.accounts) if (a.email === 'alice@example.com') Object.assign(a, { coolingUntil: until.getTime(), coolingReason: 'quota exhausted' });
    await route.fulfill({ response: res, json: body });
  });
  // The time is in the browser's locale (14:05, or 02:05 PM in en-US).
  await page.goto(`${app.url}/#/accounts`);
  const alice = page.getByTestId('account-codex-alice@example.com');
  await expect(alice.getByTestId('account-cooling')).toHaveText(/^quota exhausted until (14:05|02:05 PM): the next account takes its requests$/);
  await expect(alice).toContainText('resting');
  await expect(page.getByTestId('account-codex-bob@example.com').getByTestId('account-cooling')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/accounts-resting.png`, fullPage: true });
  await expectAccessible(page, 'accounts (resting)');
});
