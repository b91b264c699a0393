import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderAccountsService } from '../../../../main/services/accounts/accounts-service.js';
import type { AccountView } from '../../../../main/services/accounts/account-view.js';
import { fakeJwt, overridesYaml, startFakeAccountProviders, type FakeAccountProviders } from '../../../fixtures/fake-account-providers.js';
import { freePort } from '../../../helpers/free-port.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

let t: TempContext;
let fake: FakeAccountProviders;
let service: ProviderAccountsService;
let port: number;

beforeEach(async () => {
  t = await tempContext();
  fake = await startFakeAccountProviders();
  port = await freePort();
  t.ctx.env = { HOME: t.home };
  await fs.writeFile(t.ctx.paths.appConfig, overridesYaml(fake.origin));
  await fs.mkdir(t.ctx.paths.proxyDir, { recursive: true });
  await fs.writeFile(t.ctx.paths.proxyConfig, `providers:\n  codex:\n    oauth_port: ${port}\n`);
  service = new ProviderAccountsService(t.ctx, { pollFloorMs: 5 });
});
afterEach(async () => {
  await service.stop();
  await fake.close();
  await t.cleanup();
});

/** What a browser does with the authorize URL: the provider redirects to the loopback callback. */
async function authorize(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}
const onLoopback = (location: string) => location.replace('//localhost:', '//127.0.0.1:');
const tokenCalls = () => fake.requests.filter((r) => r.path === '/oauth/token').length;

async function until<T>(read: () => T | Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
}

async function signInCodex(): Promise<AccountView> {
  const start = await service.signIn('codex', 'paste');
  const state = await service.signInCallback(start.signInId, await authorize(start.url));
  expect(state.status).toBe('ok');
  return state.account!;
}

describe('codex sign-in on the loopback callback', () => {
  it('PKCE code flow: the browser lands on 127.0.0.1, the file is CLIProxyAPI\'s codex file, 0600 in a 0700 dir', async () => {
    const start = await service.signIn('codex', 'browser');
    const authUrl = new URL(start.url);
    expect(authUrl.origin).toBe(fake.origin);
    expect(authUrl.searchParams.get('redirect_uri')).toBe(`http://localhost:${port}/auth/callback`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    const page = await fetch(onLoopback(await authorize(start.url)));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Signed in');
    const state = service.signInStatus(start.signInId);
    expect(state).toMatchObject({ status: 'ok', account: { provider: 'codex', accountId: 'coder@example.com', email: 'coder@example.com', status: 'active' } });
    const file = path.join(t.ctx.paths.proxyAuthDir, state.account!.file);
    expect(state.account!.file).toMatch(/^codex-[0-9a-f]{8}-coder@example\.com-plus\.json$/);
    const record = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(Object.keys(record).sort()).toEqual(['access_token', 'account_id', 'email', 'expired', 'id_token', 'last_refresh', 'refresh_token', 'type']);
    expect(record).toMatchObject({ type: 'codex', account_id: 'acct-42', email: 'coder@example.com' });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(t.ctx.paths.proxyAuthDir)).mode & 0o777).toBe(0o700);
    // The listener lived only during the sign-in.
    await expect(fetch(`http://127.0.0.1:${port}/auth/callback?code=x&state=y`)).rejects.toThrow();
  });

  it('a callback with the wrong state is refused and the sign-in keeps waiting; a replay after success is refused', async () => {
    const start = await service.signIn('codex', 'browser');
    const location = onLoopback(await authorize(start.url));
    const forged = new URL(location);
    forged.searchParams.set('state', 'not-the-state');
    const refused = await fetch(forged);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('state');
    expect(service.signInStatus(start.signInId).status).toBe('waiting');
    const other = await fetch(`http://127.0.0.1:${port}/somewhere-else`);
    expect(other.status).toBe(404);
    expect((await fetch(location)).status).toBe(200);
    expect(service.signInStatus(start.signInId).status).toBe('ok');
    await expect(service.signInCallback(start.signInId, location)).rejects.toMatchObject({ code: 'sign-in-not-waiting' });
    expect(tokenCalls()).toBe(1);
  });

  it('a replayed code is refused by the provider and the sign-in says so', async () => {
    const first = await service.signIn('codex', 'paste');
    const location = await authorize(first.url);
    expect((await service.signInCallback(first.signInId, location)).status).toBe('ok');
    const second = await service.signIn('codex', 'paste');
    const replay = new URL(location);
    replay.searchParams.set('state', new URL(second.url).searchParams.get('state')!);
    const state = await service.signInCallback(second.signInId, replay.toString());
    expect(state.status).toBe('error');
    expect(state.error).toContain('codex');
    expect(state.error).toContain('invalid_grant');
  });

  it('the provider refusing the sign-in (error=access_denied) ends it with the provider\'s reason', async () => {
    fake.authorizeError = 'access_denied';
    const start = await service.signIn('codex', 'browser');
    const page = await fetch(onLoopback(await authorize(start.url)));
    expect(page.status).toBe(400);
    expect(service.signInStatus(start.signInId)).toMatchObject({ status: 'error', error: expect.stringContaining('access_denied') });
  });

  it('a paste that is not a URL is refused, a cancelled sign-in closes its listener', async () => {
    const start = await service.signIn('codex', 'browser');
    await expect(service.signInCallback(start.signInId, 'not a url')).rejects.toMatchObject({ code: 'invalid-callback' });
    expect(service.cancelSignIn(start.signInId).status).toBe('cancelled');
    await until(() => fetch(`http://127.0.0.1:${port}/auth/callback`).then(() => false, () => true), (closed) => closed);
  });

  it('a second browser sign-in while one waits on the port is refused with the reason', async () => {
    await service.signIn('codex', 'browser');
    await expect(service.signIn('codex', 'browser')).rejects.toMatchObject({ code: 'callback-port-in-use' });
  });

  it('device code: waits while the user has not approved, then signs in', async () => {
    const start = await service.signIn('codex', 'device');
    expect(start.userCode).toBe('ABCD-1234');
    expect(start.url).toBe(`${fake.origin}/codex/device`);
    await expect(service.signInCallback(start.signInId, 'http://localhost:1455/auth/callback?code=x&state=y')).rejects.toMatchObject({ code: 'invalid-callback', detail: expect.stringContaining('device code') });
    await until(() => fake.requests.filter((r) => r.path === '/api/accounts/deviceauth/token').length, (n) => n >= 2);
    expect(service.signInStatus(start.signInId).status).toBe('waiting');
    fake.approveCodexDevice();
    const state = await until(() => service.signInStatus(start.signInId), (s) => s.status !== 'waiting');
    expect(state).toMatchObject({ status: 'ok', account: { provider: 'codex', email: 'coder@example.com' } });
  });
});

