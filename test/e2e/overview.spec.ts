import { expect, test } from '@playwright/test';
import { apiGet, ERROR_LOG, expectAccessible, PROFILE, startApp, watchPage, type App } from './fixtures.js';

/**
 * The Overview answers at a glance with the API's own numbers: spend today, this week and this
 * month with a 30-day line, the week's top model, quota per provider, proxy traffic with the last
 * error, the default profile, anomalies with their named baseline; and progress, never a zero,
 * while the first usage scan runs.
 */
test.use({ actionTimeout: 10_000 });
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/screenshots';
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

function localDay(offset = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

test.describe('while the first scan runs', () => {
  let app: App;
  test.beforeAll(async () => {
    // TEST ONLY knob (usage-loader.ts): each transcript read waits, so the scan can be watched.
    process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS = '400';
    try {
      app = await startApp();
    } finally {
      delete process.env.SWITCHBOARD_TEST_SCAN_DELAY_MS;
    }
  });
  test.afterAll(async () => app.stop());

  test('cost cards show scan progress, never a zero, then the real figures', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(`${app.url}/#/overview`);
    const today = page.getByTestId('cost-today');
    // Generous: on a loaded machine the first progress answer can take a while.
    await expect(page.getByRole('region', { name: 'Spend' }).getByTestId('scan-progress')).toContainText(/Reading usage logs… \d+ of \d+ files/, { timeout: 20_000 });
    await expect(today.getByTestId('scan-wait')).toHaveText('Counting…');
    await expect(today).not.toContainText('$');
    await expect(page.getByTestId('cost-month')).not.toContainText('$0.00');
    await page.screenshot({ path: `${SHOTS}/overview-scanning.png`, fullPage: true });
    await expect(today.locator('.card-value')).toHaveText(/^\$/, { timeout: 60_000 });
    await expect(page.getByTestId('scan-progress')).toHaveCount(0);
    const summary = await apiGet<{ totalCost: number }>(page, `/api/usage/summary?since=${localDay()}&until=${localDay()}`);
    await expect(today.locator('.card-value')).toHaveText(usd.format(summary.totalCost));
  });
});

test.describe('at a glance', () => {
  let app: App;
  test.beforeAll(async () => {
    app = await startApp();
  });
  test.afterAll(async () => {
    await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
    await app.stop();
  });

  test('spend, top model, quota, traffic, default profile and the anomaly baseline are the API’s numbers', async ({ page }) => {
    test.setTimeout(90_000);
    const watch = watchPage(page);
    await page.goto(`${app.url}/#/overview`);
    const q = (since: string) => `since=${since}&until=${localDay()}`;
    const [day, week, month] = await Promise.all([
      apiGet<{ totalCost: number }>(page, `/api/usage/summary?${q(localDay())}`),
      apiGet<{ totalCost: number }>(page, `/api/usage/summary?${q(localDay(-6))}`),
      apiGet<{ totalCost: number }>(page, `/api/usage/summary?${q(localDay().slice(0, 6) + '01')}`),
    ]);
    await expect(page.getByTestId('cost-today').locator('.card-value')).toHaveText(usd.format(day.totalCost));
    await expect(page.getByTestId('cost-week').locator('.card-value')).toHaveText(usd.format(week.totalCost));
    await expect(page.getByTestId('cost-month').locator('.card-value')).toHaveText(usd.format(month.totalCost));
    // The fixture has 20 days of usage up to today: a real, non-zero week.
    expect(week.totalCost).toBeGreaterThan(0);
    await expect(page.getByTestId('sparkline-table').locator('tbody tr')).toHaveCount(30);

    const models = await apiGet<{ models: Array<{ model: string; cost: number }> }>(page, `/api/usage/models?${q(localDay(-6))}`);
    const top = [...models.models].sort((a, b) => b.cost - a.cost)[0]!;
    await expect(page.getByTestId('top-model')).toContainText(top.model);
    await expect(page.getByTestId('top-model')).toContainText(usd.format(top.cost));

    // The fake Codex endpoint has windows at 42 % and 91 %: the worst one shows, with its reset.
    const codex = page.getByTestId('quota-codex');
    await expect(codex).toContainText('91% used');
    await expect(codex).toContainText(/resets in 2d 23h/);

    // Traffic: a request refused for a bad key is a 401 row with an error log.
    await expect(page.getByTestId('ov-error-rate')).toHaveText('no requests in the last hour');
    const started = await page.request.post(`${app.url}/api/proxy/proxy-start`, { headers: { 'content-type': 'application/json' } });
    expect(started.status(), await started.text()).toBe(200);
    const refused = await fetch(`http://127.0.0.1:${app.proxyPort}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-not-the-key' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(refused.status).toBe(401);
    await expect(page.getByTestId('ov-error-rate')).toHaveText('100% of the last hour', { timeout: 15_000 });
    await expect(page.getByTestId('ov-last-error')).toContainText('401');

    // Default profile: set through the API, the card follows over /api/events.
    await expect(page.getByTestId('overview-profile')).toContainText('No default profile');
    const set = await page.request.put(`${app.url}/api/profiles/default`, { data: { profile: PROFILE } });
    expect(set.status()).toBe(200);
    const card = page.getByTestId('overview-profile');
    await expect(card.getByTestId('ov-profile-link')).toHaveText(PROFILE);
    await expect(card).toContainText('127.0.0.1:8317');
    await expect(card).toContainText('claude-sonnet-4-5');

    // Anomalies name the baseline the Usage page names.
    const insights = await apiGet<{ baseline: { averageDailyCost: number; days: number } }>(page, '/api/usage/insights');
    const baseline = page.getByTestId('anomaly-baseline');
    await expect(baseline).toContainText(`Judged against ${usd.format(insights.baseline.averageDailyCost)} a day`);
    await expect(baseline).toContainText(`the ${insights.baseline.days} days with usage`);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SHOTS}/overview.png`, fullPage: true });
    await page.setViewportSize({ width: 800, height: 900 });
    await page.screenshot({ path: `${SHOTS}/overview-800.png`, fullPage: true });
    await expectAccessible(page, 'overview');

    // The last error links to its log.
    await page.getByTestId('ov-last-error').getByRole('link', { name: 'Error log' }).click();
    await expect(page).toHaveURL(/#\/proxy\/logs\/error-.+\.log$/);
    await expect(page.getByTestId('log-viewer').getByTestId('log-response')).toContainText('401');
    expect(watch.errors).toEqual([]);
    expect(watch.failures).toEqual([]);
  });

  test('the Usage page shows the same baseline; an old error log linked by name still opens', async ({ page }) => {
    await page.goto(`${app.url}/#/usage`);
    const insights = await apiGet<{ baseline: { averageDailyCost: number } }>(page, '/api/usage/insights');
    // Usage asks for its own range; the sentence is the same component either way.
    await expect(page.getByTestId('anomaly-baseline')).toContainText('Judged against $');
    expect(insights.baseline.averageDailyCost).toBeGreaterThan(0);
    await page.goto(`${app.url}/#/proxy/logs/${ERROR_LOG}`);
    await expect(page.getByTestId('log-viewer').getByTestId('log-response')).toContainText('upstream connection refused');
    await page.goto(`${app.url}/#/proxy/logs/error-gone-2020-01-01T000000-00000000.log`);
    await expect(page.getByText('This error log is no longer kept')).toBeVisible();
  });
});
