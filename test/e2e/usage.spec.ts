import { expect, test, type Locator } from '@playwright/test';
import { apiGet, startApp, watchPage, type App } from './fixtures.js';

interface Counts { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number; cost: number }
const int = (n: number) => new Intl.NumberFormat('en-US').format(n);
const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const tokens = (e: Counts) => e.inputTokens + e.outputTokens + (e.cacheReadTokens ?? 0) + (e.cacheWriteTokens ?? 0);

// A disabled button must fail fast, not wait for the whole test timeout.
test.use({ actionTimeout: 10_000 });

let app: App;
test.beforeAll(async () => {
  app = await startApp();
});
test.afterAll(() => app.stop());

/** The footer cells of a table view: [label, input, output, cache write, cache read, total, cost, ...]. */
async function footer(table: Locator): Promise<string[]> {
  return table.locator('tfoot tr').first().locator('th, td').allInnerTexts();
}

test('usage charts render and their table views carry the API totals', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/usage`);
  const from = (await page.getByLabel('From', { exact: true }).inputValue()).replaceAll('-', '');
  const to = (await page.getByLabel('To', { exact: true }).inputValue()).replaceAll('-', '');
  const tz = await page.getByLabel('Timezone', { exact: true }).inputValue();
  const q = `since=${from}&until=${to}&tz=${encodeURIComponent(tz)}`;
  const summary = await apiGet<{ totalTokens: number; totalCost: number; inputTokens: number; outputTokens: number }>(page, `/api/usage/summary?${q}`);
  expect(summary.totalTokens).toBeGreaterThan(0);

  // Summary cards.
  await expect(page.getByTestId('card-cost').locator('.card-value')).toHaveText(usd(summary.totalCost));
  await expect(page.getByTestId('card-tokens').locator('.card-value')).toHaveAttribute('title', int(summary.totalTokens));

  // Every chart draws a canvas and has a table twin behind its "Table" switch.
  for (const id of ['chart-daily', 'chart-hourly', 'chart-monthly', 'chart-models']) {
    const panel = page.getByTestId(id);
    await expect(panel.locator('canvas')).toBeVisible();
    await panel.getByRole('button', { name: 'Table' }).click();
    await expect(panel.locator('table')).toBeVisible();
    await expect(panel.locator('canvas')).toBeHidden();
  }

  const daily = await footer(page.getByTestId('table-daily'));
  expect(daily[1]).toBe(int(summary.inputTokens));
  expect(daily[2]).toBe(int(summary.outputTokens));
  expect(daily[5]).toBe(int(summary.totalTokens));
  expect(daily[6]).toBe(usd(summary.totalCost));

  const monthly = await apiGet<{ monthly: Counts[] }>(page, `/api/usage/monthly?${q}`);
  const monthFoot = await footer(page.getByTestId('table-monthly'));
  expect(monthFoot[5]).toBe(int(monthly.monthly.reduce((a, m) => a + tokens(m), 0)));
  expect(monthFoot[5]).toBe(int(summary.totalTokens));

  const models = await apiGet<{ models: Array<Counts & { model: string }>; totalCost: number }>(page, `/api/usage/models?${q}`);
  const share = await footer(page.getByTestId('table-model-share'));
  expect(share[1]).toBe(usd(models.totalCost));
  await expect(page.getByTestId('table-models').locator('tbody tr')).toHaveCount(models.models.length);
  await expect(page.getByTestId('table-models').locator('tbody tr').first()).toContainText(models.models[0]!.model);

  const hourly = await apiGet<{ hourly: Counts[] }>(page, `/api/usage/hourly?tz=${encodeURIComponent(tz)}`);
  expect(hourly.hourly).toHaveLength(24);
  const hourFoot = await footer(page.getByTestId('table-hourly'));
  expect(hourFoot[5]).toBe(int(hourly.hourly.reduce((a, h) => a + tokens(h), 0)));
  await expect(page.getByTestId('table-hourly').locator('tbody tr')).toHaveCount(24);

  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('sessions page through the API and a narrower range changes the totals', async ({ page }) => {
  await page.goto(`${app.url}/#/usage`);
  const sessions = page.getByTestId('sessions');
  await expect(sessions.getByText(/^1–20 of \d+$/)).toBeVisible();
  const total = Number((await sessions.getByText(/^1–20 of \d+$/).innerText()).split(' of ')[1]!.replace(/,/g, ''));
  expect(total).toBeGreaterThan(20);
  await sessions.getByRole('button', { name: 'Next' }).click();
  await expect(sessions.getByText(`21–${Math.min(40, total)} of ${total}`)).toBeVisible();
  await sessions.getByRole('button', { name: 'Previous' }).click();
  await expect(sessions.getByText(/^1–20 of/)).toBeVisible();

  await page.getByRole('button', { name: '7 days' }).click();
  const from = (await page.getByLabel('From', { exact: true }).inputValue()).replaceAll('-', '');
  const to = (await page.getByLabel('To', { exact: true }).inputValue()).replaceAll('-', '');
  const tz = encodeURIComponent(await page.getByLabel('Timezone', { exact: true }).inputValue());
  const week = await apiGet<{ totalCost: number }>(page, `/api/usage/summary?since=${from}&until=${to}&tz=${tz}`);
  await expect(page.getByTestId('card-cost').locator('.card-value')).toHaveText(usd(week.totalCost));
});

test('refresh rescans and reports the cache age', async ({ page }) => {
  await page.goto(`${app.url}/#/usage`);
  await expect(page.getByTestId('cache-age')).toHaveText(/Data cached .* ago|Not cached yet/);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('Usage data refreshed')).toBeVisible();
  await expect(page.getByTestId('cache-age')).toHaveText(/Data cached/);
});
