import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';

const CONFIG_YAML = `${OFFLINE_CONFIG_YAML}# The zone used to group usage by day
usage:
  # keep this comment above the key
  timezone: UTC # and this one beside it
# a section a newer version wrote
future_section:
  flag: true
`;

const configFile = (app: TestApp) => path.join(app.home, 'config.yaml');
const readYaml = async (app: TestApp) => fs.readFile(configFile(app), 'utf8');

describe('GET and PUT /api/config', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ before: async ({ home }) => {
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), CONFIG_YAML);
    } });
  });
  afterAll(() => app.stop());

  it('GET answers the whole config with defaults filled and secrets masked', async () => {
    const res = await app.json('GET', '/api/config');
    expect(res.status).toBe(200);
    expect(res.body.path).toBe(configFile(app));
    expect(res.body.mtime).toBe(Math.floor((await fs.stat(configFile(app))).mtimeMs));
    const { config } = res.body;
    expect(config.usage).toEqual({ timezone: 'UTC', cost_mode: 'auto', agents: {} });
    expect(config.future_section).toEqual({ flag: true });
    expect(config.cursor).toMatchObject({ enabled: false, port: 20129, ghost_mode: true });
    expect(config.agent_tool).toEqual({ binary: 'droid', settings_path: '~/.factory/settings.json' });
    // The token service writes default secrets at first start; GET never shows them.
    const stored = YAML.parse(await readYaml(app));
    expect(stored.proxy.auth.defaults.api_key).toMatch(/^sk-sb-/);
    expect(config.proxy.auth.defaults).toEqual({ api_key: '********', management_secret: '********' });
    expect(JSON.stringify(res.body)).not.toContain(stored.proxy.auth.defaults.api_key);
  });

  it('PUT changes a value, keeps the comments above and beside it, unknown keys and masked secrets', async () => {
    const before = await app.json('GET', '/api/config');
    const storedBefore = YAML.parse(await readYaml(app));
    const config = structuredClone(before.body.config);
    config.usage.timezone = 'Europe/Paris';
    const res = await app.json('PUT', '/api/config', { config, expectedMtime: before.body.mtime });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, mtime: expect.any(Number), config: { ...config } });
    expect(res.body.mtime).toBeGreaterThan(before.body.mtime);
    const text = await readYaml(app);
    expect(text).toContain('# The zone used to group usage by day\nusage:\n  # keep this comment above the key\n  timezone: Europe/Paris # and this one beside it\n');
    expect(text).toContain('# a section a newer version wrote\nfuture_section:\n  flag: true\n');
    expect(text).toContain('# written by the test harness: no upstream is reachable\n');
    expect(YAML.parse(text).proxy.auth).toEqual(storedBefore.proxy.auth);
    // Defaults the client sent back unchanged are not written out.
    expect(text).not.toContain('ghost_mode');
  });

  it('PUT backs up the previous file into backups/config', async () => {
    const names = await fs.readdir(path.join(app.home, 'backups', 'config'));
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => /^config\.\d{8}T\d{9}Z\.yaml$/.test(n))).toBe(true);
  });

  it('PUT stores a secret the client typed, and ******** keeps it afterwards', async () => {
    const { body } = await app.json('GET', '/api/config');
    const config = structuredClone(body.config);
    config.proxy.auth.management_secret = 'a-new-secret-value';
    const res = await app.json('PUT', '/api/config', { config });
    expect(res.body.config.proxy.auth.management_secret).toBe('********');
    expect(YAML.parse(await readYaml(app)).proxy.auth.management_secret).toBe('a-new-secret-value');
    const again = await app.json('PUT', '/api/config', { config: res.body.config });
    expect(again.status).toBe(200);
    expect(YAML.parse(await readYaml(app)).proxy.auth.management_secret).toBe('a-new-secret-value');
  });

  it('PUT removes a key the client removed, and a removed default comes back as the default', async () => {
    const { body } = await app.json('GET', '/api/config');
    const { future_section: _dropped, ...config } = structuredClone(body.config);
    delete config.usage.timezone;
    const res = await app.json('PUT', '/api/config', { config });
    expect(res.status).toBe(200);
    expect(res.body.config.usage).toEqual({ timezone: '', cost_mode: 'auto', agents: {} });
    expect(res.body.config.future_section).toBeUndefined();
    const text = await readYaml(app);
    expect(text).not.toContain('future_section');
    expect(text).not.toContain('timezone:');
  });

  it.each([
    ['a wrong type', (c: any) => void (c.cursor.port = 'abc'), 'cursor.port: Invalid input: expected number, received string'],
    ['a port out of range', (c: any) => void (c.cursor.port = 70000), 'cursor.port: Too big: expected number to be <=65535'],
    ['a bad URL', (c: any) => void (c.proxy.update_feed_url = 'not a url'), 'proxy.update_feed_url: Invalid URL'],
    ['an empty binary', (c: any) => void (c.agent_tool.binary = ''), 'agent_tool.binary: Too small: expected string to have >=1 characters'],
    ['a missing section', (c: any) => void delete c.usage, 'usage: required section missing (send the whole config as GET /api/config returns it)'],
    ['a section that is not an object', (c: any) => void (c.desktop = true), 'desktop: required section missing (send the whole config as GET /api/config returns it)'],
    ['an error-rate notice above 1', (c: any) => void (c.desktop.error_rate_notice = 1.5), 'desktop.error_rate_notice: Too big: expected number to be <=1'],
    ['an error-rate notice of 0', (c: any) => void (c.desktop.error_rate_notice = 0), 'desktop.error_rate_notice: Too small: expected number to be >0'],
    ['an error-rate notice as text', (c: any) => void (c.desktop.error_rate_notice = '20%'), 'desktop.error_rate_notice: Invalid input: expected number, received string'],
  ])('PUT 400 Invalid config for %s, naming the path, writing nothing', async (_name, mutate, message) => {
    const before = await readYaml(app);
    const { body } = await app.json('GET', '/api/config');
    const config = structuredClone(body.config);
    mutate(config);
    const res = await app.json('PUT', '/api/config', { config });
    expect(res).toEqual({ status: 400, body: { error: 'Invalid config', message } });
    expect(await readYaml(app)).toBe(before);
  });

  it('desktop.error_rate_notice is off (absent) by default, saved as a fraction, and null turns it off again', async () => {
    const { body } = await app.json('GET', '/api/config');
    expect(body.config.desktop.error_rate_notice).toBeUndefined();
    const on = structuredClone(body.config);
    on.desktop.error_rate_notice = 0.25;
    const saved = await app.json('PUT', '/api/config', { config: on });
    expect(saved.status).toBe(200);
    expect(saved.body.config.desktop.error_rate_notice).toBe(0.25);
    expect(await readYaml(app)).toContain('error_rate_notice: 0.25');
    const off = structuredClone(saved.body.config);
    off.desktop.error_rate_notice = null;
    const cleared = await app.json('PUT', '/api/config', { config: off });
    expect(cleared.status).toBe(200);
    expect(cleared.body.config.desktop.error_rate_notice).toBeNull();
  });

  it.each([
    ['no config', {}, 'Invalid config'],
    ['config is an array', { config: [] }, 'Invalid config'],
    ['config is a string', { config: 'usage: {}' }, 'Invalid config'],
    ['expectedMtime is a string', { config: {}, expectedMtime: 'x' }, 'expectedMtime must be an integer'],
  ])('PUT 400 for a bad body: %s', async (_name, body, error) => {
    const res = await app.json('PUT', '/api/config', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.body.message).toMatch(/^(config|expectedMtime): /);
  });

  it('PUT 409 with currentMtime when expectedMtime is stale; nothing written', async () => {
    const { body } = await app.json('GET', '/api/config');
    const before = await readYaml(app);
    const res = await app.json('PUT', '/api/config', { config: body.config, expectedMtime: body.mtime - 1 });
    expect(res).toEqual({ status: 409, body: { error: 'File modified externally', currentMtime: body.mtime } });
    expect(await readYaml(app)).toBe(before);
  });

  it('two concurrent PUTs with the same expectedMtime: one 200, one 409', async () => {
    const { body } = await app.json('GET', '/api/config');
    const puts = ['Asia/Tokyo', 'America/New_York'].map((timezone) => {
      const config = structuredClone(body.config);
      config.usage.timezone = timezone;
      return app.json('PUT', '/api/config', { config, expectedMtime: body.mtime });
    });
    const results = await Promise.all(puts);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('PUT of an unchanged config leaves the file and its mtime alone', async () => {
    const { body } = await app.json('GET', '/api/config');
    const before = await readYaml(app);
    const res = await app.json('PUT', '/api/config', { config: body.config, expectedMtime: body.mtime });
    expect(res.status).toBe(200);
    expect(res.body.mtime).toBe(body.mtime);
    expect(await readYaml(app)).toBe(before);
  });
});

