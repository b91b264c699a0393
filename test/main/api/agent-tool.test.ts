import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';

const fixtures = path.resolve(__dirname, '../../fixtures/agent-tool');
const pathWithFixtures = [fixtures, process.env.PATH].join(path.delimiter);

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected a parse error');
}

describe('agent tool with the fixture binary on PATH and the default settings path', () => {
  let app: TestApp;
  let settingsFile: string;
  beforeAll(async () => {
    app = await startTestApp({ env: { PATH: pathWithFixtures } });
    settingsFile = path.join(app.home, '.factory', 'settings.json'); // ~ is the test home
  });
  afterAll(() => app.stop());

  it('GET /api/agent-tool/diagnostics finds the binary and its version', async () => {
    expect(await app.json('GET', '/api/agent-tool/diagnostics')).toEqual({
      status: 200,
      body: {
        binary: { installed: true, path: path.join(fixtures, 'droid'), version: 'droid 0.22.3 (fixture)' },
        settingsFile: { path: settingsFile, exists: false, mtime: null, sizeBytes: null, parseError: null },
        warnings: [`Settings file ${settingsFile} does not exist yet`],
        tool: { binary: 'droid', name: 'Factory Droid', source: 'config' },
        detected: [{ binary: 'droid', name: 'Factory Droid', path: path.join(fixtures, 'droid') }],
      },
    });
  });

  it('GET /api/agent-tool/settings of a missing file', async () => {
    const res = await app.json('GET', '/api/agent-tool/settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: settingsFile, exists: false, mtime: null, content: '{}', settings: {}, parseError: null });
    expect(res.body.diagnostics.binary.installed).toBe(true);
  });

  it.each([
    ['truncated JSON', '{"model":'],
    ['not JSON at all', 'model = x'],
    ['empty text', ''],
  ])('PUT 400 Invalid JSON in settings: %s', async (_name, text) => {
    const res = await app.json('PUT', '/api/agent-tool/settings', { content: text });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Invalid JSON in settings: ${jsonParseMessage(text)}`);
  });

  it.each([
    ['an array', '[1]'],
    ['null', 'null'],
    ['a string', '"x"'],
    ['a number', '42'],
  ])('PUT 400 when the root is %s', async (name, text) => {
    const res = await app.json('PUT', '/api/agent-tool/settings', { content: text });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`Invalid JSON in settings: the root must be a JSON object, not ${name}`);
  });

  it.each([
    ['no content', {}, 'Missing required field: content'],
    ['content not a string', { content: { model: 'x' } }, 'Missing required field: content'],
    ['expectedMtime not an integer', { content: '{}', expectedMtime: 'abc' }, 'expectedMtime must be an integer'],
    ['expectedMtime fractional', { content: '{}', expectedMtime: 1.5 }, 'expectedMtime must be an integer'],
  ])('PUT 400 for a bad body: %s', async (_name, body, error) => {
    const res = await app.json('PUT', '/api/agent-tool/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });

  it('nothing was written by the refused PUTs', async () => {
    await expect(fs.stat(settingsFile)).rejects.toThrow(/ENOENT/);
  });

  it('PUT creates the file (0600, raw text kept) and GET reads it back', async () => {
    const text = '{\n  "model": "gpt-5",  "autoUpdate": false\n}\n';
    const res = await app.json('PUT', '/api/agent-tool/settings', { content: text, expectedMtime: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, mtime: expect.any(Number) });
    expect(await fs.readFile(settingsFile, 'utf8')).toBe(text);
    expect((await fs.stat(settingsFile)).mode & 0o777).toBe(0o600);
    const read = await app.json('GET', '/api/agent-tool/settings');
    expect(read.body).toMatchObject({
      exists: true,
      mtime: res.body.mtime,
      content: text,
      settings: { model: 'gpt-5', autoUpdate: false },
      parseError: null,
    });
    expect(read.body.diagnostics.settingsFile).toEqual({
      path: settingsFile,
      exists: true,
      mtime: res.body.mtime,
      sizeBytes: Buffer.byteLength(text),
      parseError: null,
    });
    expect(read.body.diagnostics.warnings).toEqual([]);
  });

  it('PUT 409 with currentMtime for a stale expectedMtime or a null one on an existing file', async () => {
    const { body } = await app.json('GET', '/api/agent-tool/settings');
    for (const expectedMtime of [body.mtime - 1, null]) {
      const res = await app.json('PUT', '/api/agent-tool/settings', { content: '{"model":"other"}', expectedMtime });
      expect(res).toEqual({ status: 409, body: { error: 'File modified externally', currentMtime: body.mtime } });
    }
    expect(JSON.parse(await fs.readFile(settingsFile, 'utf8'))).toEqual({ model: 'gpt-5', autoUpdate: false });
  });

  it('PUT with the current mtime replaces the file and backs up the old text', async () => {
    const before = await app.json('GET', '/api/agent-tool/settings');
    const res = await app.json('PUT', '/api/agent-tool/settings', { content: '{"model":"b"}', expectedMtime: before.body.mtime });
    expect(res.status).toBe(200);
    expect(res.body.mtime).toBeGreaterThan(before.body.mtime);
    expect(path.dirname(res.body.backupPath)).toBe(path.join(app.home, 'backups', 'agent-tool'));
    expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe(before.body.content);
  });

  it('two concurrent PUTs with the same expectedMtime: one 200, one 409', async () => {
    const { body } = await app.json('GET', '/api/agent-tool/settings');
    const results = await Promise.all(
      ['{"n":1}', '{"n":2}'].map((content) => app.json('PUT', '/api/agent-tool/settings', { content, expectedMtime: body.mtime })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await app.json('GET', '/api/agent-tool/settings')).body.mtime).toBe(winner.body.mtime);
  });

  it('GET reports a file broken outside the app as parseError, not as an error', async () => {
    await fs.writeFile(settingsFile, '{ broken');
    const res = await app.json('GET', '/api/agent-tool/settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ exists: true, content: '{ broken', settings: null, parseError: jsonParseMessage('{ broken') });
    expect(res.body.diagnostics.warnings).toContain(`Settings file ${settingsFile} is not usable: ${jsonParseMessage('{ broken')}`);
  });
});

describe('agent tool with a missing binary and a settings path that is a directory', () => {
  let app: TestApp;
  let settingsDir: string;
  beforeAll(async () => {
    app = await startTestApp({
      env: { PATH: pathWithFixtures },
      before: async ({ home }) => {
        settingsDir = path.join(home, 'settings-dir');
        await fs.mkdir(settingsDir, { recursive: true });
        await fs.writeFile(
          path.join(home, 'config.yaml'),
          `${OFFLINE_CONFIG_YAML}agent_tool:\n  binary: no-such-droid\n  settings_path: ${JSON.stringify(settingsDir)}\n`,
        );
      },
    });
  });
  afterAll(() => app.stop());

  it('diagnostics: not installed, with warnings, status 200', async () => {
    const res = await app.json('GET', '/api/agent-tool/diagnostics');
    expect(res.status).toBe(200);
    expect(res.body.binary).toEqual({ installed: false, path: null, version: null });
    expect(res.body.settingsFile).toMatchObject({ path: settingsDir, exists: true, parseError: 'not a regular file' });
    expect(res.body.warnings).toEqual([
      "Agent tool binary 'no-such-droid' was not found on PATH",
      `Settings file ${settingsDir} is not usable: not a regular file`,
    ]);
  });

  it('PUT that cannot write answers 500 Failed to write settings file with the cause', async () => {
    const res = await app.json('PUT', '/api/agent-tool/settings', { content: '{}' });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to write settings file');
    expect(res.body.message).toContain(settingsDir);
    expect((await fs.stat(settingsDir)).isDirectory()).toBe(true);
  });
});

describe('which agent the page shows when the default is not installed (issue 28.4)', () => {
  const withPath = async (binaries: string[], config = '') => {
    const bin = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-agents-'));
    for (const b of binaries) await fs.copyFile(path.join(fixtures, 'droid'), path.join(bin, b));
    const app = await startTestApp({
      env: { PATH: bin },
      before: async ({ home }) => {
        await fs.mkdir(home, { recursive: true });
        await fs.writeFile(path.join(home, 'config.yaml'), `${OFFLINE_CONFIG_YAML}${config}`);
      },
    });
    return { app, bin, stop: async () => (await app.stop(), await fs.rm(bin, { recursive: true, force: true })) };
  };

  it('nothing installed: says so plainly in one warning, binary not installed, source none', async () => {
    const { app, stop } = await withPath([]);
    try {
      const { body } = await app.json('GET', '/api/agent-tool/diagnostics');
      expect(body.binary).toEqual({ installed: false, path: null, version: null });
      expect(body.tool).toEqual({ binary: 'droid', name: 'Factory Droid', source: 'none' });
      expect(body.detected).toEqual([]);
      expect(body.warnings).toEqual([
        'No agent tool is installed: none of droid, claude, gemini, opencode is on PATH. Install one, or name its binary in Settings (agent_tool.binary).',
      ]);
    } finally {
      await stop();
    }
  });

  it('default droid missing, claude and gemini on PATH: shows claude with its own settings file', async () => {
    const { app, bin, stop } = await withPath(['gemini', 'claude']);
    try {
      const { body } = await app.json('GET', '/api/agent-tool/settings');
      expect(body.path).toBe(path.join(app.home, '.claude', 'settings.json'));
      expect(body.diagnostics.tool).toEqual({ binary: 'claude', name: 'Claude Code', source: 'detected' });
      expect(body.diagnostics.binary).toEqual({ installed: true, path: path.join(bin, 'claude'), version: 'droid 0.22.3 (fixture)' });
      expect(body.diagnostics.detected.map((a: { binary: string }) => a.binary)).toEqual(['claude', 'gemini']);
      expect(body.diagnostics.warnings.join(' ')).not.toMatch(/droid' was not found/);
      // A save goes to the file shown.
      expect((await app.json('PUT', '/api/agent-tool/settings', { content: '{"model":"x"}' })).status).toBe(200);
      expect(await fs.readFile(path.join(app.home, '.claude', 'settings.json'), 'utf8')).toBe('{"model":"x"}');
    } finally {
      await stop();
    }
  });

  it('a binary the user named stays theirs even when missing, and a settings path they set is kept', async () => {
    const { app, stop } = await withPath(['claude'], 'agent_tool:\n  binary: my-agent\n');
    try {
      const { body } = await app.json('GET', '/api/agent-tool/diagnostics');
      expect(body.tool).toEqual({ binary: 'my-agent', name: null, source: 'config' });
      expect(body.binary.installed).toBe(false);
      expect(body.warnings[0]).toBe("Agent tool binary 'my-agent' was not found on PATH");
    } finally {
      await stop();
    }
    const custom = await withPath(['gemini'], 'agent_tool:\n  settings_path: ~/mine.json\n');
    try {
      const { body } = await custom.app.json('GET', '/api/agent-tool/settings');
      expect(body.diagnostics.tool.binary).toBe('gemini');
      expect(body.path).toBe(path.join(custom.app.home, 'mine.json'));
    } finally {
      await custom.stop();
    }
  });
});
