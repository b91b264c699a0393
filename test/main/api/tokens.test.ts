import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import YAML from 'yaml';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { secretFragmentsIn } from '../../helpers/leaks.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { rawRequest } from '../../helpers/raw-http.js';

/** Share no character with `********` or `sk-sb-`; every 3-gram holds a symbol nothing else in an answer has. */
const CUSTOM_KEY = 'Q!z@9#W$x%7^V&y(5)R=u+3~T;q?';
const CUSTOM_SECRET = 'P(4)N=m+2~L;j?H!g@8#F$e%6^D&';
const MASKED_KEY = `sk-sb-${'*'.repeat(32)}`;
const RESTART = 'Restart the proxy to apply the change';

const USER_PROXY_YAML = `# my proxy settings, hands off
server:
  port: 9999 # moved off 8317 on purpose
  host: 127.0.0.1
auth:
  api_key: old-key-value
  management_secret: old-secret-value
  note: keep me # an extra key inside auth
providers:
  gemini:
    enabled: true
    oauth_port: 8085
upstreams: []
custom_top: 42
`;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home }) => {
      await fs.mkdir(path.join(home, 'proxy'), { recursive: true });
      await fs.writeFile(path.join(home, 'proxy', 'config.yaml'), USER_PROXY_YAML);
      // World-readable on purpose: the app must tighten it to 0600 when it writes the defaults.
      await fs.writeFile(path.join(home, 'config.yaml'), `${OFFLINE_CONFIG_YAML}default: work # the default account\n`, { mode: 0o644 });
    },
  });
});
afterAll(() => app.stop());

const raw = async () => (await app.json('GET', '/api/settings/auth/tokens/raw')).body;
const configYaml = async () => YAML.parse(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8'));
const proxyText = () => fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8');
const putTokens = (body: unknown) => app.json('PUT', '/api/settings/auth/tokens', body);
const resetTokens = () => app.json('POST', '/api/settings/auth/tokens/reset');

describe('first start', () => {
  it('generates a default API key sk-sb-<32 alphanumerics> and a 32-alphanumeric secret, both not custom', async () => {
    const tokens = await raw();
    expect(tokens.apiKey.value).toMatch(/^sk-sb-[A-Za-z0-9]{32}$/);
    expect(tokens.managementSecret.value).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(tokens.apiKey.isCustom).toBe(false);
    expect(tokens.managementSecret.isCustom).toBe(false);
  });

  it('keeps the defaults under proxy.auth.defaults in config.yaml, mode 0600, comments and other keys intact', async () => {
    const tokens = await raw();
    const config = await configYaml();
    expect(config.proxy.auth.defaults).toEqual({ api_key: tokens.apiKey.value, management_secret: tokens.managementSecret.value });
    expect(config.proxy.auth.api_key).toBeUndefined();
    expect((await fs.stat(path.join(app.home, 'config.yaml'))).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toContain('# written by the test harness');
  });

  it('writes the tokens into an existing proxy/config.yaml, changing only the auth keys', async () => {
    const tokens = await raw();
    const text = await proxyText();
    expect(text).toBe(
      USER_PROXY_YAML.replace('old-key-value', tokens.apiKey.value).replace('old-secret-value', tokens.managementSecret.value),
    );
    expect((await fs.stat(path.join(app.home, 'proxy', 'config.yaml'))).mode & 0o777).toBe(0o600);
  });

  it('creates proxy/config.yaml with server, auth, providers and upstreams when it is missing', async () => {
    const fresh = await startTestApp();
    try {
      const tokens = (await fresh.json('GET', '/api/settings/auth/tokens/raw')).body;
      const file = path.join(fresh.home, 'proxy', 'config.yaml');
      expect(YAML.parse(await fs.readFile(file, 'utf8'))).toEqual({
        server: { port: 8317, host: '127.0.0.1' },
        auth: { api_key: tokens.apiKey.value, management_secret: tokens.managementSecret.value },
        providers: {},
        upstreams: [],
      });
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.join(fresh.home, 'config.yaml'))).mode & 0o777).toBe(0o600);
    } finally {
      await fresh.stop();
    }
  });

  it('keeps defaults that config.yaml already holds', async () => {
    const defaults = { api_key: `sk-sb-${'A1'.repeat(16)}`, management_secret: 'B2'.repeat(16) };
    const again = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(home, { recursive: true });
        const doc = YAML.parseDocument(OFFLINE_CONFIG_YAML);
        doc.setIn(['proxy', 'auth', 'defaults'], defaults);
        await fs.writeFile(path.join(home, 'config.yaml'), doc.toString());
      },
    });
    try {
      const tokens = (await again.json('GET', '/api/settings/auth/tokens/raw')).body;
      expect(tokens).toEqual({ apiKey: { value: defaults.api_key, isCustom: false }, managementSecret: { value: defaults.management_secret, isCustom: false } });
    } finally {
      await again.stop();
    }
  });
});

