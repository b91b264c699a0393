import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openSse } from '../../helpers/sse.js';

/** Issue 28.5: deleting a profile (file kept in backups/), and base URLs that must be URLs. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const BACKUP = /^\d{8}T\d{9}Z\.settings\.json$/;
const fileOf = (profile: string) => path.join(app.home, `${profile}.settings.json`);
const exists = (file: string) => fs.access(file).then(() => true, () => false);
const configYaml = async () => YAML.parse(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8'));
const backupsOf = async (profile: string) =>
  (await fs.readdir(path.join(app.home, 'backups')).catch(() => [] as string[])).filter(
    (n) => n.startsWith(`${profile}.`) && BACKUP.test(n.slice(profile.length + 1)),
  );
const env = { PROVIDER_BASE_URL: 'https://api.example.com', PROVIDER_AUTH_TOKEN: 'tok-123456', PROVIDER_MODEL: 'm' };

describe('DELETE /api/settings/:profile', () => {
  it('moves the file to backups/ under the backup naming, answers its path and drops the profile from the list', async () => {
    const text = `${JSON.stringify({ env, presets: [{ name: 'p', default: 'm' }] }, null, 2)}\n`;
    await fs.writeFile(fileOf('gone'), text);
    const sse = await openSse(`${app.url}/api/events`);
    try {
      const res = await app.json('DELETE', '/api/settings/gone');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, profile: 'gone', backupPath: expect.any(String), defaultCleared: false });
      expect(path.dirname(res.body.backupPath)).toBe(path.join(app.home, 'backups'));
      expect(path.basename(res.body.backupPath)).toMatch(/^gone\.\d{8}T\d{9}Z\.settings\.json$/);
      expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe(text);
      expect((await fs.stat(res.body.backupPath)).mode & 0o777).toBe(0o600);
      expect(await exists(fileOf('gone'))).toBe(false);
      const list = (await app.json('GET', '/api/profiles')).body;
      expect(list.profiles.map((p: { name: string }) => p.name)).not.toContain('gone');
      await sse.waitFor((c) => c.events.some((e) => e.event === 'profiles' && JSON.parse(e.data).reason === 'deleted'));
    } finally {
      sse.close();
    }
  });

  it('answers 404 Settings not found for a profile without a file, and writes no backup', async () => {
    const res = await app.json('DELETE', '/api/settings/nobody');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Settings not found');
    expect(await backupsOf('nobody')).toEqual([]);
  });

  it('answers 400 Invalid profile name for a bad name or the reserved auth, touching nothing', async () => {
    for (const name of ['auth', '.hidden', '-lead', 'a%20b', 'a%2Fb']) {
      const res = await app.json('DELETE', `/api/settings/${name}`);
      expect(res.status, name).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid profile name' });
    }
  });

  it('deletes the default profile and clears the default in config.yaml', async () => {
    await fs.writeFile(fileOf('main'), JSON.stringify({ env }));
    expect((await app.json('PUT', '/api/profiles/default', { profile: 'main' })).status).toBe(200);
    const res = await app.json('DELETE', '/api/settings/main');
    expect(res.status).toBe(200);
    expect(res.body.defaultCleared).toBe(true);
    expect((await configYaml()).default).toBeUndefined();
    expect((await app.json('GET', '/api/profiles')).body.default).toBeNull();
  });

  it('deletes a file that is not valid JSON, keeping its exact bytes in the backup', async () => {
    await fs.writeFile(fileOf('broken'), '{ not json');
    const res = await app.json('DELETE', '/api/settings/broken');
    expect(res.status).toBe(200);
    expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe('{ not json');
    expect(await exists(fileOf('broken'))).toBe(false);
  });

  it('answers 500 Failed to write settings file when the backup cannot be written, and keeps the file', async () => {
    const isolated = await startTestApp();
    try {
      const file = path.join(isolated.home, 'kept.settings.json');
      await fs.writeFile(file, JSON.stringify({ env }));
      await fs.rm(path.join(isolated.home, 'backups'), { recursive: true, force: true });
      await fs.writeFile(path.join(isolated.home, 'backups'), 'in the way');
      const res = await isolated.json('DELETE', '/api/settings/kept');
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Failed to write settings file');
      expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ env });
    } finally {
      await isolated.stop();
    }
  });
});

describe('PUT /api/settings/:profile refuses a base URL that is not an http(s) URL', () => {
  const put = (profile: string, body: unknown) => app.json('PUT', `/api/settings/${profile}`, body);
  const bad: Array<[string, string]> = [
    ['PROVIDER_BASE_URL', 'not a url'],
    ['PROVIDER_BASE_URL', 'api.example.com'],
    ['PROVIDER_BASE_URL', 'ftp://api.example.com'],
    ['PROVIDER_BASE_URL', 'http://'],
    ['ANTHROPIC_BASE_URL', 'localhost:8317'],
    ['ANTHROPIC_BASE_URL', 'file:///etc/passwd'],
  ];
  it.each(bad)('%s = %j → 400 naming the field, nothing written', async (key, value) => {
    const res = await put('urls', { settings: { env: { ...env, [key]: value } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('settings object is required in request body');
    expect(res.body.message).toMatch(new RegExp(`^settings\\.env\\.${key}: must be an http\\(s\\) URL`));
    expect(await exists(fileOf('urls'))).toBe(false);
  });

  it('does not echo the value (a URL may carry a password)', async () => {
    const res = await put('urls', { settings: { env: { PROVIDER_BASE_URL: 'htp:/user:S3cretPW@host' } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('S3cretPW');
  });

  it('leaves an existing file unchanged when the new base URL is refused', async () => {
    await fs.writeFile(fileOf('kept-url'), JSON.stringify({ env }));
    const before = await fs.readFile(fileOf('kept-url'), 'utf8');
    const res = await put('kept-url', { settings: { env: { ...env, PROVIDER_BASE_URL: 'oops' } } });
    expect(res.status).toBe(400);
    expect(await fs.readFile(fileOf('kept-url'), 'utf8')).toBe(before);
    expect(await backupsOf('kept-url')).toEqual([]);
  });

  it.each([['https://api.example.com/v1'], ['http://127.0.0.1:8317'], [''], ['   ']])('accepts %j', async (value) => {
    const res = await put('good-url', { settings: { env: { ...env, PROVIDER_BASE_URL: value, ANTHROPIC_BASE_URL: value } } });
    expect(res.status).toBe(200);
  });

  it('accepts the mask sent back for a stored URL with a password (the stored value stands)', async () => {
    const withPassword = 'https://user:pw-123@api.example.com';
    await fs.writeFile(fileOf('masked-url'), JSON.stringify({ env: { ...env, PROVIDER_BASE_URL: withPassword } }));
    const masked = (await app.json('GET', '/api/settings/masked-url')).body.settings.env;
    expect(masked.PROVIDER_BASE_URL).toBe('********');
    const res = await put('masked-url', { settings: { env: { ...masked, PROVIDER_MODEL: 'other' } } });
    expect(res.status).toBe(200);
    expect(JSON.parse(await fs.readFile(fileOf('masked-url'), 'utf8')).env.PROVIDER_BASE_URL).toBe(withPassword);
  });
});
