import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agyClient, completeAgy } from '../../../../main/services/accounts/agy/agy-sign-in.js';
import { completeGemini, consumerTier, geminiClient, geminiProject } from '../../../../main/services/accounts/gemini/gemini-sign-in.js';
import { CLOUD_CODE, onboardUser, projectOf, tierToOnboard } from '../../../../main/services/accounts/google/cloud-code.js';
import fs from 'node:fs/promises';
import { ProviderAccountsService } from '../../../../main/services/accounts/accounts-service.js';
import { createOutbound, type Outbound } from '../../../../main/services/accounts/outbound.js';
import { tempContext } from '../../../helpers/temp-context.js';
import { AGY_CLIENT, GEMINI_CLIENT, GOOGLE_ORIGINS, startFakeGoogle, type FakeGoogle } from '../../../fixtures/fake-google.js';

/** The Google pieces of the agy and gemini sign-ins against the fake Google, with short onboard polls. */
let google: FakeGoogle;
let http: Outbound;

beforeAll(async () => {
  google = await startFakeGoogle();
  const overrides = Object.fromEntries(GOOGLE_ORIGINS.map((o) => [o, google.origin]));
  http = createOutbound(async () => overrides);
});
afterAll(() => google.close());
beforeEach(() => {
  google.requests.length = 0;
  google.onboardPending = 1;
  google.onboardProject = { id: 'onboarded-project-7' };
});

/** A code the fake issued for this client and redirect (what the browser would bring back). */
async function codeFor(clientId: string, redirectUri: string): Promise<string> {
  const q = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'x', state: 's' });
  const res = await fetch(`${google.origin}/o/oauth2/v2/auth?${q}`, { redirect: 'manual' });
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

describe('onboardUser polling', () => {
  const call = () => ({ http, provider: 'agy', base: CLOUD_CODE.daily, accessToken: [...google.accessTokens][0] ?? '' });
  beforeAll(async () => {
    // An access token the fake accepts.
    await completeAgy({ http, env: {}, now: 0, code: await codeFor(AGY_CLIENT.id, 'http://localhost:1/cb'), redirectUri: 'http://localhost:1/cb' });
  });

  it('asks again until done and answers the response', async () => {
    google.onboardPending = 3;
    const response = await onboardUser(call(), { tier_id: 'free-tier' }, { attempts: 5, intervalMs: 5 });
    expect(projectOf(response)).toBe('onboarded-project-7');
    expect(google.calls('/v1internal:onboardUser')).toHaveLength(4);
  });

  it('gives up after `attempts` tries with a message naming Google', async () => {
    google.onboardPending = 10;
    await expect(onboardUser(call(), {}, { attempts: 5, intervalMs: 5 })).rejects.toMatchObject({ provider: 'agy', message: expect.stringContaining('not done after 5 tries') });
    expect(google.calls('/v1internal:onboardUser')).toHaveLength(5);
  });

  it('agy: onboarding that never names a project fails the sign-in (the Antigravity app must provision it)', async () => {
    google.onboardPending = 0;
    google.onboardProject = null;
    const redirectUri = 'http://localhost:1/cb';
    google.loadAnswer = {};
    await expect(completeAgy({ http, env: {}, now: 0, code: await codeFor(AGY_CLIENT.id, redirectUri), redirectUri, onboardIntervalMs: 5 })).rejects.toMatchObject({
      provider: 'agy',
      message: expect.stringContaining('Sign in to the Antigravity app once to provision it'),
    });
  });
});

describe('Cloud Code answers', () => {
  it.each([
    [{ cloudaicompanionProject: 'p1' }, 'p1'],
    [{ cloudaicompanionProject: { id: 'p2', name: 'projects/p2' } }, 'p2'],
    [{ cloudaicompanionProject: '' , projectId: 'p3' }, 'p3'],
    [{ project: ' p4 ' }, 'p4'],
    [{ cloudaicompanionProject: { name: 'no id' } }, ''],
    [null, ''],
  ])('projectOf(%j) = %j', (answer, project) => {
    expect(projectOf(answer)).toBe(project);
  });

  it('the tier to onboard: allowedTiers default, else currentTier (agy only), else the fallback', () => {
    expect(tierToOnboard({ allowedTiers: [{ id: 'a' }, { id: 'b', isDefault: true }], currentTier: { id: 'c' } }, 'f', true)).toBe('b');
    expect(tierToOnboard({ currentTier: { id: 'c' } }, 'f', true)).toBe('c');
    expect(tierToOnboard({ currentTier: { id: 'c' } }, 'legacy-tier', false)).toBe('legacy-tier');
    expect(tierToOnboard({}, 'free-tier', true)).toBe('free-tier');
  });

  it.each([
    [{ currentTier: { id: 'free-tier' } }, 'standard-tier', 'free-tier'],
    [{}, 'free-tier', 'free-tier'],
    [{ currentTier: { id: 'standard-tier' }, paidTier: { id: 'g1-pro-tier' } }, 'standard-tier', 'g1-pro-tier'],
    [{ currentTier: { id: 'standard-tier' } }, 'standard-tier', null],
    [{ currentTier: { id: 'enterprise-tier' } }, 'free-tier', null],
    [{}, 'legacy-tier', null],
  ])('consumerTier(%j, %j) = %j', (load, tier, consumer) => {
    expect(consumerTier(load, tier)).toBe(consumer);
  });
});

