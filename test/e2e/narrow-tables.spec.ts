import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startFakeUpstream, type FakeUpstream } from '../fixtures/fake-llm-upstream.js';
import { startApp, type App } from './fixtures.js';

/**
 * Issue 28.6 at 800 px: the columns that answer each page's question (a session's cost and
 * tokens; a request's status, latency and cost) are in view without scrolling sideways, the rest
 * scrolls; and the sessions table names each session by a short id.
 */
test.use({ actionTimeout: 10_000, viewport: { width: 800, height: 900 } });
test.describe.configure({ mode: 'serial' });

const SHOTS = 'docs/screenshots';
let app: App;
let upstream: FakeUpstream;

test.beforeAll(async () => {
  app = await startApp();
  upstream = await startFakeUpstream();
  upstream.behave = (req) => ({
    kind: 'json',
    body: {
      id: 'chatcmpl-e2e',
      object: 'chat.completion',
      model: (req.body as { model?: string }).model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1200, completion_tokens: 340, total_tokens: 1540 },
    },
  });
  await fs.writeFile(
    path.join(app.home, 'proxy', 'config.yaml'),
    ['server:', `  port: ${app.proxyPort}`, '  host: 127.0.0.1', 'upstreams:', '  - name: e2e-openai', '    format: openai', `    base_url: ${upstream.origin}/v1`, '    api_key: sk-e2e-upstream', '    models: [gpt-4o]', ''].join('\n'),
  );
});

test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app.stop();
  await upstream.close();
});

/** The cell of `row` under the column headed `header`, found by the header's position (not by markup). */
async function cellUnder(table: Locator, row: Locator, header: string): Promise<Locator> {
  const headers = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim());
  const index = headers.indexOf(header);
  expect(index, `${header} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return row.locator('th, td').nth(index);
}

/** The element's box lies inside the viewport (left and right edges), with nothing scrolled. */
async function expectInView(page: Page, cell: Locator): Promise<void> {
  const box = await cell.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, 'cell is rendered').not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

test('Usage sessions at 800 px: short session id, cost and total tokens in view', async ({ page }) => {
  await page.goto(`${app.url}/#/usage`);
  const table = page.getByTestId('table-sessions');
  const first = table.locator('tbody tr').first();
  await expect(first).toBeVisible({ timeout: 60_000 });
  const id = first.locator('[data-session-id]');
  const full = (await id.getAttribute('data-session-id'))!;
  expect(full.length).toBeGreaterThan(9);
  await expect(id.locator('.mono')).toHaveText(`${full.slice(0, 8)}…`);
  await expect(id).toHaveAttribute('title', `${full} (click to copy)`);
  await first.scrollIntoViewIfNeeded();
  await expectInView(page, await cellUnder(table, first, 'Cost'));
  await expectInView(page, await cellUnder(table, first, 'Total tokens'));
  await expect(table.getByRole('columnheader', { name: 'Session' })).toBeVisible();
  await page.getByTestId('sessions').screenshot({ path: `${SHOTS}/usage-sessions-800.png` });
});

test('Traffic at 800 px: status, latency and cost of a request in view', async ({ page }) => {
  const started = await page.request.post(`${app.url}/api/proxy/proxy-start`, { headers: { 'content-type': 'application/json' } });
  expect(started.status(), await started.text()).toBe(200);
  const key = ((await (await fetch(`${app.url}/api/settings/auth/tokens/raw`)).json()) as { apiKey: { value: string } }).apiKey.value;
  const res = await fetch(`http://127.0.0.1:${app.proxyPort}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  await page.goto(`${app.url}/#/traffic`);
  const table = page.getByTestId('traffic-table');
  const row = table.getByTestId('traffic-row').first();
  await expect(row).toContainText('gpt-4o');
  await row.scrollIntoViewIfNeeded();
  const cost = await cellUnder(table, row, 'Cost');
  await expect(cost).toHaveText(/^\$/);
  await expectInView(page, cost);
  await expectInView(page, await cellUnder(table, row, 'Latency'));
  await expectInView(page, await cellUnder(table, row, 'Status'));
  await page.getByTestId('traffic-table').screenshot({ path: `${SHOTS}/traffic-800.png` });
});
