import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openSse } from '../../helpers/sse.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const fileOf = (profile: string) => path.join(app.home, `${profile}.settings.json`);
const readStored = async (profile: string) => JSON.parse(await fs.readFile(fileOf(profile), 'utf8'));
const writeStored = (profile: string, content: unknown) =>
  fs.writeFile(fileOf(profile), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
const configYaml = async () => YAML.parse(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8'));
const apiKey = async () => (await app.json('GET', '/api/settings/auth/tokens/raw')).body.apiKey.value as string;
const backupsOf = async (profile: string) =>
  (await fs.readdir(path.join(app.home, 'backups')).catch(() => [] as string[])).filter((n) => n.startsWith(`${profile}.`) && n.endsWith('.settings.json'));
const profilesList = async () => (await app.json('GET', '/api/profiles')).body;

describe('GET /api/profiles', () => {
  it('lists every profile with host, model, usesProxy and the default marker, sorted by name', async () => {
    await writeStored('zai', { env: { PROVIDER_BASE_URL: 'https://user:pw@api.z.ai/api/anthropic', PROVIDER_MODEL: 'glm-4.6', PROVIDER_AUTH_TOKEN: 't' } });
    await writeStored('anth', { env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_MODEL: 'claude-opus-4-1' } });
    await writeStored('local', { env: { PROVIDER_BASE_URL: 'http://localhost:8317', PROVIDER_MODEL: 'sonnet' } });
    await writeStored('broken', '{not json');
    expect((await app.json('PUT', '/api/profiles/default', { profile: 'zai' })).status).toBe(200);
    const body = await profilesList();
    const byName = Object.fromEntries(body.profiles.map((p: { name: string }) => [p.name, p]));
    expect(body.default).toBe('zai');
    expect(body.profiles.map((p: { name: string }) => p.name)).toEqual([...body.profiles.map((p: { name: string }) => p.name)].sort());
    expect(byName.zai).toMatchObject({ default: true, baseUrl: 'api.z.ai', model: 'glm-4.6', usesProxy: false, path: fileOf('zai') });
    expect(byName.anth).toMatchObject({ baseUrl: 'api.anthropic.com', model: 'claude-opus-4-1', usesProxy: false });
    expect(byName.anth.default).toBeUndefined();
    expect(byName.local).toMatchObject({ baseUrl: 'localhost:8317', model: 'sonnet', usesProxy: true });
    expect(byName.broken).toMatchObject({ baseUrl: null, model: null, usesProxy: false });
    expect(typeof byName.broken.mtime).toBe('number');
  });

  it('follows the proxy port of proxy/config.yaml for usesProxy', async () => {
    const file = path.join(app.home, 'proxy', 'config.yaml');
    const before = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, before.replace(/port: 8317/, 'port: 9444'));
    try {
      await writeStored('moved', { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:9444' } });
      const body = await profilesList();
      expect(body.profiles.find((p: { name: string }) => p.name === 'moved').usesProxy).toBe(true);
      expect(body.profiles.find((p: { name: string }) => p.name === 'local').usesProxy).toBe(false);
    } finally {
      await fs.writeFile(file, before);
      await fs.rm(fileOf('moved'));
    }
  });
});

describe('PUT /api/profiles/default', () => {
  it('stores config.yaml `default`, answers {success, default} and emits the profiles event', async () => {
    const sse = await openSse(`${app.url}/api/events`);
    try {
      const res = await app.json('PUT', '/api/profiles/default', { profile: 'anth' });
      expect(res).toEqual({ status: 200, body: { success: true, default: 'anth' } });
      expect((await configYaml()).default).toBe('anth');
      await sse.waitFor((c) => c.events.some((e) => e.event === 'profiles' && JSON.parse(e.data).profiles.includes('anth')));
      expect((await profilesList()).default).toBe('anth');
    } finally {
      sse.close();
    }
  });

  it('answers 400 Invalid profile name for a bad name or a missing field', async () => {
    for (const body of [{ profile: '../etc' }, { profile: 'auth' }, {}, { profile: 7 }]) {
      const res = await app.json('PUT', '/api/profiles/default', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid profile name');
    }
  });

  it('answers 404 Settings not found for a profile without a settings file and keeps the default', async () => {
    const res = await app.json('PUT', '/api/profiles/default', { profile: 'ghost' });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Settings not found');
    expect((await configYaml()).default).toBe('anth');
  });

  it('DELETE /api/accounts/reset-default clears it (default null) and emits profiles', async () => {
    const sse = await openSse(`${app.url}/api/events`);
    try {
      expect((await app.json('DELETE', '/api/accounts/reset-default')).status).toBe(200);
      await sse.waitFor((c) => c.events.some((e) => e.event === 'profiles' && JSON.parse(e.data).reason === 'default'));
      const body = await profilesList();
      expect(body.default).toBeNull();
      expect(body.profiles.some((p: { default?: true }) => p.default)).toBe(false);
    } finally {
      sse.close();
    }
  });

  it('answers default null when the named profile has no file any more', async () => {
    await writeStored('gone', { env: {} });
    await app.json('PUT', '/api/profiles/default', { profile: 'gone' });
    await fs.rm(fileOf('gone'));
    expect((await profilesList()).default).toBeNull();
  });
});

describe('POST /api/settings/:profile/presets/:name/apply', () => {
  const presets = [
    { name: 'fast', default: 'glm-4.5-air', haiku: 'glm-4.5-air' },
    { name: 'deep', default: 'glm-4.6', opus: 'glm-4.6', sonnet: 'glm-4.6', haiku: 'glm-4.5-air' },
  ];

  it('writes default and tiers into env, removes tiers the preset leaves out, keeps the rest, backs up', async () => {
    await writeStored('pz', {
      env: { PROVIDER_BASE_URL: 'https://api.z.ai', PROVIDER_AUTH_TOKEN: 'tok', PROVIDER_MODEL: 'old', PROVIDER_DEFAULT_OPUS_MODEL: 'old-opus', EXTRA: 'x' },
      presets,
      hooks: { keep: true },
    });
    const deep = await app.json('POST', '/api/settings/pz/presets/deep/apply', {});
    expect(deep.status).toBe(200);
    expect(deep.body).toMatchObject({ profile: 'pz', created: false, applied: 'deep' });
    expect(typeof deep.body.mtime).toBe('number');
    expect(deep.body.backupPath).toMatch(/backups\/pz\.\d{8}T\d{9}Z\.settings\.json$/);
    expect((await readStored('pz')).env).toEqual({
      PROVIDER_BASE_URL: 'https://api.z.ai',
      PROVIDER_AUTH_TOKEN: 'tok',
      PROVIDER_MODEL: 'glm-4.6',
      PROVIDER_DEFAULT_OPUS_MODEL: 'glm-4.6',
      PROVIDER_DEFAULT_SONNET_MODEL: 'glm-4.6',
      PROVIDER_DEFAULT_HAIKU_MODEL: 'glm-4.5-air',
      EXTRA: 'x',
    });
    const fast = await app.json('POST', '/api/settings/pz/presets/fast/apply');
    expect(fast.status).toBe(200);
    const stored = await readStored('pz');
    expect(stored.env).toEqual({
      PROVIDER_BASE_URL: 'https://api.z.ai',
      PROVIDER_AUTH_TOKEN: 'tok',
      PROVIDER_MODEL: 'glm-4.5-air',
      PROVIDER_DEFAULT_HAIKU_MODEL: 'glm-4.5-air',
      EXTRA: 'x',
    });
    expect(stored.presets).toEqual(presets);
    expect(stored.hooks).toEqual({ keep: true });
    expect(await backupsOf('pz')).toHaveLength(2);
  });

  it('also moves ANTHROPIC_ model keys the profile writes itself (they win at launch)', async () => {
    await writeStored('pa', { env: { ANTHROPIC_MODEL: 'x', ANTHROPIC_DEFAULT_OPUS_MODEL: 'y' }, presets });
    expect((await app.json('POST', '/api/settings/pa/presets/fast/apply', {})).status).toBe(200);
    expect((await readStored('pa')).env).toEqual({
      ANTHROPIC_MODEL: 'glm-4.5-air',
      PROVIDER_MODEL: 'glm-4.5-air',
      PROVIDER_DEFAULT_HAIKU_MODEL: 'glm-4.5-air',
    });
  });

  it('honours a matching expectedMtime and answers 409 with currentMtime on a stale one', async () => {
    await writeStored('pm', { env: {}, presets });
    const { mtime } = (await app.json('GET', '/api/settings/pm')).body;
    const stale = await app.json('POST', '/api/settings/pm/presets/fast/apply', { expectedMtime: mtime - 1000 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'File modified externally', currentMtime: mtime });
    expect((await readStored('pm')).env).toEqual({});
    const ok = await app.json('POST', '/api/settings/pm/presets/fast/apply', { expectedMtime: mtime });
    expect(ok.status).toBe(200);
  });

  it('answers 400 for a non-integer expectedMtime', async () => {
    const res = await app.json('POST', '/api/settings/pm/presets/fast/apply', { expectedMtime: 'soon' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('expectedMtime must be an integer');
  });

  it('answers 404 Settings not found, 404 Preset not found, 400 Invalid profile name', async () => {
    const missing = await app.json('POST', '/api/settings/nobody/presets/fast/apply', {});
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('Settings not found');
    const unknown = await app.json('POST', '/api/settings/pm/presets/nope/apply', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Preset not found');
    const bad = await app.json('POST', '/api/settings/auth/presets/fast/apply', {});
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid profile name');
  });

  it('answers 500 Failed to read settings file for a file that is not JSON, and leaves it', async () => {
    await writeStored('pbroken', '{"presets": [');
    const res = await app.json('POST', '/api/settings/pbroken/presets/fast/apply', {});
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to read settings file');
    expect(await fs.readFile(fileOf('pbroken'), 'utf8')).toBe('{"presets": [');
  });

  it('gives one 200 and one 409 to two concurrent applies with the same expectedMtime', async () => {
    await writeStored('prace', { env: {}, presets });
    const { mtime } = (await app.json('GET', '/api/settings/prace')).body;
    const answers = await Promise.all(['fast', 'deep'].map((n) => app.json('POST', `/api/settings/prace/presets/${n}/apply`, { expectedMtime: mtime })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });
});

describe('GET /api/profiles/model-suggestions', () => {
  it('answers the presets models (proxy stopped, no usage) with their sources, sorted by id, never 5xx', async () => {
    const res = await app.json('GET', '/api/profiles/model-suggestions');
    expect(res.status).toBe(200);
    const ids = res.body.models.map((m: { id: string }) => m.id);
    expect(ids).toEqual([...ids].sort());
    expect(res.body.models).toContainEqual({ id: 'glm-4.6', sources: ['presets'] });
    expect(res.body.models).toContainEqual({ id: 'glm-4.5-air', sources: ['presets'] });
    expect(res.body.models.every((m: { sources: string[] }) => !m.sources.includes('proxy'))).toBe(true);
  });
});

describe('POST /api/profiles/:profile/route-through-proxy', () => {
  it('creates the profile when missing with the proxy URL and API key', async () => {
    const res = await app.json('POST', '/api/profiles/proxy/route-through-proxy', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, profile: 'proxy', created: true, baseUrl: 'http://127.0.0.1:8317' });
    expect((await readStored('proxy')).env).toEqual({ PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: await apiKey() });
    const listed = (await profilesList()).profiles.find((p: { name: string }) => p.name === 'proxy');
    expect(listed.usesProxy).toBe(true);
  });

  it('rewrites an existing profile, other keys kept, ANTHROPIC_ overrides moved too, with a backup', async () => {
    await writeStored('rz', { env: { PROVIDER_BASE_URL: 'https://api.z.ai', PROVIDER_AUTH_TOKEN: 'zai-token', ANTHROPIC_BASE_URL: 'https://x', PROVIDER_MODEL: 'glm-4.6' }, permissions: { allow: ['Bash'] } });
    const res = await app.json('POST', '/api/profiles/rz/route-through-proxy', {});
    expect(res.body).toMatchObject({ success: true, profile: 'rz', created: false });
    const stored = await readStored('rz');
    const key = await apiKey();
    expect(stored).toEqual({
      env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: key, ANTHROPIC_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_MODEL: 'glm-4.6' },
      permissions: { allow: ['Bash'] },
    });
    expect(await backupsOf('rz')).toHaveLength(1);
  });

  it('answers 400 Invalid profile name and 500 Failed to read settings file for a broken file', async () => {
    const bad = await app.json('POST', '/api/profiles/..%2Fx/route-through-proxy', {});
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid profile name');
    const broken = await app.json('POST', '/api/profiles/broken/route-through-proxy', {});
    expect(broken.status).toBe(500);
    expect(broken.body.error).toBe('Failed to read settings file');
  });
});

describe('key rotation follows the profiles (decisions §2)', () => {
  it('regenerate-api-key rewrites profiles on the proxy with the old key, and only those', async () => {
    const oldKey = await apiKey();
    await writeStored('onproxy', { env: { PROVIDER_BASE_URL: 'http://localhost:8317', PROVIDER_AUTH_TOKEN: oldKey, PROVIDER_MODEL: 'm' } });
    await writeStored('otherkey', { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: 'someone-else' } });
    await writeStored('elsewhere', { env: { PROVIDER_BASE_URL: 'https://api.z.ai', PROVIDER_AUTH_TOKEN: oldKey } });
    const untouched = await fs.readFile(fileOf('otherkey'), 'utf8');
    const res = await app.json('POST', '/api/settings/auth/tokens/regenerate-api-key');
    expect(res.status).toBe(200);
    expect(res.body.apiKey).toEqual({ value: `sk-sb-${'*'.repeat(32)}`, isCustom: true });
    expect(res.body.managementSecret).toBeUndefined();
    expect(res.body.message).toBe('Restart the proxy to apply the change');
    const newKey = await apiKey();
    expect(newKey).toMatch(/^sk-sb-[A-Za-z0-9]{32}$/);
    expect(newKey).not.toBe(oldKey);
    expect(res.body.updatedProfiles).toEqual(['onproxy', 'proxy', 'rz']);
    expect((await readStored('onproxy')).env).toEqual({ PROVIDER_BASE_URL: 'http://localhost:8317', PROVIDER_AUTH_TOKEN: newKey, PROVIDER_MODEL: 'm' });
    expect((await readStored('elsewhere')).env.PROVIDER_AUTH_TOKEN).toBe(oldKey);
    expect(await fs.readFile(fileOf('otherkey'), 'utf8')).toBe(untouched);
    expect(await backupsOf('onproxy')).toHaveLength(1);
  });

  it('PUT tokens with a new apiKey and reset answer updatedProfiles; a secret-only change answers []', async () => {
    const put = await app.json('PUT', '/api/settings/auth/tokens', { apiKey: 'custom-key-123456' });
    expect(put.body.updatedProfiles).toEqual(['onproxy', 'proxy', 'rz']);
    expect((await readStored('proxy')).env.PROVIDER_AUTH_TOKEN).toBe('custom-key-123456');
    const secretOnly = await app.json('PUT', '/api/settings/auth/tokens', { managementSecret: 'another-secret-1' });
    expect(secretOnly.body.updatedProfiles).toEqual([]);
    const reset = await app.json('POST', '/api/settings/auth/tokens/reset');
    expect(reset.body.updatedProfiles).toEqual(['onproxy', 'proxy', 'rz']);
    expect((await readStored('proxy')).env.PROVIDER_AUTH_TOKEN).toBe(await apiKey());
  });

  it('a proxy port change through PUT /api/proxy/config.yaml moves the profiles and says which', async () => {
    const current = await (await app.request('GET', '/api/proxy/config.yaml')).text();
    const res = await app.json('PUT', '/api/proxy/config.yaml', { content: current.replace('port: 8317', 'port: 8400') });
    expect(res.status).toBe(200);
    expect(res.body.updatedProfiles).toEqual(['onproxy', 'proxy', 'rz']);
    expect((await readStored('onproxy')).env.PROVIDER_BASE_URL).toBe('http://127.0.0.1:8400');
    expect((await readStored('rz')).env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:8400');
    const listed = (await profilesList()).profiles.find((p: { name: string }) => p.name === 'proxy');
    expect(listed).toMatchObject({ baseUrl: '127.0.0.1:8400', usesProxy: true });
    const same = await app.json('PUT', '/api/proxy/config.yaml', { content: `${current.replace('port: 8317', 'port: 8400')}\n# a comment\n` });
    expect(same.body.updatedProfiles).toEqual([]);
  });
});

describe('GET /api/settings/:profile masks keys outside env (decisions §2)', () => {
  it('masks sensitive keys at any depth outside env; raw shows them; a masked PUT keeps them', async () => {
    const settings = { env: { PROVIDER_MODEL: 'm' }, permissions: { allow: ['Bash'] }, mcp: { servers: [{ name: 'a', auth_token: 'deep-secret-value' }] } };
    await writeStored('deep', settings);
    const masked = (await app.json('GET', '/api/settings/deep')).body.settings;
    expect(masked.mcp.servers[0]).toEqual({ name: 'a', auth_token: '********' });
    expect(masked.permissions).toEqual({ allow: ['Bash'] });
    expect(JSON.stringify(masked)).not.toContain('deep-secret-value');
    expect((await app.json('GET', '/api/settings/deep/raw')).body.settings).toEqual(settings);
    expect((await app.json('PUT', '/api/settings/deep', { settings: masked })).status).toBe(200);
    expect(await readStored('deep')).toEqual(settings);
  });
});
