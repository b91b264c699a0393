import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiGet, expectAccessible, PROFILE, startApp, watchPage, type App } from './fixtures.js';

// Switching (issue 18): cards with the default profile, presets applied, routing through the
// proxy, Claude Code's own settings with undo, and key rotation following the profiles.
test.use({ actionTimeout: 10_000 });

/** Screenshots for review; SHOTS_DIR puts them elsewhere (never committed). */
const SHOTS = process.env.SHOTS_DIR ?? 'test-results/screenshots';
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

interface Cards {
  profiles: Array<{ name: string; default?: true; baseUrl: string | null; model: string | null; usesProxy: boolean }>;
  default: string | null;
}
interface Settings {
  env: Record<string, string>;
  presets?: Array<Record<string, string>>;
  [key: string]: unknown;
}

let app: App;
test.beforeAll(async () => {
  await fs.mkdir(SHOTS, { recursive: true });
  app = await startApp();
  // A second profile with a key outside env, so the cards differ and the JSON view has something.
  await fs.writeFile(
    path.join(app.home, 'glm.settings.json'),
    JSON.stringify({ env: { PROVIDER_BASE_URL: 'https://open.bigmodel.example/api/anthropic', PROVIDER_AUTH_TOKEN: 'glm-secret-token-1', PROVIDER_MODEL: 'glm-4.6' }, permissions: { allow: ['Bash(ls:*)'] }, hooks: { token: 'glm-hook-secret-9' } }, null, 2),
  );
});
test.afterAll(() => app.stop());

const readProfile = async (name: string) => JSON.parse(await fs.readFile(path.join(app.home, `${name}.settings.json`), 'utf8')) as Settings;
const card = (page: Page, name: string) => page.getByTestId(`profile-card-${name}`);

