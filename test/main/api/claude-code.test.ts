import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const settingsFile = () => path.join(app.agentDir, 'settings.json');
const writeProfile = (profile: string, content: unknown) => fs.writeFile(path.join(app.home, `${profile}.settings.json`), JSON.stringify(content));
const status = async () => (await app.json('GET', '/api/claude-code')).body;
const apply = (profile: unknown) => app.json('POST', '/api/claude-code/apply', { profile });
const undo = () => app.json('POST', '/api/claude-code/undo');

const USER_FILE = `{
  "model": "opus",
  "permissions": { "allow": ["Bash(ls:*)"] },
  "env": { "MY_OWN": "1", "ANTHROPIC_MODEL": "mine" }
}
`;

describe('Claude Code settings', () => {
  it('GET answers the path, no file, nothing applied, nothing to undo', async () => {
    expect(await status()).toEqual({ path: settingsFile(), exists: false, applied: null, editedSince: false, canUndo: false, undoSteps: 0, canRestore: false, staleKeys: [] });
  });

  it('POST undo with nothing recorded answers 404 Nothing to undo', async () => {
    const res = await undo();
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Nothing to undo');
  });

  it('apply creates a missing file with the env as launched; undo removes it again', async () => {
    await writeProfile('glm', { env: { PROVIDER_BASE_URL: 'https://api.z.ai/api/anthropic', PROVIDER_AUTH_TOKEN: 'z-tok', PROVIDER_MODEL: 'glm-4.6' } });
    const res = await apply('glm');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      path: settingsFile(),
      profile: 'glm',
      keys: ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'PROVIDER_AUTH_TOKEN', 'PROVIDER_BASE_URL', 'PROVIDER_MODEL'],
      backupPath: null,
      mode: '0600',
      narrowed: false,
    });
    const written = JSON.parse(await fs.readFile(settingsFile(), 'utf8'));
    expect(written.env).toMatchObject({ ANTHROPIC_BASE_URL: 'https://api.z.ai/api/anthropic', ANTHROPIC_AUTH_TOKEN: 'z-tok', ANTHROPIC_MODEL: 'glm-4.6' });
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o600);
    const s = await status();
    expect(s).toMatchObject({ exists: true, editedSince: false, canUndo: true, applied: { profile: 'glm', keys: res.body.keys } });
    expect(await undo()).toEqual({ status: 200, body: { success: true, path: settingsFile(), restored: true, backupPath: expect.any(String), undoSteps: 0 } });
    await expect(fs.stat(settingsFile())).rejects.toThrow();
    expect(await status()).toMatchObject({ exists: false, applied: null, canUndo: false });
  });

  it('apply merges into an existing file keeping every other key and env entry; undo restores it byte for byte', async () => {
    await fs.writeFile(settingsFile(), USER_FILE, { mode: 0o640 });
    const res = await apply('glm');
    expect(res.status).toBe(200);
    expect(res.body.backupPath).toMatch(/backups\/claude-code-settings\.\d{8}T\d{9}Z\.json$/);
    expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe(USER_FILE);
    const merged = JSON.parse(await fs.readFile(settingsFile(), 'utf8'));
    expect(merged.model).toBe('opus');
    expect(merged.permissions).toEqual({ allow: ['Bash(ls:*)'] });
    expect(merged.env.MY_OWN).toBe('1');
    expect(merged.env.ANTHROPIC_MODEL).toBe('glm-4.6');
    // the env written holds a token: a file others could read is narrowed, and the answer says so
    expect(res.body).toMatchObject({ mode: '0600', narrowed: true });
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o600);
    expect((await undo()).status).toBe(200);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
    expect((await fs.stat(settingsFile())).mode & 0o777).toBe(0o640);
  });

  it('applying another profile takes back the keys the first one wrote and the second does not set, giving back the user\'s own values', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    await writeProfile('bare', { env: { PROVIDER_BASE_URL: 'https://api.anthropic.com' } });
    expect((await apply('glm')).status).toBe(200);
    expect((await apply('bare')).status).toBe(200);
    const env = JSON.parse(await fs.readFile(settingsFile(), 'utf8')).env;
    expect(env).toEqual({ MY_OWN: '1', ANTHROPIC_MODEL: 'mine', PROVIDER_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_BASE_URL: 'https://api.anthropic.com' });
    expect((await status()).applied.profile).toBe('bare');
    // undo walks back: to the file as glm left it, then to the user's file
    expect((await undo()).body.undoSteps).toBe(1);
    expect(JSON.parse(await fs.readFile(settingsFile(), 'utf8')).env.ANTHROPIC_MODEL).toBe('glm-4.6');
    expect((await undo()).body.undoSteps).toBe(0);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
  });

  it('a settings.json that is a symlink (dotfiles) keeps its link: apply and undo write its target', async () => {
    const dotfiles = path.join(app.home, 'dotfiles');
    await fs.mkdir(dotfiles, { recursive: true });
    const target = path.join(dotfiles, 'claude-settings.json');
    await fs.writeFile(target, USER_FILE);
    await fs.rm(settingsFile(), { force: true });
    await fs.symlink(target, settingsFile());
    try {
      expect((await apply('glm')).status).toBe(200);
      expect((await fs.lstat(settingsFile())).isSymbolicLink()).toBe(true);
      expect(JSON.parse(await fs.readFile(target, 'utf8')).env.ANTHROPIC_MODEL).toBe('glm-4.6');
      expect((await undo()).status).toBe(200);
      expect((await fs.lstat(settingsFile())).isSymbolicLink()).toBe(true);
      expect(await fs.readFile(target, 'utf8')).toBe(USER_FILE);
    } finally {
      await fs.rm(settingsFile(), { force: true });
      await fs.writeFile(settingsFile(), USER_FILE); // as the tests after this one expect it
    }
  });

  it('says editedSince when the file changed after the apply, not when it was only touched', async () => {
    expect((await apply('glm')).status).toBe(200);
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(settingsFile(), later, later);
    expect((await status()).editedSince).toBe(false);
    const text = await fs.readFile(settingsFile(), 'utf8');
    await fs.writeFile(settingsFile(), text.replace('"opus"', '"sonnet"'));
    expect((await status()).editedSince).toBe(true);
    // undo still restores the file before the apply; the edited one is backed up first
    const backupsBefore = (await fs.readdir(path.join(app.home, 'backups'))).filter((n) => n.startsWith('claude-code-settings.')).length;
    expect((await undo()).status).toBe(200);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
    const backupsAfter = (await fs.readdir(path.join(app.home, 'backups'))).filter((n) => n.startsWith('claude-code-settings.')).length;
    expect(backupsAfter).toBe(backupsBefore + 1);
  });

  it('answers 422 for a settings.json that is not JSON, an array, or whose env is no object, and never touches it', async () => {
    for (const content of ['{"env": {', '[1,2]', '{"env": "x"}']) {
      await fs.writeFile(settingsFile(), content);
      const res = await apply('glm');
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('Claude Code settings are not valid JSON');
      expect(res.body.message).toContain(settingsFile());
      expect(await fs.readFile(settingsFile(), 'utf8')).toBe(content);
    }
    await fs.writeFile(settingsFile(), USER_FILE);
  });

  it('answers 404 Settings not found and 400 Invalid profile name', async () => {
    const missing = await apply('nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Settings not found');
    for (const bad of ['../x', 'auth', 12, undefined]) {
      const res = await apply(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid profile name');
    }
  });
});

