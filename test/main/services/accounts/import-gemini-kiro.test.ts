import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderAccountsService } from '../../../../main/services/accounts/accounts-service.js';
import { fakeJwt } from '../../../fixtures/fake-account-providers.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

let t: TempContext;
let service: ProviderAccountsService;

beforeEach(async () => {
  t = await tempContext();
  t.ctx.env = { HOME: t.home };
  service = new ProviderAccountsService(t.ctx, {});
});
afterEach(async () => {
  await service.stop();
  await t.cleanup();
});

async function put(rel: string, value: unknown): Promise<string> {
  const file = path.join(t.home, rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, JSON.stringify(value));
  return file;
}
const readAuth = async (file: string) => JSON.parse(await fs.readFile(path.join(t.ctx.paths.proxyAuthDir, file), 'utf8')) as Record<string, unknown>;

describe('gemini: import of ~/.gemini/oauth_creds.json', () => {
  const creds = { access_token: 'ya29.a', refresh_token: '1//r', token_type: 'Bearer', scope: 'x', expiry_date: Date.UTC(2030, 0, 1), id_token: fakeJwt({ email: 'ann@example.com' }) };

  it('nothing there is no-credentials naming the path looked at', async () => {
    await expect(service.importFrom('gemini')).rejects.toMatchObject({ code: 'no-credentials', extra: { paths: [path.join(t.home, '.gemini/oauth_creds.json')] } });
  });

  it('writes gemini-<email>-auto.json in CLIProxyAPI\'s shape; the original is left as it was', async () => {
    const src = await put('.gemini/oauth_creds.json', creds);
    const before = await fs.readFile(src, 'utf8');
    const { account } = await service.importFrom('gemini');
    expect(account).toMatchObject({ provider: 'gemini', email: 'ann@example.com', file: 'gemini-ann@example.com-auto.json', expiresAt: Date.UTC(2030, 0, 1) });
    const rec = await readAuth(account.file);
    expect(rec).toMatchObject({ type: 'gemini', email: 'ann@example.com', project_id: '', auto: true });
    expect(rec.token).toMatchObject({ access_token: 'ya29.a', refresh_token: '1//r', expiry: '2030-01-01T00:00:00.000Z', token_uri: 'https://oauth2.googleapis.com/token' });
    // The client travels in the file (as CLIProxyAPI's login writes it), so the binary can refresh without env variables.
    expect(rec.token).toMatchObject({ client_id: '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com', client_secret: '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' });
    expect(await fs.readFile(src, 'utf8')).toBe(before);
  });

  it('GOOGLE_CLOUD_PROJECT names the project; without an id_token the e-mail comes from google_accounts.json', async () => {
    t.ctx.env.GOOGLE_CLOUD_PROJECT = 'my-proj';
    await put('.gemini/oauth_creds.json', { ...creds, id_token: undefined });
    await put('.gemini/google_accounts.json', { active: 'bob@example.com', old: [] });
    const { account } = await service.importFrom('gemini');
    expect(account.file).toBe('gemini-bob@example.com-my-proj.json');
    expect(await readAuth(account.file)).toMatchObject({ project_id: 'my-proj', auto: false });
  });

  it('a file with no e-mail anywhere is refused with the reason, and nothing is written', async () => {
    await put('.gemini/oauth_creds.json', { ...creds, id_token: undefined });
    await expect(service.importFrom('gemini')).rejects.toMatchObject({ code: 'no-credentials', detail: expect.stringContaining('names no e-mail') });
    expect((await service.list()).accounts).toEqual([]);
  });

  it('sign-in without a Code Assist project explains the retirement of consumer sign-in and points at the import', async () => {
    const refused = service.signIn('gemini', undefined);
    await expect(refused).rejects.toMatchObject({ code: 'project-id-required', detail: expect.stringContaining('2026-06-18') });
    await expect(refused).rejects.toMatchObject({ detail: expect.stringContaining('~/.gemini/oauth_creds.json') });
  });
});

