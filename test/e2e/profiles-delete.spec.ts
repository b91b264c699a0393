import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAccessible, PROFILE, startApp, watchPage, type App } from './fixtures.js';

/**
 * Issue 28.5 in the dashboard: a profile is deleted only after a confirmation that names it (the
 * file goes to backups/), a new profile's rows carry placeholders, and a base URL that is not a
 * URL is marked while typing and never sent.
 */
test.use({ actionTimeout: 10_000 });
test.describe.configure({ mode: 'serial' });

const SHOTS = 'docs/screenshots';
let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(() => app.stop());

test('a new profile offers placeholders, and a bad base URL is marked as you type and not saved', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/GET \/api\/settings\/fresh → 404/); // a new profile has no file yet
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.goto(`${app.url}/#/profiles/fresh`);
  const url = page.getByLabel('Value of PROVIDER_BASE_URL');
  await expect(url).toHaveAttribute('placeholder', 'https://api.example.com');
  await expect(page.getByLabel('Value of PROVIDER_MODEL')).toHaveAttribute('placeholder', /claude-sonnet/);
  await expect(page.getByLabel('Value of PROVIDER_AUTH_TOKEN')).toHaveAttribute('placeholder', /API key/);
  await page.screenshot({ path: `${SHOTS}/profiles-new-800.png`, fullPage: true });

  // Typed, not saved: the mark appears at once, on the row, and goes when the value is a URL.
  await url.pressSequentially('api.example');
  const error = page.getByTestId('env-value-error');
  await expect(error).toHaveText(/Must be an http\(s\) URL such as https:\/\/api\.example\.com/);
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: `${SHOTS}/profiles-url-error-800.png`, fullPage: true });

  const puts: string[] = [];
  page.on('request', (r) => void (r.method() === 'PUT' && puts.push(r.url())));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('1 row(s) need attention.')).toBeVisible();
  expect(puts).toEqual([]);
  await expect(fs.access(path.join(app.home, 'fresh.settings.json'))).rejects.toThrow();

  await url.fill('https://api.example.com');
  await expect(error).toHaveCount(0);
  await expect(url).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Profile created')).toBeVisible();
  expect(JSON.parse(await fs.readFile(path.join(app.home, 'fresh.settings.json'), 'utf8')).env.PROVIDER_BASE_URL).toBe('https://api.example.com');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('the API refuses a bad base URL with a 400 naming the field', async ({ page }) => {
  const res = await page.request.put(`${app.url}/api/settings/fresh`, { data: { settings: { env: { PROVIDER_BASE_URL: 'nope' } } } });
  expect(res.status()).toBe(400);
  expect(await res.json()).toEqual({
    error: 'settings object is required in request body',
    message: 'settings.env.PROVIDER_BASE_URL: must be an http(s) URL such as https://api.example.com',
  });
});

test('delete asks first, naming the profile; Cancel keeps it, Delete moves the file to backups/', async ({ page }) => {
  const watch = watchPage(page);
  // The delete's `profiles` event can reach the open editor before it closes: its live refresh
  // then reads the file just deleted (404, caught, nothing shown).
  watch.allow(/GET \/api\/settings\/work → 404/);
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.request.put(`${app.url}/api/profiles/default`, { data: { profile: PROFILE } });
  const before = await fs.readFile(app.profileFile, 'utf8');
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  await expect(page.getByLabel('Value of PROVIDER_MODEL')).toHaveValue('claude-sonnet-4-5');

  await page.getByRole('button', { name: 'Delete profile…' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete profile “${PROFILE}”?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`The settings file of ${PROFILE} is moved to backups/`);
  await expect(dialog).toContainText('It is the default profile');
  await page.screenshot({ path: `${SHOTS}/profiles-delete-confirm.png` });
  await expectAccessible(page, 'delete confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await fs.readFile(app.profileFile, 'utf8')).toBe(before);

  await page.getByRole('button', { name: 'Delete profile…' }).click();
  await dialog.getByRole('button', { name: `Delete ${PROFILE}` }).click();
  const done = page.getByTestId('profile-deleted');
  await expect(done).toContainText(`Deleted ${PROFILE}`);
  await expect(done).toContainText(/backups\/work\.\d{8}T\d{9}Z\.settings\.json/);
  await expect(done).toContainText('no profile is the default now');
  // The result has the focus, since the editor it was acted on is gone.
  await expect(done).toBeFocused();
  await expect(page).toHaveURL(/#\/profiles$/);
  await expect(page.getByTestId(`profile-card-${PROFILE}`)).toHaveCount(0);
  await expect(fs.access(app.profileFile)).rejects.toThrow();
  const backups = await fs.readdir(path.join(app.home, 'backups'));
  const kept = backups.find((n) => /^work\.\d{8}T\d{9}Z\.settings\.json$/.test(n));
  expect(kept).toBeTruthy();
  expect(await fs.readFile(path.join(app.home, 'backups', kept!), 'utf8')).toBe(before);
  await page.screenshot({ path: `${SHOTS}/profiles-deleted-800.png`, fullPage: true });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
