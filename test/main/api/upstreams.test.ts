import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home }) => {
      await prepareProxyHome(home);
      const now = Date.now();
      const line = (i: number, upstream: string, status: number, latencyMs: number, keyIndex: number) =>
        JSON.stringify({ id: `t-${i}`, time: now - 10_000 + i * 1_000, format: 'anthropic', method: 'POST', path: '/v1/messages', modelRequested: 'm', modelSent: 'm', upstream, keyIndex, status, outcome: status >= 400 ? 'error' : 'ok', latencyMs, ttfbMs: null, tokens: null, session: null, error: status >= 400 ? `HTTP ${status}` : null, errorLog: null });
      // The request log's history on disk, oldest line first, as the engine appends it.
      const lines = [line(0, 'openai', 200, 100, 0), line(1, 'openai', 200, 300, 0), line(2, 'anthropic', 500, 20, 0), line(3, 'anthropic', 502, 20, 1), line(4, 'anthropic', 429, 20, 0)];
      await fs.mkdir(path.join(home, 'proxy', 'logs'), { recursive: true });
      await fs.writeFile(path.join(home, 'proxy', 'logs', 'requests.jsonl'), `${lines.join('\n')}\n`);
    },
  });
});
afterAll(() => app?.stop());

describe('GET /api/proxy/upstreams', () => {
  it('lists every upstream of proxy/config.yaml with its health from the request log, keys never shown', async () => {
    const res = await app.request('GET', '/api/proxy/upstreams');
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain('sk-upstream-openai');
    const body = JSON.parse(text);
    expect(body.cooldownSeconds).toBe(30);
    const [openai, anthropic] = body.upstreams;
    expect(openai).toMatchObject({ name: 'openai', format: 'openai', keyCount: 1, requests: 2, errors: 0, successRate: 1, medianLatencyMs: 200, failing: false, coolingKeys: [] });
    expect(anthropic).toMatchObject({ name: 'anthropic', keyCount: 2, requests: 3, errors: 3, successRate: 0, failing: true });
    expect(anthropic.lastError.status).toBe(429);
    expect(anthropic.coolingKeys.map((k: { index: number }) => k.index)).toEqual([0, 1]);
  });

  it('a proxy YAML that cannot be parsed is the documented Invalid YAML answer', async () => {
    const file = path.join(app.home, 'proxy', 'config.yaml');
    const before = await fs.readFile(file, 'utf8');
    try {
      await fs.writeFile(file, 'upstreams: [ {');
      const { status, body } = await app.json('GET', '/api/proxy/upstreams');
      expect(status).toBe(400);
      expect(body.error).toBe('Invalid YAML');
    } finally {
      await fs.writeFile(file, before);
    }
  });
});

describe('PUT /api/proxy/upstreams (the upstream form)', () => {
  const file = () => path.join(app.home, 'proxy', 'config.yaml');

  it('reorders, edits, renames, removes and adds; comments, unknown keys and untouched keys survive', async () => {
    // A hand-edited file: comments on the file and on an entry, and a key the form does not know.
    const original = (await fs.readFile(file(), 'utf8'))
      .replace('  - name: anthropic\n', '  # the Anthropic pool, two keys\n  - name: anthropic\n    x_note: keep me\n');
    await fs.writeFile(file(), original);
    const { body: read } = await app.json('GET', '/api/proxy/upstreams');
    const res = await app.json('PUT', '/api/proxy/upstreams', {
      expectedMtime: read.configMtime,
      upstreams: [
        { name: 'claude', previousName: 'anthropic', format: 'anthropic', baseUrl: 'http://127.0.0.1:9', models: ['claude-sonnet-4-5'] },
        { name: 'fresh', format: 'openai', baseUrl: 'https://api.example.test/v1', models: ['m1', 'm2'], apiKeys: ['sk-new-1'] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, upstreams: ['claude', 'fresh'], proxy: { running: false, restarted: false } });
    expect(res.body.backupPath).toContain('backups/');
    const text = await fs.readFile(file(), 'utf8');
    expect(text).toContain('# test proxy config');
    expect(text).toContain('# the Anthropic pool, two keys');
    expect(text).toContain('x_note: keep me');
    expect(text).not.toContain('name: openai'); // removed
    const yaml = (await import('yaml')).parse(text) as { upstreams: Array<Record<string, unknown>> };
    expect(yaml.upstreams).toEqual([
      { name: 'claude', format: 'anthropic', base_url: 'http://127.0.0.1:9', api_key: ['sk-ant-1', 'sk-ant-2'], models: ['claude-sonnet-4-5'], x_note: 'keep me' },
      { name: 'fresh', format: 'openai', base_url: 'https://api.example.test/v1', models: ['m1', 'm2'], api_key: 'sk-new-1' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('sk-');
  });

  it.each([
    [{ upstreams: [{ name: 'a', format: 'openai', baseUrl: 'https://a.test/v1', models: [] }, { name: 'a', format: 'openai', baseUrl: 'https://b.test/v1', models: [] }] }, 400, 'Invalid upstreams', /two upstreams are named a/],
    [{ upstreams: [{ name: 'a', previousName: 'gone', format: 'openai', baseUrl: 'https://a.test/v1', models: [] }] }, 400, 'Invalid upstreams', /no upstream named gone/],
    [{ upstreams: [{ name: 'a', format: 'grpc', baseUrl: 'https://a.test/v1', models: [] }] }, 400, 'Invalid upstreams', /format/],
    [{ upstreams: [{ name: 'a', format: 'openai', baseUrl: 'not a url', models: [] }] }, 400, 'Invalid upstreams', /baseUrl/],
    [{ upstreams: [], expectedMtime: 1 }, 409, 'File modified externally', /changed since it was read/],
  ])('%j → %i %s, and the file is untouched', async (input, code, error, message) => {
    const before = await fs.readFile(file(), 'utf8');
    const { status, body } = await app.json('PUT', '/api/proxy/upstreams', input);
    expect(status).toBe(code);
    expect(body.error).toBe(error);
    expect(body.message).toMatch(message);
    expect(await fs.readFile(file(), 'utf8')).toBe(before);
  });
});