describe('GET /api/settings/auth/tokens', () => {
  it('answers both tokens masked: sk-sb- + 32 * and ********', async () => {
    expect(await app.json('GET', '/api/settings/auth/tokens')).toEqual({
      status: 200,
      body: { apiKey: { value: MASKED_KEY, isCustom: false }, managementSecret: { value: '********', isCustom: false } },
    });
  });

  it('never shows a fragment of custom tokens, in reads or in write answers', async () => {
    const put = await app.request('PUT', '/api/settings/auth/tokens', { apiKey: CUSTOM_KEY, managementSecret: CUSTOM_SECRET });
    const putText = await put.text();
    const getText = await (await app.request('GET', '/api/settings/auth/tokens')).text();
    for (const text of [putText, getText]) {
      expect(secretFragmentsIn(text, CUSTOM_KEY)).toEqual([]);
      expect(secretFragmentsIn(text, CUSTOM_SECRET)).toEqual([]);
    }
    expect(JSON.parse(getText)).toEqual({ apiKey: { value: MASKED_KEY, isCustom: true }, managementSecret: { value: '********', isCustom: true } });
    await resetTokens();
  });
});

describe('GET /api/settings/auth/tokens/raw', () => {
  it('answers the full tokens with no-store headers', async () => {
    const res = await app.request('GET', '/api/settings/auth/tokens/raw');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store, no-cache, must-revalidate');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const config = await configYaml();
    expect(await res.json()).toEqual({
      apiKey: { value: config.proxy.auth.defaults.api_key, isCustom: false },
      managementSecret: { value: config.proxy.auth.defaults.management_secret, isCustom: false },
    });
  });
});

