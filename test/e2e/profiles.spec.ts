import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectAccessible, PROFILE, startApp, watchPage, type App } from './fixtures.js';

// A disabled button must fail fast, not wait for the whole test timeout.
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(() => app.stop());

test('editing a profile and saving writes the file and shows the backup path', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  const model = page.getByLabel('Value of PROVIDER_MODEL');
  await expect(model).toHaveValue('claude-sonnet-4-5');
  // The secret arrives masked and only shows on request.
  const token = page.getByLabel('Value of PROVIDER_AUTH_TOKEN');
  await expect(token).toHaveValue('********');
  await expect(token).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Reveal PROVIDER_AUTH_TOKEN' }).click();
  await expect(token).toHaveValue('sk-e2e-secret-value-123');
  await expect(token).toHaveAttribute('type', 'text');

  await model.fill('claude-opus-4-1');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByLabel('Name of variable 4').fill('EXTRA_FLAG');
  await page.getByLabel('Value of EXTRA_FLAG').fill('on');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  await expect(page.getByTestId('backup-path')).toContainText('backups/');
  const saved = JSON.parse(await fs.readFile(app.profileFile, 'utf8')) as { env: Record<string, string> };
  expect(saved.env).toEqual({
    PROVIDER_BASE_URL: 'http://127.0.0.1:8317',
    PROVIDER_AUTH_TOKEN: 'sk-e2e-secret-value-123',
    PROVIDER_MODEL: 'claude-opus-4-1',
    EXTRA_FLAG: 'on',
  });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('an invalid variable name is shown on its row and nothing is sent', async ({ page }) => {
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  await expect(page.getByLabel('Value of PROVIDER_MODEL')).toBeVisible();
  const before = await fs.readFile(app.profileFile, 'utf8');
  await page.getByRole('button', { name: 'Add variable' }).click();
  const name = page.getByLabel(/^Name of variable \d+$/);
  await name.fill('1BAD NAME');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByLabel('Name of 1BAD NAME')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Use letters, digits and _ only')).toBeVisible();
  expect(await fs.readFile(app.profileFile, 'utf8')).toBe(before);
});

test('a save after an outside edit opens the conflict dialog; overwrite and reload both work', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/PUT \/api\/settings\/work → 409/);
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  const model = page.getByLabel('Value of PROVIDER_MODEL');
  await expect(model).toBeVisible();

  // Someone else edits the file after the page loaded it (mtime moves on), in place as an editor
  // does (truncate, then write): a read by the page (its presets) between the two is read again
  // rather than answered 500 read-failed (docs/settings.md, "Files rewritten in place").
  const outside = async (value: string) => {
    const file = JSON.parse(await fs.readFile(app.profileFile, 'utf8')) as { env: Record<string, string> };
    file.env.PROVIDER_MODEL = value;
    await fs.writeFile(app.profileFile, JSON.stringify(file, null, 2));
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(app.profileFile, later, later);
  };
  // The user edits first, so the page is dirty when the outside write lands and keeps their
  // edit (a clean page would show the file's new content instead, which is right, but then there
  // is no conflict to test).
  await model.fill('mine-model');
  await outside('edited-outside');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /changed on disk/ });
  await expect(dialog).toBeVisible();
  const compare = dialog.getByTestId('conflict-compare');
  await expect(compare.getByLabel('Your version (unsaved)')).toContainText('PROVIDER_MODEL=mine-model');
  await expect(compare.getByLabel('Version on disk')).toContainText('PROVIDER_MODEL=edited-outside');
  // Secrets stay hidden in the comparison.
  await expect(dialog).not.toContainText('sk-e2e-secret-value-123');
  await page.screenshot({ path: 'test-results/screenshots/conflict-dialog.png' });
  await expectAccessible(page, 'conflict dialog');

  await dialog.getByRole('button', { name: 'Overwrite with my version' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('backup-path')).toBeVisible();
  expect((JSON.parse(await fs.readFile(app.profileFile, 'utf8')) as { env: Record<string, string> }).env.PROVIDER_MODEL).toBe('mine-model');

  // Second round: take the disk version instead. A fresh page first: the editor re-reads the file
  // after its own save, and on a busy machine that read could land after the next outside write.
  await page.reload();
  await expect(model).toHaveValue('mine-model');
  await model.fill('discarded-model');
  await outside('second-outside');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /Reload from disk/ }).click();
  await expect(dialog).toBeHidden();
  await expect(model).toHaveValue('second-outside');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('presets can be added and deleted', async ({ page }) => {
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  const form = page.getByRole('form', { name: 'Add preset' });
  await form.getByRole('button', { name: 'Add preset' }).click();
  await expect(form.getByText('Name is required')).toBeVisible();
  await form.getByLabel('Name (required)').fill('fast');
  await form.getByLabel('Default model (required)').fill('claude-haiku-4-5');
  await form.getByRole('button', { name: 'Add preset' }).click();
  const row = page.getByRole('row', { name: /fast/ });
  await expect(row).toContainText('claude-haiku-4-5');
  // Keyboard: Esc closes the confirmation and focus goes back to the button that opened it.
  const del = row.getByRole('button', { name: 'Delete preset fast' });
  await del.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete preset?' });
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(del).toBeFocused();
  await page.keyboard.press('Enter');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No presets yet.')).toBeVisible();
});

test('a new profile is created from the list, with the API warning about missing fields', async ({ page }) => {
  await page.goto(`${app.url}/#/profiles`);
  await page.getByLabel('New profile name').fill('bad name!');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByLabel('New profile name')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('New profile name').fill('fresh');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name: 'fresh', level: 2 })).toBeVisible();
  await expect(page.getByText('This profile has no settings file yet.')).toBeVisible();
  await page.getByLabel('Value of PROVIDER_MODEL').fill('claude-sonnet-4-5');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Profile created')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Missing fields will use defaults' })).toContainText('PROVIDER_BASE_URL');
  await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Profiles' }).getByRole('link', { name: 'fresh' })).toHaveAttribute('aria-current', 'page');
});
