import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { startFakeQuotaServer, type FakeQuotaServer } from '../../fixtures/fake-quota-server.js';

/** GET /api/proxy/quota/:provider/:accountId against fake provider hosts on loopback (decisions §4). */
const NOW = Date.UTC(2026, 0, 1);
const clock = new ManualClock(NOW);
let fake: FakeQuotaServer;
let app: TestApp;

function jwt(payload: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(payload)}.sig`;
}

const AUTH_FILES: Record<string, object> = {
  'antigravity-agy@example.com.json': { type: 'antigravity', email: 'agy@example.com', access_token: 'agy-token', project_id: 'proj-agy' },
  'antigravity-noproj@example.com.json': { type: 'antigravity', email: 'noproj@example.com', access_token: 'agy-token-2' },
  // Gemini CLI names its files <email>-<project>.json: found by type + email.
  'gem@example.com-proj-gem.json': { type: 'gemini', email: 'gem@example.com', project_id: 'proj-gem', token: { access_token: 'gem-token' } },
  'codex-cx@example.com.json': { type: 'codex', email: 'cx@example.com', access_token: 'cx-token', id_token: jwt({ 'https://api.openai.com/auth': { chatgpt_account_id: 'acct-123' } }) },
  'codex-broken@example.com.json': { type: 'codex', email: 'broken@example.com', access_token: 'fail-token' },
  'github-copilot-octocat.json': { type: 'github-copilot', username: 'octocat', access_token: 'gho_copilot' },
  'kiro-google-1a2b.json': { type: 'kiro', email: 'kiro@example.com', access_token: 'kiro-token', profile_arn: 'arn:aws:codewhisperer:us-east-1:123456789012:profile/ABC' },
  'iflow-if@example.com.json': { type: 'iflow', email: 'if@example.com', api_key: 'x' },
};

beforeAll(async () => {
  fake = await startFakeQuotaServer();
  app = await startTestApp({
    clock,
    before: async ({ home }) => {
      const endpoints = ['agy', 'gemini', 'codex', 'ghcp', 'kiro', 'iflow'].map((p) => `    ${p}: ${fake.origin}`).join('\n');
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), `proxy:\n  update_feed_url: http://127.0.0.1:9/x\n  quota_endpoints:\n${endpoints}\n`);
      const authDir = path.join(home, 'proxy', 'auth');
      await fs.mkdir(authDir, { recursive: true });
      for (const [name, content] of Object.entries(AUTH_FILES)) await fs.writeFile(path.join(authDir, name), JSON.stringify(content));
    },
  });
});
afterAll(async () => {
  await app.stop();
  await fake.close();
});

const quota = (provider: string, account: string) => app.json('GET', `/api/proxy/quota/${provider}/${encodeURIComponent(account)}`);
const lastRequest = () => fake.requests.at(-1)!;