describe('kiro: import of ~/.aws/sso/cache/kiro-auth-token.json', () => {
  it('nothing there (or a file without tokens) is no-credentials naming the path looked at', async () => {
    const where = path.join(t.home, '.aws/sso/cache/kiro-auth-token.json');
    await expect(service.importFrom('kiro')).rejects.toMatchObject({ code: 'no-credentials', extra: { paths: [where] } });
    await put('.aws/sso/cache/kiro-auth-token.json', { accessToken: 'a' });
    await expect(service.importFrom('kiro')).rejects.toMatchObject({ code: 'no-credentials', extra: { paths: [where] } });
  });

  it('a social sign-in becomes kiro-imported-<profile>.json', async () => {
    await put('.aws/sso/cache/kiro-auth-token.json', {
      accessToken: 'aoa', refreshToken: 'aor', expiresAt: '2030-01-01T00:00:00Z', authMethod: 'social', provider: 'Google',
      profileArn: 'arn:aws:codewhisperer:us-east-1:699:profile/EHGA3GRVQMUK',
    });
    const { account } = await service.importFrom('kiro');
    expect(account).toMatchObject({ provider: 'kiro', file: 'kiro-imported-EHGA3GRVQMUK.json', expiresAt: Date.UTC(2030, 0, 1) });
    expect(await readAuth(account.file)).toMatchObject({
      type: 'kiro', access_token: 'aoa', refresh_token: 'aor', auth_method: 'social', provider: 'Google',
      profile_arn: 'arn:aws:codewhisperer:us-east-1:699:profile/EHGA3GRVQMUK', expires_at: '2030-01-01T00:00:00.000Z',
    });
  });

  it('an IdC sign-in carries the client registration from <clientIdHash>.json', async () => {
    await put('.aws/sso/cache/kiro-auth-token.json', { accessToken: 'a', refreshToken: 'r', authMethod: 'IdC', provider: 'BuilderId', clientIdHash: 'abc123', region: 'us-east-1' });
    await put('.aws/sso/cache/abc123.json', { clientId: 'cid', clientSecret: 'csec' });
    const { account } = await service.importFrom('kiro');
    expect(account.file).toBe('kiro-imported-cid.json');
    expect(await readAuth(account.file)).toMatchObject({ auth_method: 'builder-id', provider: 'AWS', client_id: 'cid', client_secret: 'csec', region: 'us-east-1' });
  });
});

describe('agy and iflow have nothing to import', () => {
  it('iflow is discontinued: no sign-in, no import', async () => {
    await expect(service.signIn('iflow', undefined)).rejects.toMatchObject({ code: 'sign-in-unavailable', detail: expect.stringContaining('2026-04-17') });
    await expect(service.importFrom('iflow')).rejects.toMatchObject({ code: 'sign-in-unavailable' });
  });
});

describe('agy: the ban-risk acknowledgement comes before any sign-in', () => {
  it('without it: acknowledgement-required naming the risk, nothing remembered; with it: remembered once, in a 0600 file', async () => {
    await expect(service.signIn('agy', undefined)).rejects.toMatchObject({ code: 'acknowledgement-required', detail: expect.stringContaining('banned') });
    const file = path.join(t.ctx.paths.configDir, 'accounts-acknowledged.json');
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    // Acknowledged: the sign-in starts (paste: no listener on Antigravity's port).
    await expect(service.signIn('agy', 'paste', true)).resolves.toMatchObject({ url: expect.stringContaining('https://accounts.google.com/o/oauth2/v2/auth?') });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ agy: expect.any(String) });
    const again = new ProviderAccountsService(t.ctx, {});
    await expect(again.signIn('agy', 'paste')).resolves.toMatchObject({ signInId: expect.any(String) });
    await again.stop();
  });

  it('other providers need no acknowledgement', async () => {
    await expect(service.signIn('gemini', 'paste', false, { projectId: 'my-team-project' })).resolves.toMatchObject({ signInId: expect.any(String) });
  });
});
