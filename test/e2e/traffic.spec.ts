import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startFakeUpstream, type FakeUpstream } from '../fixtures/fake-llm-upstream.js';
import { apiGet, expectAccessible, startApp, watchPage, type App } from './fixtures.js';

/**
 * The Traffic view against the real proxy engine: requests sent through it by a client show up
 * live in the table, filters narrow it, a failure links to its error log, the last hour's
 * per-minute table counts them, and reading further down pauses the feed.
 */
test.use({ actionTimeout: 10_000 });
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/screenshots';
let app: App;
let upstream: FakeUpstream;
let apiKey = '';

test.beforeAll(async () => {
  app = await startApp();
  upstream = await startFakeUpstream();
  // gpt-4o answers with usage (priced); gpt-4o-mini fails upstream with a 502.
  upstream.behave = (req) => {
    const model = (req.body as { model?: string }).model;
    if (model === 'gpt-4o-mini') return { kind: 'json', status: 502, body: { error: { message: 'e2e upstream is down', type: 'server_error' } } };
    return {
      kind: 'json',
      body: {
        id: 'chatcmpl-e2e',
        object: 'chat.completion',
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1200, completion_tokens: 340, total_tokens: 1540 },
      },
    };
  };
  await fs.writeFile(
    path.join(app.home, 'proxy', 'config.yaml'),
    [
      'server:',
      `  port: ${app.proxyPort}`,
      '  host: 127.0.0.1',
      'upstreams:',
      '  - name: e2e-openai',
      '    format: openai',
      `    base_url: ${upstream.origin}/v1`,
      '    api_key: sk-e2e-upstream',
      '    models: [gpt-4o, gpt-4o-mini]',
      '',
    ].join('\n'),
  );
  const tokens = (await (await fetch(`${app.url}/api/settings/auth/tokens/raw`)).json()) as { apiKey: { value: string } };
  apiKey = tokens.apiKey.value;
});

test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
  await upstream.close();
});

/** A client request through the real proxy, as an OpenAI SDK would send it. */
async function chat(model: string, key = apiKey): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${app.proxyPort}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  return res.status;
}

const rows = (page: Page) => page.getByTestId('traffic-table').getByTestId('traffic-row');

