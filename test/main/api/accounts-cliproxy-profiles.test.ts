import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MODELS } from '../../../main/infra/account-models.js';
import { fakeJwt } from '../../fixtures/fake-account-providers.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * Issue 31.3: the first kiro or gemini account (imported from the provider's own files) makes the
 * profile `<provider>` with that provider's tier models, and the account lists its models, so
 * "Use with Claude Code" works as it does for codex and ghcp.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

async function put(rel: string, value: unknown): Promise<void> {
  const file = path.join(app.home, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
}

describe('accounts served by CLIProxyAPI get their tier-model profile at the first import', () => {
  it.each([
    ['kiro', '.aws/sso/cache/kiro-auth-token.json', { accessToken: 'aoa', refreshToken: 'aor', expiresAt: '2030-01-01T00:00:00Z', authMethod: 'social', provider: 'Google', profileArn: 'arn:aws:codewhisperer:us-east-1:699:profile/P1' }],
    ['gemini', '.gemini/oauth_creds.json', { access_token: 'ya29.a', refresh_token: '1//r', token_type: 'Bearer', scope: 'x', expiry_date: Date.UTC(2030, 0, 1), id_token: fakeJwt({ email: 'ann@example.com' }) }],
  ] as const)('%s', async (provider, file, creds) => {
    await put(file, creds);
    const imported = await app.json('POST', `/api/accounts/${provider}/import`, {});
    expect(imported.status).toBe(200);
    expect(imported.body.account.models).toEqual(ACCOUNT_MODELS[provider].models);
    const profile = await app.json('GET', `/api/settings/${provider}?raw=true`);
    expect(profile.status).toBe(200);
    const tiers = ACCOUNT_MODELS[provider].tiers;
    expect(profile.body.settings.env).toMatchObject({
      PROVIDER_MODEL: tiers.default,
      PROVIDER_DEFAULT_OPUS_MODEL: tiers.opus,
      PROVIDER_DEFAULT_SONNET_MODEL: tiers.sonnet,
      PROVIDER_DEFAULT_HAIKU_MODEL: tiers.haiku,
    });
    expect(profile.body.settings.env.PROVIDER_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
