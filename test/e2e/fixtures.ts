import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { startFakeUpstream } from './fake-upstream.js';
import { serve, type Served } from './serve.js';

/** The project's own usage-log generator (seeded, deterministic). */
const GEN_USAGE = path.resolve('scripts', 'gen-usage.mjs');

export const PROFILE = 'work';
export const QUOTA_ACCOUNT = 'dev@example.com';
export const ERROR_LOG = 'error-v1-chat-completions-2026-01-02T101500-0a1b2c3d.log';

/** A free loopback port for the proxy engine (tests never use fixed ports). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function daysAgo(n: number): string {
  const d = new Date();
  d.setDate(d.getDate() - n);
  return d.toISOString().slice(0, 10);
}

export interface App extends Served {
  proxyPort: number;
  /** Absolute path of the fixture profile's settings file. */
  profileFile: string;
  agentSettingsFile: string;
}

/**
 * The real built app with a temp home holding: 20 recent days of generated usage, a profile,
 * a proxy config on a free port, one error log, an auth file, shared items, an agent-tool
 * settings path inside the temp dir (never the user's own files), and the release feed and
 * quota endpoints pointed at a local fake upstream.
 */
export async function startApp(): Promise<App> {
  const proxyPort = await freePort();
  const upstream = await startFakeUpstream();
  let agentSettingsFile = '';
  const app = await serve(async ({ home, agentDir }) => {
    execFileSync(process.execPath, [
      GEN_USAGE, '--out', agentDir, '--bytes', '2MB', '--seed', '7', '--projects', '8', '--sessions', '4',
      '--start', daysAgo(19), '--days', '20', '--instances', '0', '--quiet',
    ]);
    agentSettingsFile = path.join(path.dirname(home), 'factory', 'settings.json');
    await fs.mkdir(path.join(home, 'proxy', 'logs'), { recursive: true, mode: 0o700 });
    await fs.writeFile(
      path.join(home, 'config.yaml'),
      [
        '# e2e config',
        'agent_tool:',
        '  binary: switchboard-e2e-no-such-agent',
        `  settings_path: ${agentSettingsFile}`,
        'proxy:',
        `  update_feed_url: ${upstream.origin}/releases/latest`,
        '  quota_endpoints:',
        ...['agy', 'gemini', 'codex', 'ghcp', 'kiro', 'iflow'].map((p) => `    ${p}: ${upstream.origin}`),
        // The bridge daemon's catalog too: the fake answers 404 and the built-in list is used.
        'cursor:',
        `  upstream_url: ${upstream.origin}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), `server:\n  port: ${proxyPort}\n  host: 127.0.0.1\n`);
    await fs.writeFile(path.join(home, 'proxy', 'logs', ERROR_LOG), errorLogText());
    await fs.mkdir(path.join(home, 'proxy', 'auth'), { recursive: true, mode: 0o700 });
    await fs.writeFile(
      path.join(home, 'proxy', 'auth', `codex-${QUOTA_ACCOUNT}.json`),
      JSON.stringify({ type: 'codex', email: QUOTA_ACCOUNT, access_token: 'e2e-access-token', refresh_token: 'e2e-refresh', expiry_date: Date.now() + 3_600_000 }),
      { mode: 0o600 },
    );
    await fs.writeFile(
      path.join(home, `${PROFILE}.settings.json`),
      JSON.stringify({ env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: 'sk-e2e-secret-value-123', PROVIDER_MODEL: 'claude-sonnet-4-5' } }, null, 2),
    );
    await fs.mkdir(path.join(agentDir, 'commands', 'git'), { recursive: true });
    await fs.writeFile(path.join(agentDir, 'commands', 'git', 'commit.md'), '---\ndescription: Write a commit message\n---\n# Commit\n\nWrite a **clear** commit message.\n\n- say why\n- keep it short\n');
    await fs.mkdir(path.join(agentDir, 'agents'), { recursive: true });
    await fs.writeFile(path.join(agentDir, 'agents', 'reviewer.md'), '# Reviewer\n\nReviews code carefully.\n\n<script>window.__pwned = 1</script>\n<img alt="logo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onerror="window.__pwned = 2">\n\n[click](javascript:window.__pwned=3)\n');
    await fs.mkdir(path.join(agentDir, 'skills', 'pdf-tools'), { recursive: true });
    await fs.writeFile(path.join(agentDir, 'skills', 'pdf-tools', 'SKILL.md'), '---\ndescription: Work with PDF files\n---\n# PDF tools\n');
    // {config_dir}/shared/<type> are links into the agent data dir (decisions §3).
    await fs.mkdir(path.join(home, 'shared'), { recursive: true });
    for (const type of ['commands', 'skills', 'agents']) await fs.symlink(path.join(agentDir, type), path.join(home, 'shared', type), 'dir');
  });
  return {
    ...app,
    proxyPort,
    profileFile: path.join(app.home, `${PROFILE}.settings.json`),
    agentSettingsFile,
    async stop() {
      await app.stop();
      await upstream.close();
    },
  };
}

function errorLogText(): string {
  return [
    '=== Request ===',
    'POST /v1/chat/completions HTTP/1.1',
    'Content-Type: application/json',
    'Authorization: Bearer ********',
    '',
    JSON.stringify({ model: 'gpt-e2e-model', messages: [{ role: 'user', content: 'hello' }] }),
    '',
    '=== Response ===',
    'Status: 502',
    '',
    JSON.stringify({ error: { message: 'upstream connection refused', type: 'upstream_error' } }),
    '',
  ].join('\n');
}

export interface PageWatch {
  /** Console errors and uncaught exceptions, minus the browser's own network lines (checked via `failures`). */
  errors: string[];
  /** API answers with status >= 400 that the test did not expect. */
  failures: string[];
  allow(pattern: RegExp): void;
}

/** Records console errors and failed API calls for the "loads without errors" checks. */
export function watchPage(page: Page): PageWatch {
  const allowed: RegExp[] = [];
  const watch: PageWatch = { errors: [], failures: [], allow: (p) => void allowed.push(p) };
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    // Chromium logs every non-2xx fetch as "Failed to load resource"; those are judged below by URL.
    if (msg.text().startsWith('Failed to load resource')) return;
    watch.errors.push(msg.text());
  });
  page.on('pageerror', (err) => watch.errors.push(`${err.name}: ${err.message}`));
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/') || res.status() < 400) return;
    const line = `${res.request().method()} ${url.pathname} → ${res.status()}`;
    if (!allowed.some((p) => p.test(line))) watch.failures.push(line);
  });
  return watch;
}

/** axe with WCAG A/AA rules: no serious or critical findings. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: [${v.impact}] ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  expect.soft(bad, bad.join('\n')).toEqual([]);
}

/** GET an API path through the page's own origin, as the dashboard does. */
export async function apiGet<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(new URL(url, page.url()).href);
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}