describe('refresh', () => {
  it('ahead of expiry: a token within the 5-day lead is refreshed, with a new single-use refresh token', async () => {
    const account = await signInCodex();
    const file = path.join(t.ctx.paths.proxyAuthDir, account.file);
    const before = JSON.parse(await fs.readFile(file, 'utf8'));
    await service.refresher.refreshDue();
    expect(tokenCalls()).toBe(1); // far from expiry: nothing to do
    t.clock.set(account.expiresAt! - 24 * 3600_000);
    await service.refresher.refreshDue();
    const after = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(fake.refreshTokens.get(before.refresh_token)).toBe(true);
    expect(after.last_refresh).toBe(new Date(t.clock.now()).toISOString());
  });

  it('a passing failure (5xx) is the account\'s error with the reason; the schedule retries after 15 minutes, not every minute', async () => {
    const account = await signInCodex();
    t.clock.set(account.expiresAt! - 24 * 3600_000);
    fake.refreshFailure = 503;
    await service.refresher.refreshDue();
    expect(tokenCalls()).toBe(2);
    expect((await service.list()).accounts[0]).toMatchObject({ status: 'error', lastError: expect.stringContaining('server_error') });
    fake.refreshFailure = null;
    t.clock.advance(60_000);
    await service.refresher.refreshDue();
    expect(tokenCalls()).toBe(2);
    t.clock.advance(15 * 60_000);
    await service.refresher.refreshDue();
    expect(tokenCalls()).toBe(3);
    expect((await service.list()).accounts[0]).toMatchObject({ status: 'active' });
    expect((await service.list()).accounts[0]!.lastError).toBeUndefined();
  });

  it('a file with no known expiry is not refreshed on schedule (a 401 refreshes it)', async () => {
    await fs.mkdir(t.ctx.paths.proxyAuthDir, { recursive: true });
    await fs.writeFile(path.join(t.ctx.paths.proxyAuthDir, 'codex-x@example.com.json'), JSON.stringify({ type: 'codex', email: 'x@example.com', access_token: 'opaque', refresh_token: 'rt' }));
    await service.refresher.refreshDue();
    expect(tokenCalls()).toBe(0);
  });

  it('the scheduled check leaves refreshing to a user\'s own CLIProxyAPI binary (one refresher per file)', async () => {
    const account = await signInCodex();
    t.clock.set(account.expiresAt! - 24 * 3600_000);
    await fs.appendFile(t.ctx.paths.appConfig, 'proxy:\n  binary_path: /opt/cli-proxy-api\n');
    await service.scheduledRefresh();
    expect(tokenCalls()).toBe(1);
    await fs.writeFile(t.ctx.paths.appConfig, overridesYaml(fake.origin));
    await service.scheduledRefresh();
    expect(tokenCalls()).toBe(2);
  });

  it('once after a 401: refreshed, the call repeated once with the new token, never a third time', async () => {
    const account = await signInCodex();
    const seen: string[] = [];
    const answer = await service.refresher.withToken(account.file, async (record) => {
      seen.push(String(record.access_token));
      return { status: seen.length === 1 ? 401 : 200 };
    });
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
    let calls = 0;
    const still = await service.refresher.withToken(account.file, async () => ({ status: (calls++, 401) }));
    expect(still.status).toBe(401);
    expect(calls).toBe(2);
  });

  it('concurrent 401s on one file refresh once: the second caller takes the token the first one got', async () => {
    const account = await signInCodex();
    const refreshes = () => fake.requests.filter((r) => r.path === '/oauth/token' && r.body.includes('grant_type=refresh_token')).length;
    const tokens = new Set<string>();
    const call = () => service.refresher.withToken(account.file, async (r) => (tokens.add(String(r.access_token)), { status: tokens.size === 1 ? 401 : 200 }));
    await Promise.all([call(), call(), call()]);
    expect(refreshes()).toBe(1);
  });

  it('refresh_token_reused: the account is an error that says "sign in again", and it is not retried', async () => {
    const account = await signInCodex();
    const record = JSON.parse(await fs.readFile(path.join(t.ctx.paths.proxyAuthDir, account.file), 'utf8'));
    fake.refreshTokens.set(record.refresh_token, true); // another program used it up
    await expect(service.refresh('codex', account.accountId)).rejects.toMatchObject({ code: 'provider-failed', detail: expect.stringContaining('sign in again') });
    const [listed] = (await service.list()).accounts;
    expect(listed).toMatchObject({ status: 'error', lastError: expect.stringContaining('refresh_token_reused') });
    const calls = tokenCalls();
    t.clock.set(account.expiresAt! - 1000);
    await service.refresher.refreshDue();
    expect(tokenCalls()).toBe(calls);
  });
});

