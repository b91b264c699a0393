import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiGet, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

// Usage of several coding agents on the dashboard (issue 32): the agent filter and the by-agent
// breakdown, against the API, on Claude Code logs plus generated codex, gemini and opencode logs.
const SHOTS = 'docs/screenshots';
let app: Served;

function daysAgo(n: number): string {
  const d = new Date();
  d.setDate(d.getDate() - n);
  return d.toISOString().slice(0, 10);
}

test.use({ actionTimeout: 10_000 });

test.beforeAll(async () => {
  app = await serve(async ({ home, agentDir }) => {
    execFileSync(process.execPath, ['scripts/gen-usage.mjs', '--out', agentDir, '--bytes', '1MB', '--seed', '3', '--sessions', '3', '--start', daysAgo(12), '--days', '12', '--instances', '0', '--quiet']);
    const logs = path.join(path.dirname(home), 'agent-logs');
    execFileSync(process.execPath, ['scripts/gen-agents.mjs', '--out', logs, '--seed', '5', '--start', daysAgo(12), '--days', '12', '--sessions', '5', '--turns', '16', '--quiet']);
    const { env } = JSON.parse(await fs.readFile(path.join(logs, 'gen-agents-manifest.json'), 'utf8')) as { env: Record<string, string> };
    const list = (v: string) => `[${v.split(',').map((d) => JSON.stringify(d)).join(', ')}]`;
    await fs.mkdir(home, { recursive: true });
    // Three agents besides Claude, named in config.yaml (not the environment), the others off.
    const off = ['amp', 'qwen', 'pi', 'openclaw'].map((id) => `    ${id}: { enabled: false }`);
    await fs.writeFile(
      path.join(home, 'config.yaml'),
      ['usage:', '  agents:', `    codex: { dirs: ${list(env.CODEX_HOME!)} }`, `    gemini: { dirs: ${list(env.GEMINI_DATA_DIR!)} }`, `    opencode: { dirs: ${list(env.OPENCODE_DATA_DIR!)} }`, ...off, ''].join('\n'),
    );
  });
});
test.afterAll(() => app?.stop());

test('the by-agent breakdown and the agent filter follow the API; screenshots', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/usage`);
  const panel = page.getByTestId('chart-agents');
  await expect(panel.locator('canvas')).toBeVisible({ timeout: 60_000 });
  const from = (await page.getByLabel('From', { exact: true }).inputValue()).replaceAll('-', '');
  const to = (await page.getByLabel('To', { exact: true }).inputValue()).replaceAll('-', '');
  const tz = await page.getByLabel('Timezone', { exact: true }).inputValue();
  const q = `since=${from}&until=${to}&tz=${encodeURIComponent(tz)}`;
  const summary = await apiGet<{ agents: string[]; agentBreakdown: Record<string, { totalTokens: number; cost: number }> }>(page, `/api/usage/summary?${q}&by=agent`);
  expect(summary.agents).toEqual(['claude', 'codex', 'gemini', 'opencode']);

  await page.screenshot({ path: `${SHOTS}/usage-agents.png`, fullPage: true });
  await page.getByRole('form', { name: 'Usage filters' }).screenshot({ path: 'test-results/screenshots/usage-agents-filters.png' });
  await panel.screenshot({ path: `${SHOTS}/usage-agents-breakdown.png` });

  // The table view: one row per agent with the API's figures.
  await panel.getByRole('button', { name: 'Table' }).click();
  const rows = page.getByTestId('table-agents').locator('tbody tr');
  await expect(rows).toHaveCount(4);
  const int = (n: number) => new Intl.NumberFormat('en-US').format(n);
  for (const agent of summary.agents) {
    await expect(page.getByTestId('table-agents').locator('tbody tr', { hasText: agent }).locator('td').nth(4)).toHaveText(int(summary.agentBreakdown[agent]!.totalTokens));
  }

  // Sessions of other agents name their agent in the Client column.
  await expect(page.getByTestId('sessions').locator('tbody tr').filter({ has: page.locator('code', { hasText: /^(codex|gemini|opencode)$/ }) }).first()).toBeVisible();

  // Filter to one agent: the cards and the breakdown show only codex.
  await page.getByLabel('Agent', { exact: true }).selectOption('codex');
  const codex = await apiGet<{ totalCost: number; agents: string[] }>(page, `/api/usage/summary?${q}&agent=codex`);
  expect(codex.agents).toEqual(['codex']);
  const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
  await expect(page.getByTestId('card-cost').locator('.card-value')).toHaveText(usd(codex.totalCost));
  await expect(rows).toHaveCount(1);
  await panel.getByRole('button', { name: 'Chart' }).click();
  await page.screenshot({ path: `${SHOTS}/usage-agents-codex.png` });

  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});

test('Settings: per-agent on/off switches and folders go to config.yaml and into the next scan', async ({ page }) => {
  const watch = watchPage(page);
  await page.goto(`${app.url}/#/settings`);
  const codex = page.getByLabel('Read Codex CLI usage');
  await expect(codex).toBeChecked(); // absent = on (the server's default)
  await expect(page.getByLabel('Read Amp usage')).not.toBeChecked(); // enabled: false in config.yaml
  // The SQLite and tier-2 agents have their switch and folders too.
  for (const name of ['Kilo', 'Goose', 'Hermes Agent', 'Kimi CLI', 'Codebuff', 'GitHub Copilot CLI']) {
    await expect(page.getByLabel(`Read ${name} usage`)).toBeChecked();
    await expect(page.getByLabel(`${name} folders`)).toHaveValue('');
  }
  const before = await apiGet<{ agents: Array<{ id: string; dirs: string[] }> }>(page, '/api/usage/agents');
  const geminiDirs = before.agents.find((a) => a.id === 'gemini')!.dirs;
  await expect(page.getByLabel('Gemini CLI folders')).toHaveValue(geminiDirs.join(', '));
  await codex.uncheck();
  await page.getByLabel('Gemini CLI folders').fill(`${geminiDirs[0]}, /nowhere/else`);
  await page.getByLabel('Gemini CLI folders').press('Tab');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  // Tall enough for the whole form: a full-page capture of a shorter window moves the fixed sidebar.
  await page.setViewportSize({ width: 1280, height: 2400 });
  await page.screenshot({ path: 'docs/screenshots/settings-agents.png', fullPage: true });
  await page.request.post(`${app.url}/api/usage/refresh`);
  const after = await apiGet<{ agents: Array<{ id: string; enabled: boolean; dirs: string[]; records: number }> }>(page, '/api/usage/agents');
  expect(after.agents.find((a) => a.id === 'codex')).toMatchObject({ enabled: false, records: 0 });
  expect(after.agents.find((a) => a.id === 'gemini')!.dirs).toEqual([geminiDirs[0], '/nowhere/else']);
  expect(watch.errors).toEqual([]);
});

test('Overview: cost by agent over 30 days, a share bar with a legend', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/`);
  const card = page.getByTestId('agent-share');
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.locator('li')).toHaveCount((await apiGet<{ agents: Array<{ records: number; enabled: boolean }> }>(page, '/api/usage/agents')).agents.filter((a) => a.enabled && a.records > 0).length);
  await page.screenshot({ path: `${SHOTS}/overview-agents.png` });
  expect(watch.errors).toEqual([]);
});