describe('clients and project ids', () => {
  it('the public clients by default; CLIProxyAPI\'s env variables override id and secret', () => {
    expect(agyClient({})).toEqual(AGY_CLIENT);
    expect(geminiClient({})).toEqual(GEMINI_CLIENT);
    expect(agyClient({ CLIPROXY_ANTIGRAVITY_OAUTH_CLIENT_ID: 'mine.apps', CLIPROXY_ANTIGRAVITY_OAUTH_CLIENT_SECRET: 'shh' })).toEqual({ id: 'mine.apps', secret: 'shh' });
    expect(geminiClient({ CLIPROXY_GEMINI_OAUTH_CLIENT_ID: 'g.apps', CLIPROXY_GEMINI_OAUTH_CLIENT_SECRET: ' ' })).toEqual({ id: 'g.apps', secret: GEMINI_CLIENT.secret });
  });

  it('project ids: trimmed; missing → project-id-required; malformed → invalid-project-id', () => {
    expect(geminiProject(' my-team-project ')).toBe('my-team-project');
    expect(geminiProject('example.com:team-proj')).toBe('example.com:team-proj');
    expect(() => geminiProject(undefined)).toThrow(expect.objectContaining({ code: 'project-id-required' }));
    expect(() => geminiProject('My Project')).toThrow(expect.objectContaining({ code: 'invalid-project-id' }));
  });

  it('gemini: a pending onboardUser is polled; the file keeps the project the backend answers', async () => {
    google.loadAnswer = { allowedTiers: [{ id: 'standard-tier', isDefault: true }] };
    google.onboardPending = 2;
    google.onboardProject = 'substituted-1';
    const redirectUri = 'http://localhost:2/oauth2callback';
    const { file, record } = await completeGemini({ http, env: {}, now: Date.UTC(2026, 10, 1), code: await codeFor(GEMINI_CLIENT.id, redirectUri), redirectUri, projectId: 'asked-project', onboardIntervalMs: 5 });
    expect(file).toBe('gemini-pilot@example.com-substituted-1.json');
    expect(record).toMatchObject({ project_id: 'substituted-1', token: { expiry: new Date(Date.UTC(2026, 10, 1) + 3599_000).toISOString() } });
    expect(google.calls('/v1internal:onboardUser')).toHaveLength(3);
  });
});

describe('a sign-in cancelled while Google answers', () => {
  it('saves nothing: the onboarding ends after the cancel and the account is not written', async () => {
    const t = await tempContext();
    const service = new ProviderAccountsService(t.ctx, { http, onboardIntervalMs: 100 });
    try {
      google.loadAnswer = {};
      google.onboardPending = 2;
      const start = await service.signIn('agy', 'paste', true);
      const q = new URL(start.url).searchParams;
      const location = (await fetch(`${google.origin}/o/oauth2/v2/auth?${q}`, { redirect: 'manual' })).headers.get('location')!;
      const pasted = service.signInCallback(start.signInId, location);
      // Cancelled while onboardUser is still pending (its first answer was done: false).
      for (let i = 0; i < 200 && google.calls('/v1internal:onboardUser').length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(service.cancelSignIn(start.signInId).status).toBe('cancelled');
      await expect(pasted).resolves.toMatchObject({ status: 'cancelled' });
      expect(google.calls('/v1internal:onboardUser')).toHaveLength(3);
      expect(await fs.readdir(t.ctx.paths.proxyAuthDir).catch(() => [])).toEqual([]);
    } finally {
      await service.stop();
      await t.cleanup();
    }
  });
});
