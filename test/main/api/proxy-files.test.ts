import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { traversalCorpus } from '../../helpers/traversal-corpus.js';

/** Error logs, proxy/config.yaml and auth files through the API (spec 4.4, decisions §4). */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/error-logs');
const LOGS = {
  newest: 'error-api-provider-agy-v1-messages-2026-01-14T110000-0badf00d.log',
  middle: 'error-v1-messages-2026-01-14T101530-1a2b3c4d.log',
  oldest: 'error-v1-chat-completions-2026-01-13T090000-deadbeef.log',
};
const SECRET_OUTSIDE = 'TOP-SECRET-OUTSIDE-CONTENT';

let app: TestApp;
let logsDir: string;
let authDir: string;
let outside: string;

beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home }) => {
      logsDir = path.join(home, 'proxy', 'logs');
      authDir = path.join(home, 'proxy', 'auth');
      outside = path.join(path.dirname(home), 'outside.json');
      await fs.mkdir(logsDir, { recursive: true });
      await fs.mkdir(authDir, { recursive: true, mode: 0o755 });
      await fs.writeFile(outside, SECRET_OUTSIDE);
      const place = async (name: string, fixture: string, seconds: number) => {
        await fs.copyFile(path.join(FIXTURES, fixture), path.join(logsDir, name));
        await fs.utimes(path.join(logsDir, name), seconds, seconds);
      };
      await place(LOGS.newest, 'real-failover-success.log', 1_768_400_000);
      await place(LOGS.middle, 'real-two-attempts.log', 1_768_300_000);
      await place(LOGS.oldest, 'simplified.log', 1_768_200_000);
      // Not error logs: other names, a directory, a symlink planted to read outside.
      await fs.writeFile(path.join(logsDir, 'main.log'), 'x');
      await fs.writeFile(path.join(logsDir, 'request-body-1.tmp'), 'x');
      await fs.mkdir(path.join(logsDir, 'error-dir.log'));
      await fs.symlink(outside, path.join(logsDir, 'error-link.log'));

      await fs.writeFile(path.join(authDir, 'gemini-a@example.com-proj-1.json'), '{"type":"gemini","email":"a@example.com"}', { mode: 0o644 });
      await fs.writeFile(path.join(authDir, 'codex-b@example.com.json'), '{"type":"codex","access_token":"tok"}', { mode: 0o600 });
      await fs.writeFile(path.join(authDir, 'notes.txt'), 'not json');
      await fs.mkdir(path.join(authDir, 'nested.json'));
      await fs.symlink(outside, path.join(authDir, 'link.json'));
    },
  });
});
afterAll(() => app.stop());

describe('GET /api/proxy/error-logs', () => {
  it('lists only regular error-*.log files, newest first, with status sent and model asked', async () => {
    const res = await app.json('GET', '/api/proxy/error-logs');
    expect(res.status).toBe(200);
    const size = async (name: string) => (await fs.stat(path.join(logsDir, name))).size;
    expect(res.body).toEqual({
      files: [
        { name: LOGS.newest, size: await size(LOGS.newest), mtime: 1_768_400_000_000, absolutePath: path.join(logsDir, LOGS.newest), statusCode: 200, model: 'gemini-3-pro-preview' },
        { name: LOGS.middle, size: await size(LOGS.middle), mtime: 1_768_300_000_000, absolutePath: path.join(logsDir, LOGS.middle), statusCode: 529, model: 'claude-sonnet-4-5-20250929' },
        { name: LOGS.oldest, size: await size(LOGS.oldest), mtime: 1_768_200_000_000, absolutePath: path.join(logsDir, LOGS.oldest), statusCode: 404, model: 'gpt-4o' },
      ],
    });
  });
});

