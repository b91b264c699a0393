import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { secretFragmentsIn } from '../../helpers/leaks.js';
import { rawRequest } from '../../helpers/raw-http.js';

/** Shares no character with `********` or `sk-sb-`, and every 3-gram holds a symbol no path or mtime has. */
const SECRET = 'Q!z@9#W$x%7^V&y(5)R=u+3~T;q?';
const OTHER_SECRET = 'P(4)N=m+2~L;j?H!g@8#F$e%6^D&';
const BACKUP_STAMP = /^\d{8}T\d{9}Z\.settings\.json$/;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const fileOf = (profile: string) => path.join(app.home, `${profile}.settings.json`);
const readStored = async (profile: string) => JSON.parse(await fs.readFile(fileOf(profile), 'utf8'));
const mtimeOf = async (profile: string) => Math.floor((await fs.stat(fileOf(profile))).mtimeMs);
/** Backups of exactly this profile: `<profile>.<YYYYMMDDTHHMMSSmmmZ>.settings.json`. */
const backupsOf = async (profile: string) =>
  (await fs.readdir(path.join(app.home, 'backups')).catch(() => [] as string[])).filter(
    (n) => n.startsWith(`${profile}.`) && BACKUP_STAMP.test(n.slice(profile.length + 1)),
  );
const writeStored = async (profile: string, content: unknown) =>
  fs.writeFile(fileOf(profile), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
const put = (profile: string, body: unknown) => app.json('PUT', `/api/settings/${profile}`, body);

const fullEnv = { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: SECRET, PROVIDER_MODEL: 'claude-sonnet-4-5' };

describe('GET /api/settings/:profile', () => {
  it('answers 404 Settings not found for a profile without a file', async () => {
    const res = await app.json('GET', '/api/settings/nobody');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Settings not found');
  });

  it('answers the settings object of 2.1 with sensitive values masked', async () => {
    await writeStored('masked', { env: { ...fullEnv, ANTHROPIC_API_KEY: OTHER_SECRET }, model: 'opus' });
    const res = await app.json('GET', '/api/settings/masked');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      profile: 'masked',
      settings: {
        env: { PROVIDER_BASE_URL: fullEnv.PROVIDER_BASE_URL, PROVIDER_AUTH_TOKEN: '********', PROVIDER_MODEL: fullEnv.PROVIDER_MODEL, ANTHROPIC_API_KEY: '********' },
        model: 'opus',
      },
      mtime: await mtimeOf('masked'),
      path: fileOf('masked'),
    });
  });

  it('masks every key the revised rule names (issue 17 words included), case-insensitively, and nothing else', async () => {
    const sensitive = [
      'ANTHROPIC_APIKEY', 'GITHUB_PAT', 'apikey', 'PASSWD', 'ACCESS_TOKENS', 'AUTHORIZATION', 'x-access-key', 'x-api_key',
      'x-auth', 'x-credential', 'TOKEN', 'secret', 'Password', 'API_KEY', 'auth_token', 'GH_TOKEN', 'X_KEY', 'A_SECRET',
      'DB_PASSWORD', 'AWS_CREDENTIAL', 'GCP_CREDENTIALS', 'SSH_PRIVATE_KEY', 'my_api_key', 'KEY', 'MAX_AUTH_TOKENS', 'anthropicApiKey',
    ];
    const plain = [
      'PROVIDER_BASE_URL', 'PROVIDER_MODEL', 'ANTHROPIC_MODEL', 'AUTH_PORT', 'KEYBOARD', 'TOKENIZER', 'SECRETARY', 'PASSWORDS_URL', 'API_KEYS',
      'TOKEN_LIMIT', 'MAX_TOKENS', 'CLAUDE_CODE_MAX_OUTPUT_TOKENS', 'MAX_THINKING_TOKENS',
    ];
    const env = Object.fromEntries([...sensitive, ...plain].map((k, i) => [k, `${SECRET}${i}`]));
    await writeStored('rule', { env });
    const { body } = await app.json('GET', '/api/settings/rule');
    for (const k of sensitive) expect(body.settings.env[k], k).toBe('********');
    for (const k of plain) expect(body.settings.env[k], k).toBe(env[k]);
  });

  it('masks URL credentials under any key and secrets outside env at any depth; saving back keeps them', async () => {
    const stored = {
      env: { DATABASE_URL: `postgres://u:${SECRET}@host/db`, PROVIDER_BASE_URL: 'https://user@example.com/' },
      apiKeyHelper: `/bin/${OTHER_SECRET}`,
      mcp: { servers: [{ headers: { 'x-auth': OTHER_SECRET }, url: `redis://:${SECRET}@h` }] },
    };
    await writeStored('deep', stored);
    const res = await app.json('GET', '/api/settings/deep');
    expect(res.body.settings).toEqual({
      env: { DATABASE_URL: '********', PROVIDER_BASE_URL: 'https://user@example.com/' },
      apiKeyHelper: '********',
      mcp: { servers: [{ headers: { 'x-auth': '********' }, url: '********' }] },
    });
    const saved = await put('deep', { settings: res.body.settings, expectedMtime: res.body.mtime });
    expect(saved.status).toBe(200);
    expect(await readStored('deep')).toEqual(stored);
  });

  it('never reveals any fragment of a secret in the masked answer', async () => {
    await writeStored('leak', { env: { PROVIDER_AUTH_TOKEN: SECRET, OTHER_SECRET: OTHER_SECRET, NESTED_TOKEN: SECRET.slice(3, 12) } });
    const res = await app.request('GET', '/api/settings/leak');
    const text = await res.text();
    expect(secretFragmentsIn(text, SECRET)).toEqual([]);
    expect(secretFragmentsIn(text, OTHER_SECRET)).toEqual([]);
  });

  it('answers 500 Failed to read settings file, naming the parse error, for a file that is not JSON', async () => {
    await writeStored('broken', '{"env": {"A": "1",');
    for (const suffix of ['', '/raw']) {
      const res = await app.json('GET', `/api/settings/broken${suffix}`);
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Failed to read settings file');
      expect(res.body.message).toMatch(/broken\.settings\.json is not a valid settings file: .*JSON/);
    }
  });

  it('answers 500 Failed to read settings file for JSON whose top level is not an object', async () => {
    await writeStored('array', '[1, 2]');
    const res = await app.json('GET', '/api/settings/array');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Failed to read settings file', message: 'array.settings.json is not a valid settings file: the top level must be a JSON object' });
  });
});

