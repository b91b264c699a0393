import { expect, test, type Page } from '@playwright/test';
import { PROFILE, startApp, watchPage, type App } from './fixtures.js';

/**
 * Issue 28.6: after an action done from the keyboard, focus stays where the user acted (or on
 * what replaced the control), so the next Tab goes on from there rather than from the page's top.
 */
test.use({ actionTimeout: 10_000 });
test.describe.configure({ mode: 'serial' });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
});

/** Whether focus is inside the element with this test id (read in the page). */
const focusInside = (page: Page, testId: string): Promise<boolean> =>
  page.evaluate(`Boolean(document.activeElement && document.activeElement.closest('[data-testid="${testId}"]'))`);

interface Focused { tag: string | null; text: string; inCard: boolean }
/** What has focus, read in the page (a string, as the specs compile without the DOM library). */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(`(() => {
    const el = document.activeElement;
    return { tag: el ? el.tagName : null, text: (el && el.textContent || '').trim(), inCard: Boolean(el && el.closest('[data-testid^="profile-card-"]')) };
  })()`);

test('Make default from the keyboard: focus moves to Clear default in the same card, Tab goes on inside it', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/profiles`);
  const card = page.getByTestId(`profile-card-${PROFILE}`);
  const make = card.getByRole('button', { name: `Make default ${PROFILE}` });
  await make.focus();
  await page.keyboard.press('Enter');
  await expect(card.getByTestId('default-marker')).toBeVisible();
  // The button acted on is replaced by its result: focus is on that, not on <body>.
  await expect(card.getByRole('button', { name: `Clear default (${PROFILE})` })).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ tag: 'BUTTON', inCard: true, text: expect.stringContaining('Use for Claude Code') });
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('Save from the keyboard: the button is disabled while saving, and focus comes back to it', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/profiles/${PROFILE}`);
  const model = page.getByLabel('Value of PROVIDER_MODEL');
  await expect(model).toHaveValue('claude-sonnet-4-5');
  await model.fill('claude-opus-4-1');
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await save.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('backup-path')).toBeVisible();
  await expect(save).toBeFocused();
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('Clear default then Make default again: focus follows each result, never the top of the page', async ({ page }) => {
  await page.goto(`${app.url}/#/profiles`);
  const card = page.getByTestId(`profile-card-${PROFILE}`);
  await card.getByRole('button', { name: `Clear default (${PROFILE})` }).focus();
  await page.keyboard.press('Enter');
  const make = card.getByRole('button', { name: `Make default ${PROFILE}` });
  await expect(make).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(card.getByRole('button', { name: `Clear default (${PROFILE})` })).toBeFocused();
});

test('Start proxy from the keyboard: disabled while starting and after; focus stays in the proxy panel, Tab goes on there', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${app.url}/#/proxy/status`);
  const panel = page.getByTestId('proxy-control');
  const start = panel.getByRole('button', { name: 'Start proxy' });
  await expect(start).toBeEnabled();
  await start.focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('proxy-state')).toContainText('Running', { timeout: 60_000 });
  await expect(start).toBeDisabled();
  expect(await focusInside(page, 'proxy-control')).toBe(true);
  await page.keyboard.press('Tab');
  expect(await focusInside(page, 'proxy-control')).toBe(true);
});