describe('PUT /api/settings/auth/tokens (state table rows)', () => {
  it('default → custom apiKey: isCustom, stored, proxy config regenerated, restart message', async () => {
    const defaults = await raw();
    const res = await putTokens({ apiKey: CUSTOM_KEY });
    expect(res).toEqual({
      status: 200,
      body: {
        success: true,
        apiKey: { value: MASKED_KEY, isCustom: true },
        managementSecret: { value: '********', isCustom: false },
        message: RESTART,
        restartRequired: false,
        updatedProfiles: [],
      },
    });
    expect(await raw()).toEqual({ apiKey: { value: CUSTOM_KEY, isCustom: true }, managementSecret: defaults.managementSecret });
    expect((await configYaml()).proxy.auth.api_key).toBe(CUSTOM_KEY);
    const proxy = YAML.parse(await proxyText());
    expect(proxy.auth.api_key).toBe(CUSTOM_KEY);
    expect(proxy.auth.management_secret).toBe(defaults.managementSecret.value);
  });

  it('custom apiKey → "" resets it to the default', async () => {
    await putTokens({ apiKey: CUSTOM_KEY });
    const res = await putTokens({ apiKey: '' });
    expect(res.status).toBe(200);
    expect(res.body.apiKey).toEqual({ value: MASKED_KEY, isCustom: false });
    const tokens = await raw();
    expect(tokens.apiKey).toEqual({ value: (await configYaml()).proxy.auth.defaults.api_key, isCustom: false });
    expect((await configYaml()).proxy.auth.api_key).toBeUndefined();
    expect(YAML.parse(await proxyText()).auth.api_key).toBe(tokens.apiKey.value);
  });

  it('any → managementSecret custom, and "" back to the default', async () => {
    const res = await putTokens({ managementSecret: CUSTOM_SECRET });
    expect(res.status).toBe(200);
    expect(res.body.managementSecret).toEqual({ value: '********', isCustom: true });
    expect((await raw()).managementSecret).toEqual({ value: CUSTOM_SECRET, isCustom: true });
    expect(YAML.parse(await proxyText()).auth.management_secret).toBe(CUSTOM_SECRET);
    await putTokens({ managementSecret: '' });
    expect((await raw()).managementSecret.isCustom).toBe(false);
  });

  it('sets both at once', async () => {
    const res = await putTokens({ apiKey: CUSTOM_KEY, managementSecret: CUSTOM_SECRET });
    expect(res.body).toMatchObject({ apiKey: { isCustom: true }, managementSecret: { isCustom: true }, message: RESTART });
    expect(await raw()).toEqual({ apiKey: { value: CUSTOM_KEY, isCustom: true }, managementSecret: { value: CUSTOM_SECRET, isCustom: true } });
    await resetTokens();
  });

  it('keeps the stored tokens when the masked forms are sent back', async () => {
    await putTokens({ apiKey: CUSTOM_KEY, managementSecret: CUSTOM_SECRET });
    const res = await putTokens({ apiKey: MASKED_KEY, managementSecret: '********' });
    expect(res.status).toBe(200);
    expect(res.body.restartRequired).toBe(false);
    expect(await raw()).toEqual({ apiKey: { value: CUSTOM_KEY, isCustom: true }, managementSecret: { value: CUSTOM_SECRET, isCustom: true } });
    await resetTokens();
  });

  // Decisions §2: restartRequired is whether the proxy runs, whatever the change did. The engine is
  // not started here (test/main/api/proxy.test.ts runs it); the state the tokens ask is faked.
  it('answers restartRequired: true to every change while the proxy runs, no-ops included', async () => {
    const spy = vi.spyOn(app.services.proxy, 'isRunning').mockReturnValue(true);
    try {
      const answers = [
        await putTokens({ apiKey: CUSTOM_KEY }),
        await putTokens({ apiKey: CUSTOM_KEY }), // the same value again
        await putTokens({ apiKey: MASKED_KEY, managementSecret: '********' }), // masked forms: nothing changes
        await app.json('POST', '/api/settings/auth/tokens/regenerate-secret'),
        await app.json('POST', '/api/settings/auth/tokens/regenerate-api-key'),
        await resetTokens(),
        await resetTokens(), // already the defaults
      ];
      expect(answers.map((a) => [a.status, a.body.message, a.body.restartRequired])).toEqual(answers.map(() => [200, RESTART, true]));
    } finally {
      spy.mockRestore();
    }
    const stopped = [await putTokens({ apiKey: CUSTOM_KEY }), await putTokens({ apiKey: CUSTOM_KEY }), await resetTokens(), await resetTokens()];
    expect(stopped.map((a) => [a.body.message, a.body.restartRequired])).toEqual(stopped.map(() => [RESTART, false]));
  });

  it('accepts 8 and 256 printable non-space ASCII characters', async () => {
    for (const value of ['!~abcdef', 'x'.repeat(256)]) {
      expect((await putTokens({ managementSecret: value })).status).toBe(200);
      expect((await raw()).managementSecret.value).toBe(value);
    }
    await resetTokens();
  });

  it('answers 400 apiKey or managementSecret is required when neither is sent', async () => {
    for (const body of [{}, undefined, { other: 'x' }, []]) {
      const res = await putTokens(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('apiKey or managementSecret is required');
    }
  });

  const invalid: Array<[string, unknown]> = [
    ['7 characters', { apiKey: 'abcdefg' }],
    ['257 characters', { apiKey: 'x'.repeat(257) }],
    ['a space', { managementSecret: 'abc defgh' }],
    ['a tab', { managementSecret: 'abc\tdefgh' }],
    ['non-ASCII', { apiKey: 'abcdéfghij' }],
    ['a newline', { apiKey: 'abcdefgh\n' }],
    ['a number', { apiKey: 12345678 }],
    ['null', { managementSecret: null }],
    ['one good, one bad', { apiKey: CUSTOM_KEY, managementSecret: 'short' }],
  ];
  it.each(invalid)('answers 400 Invalid token value for %s and changes nothing', async (_label, body) => {
    const before = await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8');
    const res = await putTokens(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid token value');
    expect(res.body.message).toMatch(/^(apiKey|managementSecret)/);
    expect(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8')).toBe(before);
  });

  it('changes only the auth keys of proxy/config.yaml: comments, extra keys and user edits survive', async () => {
    await putTokens({ apiKey: CUSTOM_KEY, managementSecret: CUSTOM_SECRET });
    const text = await proxyText();
    // Every line but the two auth values is byte-for-byte the user's (the yaml library may quote the new values).
    const otherLines = (t: string) => t.split('\n').filter((l) => !/^ {2}(api_key|management_secret):/.test(l));
    expect(otherLines(text)).toEqual(otherLines(USER_PROXY_YAML));
    expect(YAML.parse(text)).toEqual({ ...YAML.parse(USER_PROXY_YAML), auth: { api_key: CUSTOM_KEY, management_secret: CUSTOM_SECRET, note: 'keep me' } });
    await resetTokens();
  });

  it('recreates proxy/config.yaml when it was deleted', async () => {
    const file = path.join(app.home, 'proxy', 'config.yaml');
    const saved = await fs.readFile(file, 'utf8');
    await fs.rm(file);
    try {
      await putTokens({ apiKey: CUSTOM_KEY });
      const proxy = YAML.parse(await fs.readFile(file, 'utf8'));
      expect(proxy).toMatchObject({ server: { port: 8317, host: '127.0.0.1' }, auth: { api_key: CUSTOM_KEY }, providers: {}, upstreams: [] });
    } finally {
      await resetTokens();
      await fs.writeFile(file, saved);
      await resetTokens();
    }
  });

  it('saves the tokens but warns, leaving the file alone, when proxy/config.yaml is not valid YAML', async () => {
    const file = path.join(app.home, 'proxy', 'config.yaml');
    const saved = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, 'server: [unclosed\n');
    try {
      const res = await putTokens({ apiKey: CUSTOM_KEY });
      expect(res.status).toBe(200);
      expect(res.body.warning).toMatch(/^proxy\/config\.yaml was not updated: .*not valid YAML/);
      expect(await fs.readFile(file, 'utf8')).toBe('server: [unclosed\n');
      expect((await raw()).apiKey.value).toBe(CUSTOM_KEY);
    } finally {
      await fs.writeFile(file, saved);
      await resetTokens();
    }
  });

  it('answers 500 Failed to write config file with the cause when config.yaml cannot be written', async () => {
    const spy = vi.spyOn(app.services.ctx.appConfig, 'update').mockRejectedValueOnce(new Error('EIO: i/o error, simulated'));
    try {
      const res = await putTokens({ apiKey: CUSTOM_KEY });
      expect(res).toEqual({ status: 500, body: { error: 'Failed to write config file', message: 'EIO: i/o error, simulated' } });
    } finally {
      spy.mockRestore();
    }
    expect((await raw()).apiKey.isCustom).toBe(false);
  });

  it('refuses a cross-site PUT from a browser', async () => {
    const res = await rawRequest(app.port, 'PUT', '/api/settings/auth/tokens', {
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: CUSTOM_KEY }),
    });
    expect(res.status).toBe(403);
    expect((await raw()).apiKey.isCustom).toBe(false);
  });
});