describe('GET /api/settings/:profile/raw', () => {
  it('answers the same object unmasked, with no-store headers', async () => {
    await writeStored('raw', { env: fullEnv, extra: [1] });
    const res = await app.request('GET', '/api/settings/raw/raw');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store, no-cache, must-revalidate');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(await res.json()).toEqual({ profile: 'raw', settings: { env: fullEnv, extra: [1] }, mtime: await mtimeOf('raw'), path: fileOf('raw') });
  });

  it('answers 404 Settings not found for a missing file', async () => {
    const res = await app.json('GET', '/api/settings/ghost/raw');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Settings not found');
  });
});

describe('profile names (decisions §2)', () => {
  const invalid = ['-lead', '.hidden', '_x', 'a%20b', 'a%2Fb', '..', '%2e%2e', 'a'.repeat(65), 'auth', 'caf%C3%A9', 'a%00b'];

  it.each(invalid)('answers 400 Invalid profile name for %s on every settings route', async (name) => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/settings/${name}`],
      ['GET', `/api/settings/${name}/raw`],
      ['PUT', `/api/settings/${name}`, { settings: { env: {} } }],
      ['GET', `/api/settings/${name}/presets`],
      ['POST', `/api/settings/${name}/presets`, { name: 'p', default: 'm' }],
      ['DELETE', `/api/settings/${name}/presets/p`],
    ];
    for (const [method, url, body] of calls) {
      // Raw, so `..` reaches the app as sent (fetch would resolve it away).
      const res = await rawRequest(app.port, method, url, body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect({ status: res.status, body: JSON.parse(res.body) }, `${method} ${url}`).toEqual({ status: 400, body: { error: 'Invalid profile name' } });
    }
    const files = await fs.readdir(app.home);
    expect(files.filter((f) => f.includes('auth.settings') || f.includes('..'))).toEqual([]);
  });

  it('accepts the longest and the most varied valid names', async () => {
    for (const name of ['a'.repeat(64), 'A.b_c-9', '0', 'Auth', 'auth2']) {
      const res = await put(name, { settings: { env: fullEnv } });
      expect(res.status, name).toBe(200);
      expect((await app.json('GET', `/api/settings/${name}`)).status).toBe(200);
    }
  });
});

describe('PUT /api/settings/:profile', () => {
  it('creates a missing file: created=true, mode 0600, mtime as on disk, no backup, no warning when complete', async () => {
    const res = await put('fresh', { settings: { env: fullEnv } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ profile: 'fresh', mtime: await mtimeOf('fresh'), created: true });
    expect(await readStored('fresh')).toEqual({ env: fullEnv });
    expect((await fs.stat(fileOf('fresh'))).mode & 0o777).toBe(0o600);
    expect(await backupsOf('fresh')).toEqual([]);
  });

  it('warns, without blocking, about required fields that are missing or blank when it creates the file', async () => {
    const res = await put('partial', { settings: { env: { PROVIDER_AUTH_TOKEN: SECRET, PROVIDER_MODEL: '  ' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      created: true,
      warning: 'Missing fields will use defaults: PROVIDER_BASE_URL, PROVIDER_MODEL',
      missingFields: ['PROVIDER_BASE_URL', 'PROVIDER_MODEL'],
    });
    expect(await readStored('partial')).toEqual({ env: { PROVIDER_AUTH_TOKEN: SECRET, PROVIDER_MODEL: '  ' } });
  });

  it('replaces an existing file after backing it up: created=false, backupPath, no warning', async () => {
    await writeStored('replace', { env: fullEnv });
    const before = await fs.readFile(fileOf('replace'), 'utf8');
    const res = await put('replace', { settings: { env: { PROVIDER_MODEL: 'm2' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ profile: 'replace', mtime: await mtimeOf('replace'), created: false, backupPath: expect.any(String) });
    expect(path.dirname(res.body.backupPath)).toBe(path.join(app.home, 'backups'));
    expect(path.basename(res.body.backupPath)).toMatch(/^replace\.\d{8}T\d{9}Z\.settings\.json$/);
    expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe(before);
    expect(await readStored('replace')).toEqual({ env: { PROVIDER_MODEL: 'm2' } });
  });

  it('takes no backup and keeps the mtime when the content does not change', async () => {
    await put('same', { settings: { env: fullEnv } });
    const mtime = await mtimeOf('same');
    const res = await put('same', { settings: { env: fullEnv }, expectedMtime: mtime });
    expect(res).toEqual({ status: 200, body: { profile: 'same', mtime, created: false } });
    expect(await backupsOf('same')).toEqual([]);
  });

  it('keeps top-level fields it is not sent, replaces env, and stores unknown keys as sent', async () => {
    await writeStored('keep', { env: { OLD: '1', PROVIDER_MODEL: 'x' }, presets: [{ name: 'p', default: 'm' }], hooks: { pre: ['a'] }, model: 'opus' });
    const res = await put('keep', { settings: { env: { NEW_KEY: 'v', PROVIDER_MODEL: 'y' }, model: 'sonnet', statusLine: { type: 'cmd' } } });
    expect(res.status).toBe(200);
    expect(await readStored('keep')).toEqual({
      env: { NEW_KEY: 'v', PROVIDER_MODEL: 'y' },
      presets: [{ name: 'p', default: 'm' }],
      hooks: { pre: ['a'] },
      model: 'sonnet',
      statusLine: { type: 'cmd' },
    });
  });

  it('keeps the stored secret when a masked form is saved back', async () => {
    await writeStored('roundtrip', { env: { ...fullEnv, ANTHROPIC_API_KEY: OTHER_SECRET }, model: 'opus' });
    const masked = await app.json('GET', '/api/settings/roundtrip');
    masked.body.settings.env.PROVIDER_MODEL = 'changed-model';
    const res = await put('roundtrip', { settings: masked.body.settings, expectedMtime: masked.body.mtime });
    expect(res.status).toBe(200);
    expect(await readStored('roundtrip')).toEqual({
      env: { ...fullEnv, ANTHROPIC_API_KEY: OTHER_SECRET, PROVIDER_MODEL: 'changed-model' },
      model: 'opus',
    });
  });

  it('stores the mask literally for a plain key, and never stores it as a secret', async () => {
    await writeStored('literal', { env: { PROVIDER_MODEL: 'x' } });
    await put('literal', { settings: { env: { PROVIDER_MODEL: '********', NEW_TOKEN: '********', PROVIDER_AUTH_TOKEN: OTHER_SECRET } } });
    expect(await readStored('literal')).toEqual({ env: { PROVIDER_MODEL: '********', PROVIDER_AUTH_TOKEN: OTHER_SECRET } });
  });

  it('replaces the file when expectedMtime equals the current mtime', async () => {
    await writeStored('match', { env: fullEnv });
    const res = await put('match', { settings: { env: { PROVIDER_MODEL: 'z' } }, expectedMtime: await mtimeOf('match') });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(false);
    expect(res.body.mtime).toBe(await mtimeOf('match'));
  });

  it('answers 409 File modified externally with currentMtime when expectedMtime differs, and changes nothing', async () => {
    await writeStored('conflict', { env: fullEnv });
    const mtime = await mtimeOf('conflict');
    for (const expectedMtime of [mtime - 1, mtime + 1, 0]) {
      const res = await put('conflict', { settings: { env: { PROVIDER_MODEL: 'lost' } }, expectedMtime });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'File modified externally', currentMtime: mtime });
    }
    expect(await readStored('conflict')).toEqual({ env: fullEnv });
    expect(await backupsOf('conflict')).toEqual([]);
  });

  it('creates a missing file even when the client sends an expectedMtime (state table: file missing → created)', async () => {
    const res = await put('gone', { settings: { env: fullEnv }, expectedMtime: 1234 });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(true);
  });

  it('gives exactly one 200 and nineteen 409 for 20 parallel PUTs with the same expectedMtime', async () => {
    await writeStored('race', { env: { PROVIDER_MODEL: 'start' } });
    const mtime = await mtimeOf('race');
    const bodies = Array.from({ length: 20 }, (_, i) => ({ settings: { env: { PROVIDER_MODEL: `writer-${i}` } }, expectedMtime: mtime }));
    const results = await Promise.all(bodies.map((b) => put('race', b)));
    const winners = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    const losers = results.filter((r) => r.status === 409);
    expect(losers).toHaveLength(19);
    const finalMtime = await mtimeOf('race');
    for (const l of losers) expect(l.body).toMatchObject({ error: 'File modified externally' });
    expect(losers.every((l) => l.body.currentMtime === mtime || l.body.currentMtime === finalMtime)).toBe(true);
    expect(await readStored('race')).toEqual({ env: { PROVIDER_MODEL: `writer-${winners[0]}` } });
    expect(results[winners[0]!]!.body.mtime).toBe(finalMtime);
    expect(finalMtime).not.toBe(mtime);
  });

  it('keeps the newest 20 backups per profile, named by the documented pattern', async () => {
    await put('retain', { settings: { env: { V: '0' } } });
    for (let i = 1; i <= 25; i++) expect((await put('retain', { settings: { env: { V: String(i) } } })).status).toBe(200);
    const names = (await backupsOf('retain')).sort();
    expect(names).toHaveLength(20);
    for (const n of names) expect(n).toMatch(/^retain\.\d{8}T\d{9}Z\.settings\.json$/);
    const kept = await Promise.all(names.map(async (n) => JSON.parse(await fs.readFile(path.join(app.home, 'backups', n), 'utf8')).env.V));
    expect(kept).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 5)));
  });

  it('replaces a file that is not valid JSON when no expectedMtime is sent, backing the broken text up', async () => {
    await writeStored('fixme', '{ not json');
    const res = await put('fixme', { settings: { env: fullEnv } });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(false);
    expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe('{ not json');
    expect(await readStored('fixme')).toEqual({ env: fullEnv });
  });

  describe('bad bodies answer 400 with the documented text and a message naming the field', () => {
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['no body', undefined, 'settings object is required in request body', /^settings: /],
      ['empty object', {}, 'settings object is required in request body', /^settings: /],
      ['settings as a string', { settings: 'x' }, 'settings object is required in request body', /^settings: /],
      ['settings as an array', { settings: [] }, 'settings object is required in request body', /^settings: /],
      ['settings without env', { settings: {} }, 'settings object is required in request body', /^settings\.env: /],
      ['env as an array', { settings: { env: [] } }, 'settings object is required in request body', /^settings\.env: /],
      ['env value a number', { settings: { env: { A: 1 } } }, 'settings object is required in request body', /^settings\.env\.A: /],
      ['body an array', [], 'settings object is required in request body', /^body: /],
      ['expectedMtime a string', { settings: { env: {} }, expectedMtime: '1' }, 'expectedMtime must be an integer', /^expectedMtime: /],
      ['expectedMtime a fraction', { settings: { env: {} }, expectedMtime: 1.5 }, 'expectedMtime must be an integer', /^expectedMtime: /],
    ];
    it.each(cases)('%s', async (_label, body, error, message) => {
      const res = await put('badbody', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(error);
      expect(res.body.message).toMatch(message);
      await expect(fs.access(fileOf('badbody'))).rejects.toThrow();
    });
  });

  it('answers 400 Invalid JSON in request body for malformed JSON', async () => {
    const res = await app.json('PUT', '/api/settings/x', '{"settings": ');
    expect(res).toEqual({ status: 400, body: { error: 'Invalid JSON in request body' } });
  });

  it('answers 413 Request body too large for a body over 1 MiB and writes nothing', async () => {
    const res = await put('huge', { settings: { env: { BIG: 'x'.repeat(1024 * 1024) } } });
    expect(res).toEqual({ status: 413, body: { error: 'Request body too large' } });
    await expect(fs.access(fileOf('huge'))).rejects.toThrow();
  });

  it('answers 405 for a method the route does not have', async () => {
    const res = await app.json('PATCH', '/api/settings/work');
    expect(res).toEqual({ status: 405, body: { error: 'Method not allowed' } });
  });
});

describe('a failed write', () => {
  it('answers 500 Failed to write settings file with a message and leaves the old file intact', async () => {
    const isolated = await startTestApp();
    try {
      const file = path.join(isolated.home, 'work.settings.json');
      await fs.writeFile(file, JSON.stringify({ env: fullEnv }));
      const before = await fs.readFile(file, 'utf8');
      // The backup must precede the replace; a file where backups/ should be makes it fail.
      await fs.rm(path.join(isolated.home, 'backups'), { recursive: true, force: true });
      await fs.writeFile(path.join(isolated.home, 'backups'), 'in the way');
      const res = await isolated.json('PUT', '/api/settings/work', { settings: { env: { PROVIDER_MODEL: 'new' } } });
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Failed to write settings file');
      expect(res.body.message).toMatch(/EEXIST|ENOTDIR/);
      expect(await fs.readFile(file, 'utf8')).toBe(before);
      expect((await fs.readdir(isolated.home)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      await isolated.stop();
    }
  });
});

describe('GET /api/profiles', () => {
  it('lists every profile with a settings file, sorted by name in code-unit order', async () => {
    const isolated = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(home, { recursive: true });
        for (const n of ['b', 'a', 'B', 'a.b', 'a_b', 'Z9']) await fs.writeFile(path.join(home, `${n}.settings.json`), '{"env":{}}');
        await fs.writeFile(path.join(home, 'auth.settings.json'), '{}'); // reserved name: not a profile
        await fs.writeFile(path.join(home, '-x.settings.json'), '{}'); // invalid name
        await fs.writeFile(path.join(home, 'notes.json'), '{}');
        await fs.mkdir(path.join(home, 'dir.settings.json'));
      },
    });
    try {
      const res = await isolated.json('GET', '/api/profiles');
      expect(res.status).toBe(200);
      const names = res.body.profiles.map((p: { name: string }) => p.name);
      expect(names).toEqual(['B', 'Z9', 'a', 'a.b', 'a_b', 'b']);
      for (const p of res.body.profiles) {
        expect(p.path).toBe(path.join(isolated.home, `${p.name}.settings.json`));
        expect(p.mtime).toBe(Math.floor((await fs.stat(p.path)).mtimeMs));
      }
    } finally {
      await isolated.stop();
    }
  });

  it('answers an empty list when there are no profiles', async () => {
    const isolated = await startTestApp();
    try {
      expect(await isolated.json('GET', '/api/profiles')).toEqual({ status: 200, body: { profiles: [], default: null } });
    } finally {
      await isolated.stop();
    }
  });
});

describe('guards on a write route (decisions §1)', () => {
  const body = JSON.stringify({ settings: { env: { PROVIDER_MODEL: 'guarded' } } });

  it('refuses a browser-like cross-site PUT and writes nothing', async () => {
    const res = await rawRequest(app.port, 'PUT', '/api/settings/guarded', {
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ error: 'Cross-origin request refused' });
    await expect(fs.access(fileOf('guarded'))).rejects.toThrow();
  });

  it('refuses a foreign Host header', async () => {
    const res = await rawRequest(app.port, 'PUT', '/api/settings/guarded', {
      headers: { host: `attacker.example:${app.port}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ error: 'Forbidden host' });
    await expect(fs.access(fileOf('guarded'))).rejects.toThrow();
  });

  it('lets a CLI PUT without Origin through, and a same-origin dashboard PUT too', async () => {
    const cli = await rawRequest(app.port, 'PUT', '/api/settings/guarded', { headers: { 'content-type': 'application/json' }, body });
    expect(cli.status).toBe(200);
    const dashboard = await rawRequest(app.port, 'PUT', '/api/settings/guarded', {
      headers: { origin: `http://127.0.0.1:${app.port}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body,
    });
    expect(dashboard.status).toBe(200);
  });
});

describe('stale temp files at start', () => {
  it('are swept from {config_dir}, backups/ and proxy/, while a live writer’s fresh temp file stays', async () => {
    const dead = await deadPid();
    const names = {
      deadHome: `.work.settings.json.${dead}.0123456789ab.tmp`,
      deadBackups: `.work.20260101T000000000Z.settings.json.${dead}.0123456789ab.tmp`,
      deadProxy: `.config.yaml.${dead}.0123456789ab.tmp`,
      oldLive: `.old.settings.json.${process.pid}.0123456789ab.tmp`,
      freshLive: `.fresh.settings.json.${process.pid}.0123456789ab.tmp`,
    };
    const isolated = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(path.join(home, 'backups'), { recursive: true });
        await fs.mkdir(path.join(home, 'proxy'), { recursive: true });
        await fs.writeFile(path.join(home, names.deadHome), '{"env":');
        await fs.writeFile(path.join(home, 'backups', names.deadBackups), '{');
        await fs.writeFile(path.join(home, 'proxy', names.deadProxy), 'server:');
        await fs.writeFile(path.join(home, names.oldLive), '{');
        const old = new Date(Date.now() - 5 * 60_000);
        await fs.utimes(path.join(home, names.oldLive), old, old);
        await fs.writeFile(path.join(home, names.freshLive), '{');
      },
    });
    try {
      const temps = async (dir: string) => (await fs.readdir(dir)).filter((n) => n.endsWith('.tmp'));
      expect(await temps(isolated.home)).toEqual([names.freshLive]);
      expect(await temps(path.join(isolated.home, 'backups'))).toEqual([]);
      expect(await temps(path.join(isolated.home, 'proxy'))).toEqual([]);
    } finally {
      await isolated.stop();
    }
  });
});

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}
