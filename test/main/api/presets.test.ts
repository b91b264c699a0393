import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { rawRequest } from '../../helpers/raw-http.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const fileOf = (profile: string) => path.join(app.home, `${profile}.settings.json`);
const readStored = async (profile: string) => JSON.parse(await fs.readFile(fileOf(profile), 'utf8'));
const writeStored = (profile: string, content: unknown) =>
  fs.writeFile(fileOf(profile), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
const post = (profile: string, body: unknown) => app.json('POST', `/api/settings/${profile}/presets`, body);
const backupsOf = async (profile: string) =>
  (await fs.readdir(path.join(app.home, 'backups')).catch(() => [] as string[])).filter((n) =>
    new RegExp(`^${profile}\\.\\d{8}T\\d{9}Z\\.settings\\.json$`).test(n),
  );

describe('GET /api/settings/:profile/presets', () => {
  it('answers an empty list for a profile without a settings file', async () => {
    expect(await app.json('GET', '/api/settings/none/presets')).toEqual({ status: 200, body: { presets: [] } });
  });

  it('answers an empty list for a settings file without presets', async () => {
    await writeStored('plain', { env: { A: '1' } });
    expect(await app.json('GET', '/api/settings/plain/presets')).toEqual({ status: 200, body: { presets: [] } });
  });

  it('answers the stored presets in order', async () => {
    const presets = [
      { name: 'fast', default: 'haiku-4' },
      { name: 'deep', default: 'opus-4', opus: 'opus-4', sonnet: 'sonnet-4', haiku: 'haiku-4' },
    ];
    await writeStored('listed', { env: {}, presets });
    expect(await app.json('GET', '/api/settings/listed/presets')).toEqual({ status: 200, body: { presets } });
  });

  it('answers 500 Failed to read settings file for a file that is not JSON', async () => {
    await writeStored('brokenlist', '{"presets": [');
    const res = await app.json('GET', '/api/settings/brokenlist/presets');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to read settings file');
    expect(res.body.message).toMatch(/JSON/);
  });
});

describe('POST /api/settings/:profile/presets', () => {
  it('creates a missing settings file as {env: {}, presets: [preset]} and answers 201 {preset}', async () => {
    const res = await post('newprof', { name: 'p1', default: 'claude-sonnet-4-5' });
    expect(res).toEqual({ status: 201, body: { preset: { name: 'p1', default: 'claude-sonnet-4-5' } } });
    expect(await readStored('newprof')).toEqual({ env: {}, presets: [{ name: 'p1', default: 'claude-sonnet-4-5' }] });
    expect((await fs.stat(fileOf('newprof'))).mode & 0o777).toBe(0o600);
  });

  it('appends to an existing file, keeps everything else, and backs the old file up', async () => {
    const before = { env: { PROVIDER_MODEL: 'm', PROVIDER_AUTH_TOKEN: 'tok-keep-me-1' }, presets: [{ name: 'a', default: 'x' }], hooks: { any: 1 } };
    await writeStored('append', before);
    const text = await fs.readFile(fileOf('append'), 'utf8');
    const preset = { name: 'b', default: 'y', opus: 'o', sonnet: 's', haiku: 'h' };
    expect(await post('append', preset)).toEqual({ status: 201, body: { preset } });
    expect(await readStored('append')).toEqual({ ...before, presets: [...before.presets, preset] });
    const backups = await backupsOf('append');
    expect(backups).toHaveLength(1);
    expect(await fs.readFile(path.join(app.home, 'backups', backups[0]!), 'utf8')).toBe(text);
  });

  it('trims the name and keeps other string fields', async () => {
    const res = await post('trim', { name: '  spaced  ', default: ' model-x ', note: 'kept' });
    expect(res.status).toBe(201);
    expect(res.body.preset).toEqual({ name: 'spaced', default: 'model-x', note: 'kept' });
    expect((await readStored('trim')).presets).toEqual([{ name: 'spaced', default: 'model-x', note: 'kept' }]);
  });

  it('accepts a 64-character name', async () => {
    expect((await post('longname', { name: 'n'.repeat(64), default: 'm' })).status).toBe(201);
  });

  it('answers 409 Preset with this name already exists for a duplicate (also after trimming)', async () => {
    await post('dup', { name: 'same', default: 'm1' });
    for (const name of ['same', ' same ']) {
      const res = await post('dup', { name, default: 'm2' });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('Preset with this name already exists');
    }
    expect((await readStored('dup')).presets).toEqual([{ name: 'same', default: 'm1' }]);
  });

  describe('bad bodies', () => {
    const required: Array<[string, unknown]> = [
      ['no body', undefined],
      ['empty object', {}],
      ['name missing', { default: 'm' }],
      ['default missing', { name: 'p' }],
      ['name blank', { name: '   ', default: 'm' }],
      ['default empty', { name: 'p', default: '' }],
      ['default blank', { name: 'p', default: '  ' }],
      ['name too long', { name: 'n'.repeat(65), default: 'm' }],
      ['name a number', { name: 7, default: 'm' }],
      ['default null', { name: 'p', default: null }],
      ['body an array', [{ name: 'p', default: 'm' }]],
    ];
    it.each(required)('%s → 400 Missing required fields: name, default', async (_label, body) => {
      const res = await post('badpreset', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Missing required fields: name, default');
      expect(typeof res.body.message).toBe('string');
      await expect(fs.access(fileOf('badpreset'))).rejects.toThrow();
    });

    const types: Array<[string, unknown, string]> = [
      ['opus a number', { name: 'p', default: 'm', opus: 4 }, 'opus'],
      ['sonnet null', { name: 'p', default: 'm', sonnet: null }, 'sonnet'],
      ['haiku an object', { name: 'p', default: 'm', haiku: {} }, 'haiku'],
      ['unknown field not a string', { name: 'p', default: 'm', extra: true }, 'extra'],
    ];
    it.each(types)('%s → 400 Invalid preset naming the field', async (_label, body, field) => {
      const res = await post('badpreset', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Invalid preset');
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
      await expect(fs.access(fileOf('badpreset'))).rejects.toThrow();
    });
  });

  it('answers 500 Failed to read settings file and leaves a file that is not JSON untouched', async () => {
    await writeStored('brokenpost', '{"env": ');
    const res = await post('brokenpost', { name: 'p', default: 'm' });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to read settings file');
    expect(await fs.readFile(fileOf('brokenpost'), 'utf8')).toBe('{"env": ');
  });

  it('answers 500 Failed to read settings file when presets is not an array, and changes nothing', async () => {
    await writeStored('oddpresets', { env: {}, presets: { name: 'x' } });
    const res = await post('oddpresets', { name: 'p', default: 'm' });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: 'Failed to read settings file', message: expect.stringContaining('"presets" must be an array') });
    expect(await readStored('oddpresets')).toEqual({ env: {}, presets: { name: 'x' } });
  });

  it('loses no preset when 10 are added in parallel (one serialised write path)', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `par-${i}`);
    const results = await Promise.all(names.map((name) => post('parallel', { name, default: 'm' })));
    expect(results.map((r) => r.status)).toEqual(names.map(() => 201));
    const stored = (await readStored('parallel')).presets.map((p: { name: string }) => p.name).sort();
    expect(stored).toEqual([...names].sort());
  });

  it('refuses a cross-site POST from a browser and accepts one from the CLI', async () => {
    const body = JSON.stringify({ name: 'g', default: 'm' });
    const evil = await rawRequest(app.port, 'POST', '/api/settings/guard/presets', {
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body,
    });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toEqual({ error: 'Cross-origin request refused' });
    await expect(fs.access(fileOf('guard'))).rejects.toThrow();
    const cli = await rawRequest(app.port, 'POST', '/api/settings/guard/presets', { headers: { 'content-type': 'application/json' }, body });
    expect(cli.status).toBe(201);
  });
});

