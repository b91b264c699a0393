import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startFakeQuotaServer, type FakeQuotaServer } from '../fixtures/fake-quota-server.js';
import { OFFLINE_NETWORK_YAML } from '../helpers/offline-config.js';
import { expectAccessible, freePort, watchPage } from './fixtures.js';
import { serve, type Served } from './serve.js';

/**
 * Issue 31.3: accounts of codex, ghcp, agy, kiro and gemini on one page from fixture auth files,
 * each with its provider badge; the ones CLIProxyAPI serves say so; iflow's file is shown as
 * discontinued with only Remove. Quota comes from a local fake of every provider's quota host.
 */
test.use({ actionTimeout: 10_000 });

let app: Served;
let quota: FakeQuotaServer;
const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const FILES: Record<string, Record<string, unknown>> = {
  'codex-coder@example.com-plus.json': { type: 'codex', email: 'coder@example.com', plan_type: 'plus', account_id: 'acct-1', access_token: 'codex-at', refresh_token: 'codex-rt', expired: later(5) },
  'github-copilot-octocat.json': { type: 'github-copilot', username: 'octocat', access_token: 'gho_fixture' },
  'antigravity-agy@example.com.json': { type: 'antigravity', email: 'agy@example.com', project_id: 'proj-agy', access_token: 'agy-at', refresh_token: 'agy-rt', expired: later(5) },
  'kiro-builder.json': { type: 'kiro', email: 'builder@example.com', profile_arn: 'arn:aws:codewhisperer:us-east-1:123456789012:profile/FIXTURE', access_token: 'kiro-at', refresh_token: 'kiro-rt', expires_at: later(5) },
  'gemini-dev@example.com-proj-gem.json': { type: 'gemini', email: 'dev@example.com', project_id: 'proj-gem', token: { access_token: 'gem-at', refresh_token: 'gem-rt', expiry: later(5) } },
  'iflow-old@example.com.json': { type: 'iflow', email: 'old@example.com', access_token: 'iflow-at' },
};

test.beforeAll(async () => {
  quota = await startFakeQuotaServer();
  const proxyPort = await freePort();
  app = await serve(async ({ home }) => {
    const auth = path.join(home, 'proxy', 'auth');
    await fs.mkdir(auth, { recursive: true, mode: 0o700 });
    for (const [name, record] of Object.entries(FILES)) await fs.writeFile(path.join(auth, name), JSON.stringify(record), { mode: 0o600 });
    await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\n`);
    const endpoints = ['agy', 'gemini', 'codex', 'ghcp', 'kiro', 'iflow'].map((p) => `    ${p}: ${quota.origin}`);
    await fs.writeFile(path.join(home, 'config.yaml'), ['proxy:', '  update_feed_url: http://127.0.0.1:9/releases/latest', '  quota_endpoints:', ...endpoints, 'cursor:', '  upstream_url: http://127.0.0.1:9', ''].join('\n') + OFFLINE_NETWORK_YAML, { mode: 0o600 });
    // The profile a kiro sign-in makes (decisions §4.1): routed through the proxy with Kiro's tier models.
    await fs.writeFile(
      path.join(home, 'kiro.settings.json'),
      JSON.stringify({ env: { PROVIDER_BASE_URL: `http://127.0.0.1:${proxyPort}`, PROVIDER_AUTH_TOKEN: 'sk-fixture', PROVIDER_MODEL: 'kiro-claude-sonnet-4-6', PROVIDER_DEFAULT_OPUS_MODEL: 'kiro-claude-opus-4-7', PROVIDER_DEFAULT_SONNET_MODEL: 'kiro-claude-sonnet-4-6', PROVIDER_DEFAULT_HAIKU_MODEL: 'kiro-claude-haiku-4-5' } }, null, 2),
    );
  });
});
test.afterAll(async () => {
  await fetch(`${app.url}/api/proxy/proxy-stop`, { method: 'POST' }).catch(() => undefined);
  await app?.stop();
  await quota?.close();
});