describe('Claude Code settings follow key rotation', () => {
  it('a proxy profile applied there gets the new key; Undo still restores the file before the apply', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    expect((await app.json('POST', '/api/profiles/proxy/route-through-proxy', {})).status).toBe(200);
    expect((await apply('proxy')).status).toBe(200);
    const rotated = await app.json('POST', '/api/settings/auth/tokens/regenerate-api-key');
    expect(rotated.body.updatedProfiles).toEqual(['proxy']);
    const newKey = (await app.json('GET', '/api/settings/auth/tokens/raw')).body.apiKey.value;
    const env = JSON.parse(await fs.readFile(settingsFile(), 'utf8')).env;
    expect(env.ANTHROPIC_AUTH_TOKEN).toBe(newKey);
    expect(env.MY_OWN).toBe('1');
    expect(await status()).toMatchObject({ editedSince: false, applied: { profile: 'proxy' } });
    expect((await undo()).status).toBe(200);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
  });

  it('a file whose Switchboard keys the user changed since the apply is left alone by the rotation', async () => {
    expect((await apply('proxy')).status).toBe(200);
    const edited = (await fs.readFile(settingsFile(), 'utf8')).replace('"ANTHROPIC_BASE_URL": "http://127.0.0.1:8317"', '"ANTHROPIC_BASE_URL": "http://127.0.0.1:9999"');
    await fs.writeFile(settingsFile(), edited);
    await app.json('POST', '/api/settings/auth/tokens/regenerate-api-key');
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(edited);
    expect((await status()).editedSince).toBe(true);
  });
});

describe('Claude Code settings follow a preset applied to the profile applied there', () => {
  it('the model changes in settings.json at once when the file is unedited', async () => {
    await fs.writeFile(settingsFile(), USER_FILE);
    await writeProfile('pz', { env: { PROVIDER_BASE_URL: 'https://api.z.ai', PROVIDER_MODEL: 'glm-4.6' }, presets: [{ name: 'air', default: 'glm-4.5-air' }] });
    expect((await apply('pz')).status).toBe(200);
    expect((await app.json('POST', '/api/settings/pz/presets/air/apply', {})).status).toBe(200);
    const env = JSON.parse(await fs.readFile(settingsFile(), 'utf8')).env;
    expect(env.ANTHROPIC_MODEL).toBe('glm-4.5-air');
    expect(env.PROVIDER_MODEL).toBe('glm-4.5-air');
    expect((await undo()).status).toBe(200);
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe(USER_FILE);
  });
});