test('empty and stopped: says how to point a client at the proxy', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/traffic`);
  await expect(page.getByRole('heading', { name: 'Traffic', level: 1 })).toBeVisible();
  await expect(page.getByText('The proxy is stopped')).toBeVisible();
  const empty = page.getByTestId('traffic-empty');
  await expect(empty).toContainText(`No requests yet — point a client at http://127.0.0.1:${app.proxyPort}`);
  await expect(empty).toContainText(`ANTHROPIC_BASE_URL=http://127.0.0.1:${app.proxyPort}`);
  await expect(empty).toContainText(`http://127.0.0.1:${app.proxyPort}/v1`);
  await expect(page.getByTestId('traffic-error-rate')).toContainText('no requests in the last hour');
  await expectAccessible(page, 'traffic empty');
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('requests through the real proxy appear live; filters; click-through to the error log', async ({ page }) => {
  test.setTimeout(90_000);
  const watch = watchPage(page);
  // The proxy answers its own 401 for the bad key: that is expected here, and it is a row too.
  const listReads: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/proxy/requests') listReads.push(r.url());
  });
  await page.goto(`${app.url}/#/traffic`);
  await expect(page.getByTestId('traffic-empty')).toBeVisible();
  const started = await page.request.post(`${app.url}/api/proxy/proxy-start`, { headers: { 'content-type': 'application/json' } });
  expect(started.status(), await started.text()).toBe(200);
  await expect(page.getByTestId('traffic-proxy-state')).toContainText('Running');
  const readsBefore = listReads.length;

  expect(await chat('gpt-4o')).toBe(200);
  await expect(rows(page)).toHaveCount(1);
  const ok = rows(page).first();
  await expect(ok).toContainText('gpt-4o');
  await expect(ok).toContainText('e2e-openai');
  await expect(ok).toContainText('200');
  await expect(ok).toContainText('1.2K / 340');
  await expect(ok).toContainText(/\$0\.\d{4}/);
  // It arrived over /api/events, not by re-reading the list.
  expect(listReads.length).toBe(readsBefore);

  expect(await chat('gpt-4o-mini')).toBe(502);
  expect(await chat('gpt-4o', 'sk-wrong-key')).toBe(401);
  await expect(rows(page)).toHaveCount(3);
  const failed = rows(page).filter({ hasText: 'gpt-4o-mini' });
  await expect(failed).toContainText('502');
  await expect(failed.getByRole('link', { name: /Error log/ })).toBeVisible();
  await expect(rows(page).filter({ hasText: '401' })).toHaveCount(1);

  // The API agrees with what the table shows.
  const list = await apiGet<{ requests: Array<{ status: number; modelRequested: string | null; errorLog: string | null }>; total: number }>(page, '/api/proxy/requests');
  expect(list.requests.map((r) => r.status)).toEqual([401, 502, 200]);

  // Filters: failures only, then one model, then an upstream nobody used.
  await page.getByLabel('Status').selectOption('error');
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).filter({ hasText: '200' })).toHaveCount(0);
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Model (asked or sent)').fill('gpt-4o-mini');
  await page.getByLabel('Model (asked or sent)').press('Enter');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('502');
  // A live row that does not match stays out.
  expect(await chat('gpt-4o')).toBe(200);
  await expect(page.getByTestId('traffic-count')).toHaveText('1 request');
  await page.getByLabel('Model (asked or sent)').fill('');
  await page.getByLabel('Upstream').fill('no-such-upstream');
  await page.getByLabel('Upstream').press('Enter');
  await expect(page.getByText('No requests match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(rows(page)).toHaveCount(4);

  // Per minute: the table twin of the chart counts them.
  const chart = page.getByTestId('traffic-per-minute');
  await chart.getByRole('button', { name: 'Table' }).click();
  await expect(chart.locator('tfoot')).toContainText(/Total\s*4\s*2/);
  await expect(page.getByTestId('traffic-last-error')).toContainText('401');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SHOTS}/traffic-rows.png`, fullPage: true });
  await page.setViewportSize({ width: 800, height: 900 });
  await page.screenshot({ path: `${SHOTS}/traffic-800.png`, fullPage: true });
  await expectAccessible(page, 'traffic with rows');

  // Click-through: the failed request's error log opens in the proxy page's viewer.
  const logName = list.requests.find((r) => r.status === 502)!.errorLog!;
  await rows(page).filter({ hasText: 'gpt-4o-mini' }).getByRole('link', { name: /Error log/ }).click();
  await expect(page).toHaveURL(new RegExp(`#/proxy/logs/${logName.replace(/[.]/g, '\\.')}$`));
  const viewer = page.getByTestId('log-viewer');
  await expect(viewer).toContainText(logName);
  await expect(viewer.getByTestId('log-request')).toContainText('gpt-4o-mini');
  await expect(viewer.getByTestId('log-response')).toContainText('e2e upstream is down');
  await page.screenshot({ path: `${SHOTS}/traffic-error-log.png`, fullPage: true });
  // Closing the viewer leaves the deep link.
  await viewer.getByRole('button', { name: 'Close viewer' }).click();
  await expect(page).toHaveURL(/#\/proxy\/logs$/);
  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('scrolling down pauses the live feed; "N new — resume" brings the rows', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.goto(`${app.url}/#/traffic`);
  await expect(page.getByTestId('traffic-proxy-state')).toContainText('Running');
  for (let i = 0; i < 30; i++) await chat('gpt-4o');
  await expect(rows(page)).toHaveCount(34);
  const box = page.getByTestId('traffic-table');
  await box.evaluate((el) => el.scrollTo({ top: 400 }));
  await expect(page.getByTestId('traffic-resume')).toHaveText('Paused — resume');
  const topBefore = await rows(page).first().getAttribute('data-id');
  expect(await chat('gpt-4o')).toBe(200);
  expect(await chat('gpt-4o-mini')).toBe(502);
  await expect(page.getByTestId('traffic-resume')).toHaveText('2 new — resume');
  // Nothing moved under the reader.
  expect(await rows(page).first().getAttribute('data-id')).toBe(topBefore);
  await expect(rows(page)).toHaveCount(34);
  await page.getByTestId('traffic-resume').click();
  await expect(rows(page)).toHaveCount(36);
  await expect(rows(page).first()).toContainText('gpt-4o-mini');
  expect(await box.evaluate((el) => el.scrollTop)).toBe(0);
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
});

test('a stopped proxy keeps its history on screen', async ({ page }) => {
  const stopped = await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST', headers: { 'content-type': 'application/json' } });
  expect(stopped.status).toBe(200);
  await page.goto(`${app.url}/#/traffic`);
  await expect(page.getByText('The proxy is stopped')).toBeVisible();
  await expect(rows(page)).toHaveCount(36);
  await expect(page.getByTestId('traffic-empty')).toHaveCount(0);
});