test('codex, ghcp, agy, kiro and gemini on one page; CLIProxyAPI-served ones say so; iflow discontinued', async ({ page }) => {
  const watch = watchPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/#/accounts`);
  const rows = {
    codex: page.getByTestId('account-codex-coder@example.com'),
    ghcp: page.getByTestId('account-ghcp-octocat'),
    agy: page.getByTestId('account-agy-agy@example.com'),
    kiro: page.getByTestId('account-kiro-builder@example.com'),
    gemini: page.getByTestId('account-gemini-dev@example.com'),
    iflow: page.getByTestId('account-iflow-old@example.com'),
  };
  const badges = { codex: 'Codex', ghcp: 'Copilot', agy: 'Antigravity', kiro: 'Kiro', gemini: 'Gemini', iflow: 'iFlow' };
  for (const [p, row] of Object.entries(rows)) await expect(row.getByTestId('provider-badge'), p).toHaveText(badges[p as keyof typeof badges]);

  // Where each runs.
  await expect(rows.codex.getByTestId('account-served')).toHaveCount(0);
  await expect(rows.ghcp.getByTestId('account-served')).toHaveCount(0);
  await expect(rows.agy.getByTestId('account-served')).toContainText('Served by CLIProxyAPI:');
  await expect(rows.kiro.getByTestId('account-served')).toContainText('Served by CLIProxyAPI Plus:');
  await expect(rows.gemini.getByTestId('account-served')).toContainText('Served by CLIProxyAPI Plus:');
  await expect(rows.agy.getByRole('link', { name: 'Manage CLIProxyAPI' })).toHaveAttribute('href', '#/proxy/status');

  // The same actions as part 1's accounts (the binary refreshes the sign-ins it serves).
  for (const p of ['agy', 'kiro', 'gemini'] as const) {
    await expect(rows[p].getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect(rows[p].getByRole('button', { name: 'Use with Claude Code' })).toBeVisible();
    await expect(rows[p].getByRole('button', { name: 'Remove' })).toBeVisible();
    await expect(rows[p].getByRole('button', { name: 'Refresh' })).toHaveCount(0);
  }
  await expect(rows.codex.getByRole('button', { name: 'Refresh' })).toBeVisible();

  // Quota from each provider's own host (the fake): percent for agy and gemini, credits for kiro.
  await expect(rows.agy.locator('.acc-quota')).toContainText('gemini-3-pro-high');
  await expect(rows.kiro.locator('.acc-quota')).toContainText('124 of 1000 credits used');
  await expect(rows.gemini.locator('.acc-quota')).toContainText('gemini-2.5-pro');
  await expect(rows.agy).toContainText('models gemini-3-pro-preview');

  // iflow: discontinued, no quota, only Remove.
  await expect(rows.iflow.locator('.badge')).toHaveText(/discontinued/);
  await expect(rows.iflow.getByTestId('account-served')).toContainText('iFlow shut down on 2026-04-17');
  await expect(rows.iflow.getByRole('button')).toHaveText(['Remove']);
  await expect(rows.iflow.locator('.acc-quota')).toHaveCount(0);

  await page.screenshot({ path: 'docs/screenshots/accounts-four-providers.png', fullPage: true });
  await expectAccessible(page, 'accounts (four providers)');

  // Pause and resume an agy account: its file says so.
  const agyFile = path.join(app.home, 'proxy', 'auth', 'antigravity-agy@example.com.json');
  await rows.agy.getByRole('button', { name: 'Pause' }).click();
  await expect(rows.agy.locator('.badge')).toHaveText(/paused/);
  expect(JSON.parse(await fs.readFile(agyFile, 'utf8')).disabled).toBe(true);
  await rows.agy.getByRole('button', { name: 'Resume' }).click();
  await expect(rows.agy.locator('.badge')).toHaveText(/active/);
  expect(JSON.parse(await fs.readFile(agyFile, 'utf8')).disabled).toBeUndefined();

  // Use a kiro account with Claude Code: Kiro's tier models through the proxy.
  await rows.kiro.getByRole('button', { name: 'Use with Claude Code' }).click();
  await expect(rows.kiro).toContainText('Claude Code now uses the kiro profile through the proxy on port');
  const claude = JSON.parse(await fs.readFile(path.join(app.agentDir, 'settings.json'), 'utf8')) as { env: Record<string, string> };
  expect(claude.env.ANTHROPIC_MODEL).toBe('kiro-claude-sonnet-4-6');
  expect(claude.env.ANTHROPIC_DEFAULT_OPUS_MODEL).toBe('kiro-claude-opus-4-7');

  // Remove a gemini account: it leaves the list, its file goes to backups.
  page.once('dialog', (d) => void d.accept());
  await rows.gemini.getByRole('button', { name: 'Remove' }).click();
  await expect(rows.gemini).toHaveCount(0);
  await expect(rows.kiro).toBeVisible();

  expect(watch.errors).toEqual([]);
  expect(watch.failures).toEqual([]);
});