describe('DELETE /api/settings/:profile/presets/:name', () => {
  it('answers 404 Settings not found when the profile has no file', async () => {
    const res = await app.json('DELETE', '/api/settings/nofile/presets/x');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Settings not found');
  });

  it('answers 404 Preset not found for an unknown name and changes nothing', async () => {
    await writeStored('delmiss', { env: {}, presets: [{ name: 'a', default: 'm' }] });
    const res = await app.json('DELETE', '/api/settings/delmiss/presets/b');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Preset not found');
    expect((await readStored('delmiss')).presets).toEqual([{ name: 'a', default: 'm' }]);
  });

  it('answers 404 Preset not found for a file without presets', async () => {
    await writeStored('delnone', { env: {} });
    const res = await app.json('DELETE', '/api/settings/delnone/presets/a');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Preset not found');
  });

  it('removes the named preset, keeps the others and the rest of the file, answers {success: true}', async () => {
    await writeStored('del', { env: { K: 'v' }, presets: [{ name: 'a', default: 'm' }, { name: 'my preset', default: 'n' }, { name: 'c', default: 'o' }], x: 1 });
    const res = await app.json('DELETE', `/api/settings/del/presets/${encodeURIComponent('my preset')}`);
    expect(res).toEqual({ status: 200, body: { success: true } });
    expect(await readStored('del')).toEqual({ env: { K: 'v' }, presets: [{ name: 'a', default: 'm' }, { name: 'c', default: 'o' }], x: 1 });
    expect(await backupsOf('del')).toHaveLength(1);
    expect((await app.json('DELETE', '/api/settings/del/presets/a')).status).toBe(200);
    expect((await app.json('DELETE', '/api/settings/del/presets/a')).status).toBe(404);
  });

  it('answers 500 Failed to read settings file for a file that is not JSON', async () => {
    await writeStored('delbroken', 'nope');
    const res = await app.json('DELETE', '/api/settings/delbroken/presets/a');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to read settings file');
    expect(await fs.readFile(fileOf('delbroken'), 'utf8')).toBe('nope');
  });
});

describe('a failed preset write', () => {
  it('answers 500 Failed to write settings file with a message and keeps the old file', async () => {
    const isolated = await startTestApp();
    try {
      const file = path.join(isolated.home, 'work.settings.json');
      await fs.writeFile(file, JSON.stringify({ env: {}, presets: [{ name: 'a', default: 'm' }] }));
      const before = await fs.readFile(file, 'utf8');
      await fs.rm(path.join(isolated.home, 'backups'), { recursive: true, force: true });
      await fs.writeFile(path.join(isolated.home, 'backups'), 'in the way');
      for (const [method, url, body] of [
        ['POST', '/api/settings/work/presets', { name: 'b', default: 'm' }],
        ['DELETE', '/api/settings/work/presets/a', undefined],
      ] as const) {
        const res = await isolated.json(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(500);
        expect(res.body.error).toBe('Failed to write settings file');
        expect(res.body.message).toMatch(/EEXIST|ENOTDIR/);
      }
      expect(await fs.readFile(file, 'utf8')).toBe(before);
    } finally {
      await isolated.stop();
    }
  });
});