describe('POST /api/settings/auth/tokens/regenerate-secret', () => {
  it('replaces the secret with a new custom 32-alphanumeric one and answers it masked', async () => {
    const before = (await raw()).managementSecret.value;
    const res = await app.json('POST', '/api/settings/auth/tokens/regenerate-secret');
    expect(res).toEqual({
      status: 200,
      body: { success: true, managementSecret: { value: '********', isCustom: true }, message: RESTART, restartRequired: false },
    });
    const after = (await raw()).managementSecret;
    expect(after.isCustom).toBe(true);
    expect(after.value).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(after.value).not.toBe(before);
    expect(YAML.parse(await proxyText()).auth.management_secret).toBe(after.value);
    await resetTokens();
  });
});

describe('POST /api/settings/auth/tokens/reset', () => {
  it('returns both tokens to their defaults', async () => {
    await putTokens({ apiKey: CUSTOM_KEY, managementSecret: CUSTOM_SECRET });
    const res = await resetTokens();
    expect(res).toEqual({
      status: 200,
      body: {
        success: true,
        apiKey: { value: MASKED_KEY, isCustom: false },
        managementSecret: { value: '********', isCustom: false },
        message: RESTART,
        restartRequired: false,
        updatedProfiles: [],
      },
    });
    const config = await configYaml();
    expect(await raw()).toEqual({
      apiKey: { value: config.proxy.auth.defaults.api_key, isCustom: false },
      managementSecret: { value: config.proxy.auth.defaults.management_secret, isCustom: false },
    });
    expect(YAML.parse(await proxyText()).auth.api_key).toBe(config.proxy.auth.defaults.api_key);
  });
});

describe('DELETE /api/accounts/reset-default', () => {
  it('removes the top-level default key and keeps the rest of config.yaml', async () => {
    expect((await configYaml()).default).toBe('work');
    const res = await app.json('DELETE', '/api/accounts/reset-default');
    expect(res).toEqual({ status: 200, body: { success: true, message: 'Default account reset' } });
    const text = await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8');
    expect(YAML.parse(text).default).toBeUndefined();
    expect(text).toContain('# written by the test harness');
    expect(YAML.parse(text).proxy.auth.defaults.api_key).toMatch(/^sk-sb-/);
  });

  it('answers the same when no default is set', async () => {
    expect(await app.json('DELETE', '/api/accounts/reset-default')).toEqual({ status: 200, body: { success: true, message: 'Default account reset' } });
  });

  it('answers 405 to other methods', async () => {
    expect(await app.json('GET', '/api/accounts/reset-default')).toEqual({ status: 405, body: { error: 'Method not allowed' } });
  });
});

describe('routing', () => {
  it('never lets /api/settings/auth reach the profile routes', async () => {
    expect(await app.json('GET', '/api/settings/auth')).toEqual({ status: 400, body: { error: 'Invalid profile name' } });
    expect(await app.json('POST', '/api/settings/auth/tokens')).toEqual({ status: 405, body: { error: 'Method not allowed' } });
  });
});