describe('ghcp: GitHub device flow and the Copilot token', () => {
  it('pending, slow_down, approval; then /user and the Copilot token exchange; the file is github-copilot-<login>.json', async () => {
    fake.slowDownNext = true;
    const start = await service.signIn('ghcp', undefined);
    expect(start).toMatchObject({ userCode: 'WXYZ-5678', url: `${fake.origin}/login/device` });
    await until(() => fake.requests.filter((r) => r.path === '/login/oauth/access_token').length, (n) => n >= 3);
    fake.approveGithubDevice();
    const state = await until(() => service.signInStatus(start.signInId), (s) => s.status !== 'waiting');
    expect(state).toMatchObject({ status: 'ok', account: { provider: 'ghcp', accountId: 'octocat', email: 'octo@example.com', file: 'github-copilot-octocat.json' } });
    const record = JSON.parse(await fs.readFile(path.join(t.ctx.paths.proxyAuthDir, 'github-copilot-octocat.json'), 'utf8'));
    expect(record).toMatchObject({ type: 'github-copilot', username: 'octocat', name: 'Octo Cat', token_type: 'bearer' });
    expect(record.access_token).toMatch(/^gho_/);
    const exchange = fake.requests.find((r) => r.path === '/copilot_internal/v2/token')!;
    expect(exchange.headers.authorization).toBe(`token ${record.access_token}`);
  });

  it('the Copilot token is cached until 5 minutes before it expires, then renewed', async () => {
    fake.approveGithubDevice();
    const start = await service.signIn('ghcp', 'device');
    await until(() => service.signInStatus(start.signInId).status, (s) => s !== 'waiting');
    const issued = fake.copilotTokensIssued;
    const a = await service.refresher.copilotToken('github-copilot-octocat.json');
    const b = await service.refresher.copilotToken('github-copilot-octocat.json');
    expect(b).toBe(a);
    expect(fake.copilotTokensIssued).toBe(issued + 1);
    t.clock.set(a.expiresAt - 4 * 60_000);
    expect((await service.refresher.copilotToken('github-copilot-octocat.json')).token).not.toBe(a.token);
  });

  it('no Copilot subscription: the sign-in ends in an error that says so', async () => {
    fake.copilotSubscribed = false;
    fake.approveGithubDevice();
    const start = await service.signIn('ghcp', 'device');
    const state = await until(() => service.signInStatus(start.signInId), (s) => s.status !== 'waiting');
    expect(state).toMatchObject({ status: 'error', error: expect.stringContaining('no active Copilot subscription') });
    expect((await service.list()).accounts).toEqual([]);
  });
});

