import { expect, test } from '@playwright/test';
import { serve, type Served } from './serve.js';

let app: Served;
test.beforeAll(async () => {
  app = await serve();
});
test.afterAll(() => app.stop());

test('the dashboard loads without console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(app.url + '/');
  await expect(page.getByRole('heading', { name: 'Switchboard' })).toBeVisible();
  expect(errors).toEqual([]);
});
