import { expect, test, type Page } from '@playwright/test';
import { startApp, type App } from './fixtures.js';

test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
});

function countRequests(page: Page, path: string): { count: number } {
  const counter = { count: 0 };
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === path) counter.count++;
  });
  return counter;
}

async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((s) => {
    // Runs in the page; the test tsconfig has no DOM lib, so name only what is used.
    const doc = (globalThis as unknown as { document: object & { dispatchEvent(e: Event): boolean } }).document;
    Object.defineProperty(doc, 'visibilityState', { value: s, configurable: true });
    doc.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

test('proxy state arrives over /api/events, with page timers frozen', async ({ page }) => {
  // Timers never advance: any update on screen can only come from the event stream.
  await page.clock.install();
  const events = page.waitForRequest((r) => r.url().endsWith('/api/events'));
  await page.goto(`${app.url}/#/overview`);
  await events;
  const state = page.getByTestId('proxy-control').getByTestId('proxy-state');
  await expect(state).toHaveText(/Stopped/);

  // Another client (the CLI, the tray) starts and stops the proxy.
  expect((await fetch(`${app.url}/api/proxy/proxy-start`, { method: 'POST' })).status).toBe(200);
  await expect(state).toHaveText(/Running/, { timeout: 90_000 });
  expect((await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' })).status).toBe(200);
  await expect(state).toHaveText(/Stopped/, { timeout: 90_000 });
});

test('a proxy that dies is reported as failed, with the reason, without a reload', async ({ page }) => {
  await page.goto(`${app.url}/#/proxy/status`);
  const control = page.getByTestId('proxy-control');
  await control.getByRole('button', { name: 'Start proxy' }).click();
  await expect(control.getByTestId('proxy-state')).toHaveText(/Running/, { timeout: 90_000 });
  const status = (await (await fetch(`${app.url}/api/proxy/proxy-status`)).json()) as { pid: number };
  process.kill(status.pid, 'SIGKILL');
  await expect(control.getByTestId('proxy-state')).toHaveText(/Failed/, { timeout: 90_000 });
  await expect(control.getByRole('alert').filter({ hasText: 'The proxy failed' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/proxy-failed.png' });
  // Starting again clears the notice.
  await control.getByRole('button', { name: 'Start proxy' }).click();
  await expect(control.getByTestId('proxy-state')).toHaveText(/Running/, { timeout: 90_000 });
  await expect(control.getByRole('alert').filter({ hasText: 'The proxy failed' })).toHaveCount(0);
  await control.getByRole('button', { name: 'Stop proxy' }).click();
  await expect(control.getByTestId('proxy-state')).toHaveText(/Stopped/, { timeout: 90_000 });
});

test('without the event stream it polls only while visible', async ({ page }) => {
  await page.route('**/api/events', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"unavailable"}' }));
  await page.clock.install();
  const status = countRequests(page, '/api/proxy/proxy-status');
  await page.goto(`${app.url}/#/overview`);
  await expect(page.getByTestId('proxy-control').getByTestId('proxy-state')).toHaveText(/Stopped/);

  const afterLoad = status.count;
  await page.clock.runFor(5_500);
  await expect.poll(() => status.count).toBeGreaterThan(afterLoad);

  await setVisibility(page, 'hidden');
  const whileHidden = status.count;
  await page.clock.runFor(60_000);
  await page.waitForTimeout(300);
  expect(status.count).toBe(whileHidden);

  // Coming back shows fresh state at once.
  await setVisibility(page, 'visible');
  await expect.poll(() => status.count).toBeGreaterThan(whileHidden);
});