describe('import, pause, resume, remove', () => {
  it('imports ~/.codex/auth.json and Copilot\'s apps.json; nothing there is 404 with the paths looked at', async () => {
    await expect(service.importFrom('codex')).rejects.toMatchObject({ code: 'no-credentials', extra: { paths: [path.join(t.home, '.codex/auth.json')] } });
    const idToken = fakeJwt({ email: 'cli@example.com', 'https://api.openai.com/auth': { chatgpt_account_id: 'acct-cli', chatgpt_plan_type: 'pro' } });
    await fs.mkdir(path.join(t.home, '.codex'));
    await fs.writeFile(path.join(t.home, '.codex/auth.json'), JSON.stringify({ OPENAI_API_KEY: null, tokens: { id_token: idToken, access_token: 'at', refresh_token: 'rt', account_id: 'acct-cli' }, last_refresh: '2026-01-01T00:00:00Z' }));
    const { account } = await service.importFrom('codex');
    expect(account).toMatchObject({ provider: 'codex', accountId: 'cli@example.com', label: 'cli@example.com (pro)' });
    fake.githubTokens.add('gho_fromvscode');
    await fs.mkdir(path.join(t.home, '.config/github-copilot'), { recursive: true });
    await fs.writeFile(path.join(t.home, '.config/github-copilot/apps.json'), JSON.stringify({ 'github.com:Iv1.b507a08c87ecfe98': { user: 'octocat', oauth_token: 'gho_fromvscode', githubAppId: 'Iv1.b507a08c87ecfe98' } }));
    expect((await service.importFrom('ghcp')).account).toMatchObject({ provider: 'ghcp', accountId: 'octocat' });
  });

  it('pause writes "disabled": true, resume removes it, remove keeps the file in backups/auth/', async () => {
    const account = await signInCodex();
    const file = path.join(t.ctx.paths.proxyAuthDir, account.file);
    expect((await service.pause('codex', account.accountId)).account.status).toBe('paused');
    expect(JSON.parse(await fs.readFile(file, 'utf8')).disabled).toBe(true);
    expect((await service.resume('codex', account.accountId)).account.status).toBe('active');
    expect('disabled' in JSON.parse(await fs.readFile(file, 'utf8'))).toBe(false);
    const content = await fs.readFile(file, 'utf8');
    const removed = await service.remove('codex', account.accountId);
    await expect(fs.stat(file)).rejects.toThrow();
    expect(path.dirname(removed.backupPath)).toBe(t.ctx.paths.backupsAuthDir);
    expect(await fs.readFile(removed.backupPath, 'utf8')).toBe(content);
    await expect(service.pause('codex', account.accountId)).rejects.toMatchObject({ code: 'account-not-found' });
  });

  it('signing the same account in on another plan replaces its file; the old one is kept in backups/auth/', async () => {
    const plus = await signInCodex();
    fake.codexUser.plan = 'pro';
    const pro = await signInCodex();
    expect(pro.file).not.toBe(plus.file);
    expect((await service.list()).accounts.map((a) => a.file)).toEqual([pro.file]);
    expect((await fs.readdir(t.ctx.paths.backupsAuthDir)).some((n) => n.startsWith(plus.file.replace(/\.json$/, '.')))).toBe(true);
  });

  it('refuses unknown providers, path-like ids and sign-in for providers this version does not sign in', async () => {
    await expect(service.signIn('openai', undefined)).rejects.toMatchObject({ code: 'invalid-provider', detail: 'Provider must be one of: agy, gemini, codex, iflow, kiro, ghcp' });
    await expect(service.pause('codex', '../x')).rejects.toMatchObject({ code: 'invalid-account' });
    await expect(service.signIn('iflow', undefined)).rejects.toMatchObject({ code: 'sign-in-unavailable' });
    await expect(service.signIn('ghcp', 'paste')).rejects.toMatchObject({ code: 'invalid-method' });
  });
});