describe('a config.yaml that cannot be parsed', () => {
  let app: TestApp;
  const broken = `${OFFLINE_CONFIG_YAML}usage:\n  timezone: Europe/Paris: x\ndesktop:\n  notifications: true\n`;
  beforeAll(async () => {
    app = await startTestApp({ before: async ({ home }) => {
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), broken);
    } });
  });
  afterAll(() => app.stop());

  it('does not stop the server, and endpoints needing it answer 500 naming the line', async () => {
    const line = OFFLINE_CONFIG_YAML.split('\n').length + 1; // the `timezone:` line
    for (const [method, url, body] of [
      ['GET', '/api/config', undefined],
      ['PUT', '/api/config', { config: {} }],
      ['GET', '/api/agent-tool/diagnostics', undefined],
      ['GET', '/api/agent-tool/settings', undefined],
    ] as const) {
      const res = await app.json(method, url, body);
      expect(res.status, url).toBe(500);
      expect(res.body.error).toBe('Invalid config file');
      expect(res.body.message).toBe(
        `${path.join(app.home, 'config.yaml')}: line ${line}, column 13: Nested mappings are not allowed in compact mappings`,
      );
    }
    expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toBe(broken);
  });

  it('keeps the rest of the API working', async () => {
    expect((await app.json('GET', '/api/shared/summary')).status).toBe(200);
    expect((await app.json('GET', '/api/openapi.json')).status).toBe(200);
  });

  it('a schema error in the file is a 500 naming the line of the key', async () => {
    await fs.writeFile(path.join(app.home, 'config.yaml'), `${OFFLINE_CONFIG_YAML}desktop:\n  notifications: "yes"\n`);
    const res = await app.json('GET', '/api/config');
    const line = OFFLINE_CONFIG_YAML.split('\n').length + 1;
    expect(res).toEqual({
      status: 500,
      body: {
        error: 'Invalid config file',
        message: `${path.join(app.home, 'config.yaml')} line ${line}: desktop.notifications: Invalid input: expected boolean, received string`,
      },
    });
  });
});