describe('GET /api/proxy/error-logs/:name', () => {
  it('serves one log as plain text', async () => {
    const res = await app.request('GET', `/api/proxy/error-logs/${LOGS.middle}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(await fs.readFile(path.join(FIXTURES, 'real-two-attempts.log'), 'utf8'));
  });

  it('answers 400 Invalid error log filename for names outside error-*.log', async () => {
    for (const name of ['main.log', 'error-.txt', 'x-error-a.log', encodeURIComponent('error-a/../b.log'), 'error-..log']) {
      expect(await app.json('GET', `/api/proxy/error-logs/${name}`), name).toEqual({ status: 400, body: { error: 'Invalid error log filename' } });
    }
  });

  it('answers 404 Error log not found for a missing log and for a symlink planted in the directory', async () => {
    for (const name of ['error-missing.log', 'error-link.log', 'error-dir.log']) {
      expect(await app.json('GET', `/api/proxy/error-logs/${name}`), name).toEqual({ status: 404, body: { error: 'Error log not found' } });
    }
  });

  it('refuses every traversal name of the corpus without reading outside', async () => {
    for (const name of traversalCorpus(outside)) {
      const res = await app.request('GET', `/api/proxy/error-logs/${encodeURIComponent(name)}`);
      const text = await res.text();
      expect([400, 404], name).toContain(res.status);
      expect(text).not.toContain(SECRET_OUTSIDE);
    }
  });
});

describe('GET/PUT /api/proxy/config.yaml', () => {
  const file = () => path.join(app.home, 'proxy', 'config.yaml');

  it('GET answers the YAML text the app created at first start, with its mtime', async () => {
    const res = await app.request('GET', '/api/proxy/config.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    const text = await res.text();
    expect(text).toBe(await fs.readFile(file(), 'utf8'));
    expect(text).toMatch(/api_key: sk-sb-/);
    expect(Number(res.headers.get('x-file-mtime'))).toBe(Math.floor((await fs.stat(file())).mtimeMs));
    // It carries the proxy's secrets in the clear: never cached.
    expect(res.headers.get('cache-control')).toBe('no-store, no-cache, must-revalidate');
    expect(res.headers.get('pragma')).toBe('no-cache');
  });

  it('PUT without content answers 400 Missing required field: content', async () => {
    for (const body of [{}, { content: 42 }, { contents: 'server: {}' }]) {
      const res = await app.json('PUT', '/api/proxy/config.yaml', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Missing required field: content');
      expect(res.body.message).toMatch(/content/);
    }
  });

  it('PUT answers 400 Invalid YAML for unparsable text and for known keys of the wrong type', async () => {
    const before = await fs.readFile(file(), 'utf8');
    const cases: Array<[string, RegExp]> = [
      ['server: [unclosed', /line 1/],
      ['server:\n  port: eighty\n', /server\.port/],
      ['upstreams:\n  - name: x\n    format: grpc\n    base_url: http://h\n', /upstreams\.0\.format/],
      ['providers:\n  gemini:\n    enabled: "yes"\n', /providers\.gemini\.enabled/],
      ['- just\n- a list\n', /mapping/],
    ];
    for (const [content, message] of cases) {
      const res = await app.json('PUT', '/api/proxy/config.yaml', { content });
      expect(res.status, content).toBe(400);
      expect(res.body.error).toBe('Invalid YAML');
      expect(res.body.message).toMatch(message);
    }
    expect(await fs.readFile(file(), 'utf8')).toBe(before);
  });

  it('PUT writes atomically with a backup, keeps unknown keys, and checks expectedMtime', async () => {
    const current = await app.request('GET', '/api/proxy/config.yaml');
    const before = await current.text();
    const mtime = Number(current.headers.get('x-file-mtime'));
    const content = `${before}request-retry: 3\n`;

    const stale = await app.json('PUT', '/api/proxy/config.yaml', { content, expectedMtime: mtime - 1 });
    expect(stale).toEqual({ status: 409, body: { error: 'File modified externally', message: expect.any(String), currentMtime: mtime } });

    const res = await app.json('PUT', '/api/proxy/config.yaml', { content, expectedMtime: mtime });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, path: file(), mtime: expect.any(Number), backupPath: expect.stringContaining(path.join(app.home, 'backups', 'proxy-config.')), updatedProfiles: [] });
    expect(res.body.mtime).toBeGreaterThan(mtime);
    expect(await fs.readFile(file(), 'utf8')).toBe(content);
    expect((await fs.stat(file())).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(res.body.backupPath, 'utf8')).toBe(before);
    expect((await fs.readdir(path.dirname(file()))).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const badMtime = await app.json('PUT', '/api/proxy/config.yaml', { content, expectedMtime: 'yesterday' });
    expect(badMtime.status).toBe(400);
    expect(badMtime.body.error).toBe('expectedMtime must be an integer');
  });

  it('two PUTs carrying the same expectedMtime give one 200 and one 409', async () => {
    const current = await app.request('GET', '/api/proxy/config.yaml');
    const text = await current.text();
    const mtime = Number(current.headers.get('x-file-mtime'));
    const results = await Promise.all(
      ['a', 'b'].map((tag) => app.json('PUT', '/api/proxy/config.yaml', { content: `${text}# ${tag}\n`, expectedMtime: mtime })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('GET answers 404 Config file not found when the file is gone', async () => {
    const saved = await fs.readFile(file(), 'utf8');
    await fs.rm(file());
    try {
      expect(await app.json('GET', '/api/proxy/config.yaml')).toEqual({ status: 404, body: { error: 'Config file not found' } });
    } finally {
      await fs.writeFile(file(), saved, { mode: 0o600 });
    }
  });
});

describe('auth files', () => {
  it('lists only regular *.json files and keeps the directory private', async () => {
    const res = await app.json('GET', '/api/proxy/auth-files');
    expect(res.status).toBe(200);
    const entry = async (name: string) => {
      const st = await fs.stat(path.join(authDir, name));
      return { name, size: st.size, mtime: Math.floor(st.mtimeMs) };
    };
    expect(res.body).toEqual({
      files: [await entry('codex-b@example.com.json'), await entry('gemini-a@example.com-proj-1.json')],
      directory: authDir,
    });
    expect((await fs.stat(authDir)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(path.join(authDir, 'gemini-a@example.com-proj-1.json'))).mode & 0o777).toBe(0o600);
  });

  it('downloads one as an octet-stream that is never cached', async () => {
    const res = await app.request('GET', `/api/proxy/auth-files/download?name=${encodeURIComponent('codex-b@example.com.json')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('cache-control')).toBe('no-store, no-cache, must-revalidate');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.headers.get('content-disposition')).toContain('attachment; filename="codex-b@example.com.json"');
    expect(await res.text()).toBe('{"type":"codex","access_token":"tok"}');
  });

  it('answers the documented 400s and 404s', async () => {
    const get = (query: string) => app.json('GET', `/api/proxy/auth-files/download${query}`);
    expect(await get('')).toMatchObject({ status: 400, body: { error: 'Missing required query parameter: name' } });
    expect(await get('?name=')).toMatchObject({ status: 400, body: { error: 'Missing required query parameter: name' } });
    for (const name of ['../config.yaml', 'notes.txt', '..%2Fproxy.json', '.json']) {
      expect(await get(`?name=${name}`), name).toEqual({ status: 400, body: { error: 'Invalid filename' } });
    }
    for (const name of ['missing.json', 'link.json', 'nested.json']) {
      expect(await get(`?name=${name}`), name).toEqual({ status: 404, body: { error: 'Auth file not found' } });
    }
  });

  it('refuses every traversal name of the corpus without reading outside', async () => {
    for (const name of traversalCorpus(outside)) {
      const res = await app.request('GET', `/api/proxy/auth-files/download?name=${encodeURIComponent(name)}`);
      expect([400, 404], name).toContain(res.status);
      expect(await res.text()).not.toContain(SECRET_OUTSIDE);
    }
  });
});