describe('quota per provider', () => {
  it('agy: one percent entry per model with quota info; exhausted when only a reset time is given', async () => {
    expect(await quota('agy', 'agy@example.com')).toEqual({
      status: 200,
      body: {
        provider: 'agy',
        accountId: 'agy@example.com',
        unit: 'percent',
        quotas: [
          { model: 'claude-sonnet-4-5', limit: 100, used: 100, remaining: 0, resetAt: Date.parse('2026-01-01T06:00:00Z') },
          { model: 'gemini-3-pro-high', limit: 100, used: 25, remaining: 75, resetAt: Date.parse('2026-01-01T05:00:00Z') },
        ],
      },
    });
    const req = lastRequest();
    expect(req).toMatchObject({ method: 'POST', path: '/v1internal:fetchAvailableModels', body: { project: 'proj-agy' } });
    expect(req.headers.authorization).toBe('Bearer agy-token');
    expect(req.headers['user-agent']).toMatch(/^antigravity\//);
  });

  it('agy: asks loadCodeAssist for the project when the auth file has none', async () => {
    const before = fake.requests.length;
    expect((await quota('agy', 'noproj@example.com')).status).toBe(200);
    const calls = fake.requests.slice(before);
    expect(calls.map((r) => r.path)).toEqual(['/v1internal:loadCodeAssist', '/v1internal:fetchAvailableModels']);
    expect(calls[1]!.body).toEqual({ project: 'proj-discovered' });
  });

  it('gemini: one entry per bucket, modelId:tokenType, found by email', async () => {
    expect((await quota('gemini', 'gem@example.com')).body).toEqual({
      provider: 'gemini',
      accountId: 'gem@example.com',
      unit: 'percent',
      quotas: [
        { model: 'gemini-2.5-pro:REQUESTS', limit: 100, used: 60, remaining: 40, resetAt: Date.parse('2026-01-02T00:00:00Z') },
        { model: 'gemini-2.5-flash', limit: 100, used: 0, remaining: 100, resetAt: null },
      ],
    });
    expect(lastRequest()).toMatchObject({ path: '/v1internal:retrieveUserQuota', body: { project: 'proj-gem' } });
    expect(lastRequest().headers.authorization).toBe('Bearer gem-token');
  });

  it('codex: 5-hour, weekly and extra windows with the ChatGPT account id from the id_token', async () => {
    expect((await quota('codex', 'cx@example.com')).body).toEqual({
      provider: 'codex',
      accountId: 'cx@example.com',
      unit: 'percent',
      quotas: [
        { model: 'codex-5h', limit: 100, used: 12, remaining: 88, resetAt: NOW + 3_600_000 },
        { model: 'codex-weekly', limit: 100, used: 40, remaining: 60, resetAt: 1_767_830_400_000 },
        { model: 'code-review-weekly', limit: 100, used: 0, remaining: 100, resetAt: NOW + 100_000 },
      ],
    });
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/backend-api/wham/usage' });
    expect(lastRequest().headers).toMatchObject({ authorization: 'Bearer cx-token', 'chatgpt-account-id': 'acct-123' });
  });

  it('ghcp: request counts per snapshot, unlimited ones left out', async () => {
    expect((await quota('ghcp', 'octocat')).body).toEqual({
      provider: 'ghcp',
      accountId: 'octocat',
      unit: 'requests',
      quotas: [{ model: 'premium_interactions', limit: 300, used: 54, remaining: 246, resetAt: Date.parse('2026-02-01') }],
    });
    expect(lastRequest().headers).toMatchObject({ authorization: 'token gho_copilot', 'x-github-api-version': expect.any(String) });
  });

  it('kiro: credits used and limit of the period', async () => {
    expect((await quota('kiro', 'kiro@example.com')).body).toEqual({
      provider: 'kiro',
      accountId: 'kiro@example.com',
      unit: 'credits',
      quotas: [{ model: 'kiro', limit: 1000, used: 124, remaining: 876, resetAt: 1_769_904_000_000 }],
    });
    const req = lastRequest();
    expect(req.path).toBe('/getUsageLimits');
    expect(Object.fromEntries(req.query)).toEqual({
      origin: 'AI_EDITOR',
      profileArn: 'arn:aws:codewhisperer:us-east-1:123456789012:profile/ABC',
      resourceType: 'AGENTIC_REQUEST',
    });
    expect(req.headers.authorization).toBe('Bearer kiro-token');
  });

  it('iflow: no known quota endpoint, an empty list without any upstream call', async () => {
    const before = fake.requests.length;
    expect((await quota('iflow', 'if@example.com')).body).toEqual({ provider: 'iflow', accountId: 'if@example.com', unit: 'none', quotas: [] });
    expect(fake.requests.length).toBe(before);
  });
});

describe('quota cache', () => {
  it('answers the same account from memory for 2 minutes, then asks again', async () => {
    await quota('ghcp', 'octocat');
    const before = fake.requests.length;
    clock.advance(119_000);
    expect((await quota('ghcp', 'octocat')).status).toBe(200);
    expect(fake.requests.length).toBe(before);
    clock.advance(2_000);
    expect((await quota('ghcp', 'octocat')).status).toBe(200);
    expect(fake.requests.length).toBe(before + 1);
  });
});

describe('quota error rows', () => {
  it('400 Invalid provider with the list of the six', async () => {
    for (const provider of ['claude', 'AGY', 'qwen']) {
      expect(await quota(provider, 'a@example.com')).toEqual({
        status: 400,
        body: { error: 'Invalid provider', message: 'Provider must be one of: agy, gemini, codex, iflow, kiro, ghcp' },
      });
    }
  });

  it('400 Invalid account ID for path-like ids', async () => {
    // A bare '..' segment never reaches a server: URL parsers resolve it away on the client.
    for (const account of ['a..b', '..x', 'a/..', 'a/b', 'a\\b', 'a\0b']) {
      expect(await quota('codex', account), JSON.stringify(account)).toEqual({ status: 400, body: { error: 'Invalid account ID' } });
    }
  });

  it('404 Account not found when no auth file matches', async () => {
    const res = await quota('codex', 'nobody@example.com');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Account not found');
    // The file exists but for another provider type: still not this provider's account.
    expect((await quota('ghcp', 'cx@example.com')).status).toBe(404);
  });

  it('502 Quota fetch failed when the provider fails, and failures are not cached', async () => {
    const before = fake.requests.length;
    const res = await quota('codex', 'broken@example.com');
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('Quota fetch failed');
    expect(res.body.message).toContain('HTTP 500');
    expect(res.body.message).not.toContain('fail-token');
    expect((await quota('codex', 'broken@example.com')).status).toBe(502);
    expect(fake.requests.length).toBe(before + 2);
  });

  it('429 Too many quota requests past 120 per minute per provider, in a sliding window', async () => {
    clock.advance(61_000);
    for (let i = 0; i < 120; i++) {
      const res = await quota('iflow', 'if@example.com');
      if (res.status !== 200) throw new Error(`request ${i + 1} answered ${res.status}`);
      clock.advance(100);
    }
    const limited = await quota('iflow', 'if@example.com');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Too many quota requests');
    // Other providers have their own budget.
    expect((await quota('ghcp', 'octocat')).status).toBe(200);
    // The oldest request leaves the window 60 s after it was made.
    clock.advance(60_000 - 120 * 100 + 1);
    expect((await quota('iflow', 'if@example.com')).status).toBe(200);
    expect((await quota('iflow', 'if@example.com')).status).toBe(429);
  });
});

describe('quota with an unreachable provider host', () => {
  it('answers 502 with the cause', async () => {
    const offline = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(path.join(home, 'proxy', 'auth'), { recursive: true });
        await fs.writeFile(path.join(home, 'proxy', 'auth', 'github-copilot-octocat.json'), JSON.stringify(AUTH_FILES['github-copilot-octocat.json']));
      },
    });
    try {
      const res = await offline.json('GET', '/api/proxy/quota/ghcp/octocat');
      expect(res.status).toBe(502);
      expect(res.body.error).toBe('Quota fetch failed');
      expect(res.body.message).toMatch(/127\.0\.0\.1:9\/copilot_internal\/user unreachable/);
    } finally {
      await offline.stop();
    }
  });
});