test('cards show endpoint, model and default; Make default and Clear default follow the API', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/PUT \/api\/profiles\/default → 404/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/profiles`);
  const glm = card(page, 'glm');
  await expect(glm).toContainText('open.bigmodel.example');
  await expect(glm).toContainText('glm-4.6');
  await expect(card(page, PROFILE)).toContainText('127.0.0.1:8317');
  await expect(page.getByTestId('default-marker')).toHaveCount(0);
  await expect(page.getByTestId('no-default')).toBeVisible();

  await glm.getByRole('button', { name: 'Make default glm' }).click();
  await expect(glm.getByTestId('default-marker')).toHaveText(/Default/);
  expect((await apiGet<Cards>(page, '/api/profiles')).default).toBe('glm');
  expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toMatch(/^default: glm$/m);

  // Switching the default moves the one marker.
  await card(page, PROFILE).getByRole('button', { name: `Make default ${PROFILE}` }).click();
  await expect(card(page, PROFILE).getByTestId('default-marker')).toBeVisible();
  await expect(page.getByTestId('default-marker')).toHaveCount(1);
  await expectAccessible(page, 'profile cards');
  await shot(page, 'cards-page');

  await card(page, PROFILE).getByRole('button', { name: /Clear default/ }).click();
  await expect(page.getByTestId('default-marker')).toHaveCount(0);
  expect((await apiGet<Cards>(page, '/api/profiles')).default).toBeNull();

  // A profile whose file went away meanwhile: the API's 404 is shown, nothing else changes.
  await fs.writeFile(path.join(app.home, 'gone.settings.json'), JSON.stringify({ env: {} }));
  await page.reload();
  await expect(card(page, 'gone')).toBeVisible();
  await fs.rm(path.join(app.home, 'gone.settings.json'));
  await card(page, 'gone').getByRole('button', { name: 'Make default gone' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Make default: Settings not found (HTTP 404)' })).toBeVisible();
  expect((await apiGet<Cards>(page, '/api/profiles')).default).toBeNull();

  // A change made elsewhere (the tray, the CLI) arrives over the event stream.
  const put = await page.request.put(`${app.url}/api/profiles/default`, { data: { profile: 'glm' }, headers: { 'Content-Type': 'application/json' } });
  expect(put.status()).toBe(200);
  await expect(glm.getByTestId('default-marker')).toBeVisible();

  // Keys outside env are shown read-only, secrets masked as the API gives them.
  await glm.getByRole('link', { name: 'glm' }).click();
  await expect(page.getByTestId('other-keys')).toContainText('Bash(ls:*)');
  await expect(page.getByTestId('other-keys')).not.toContainText('glm-hook-secret-9');
  await expect(page.getByTestId('other-keys')).toContainText('"token": "********"');
  await shot(page, 'other-keys');
  // Saving the env from the dashboard sends the masked view back; the secret on disk survives.
  await page.getByLabel('Value of PROVIDER_MODEL').fill('glm-4.6-air');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('backup-path')).toBeVisible();
  const saved = await readProfile('glm');
  expect(saved.env.PROVIDER_MODEL).toBe('glm-4.6-air');
  expect(saved.hooks).toEqual({ token: 'glm-hook-secret-9' });
  await expect(card(page, 'glm')).toContainText('glm-4.6-air');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('applying a preset writes its models and shows what changed; a stale file asks first', async ({ page }) => {
  const watch = watchPage(page);
  watch.allow(/POST \/api\/settings\/work\/presets\/fast\/apply → 409/);
  const add = await page.request.post(`${app.url}/api/settings/${PROFILE}/presets`, {
    data: { name: 'fast', default: 'claude-haiku-4-5', opus: 'claude-opus-4-1' },
    headers: { 'Content-Type': 'application/json' },
  });
  expect(add.status()).toBe(201);
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  await expect(page.getByLabel('Value of PROVIDER_MODEL')).toHaveValue(/.+/);
  const before = (await readProfile(PROFILE)).env;

  // The model fields offer suggestions from the API in a datalist and still take free text.
  await expect(page.getByLabel('Value of PROVIDER_MODEL')).toHaveAttribute('list', 'model-suggestions');
  await expect(page.locator('#model-suggestions option[value="claude-haiku-4-5"]')).toHaveCount(1);
  await expect(page.getByLabel('Default model (required)')).toHaveAttribute('list', 'model-suggestions');

  await page.getByRole('button', { name: 'Apply preset fast' }).click();
  const done = page.getByRole('status').filter({ hasText: 'Preset “fast” applied' });
  await expect(done).toBeVisible();
  await expect(done.getByTestId('preset-changes')).toContainText('PROVIDER_DEFAULT_OPUS_MODEL');
  await expect(done.getByTestId('preset-changes')).toContainText(`${before.PROVIDER_MODEL} → claude-haiku-4-5`);
  await expect(page.getByLabel('Value of PROVIDER_MODEL')).toHaveValue('claude-haiku-4-5');
  const after = (await readProfile(PROFILE)).env;
  expect(after.PROVIDER_MODEL).toBe('claude-haiku-4-5');
  expect(after.PROVIDER_DEFAULT_OPUS_MODEL).toBe('claude-opus-4-1');
  expect(after.PROVIDER_AUTH_TOKEN).toBe(before.PROVIDER_AUTH_TOKEN);
  await shot(page, 'preset-applied');

  // Unsaved edits block Apply, so a preset never races the form.
  await page.getByLabel('Value of PROVIDER_MODEL').fill('typed-by-hand');
  await expect(page.getByRole('button', { name: 'Apply preset fast' })).toBeDisabled();
  await page.getByRole('button', { name: 'Discard changes' }).click();

  // The file changes on disk after the page read it: the conflict dialog, then apply on top.
  const file = await readProfile(PROFILE);
  file.env.PROVIDER_MODEL = 'edited-outside';
  file.env.OUTSIDE_FLAG = '1';
  await fs.writeFile(path.join(app.home, `${PROFILE}.settings.json`), JSON.stringify(file, null, 2));
  const later = new Date(Date.now() + 5_000);
  await fs.utimes(path.join(app.home, `${PROFILE}.settings.json`), later, later);
  await page.getByRole('button', { name: 'Apply preset fast' }).click();
  const dialog = page.getByRole('dialog', { name: /changed on disk/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Version on disk')).toContainText('OUTSIDE_FLAG=1');
  await dialog.getByRole('button', { name: 'Apply to the version on disk' }).click();
  await expect(dialog).toBeHidden();
  const merged = (await readProfile(PROFILE)).env;
  expect(merged.PROVIDER_MODEL).toBe('claude-haiku-4-5');
  expect(merged.OUTSIDE_FLAG).toBe('1');
  await expect(page.getByLabel('Value of OUTSIDE_FLAG')).toHaveValue('1');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('route through the proxy, and connect a new profile through it', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/profiles/glm`);
  await page.getByRole('button', { name: 'Route through the proxy' }).click();
  await page.getByRole('dialog', { name: /Route glm through the proxy/ }).getByRole('button', { name: 'Route through the proxy' }).click();
  await expect(page.getByTestId('routed-answer')).toContainText(`127.0.0.1:${app.proxyPort}`);
  const key = (await apiGet<{ apiKey: { value: string } }>(page, '/api/settings/auth/tokens/raw')).apiKey.value;
  const glm = await readProfile('glm');
  expect(glm.env.PROVIDER_BASE_URL).toBe(`http://127.0.0.1:${app.proxyPort}`);
  expect(glm.env.PROVIDER_AUTH_TOKEN).toBe(key);
  expect(glm.env.PROVIDER_MODEL).toBe('glm-4.6-air');
  expect(glm.permissions).toEqual({ allow: ['Bash(ls:*)'] });
  expect(glm.hooks).toEqual({ token: 'glm-hook-secret-9' });
  await expect(card(page, 'glm')).toContainText('via proxy');
  await expect(page.getByLabel('Value of PROVIDER_BASE_URL')).toHaveValue(`http://127.0.0.1:${app.proxyPort}`);

  await page.getByRole('button', { name: 'Connect a new profile through the proxy' }).click();
  await page.getByRole('dialog', { name: /Connect a profile through the proxy/ }).getByRole('button', { name: 'Create proxy' }).click();
  await expect(page.getByText('Profile proxy created')).toBeVisible();
  await expect(card(page, 'proxy')).toContainText('via proxy');
  const created = await readProfile('proxy');
  expect(created.env.PROVIDER_BASE_URL).toBe(`http://127.0.0.1:${app.proxyPort}`);
  expect(created.env.PROVIDER_AUTH_TOKEN).toBe(key);
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('use a profile for Claude Code, see it marked, then undo restores the file byte for byte', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/profiles`);
  const status = page.getByTestId('claude-code-status');
  await expect(status).toContainText('No profile applied');
  const target = (await apiGet<{ path: string }>(page, '/api/claude-code')).path;
  await fs.mkdir(path.dirname(target), { recursive: true });

  // A file that is not JSON is never overwritten: the API's 422 and its message are shown.
  watch.allow(/POST \/api\/claude-code\/apply → 422/);
  await fs.writeFile(target, '{ "env": { broken');
  await card(page, PROFILE).getByRole('button', { name: `Use for Claude Code (${PROFILE})` }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Claude Code settings are not valid JSON (HTTP 422)' })).toBeVisible();
  expect(await fs.readFile(target, 'utf8')).toBe('{ "env": { broken');
  await expect(status).toContainText('No profile applied');

  // Odd formatting and keys of its own: undo must bring back exactly these bytes.
  const original = '{\n    "model": "opus",\n  "env": { "KEEP_ME": "yes" },\n  "permissions": {"allow": []}\n}\n';
  await fs.writeFile(target, original);
  await page.reload();

  await card(page, PROFILE).getByRole('button', { name: `Use for Claude Code (${PROFILE})` }).click();
  await expect(page.getByText(`${PROFILE} applied to Claude Code`)).toBeVisible();
  await expect(status).toContainText(`${PROFILE} applied`);
  await expect(card(page, PROFILE)).toContainText('Claude Code');
  const applied = JSON.parse(await fs.readFile(target, 'utf8')) as { env: Record<string, string>; model: string; permissions: unknown };
  expect(applied.model).toBe('opus');
  expect(applied.permissions).toEqual({ allow: [] });
  expect(applied.env.KEEP_ME).toBe('yes');
  expect(applied.env.ANTHROPIC_MODEL).toBe((await readProfile(PROFILE)).env.PROVIDER_MODEL);
  await shot(page, 'claude-code-applied');

  // A preset applied to that profile reaches Claude Code's file too, and the notice says so.
  const add = await page.request.post(`${app.url}/api/settings/${PROFILE}/presets`, {
    data: { name: 'cc', default: 'claude-cc-model' },
    headers: { 'Content-Type': 'application/json' },
  });
  expect(add.status()).toBe(201);
  await card(page, PROFILE).getByRole('link', { name: PROFILE }).click();
  await page.getByRole('button', { name: 'Apply preset cc' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Preset “cc” applied' })).toContainText('settings.json was updated too');
  const ccModel = async () => (JSON.parse(await fs.readFile(target, 'utf8')) as { env: Record<string, string> }).env.ANTHROPIC_MODEL;
  await expect.poll(ccModel, { timeout: 5_000 }).toBe('claude-cc-model');

  // An edit of the file after the apply is called out before an undo would drop it.
  const edited = (await fs.readFile(target, 'utf8')).replace('"opus"', '"sonnet"');
  await fs.writeFile(target, edited);
  await page.reload();
  await expect(page.getByTestId('claude-code-edited')).toBeVisible();
  await shot(page, 'claude-code-edited-since');

  await page.getByRole('button', { name: 'Undo the last Claude Code settings change' }).click();
  const confirm = page.getByRole('dialog', { name: /Undo the Claude Code settings change/ });
  await expect(confirm).toContainText('those edits leave it too');
  await confirm.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('is back as it was before the last apply')).toBeVisible();
  expect(await fs.readFile(target, 'utf8')).toBe(original);
  await expect(status).toContainText('No profile applied');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('regenerating the API key rewrites the profiles that used it, and says which', async ({ page, context }) => {
  const watch = watchPage(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  await page.goto(`${app.url}/#/proxy/tokens`);
  await expect(page.getByTestId('api-key-value')).toContainText('sk-sb-');
  // `glm` and `proxy` were routed through the proxy above; `work` never was.
  const oldKey = (await apiGet<{ apiKey: { value: string } }>(page, '/api/settings/auth/tokens/raw')).apiKey.value;
  expect((await readProfile('proxy')).env.PROVIDER_AUTH_TOKEN).toBe(oldKey);

  await page.getByRole('button', { name: 'Regenerate API key' }).click();
  await page.getByRole('dialog', { name: 'Regenerate the API key?' }).getByRole('button', { name: 'Regenerate API key' }).click();
  const updated = page.getByTestId('updated-profiles');
  await expect(updated).toContainText('glm');
  await expect(updated).toContainText('proxy');
  await expect(updated).not.toContainText(PROFILE);
  const newKey = (await apiGet<{ apiKey: { value: string } }>(page, '/api/settings/auth/tokens/raw')).apiKey.value;
  expect(newKey).not.toBe(oldKey);
  expect((await readProfile('proxy')).env.PROVIDER_AUTH_TOKEN).toBe(newKey);
  expect((await readProfile('glm')).env.PROVIDER_AUTH_TOKEN).toBe(newKey);
  expect((await readProfile(PROFILE)).env.PROVIDER_AUTH_TOKEN).not.toBe(newKey);

  // Copy reads the raw key at the moment of copying; the page itself keeps showing the mask.
  await page.getByRole('button', { name: 'Copy API key' }).click();
  await expect(page.getByRole('button', { name: /Copied API key/ })).toBeVisible();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(newKey);
  await expect(page.getByTestId('api-key-value')).not.toContainText(newKey);
  await expectAccessible(page, 'token panel');
  await shot(page, 'token-panel');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('the profiles page works at 800 px wide', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  await expect(page.getByTestId('profile-path')).toBeVisible();
  await expect(card(page, 'glm')).toBeVisible();
  // Nothing runs off the side: the page is no wider than the window.
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(800);
  // Keyboard: from a card's name link to its buttons without the mouse.
  await card(page, 'glm').getByRole('link', { name: 'glm' }).focus();
  await page.keyboard.press('Tab');
  await expect(card(page, 'glm').getByRole('button').first()).toBeFocused();
  await expectAccessible(page, 'profiles at 800 px');
  await shot(page, 'profiles-800px');
});
