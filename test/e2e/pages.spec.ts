import fs from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { FAKE_LATEST_VERSION } from './fake-upstream.js';
import { expectAccessible, PROFILE, startApp, watchPage, type App } from './fixtures.js';

/** Every view of the dashboard, with the heading it must show once loaded. */
const VIEWS: Array<{ name: string; hash: string; heading: string; ready?: string; act?: (page: Page) => Promise<void> }> = [
  {
    name: 'overview',
    hash: '#/overview',
    heading: 'Overview',
    ready: '[data-testid="cost-today"] .card-value',
    act: async (page) => {
      await expect(page.getByRole('status').filter({ hasText: 'Proxy update available' })).toContainText(`Version ${FAKE_LATEST_VERSION} is out`);
    },
  },
  { name: 'usage', hash: '#/usage', heading: 'Usage', ready: '[data-testid="chart-daily"] canvas' },
  { name: 'profiles', hash: `#/profiles/${PROFILE}`, heading: 'Profiles', ready: '[data-testid="profile-path"]' },
  { name: 'providers', hash: '#/providers/glm', heading: 'Providers', ready: '[data-testid="add-provider"]' },
  { name: 'proxy-status', hash: '#/proxy/status', heading: 'Proxy', ready: '[data-testid="proxy-state"] .badge' },
  { name: 'proxy-upstreams', hash: '#/proxy/upstreams', heading: 'Proxy', ready: '#upstreams-title' },
  { name: 'proxy-models', hash: '#/proxy/models', heading: 'Proxy', ready: '#models-title' },
  {
    name: 'proxy-logs',
    hash: '#/proxy/logs',
    heading: 'Proxy',
    ready: '[data-testid="error-logs"]',
    act: async (page) => {
      await page.getByRole('button', { name: /^View error-/ }).first().click();
      await expect(page.getByTestId('log-response')).toBeVisible();
    },
  },
  { name: 'proxy-config', hash: '#/proxy/config', heading: 'Proxy', ready: '#proxy-yaml' },
  { name: 'proxy-auth', hash: '#/proxy/auth', heading: 'Proxy', ready: '#auth-title' },
  { name: 'proxy-quota', hash: '#/proxy/quota', heading: 'Proxy', ready: '#quota-account' },
  { name: 'proxy-tokens', hash: '#/proxy/tokens', heading: 'Proxy', ready: '[data-testid="api-key-value"]' },
  { name: 'traffic', hash: '#/traffic', heading: 'Traffic', ready: '[data-testid="traffic-empty"]' },
  { name: 'accounts', hash: '#/accounts', heading: 'Accounts', ready: '[data-testid="account-list"] meter' },
  { name: 'bridge', hash: '#/bridge', heading: 'Editor bridge', ready: '#bridge-port' },
  {
    name: 'shared',
    hash: '#/shared',
    heading: 'Shared data',
    ready: '.link-list li',
    act: async (page) => {
      await page.getByRole('button', { name: /git\/commit/ }).click();
      await expect(page.getByTestId('markdown-viewer').getByRole('heading', { name: 'Commit', exact: true })).toBeVisible();
    },
  },
  { name: 'agent-tool', hash: '#/agent-tool', heading: 'Agent tool', ready: '#agent-settings' },
  { name: 'settings', hash: '#/settings', heading: 'Settings', ready: '#cfg-usage-timezone' },
];

// A disabled button must fail fast, not wait for the whole test timeout.
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
  await fs.mkdir('test-results/screenshots', { recursive: true });
});
test.afterAll(() => app.stop());

for (const scheme of ['light', 'dark'] as const) {
  test(`every page loads cleanly, passes axe and is captured (${scheme})`, async ({ page }) => {
    // 14 views with axe and a full-page screenshot each; generous for a loaded 2-core machine.
    test.setTimeout(400_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const watch = watchPage(page);
    for (const view of VIEWS) {
      await test.step(view.name, async () => {
        await page.goto(`${app.url}/${view.hash}`);
        await expect(page.getByRole('heading', { level: 1, name: view.heading })).toBeVisible();
        // Soft checks: one broken view must not hide the state (and screenshots) of the others.
        if (view.ready) await expect.soft(page.locator(view.ready).first()).toBeVisible();
        await view.act?.(page);
        await expect.soft(page.locator('.loading')).toHaveCount(0);
        await expect.soft(page.locator('.notice-error'), 'error notices').toHaveCount(0);
        await page.screenshot({ path: `test-results/screenshots/${view.name}-${scheme}.png`, fullPage: true });
        await expectAccessible(page, `${view.name} (${scheme})`);
        expect.soft(watch.errors, `console errors on ${view.name}`).toEqual([]);
        expect.soft(watch.failures, `failed API calls on ${view.name}`).toEqual([]);
        watch.errors.length = 0;
        watch.failures.length = 0;
      });
    }
  });
}

test('pages are reachable by keyboard from the navigation', async ({ page }) => {
  await page.goto(`${app.url}/`);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Usage' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Usage' })).toHaveAttribute('aria-current', 'page');
});

test('shared markdown is sanitised before it is shown', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/shared`);
  await page.getByRole('button', { name: 'Agents' }).click();
  await page.getByRole('button', { name: /reviewer/ }).click();
  const doc = page.getByTestId('markdown-viewer').locator('.markdown');
  await expect(doc).toContainText('Reviews code carefully.');
  // Raw HTML is shown as text, not markup.
  await expect(doc.locator('script, img')).toHaveCount(0);
  await expect(doc).toContainText('<script>window.__pwned = 1</script>');
  await expect(doc.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(watch.errors).toEqual([]);
});
