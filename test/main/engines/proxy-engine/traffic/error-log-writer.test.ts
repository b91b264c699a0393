import fs from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger } from '../../../../../main/infra/logger.js';
import { parseErrorLog } from '../../../../../main/services/proxy/error-log-parse.js';
import { formatErrorLog, RequestRecord } from '../../../../../main/engines/proxy-engine/traffic/error-log.js';
import { errorLogName, ErrorLogWriter } from '../../../../../main/engines/proxy-engine/traffic/error-log-writer.js';
import { maskHeader, maskUrl } from '../../../../../main/engines/proxy-engine/traffic/mask.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';

const fakeReq = { method: 'POST', url: '/v1/messages?beta=true&key=sk-query-secret-123456', httpVersion: '1.1', headers: { 'x-api-key': 'sk-ant-client-key-abcdefgh', 'content-type': 'application/json' } } as unknown as http.IncomingMessage;

function record(model: string, status: number): RequestRecord {
  const r = new RequestRecord(fakeReq, Date.UTC(2026, 0, 14, 10, 15, 30), 'anthropic', Buffer.from(JSON.stringify({ model, messages: [] })));
  r.addAttempt({ timestamp: Date.UTC(2026, 0, 14, 10, 15, 31), upstream: 'oa', keyLabel: 'key 1 of 2', url: 'http://up/v1/chat/completions', headers: { authorization: 'Bearer sk-upstream-secret-99999999' }, body: Buffer.from('{}'), status: 429, responseBody: '{"error":{"message":"slow down"}}' });
  r.finish(status, '{"type":"error"}');
  return r;
}

describe('error log text', () => {
  it('has the request, each attempt and the final response; the app parser reads status and model from it', () => {
    const text = formatErrorLog(record('claude-sonnet-4-5', 502));
    expect(text.split('\n').slice(0, 4)).toEqual(['=== Request ===', 'POST /v1/messages?beta=true&key=******** HTTP/1.1', 'Timestamp: 2026-01-14T10:15:30.000Z', 'x-api-key: sk-a...efgh']);
    expect(text).toContain('=== Upstream Request 1 ===\nTimestamp: 2026-01-14T10:15:31.000Z\nUpstream: oa (key 1 of 2)\nPOST http://up/v1/chat/completions\nauthorization: Bearer sk-u...9999');
    expect(text).toContain('=== Upstream Response 1 ===\nUpstream Status: 429\n\n{"error":{"message":"slow down"}}');
    expect(text.endsWith('=== Response ===\nStatus: 502\n\n{"type":"error"}\n')).toBe(true);
    expect(parseErrorLog(text)).toEqual({ statusCode: 502, model: 'claude-sonnet-4-5' });
  });

  it('cuts bodies over 1 MiB and says how much was left out', () => {
    const r = new RequestRecord(fakeReq, 0, 'anthropic', Buffer.alloc(1024 * 1024 + 10, 'a'));
    r.finish(500, '');
    const text = formatErrorLog(r);
    expect(text).toContain('[... 10 more bytes not logged]');
    expect(text).toContain('=== Response ===\nStatus: 500\n\n<empty>');
  });
});

describe('masking', () => {
  const long = 'sk-ant-api03-abcdefghijk'; // 24 characters: first and last four may show
  it.each([
    ['authorization', `Bearer ${long}`, 'Bearer sk-a...hijk'],
    ['authorization', 'Bearer sk-abcdefghijklmnop', 'Bearer ********'],
    ['x-api-key', long, 'sk-a...hijk'],
    ['x-goog-api-key', 'short', '********'],
    ['cookie', `session=${long}`, 'sess...hijk'],
    // issue 17: these went to the log in clear
    ['x-access-key', long, 'sk-a...hijk'],
    ['x-api_key', long, 'sk-a...hijk'],
    ['x-auth', 'abcdefghij', '********'],
    ['x-credential', long, 'sk-a...hijk'],
    ['anthropic-beta', 'interleaved-thinking-2025-05-14', 'interleaved-thinking-2025-05-14'],
  ])('%s: %s → %s', (name, value, expected) => {
    expect(maskHeader(name, value)).toBe(expected);
  });

  it('masks the upstream URL of each attempt too: a forwarded ?key= and a base_url password', () => {
    const r = new RequestRecord(fakeReq, 0, 'anthropic', Buffer.from('{}'));
    r.addAttempt({ timestamp: 0, upstream: 'an', keyLabel: 'key 1 of 1', url: 'https://user:hunter2-password@up.example/v1/messages?beta=true&key=abcdefghijklmnopqrstuvwxyz', headers: {}, body: Buffer.from('{}'), status: 500 });
    r.finish(500, '{}');
    const text = formatErrorLog(r);
    expect(text).toContain('POST https://user:********@up.example/v1/messages?beta=true&key=abcd...wxyz');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('abcdefghijklmnopqrstuvwxyz');
  });

  it('cuts a long path in the file name, so a scanner cannot make it too long for the file system', () => {
    const name = errorLogName(`/v1/${'a'.repeat(400)}`, new Date(2026, 0, 14, 10, 15, 30), '1a2b3c4d');
    expect(name.length).toBeLessThanOrEqual(140);
    expect(name).toMatch(/^error-v1-a+-2026-01-14T101530-1a2b3c4d\.log$/);
  });

  it('masks credential query values only', () => {
    expect(maskUrl('/v1/messages?beta=true&auth_token=abcdefghijklmnopqrstuvwxyz')).toBe('/v1/messages?beta=true&auth_token=abcd...wxyz');
    expect(maskUrl('/v1/messages?x-access-key=abc&passwd=abc&model=m')).toBe('/v1/messages?x-access-key=********&passwd=********&model=m');
    expect(maskUrl('/v1/messages')).toBe('/v1/messages');
  });
});

describe('ErrorLogWriter', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir('sb-errlog-')));
  afterEach(() => cleanup());

  it('names files like CLIProxyAPI', () => {
    const at = new Date(2026, 0, 14, 10, 15, 30);
    expect(errorLogName('/v1/messages', at, '1a2b3c4d')).toBe('error-v1-messages-2026-01-14T101530-1a2b3c4d.log');
    expect(errorLogName('/api/provider/agy/v1/messages', at, '00000000')).toBe('error-api-provider-agy-v1-messages-2026-01-14T101530-00000000.log');
    expect(errorLogName('/', at, 'ffffffff')).toBe('error-root-2026-01-14T101530-ffffffff.log');
  });

  it('writes 0600 files and keeps the newest N, leaving other files alone', async () => {
    const logs = path.join(dir, 'logs');
    await fs.mkdir(logs);
    await fs.writeFile(path.join(logs, 'main.log'), 'not ours');
    const writer = new ErrorLogWriter(logs, 3, silentLogger);
    for (let i = 0; i < 5; i++) await writer.write(record(`model-${i}`, 500), '/v1/chat/completions');
    const names = (await fs.readdir(logs)).filter((n) => n.startsWith('error-'));
    expect(names).toHaveLength(3);
    const models = await Promise.all(names.map(async (n) => parseErrorLog(await fs.readFile(path.join(logs, n), 'utf8')).model));
    expect(models.sort()).toEqual(['model-2', 'model-3', 'model-4']);
    expect((await fs.stat(path.join(logs, names[0]!))).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(path.join(logs, 'main.log'), 'utf8')).toBe('not ours');
  });

  it('refuses new logs while 64 wait to be written, and says afterwards how many got none', async () => {
    const warnings: string[] = [];
    const writer = new ErrorLogWriter(path.join(dir, 'logs'), 1000, createLogger('warn', (l) => warnings.push(l)));
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < 64; i++) {
      expect(writer.accepts()).toBe(true);
      writes.push(writer.write(record('m', 500), '/v1/messages'));
    }
    expect(writer.accepts()).toBe(false);
    expect(writer.accepts()).toBe(false);
    await Promise.all(writes);
    expect(writer.accepts()).toBe(true);
    expect(warnings.filter((w) => w.includes('2 failed request(s) got no error log'))).toHaveLength(1);
    expect(await fs.readdir(path.join(dir, 'logs'))).toHaveLength(64);
  });

  it('creates the logs directory and survives an unwritable one without throwing', async () => {
    const writer = new ErrorLogWriter(path.join(dir, 'new', 'logs'), 10, silentLogger);
    await writer.write(record('m', 500), '/v1/messages');
    expect(await fs.readdir(path.join(dir, 'new', 'logs'))).toHaveLength(1);
    await fs.writeFile(path.join(dir, 'file'), '');
    await expect(new ErrorLogWriter(path.join(dir, 'file', 'logs'), 10, silentLogger).write(record('m', 500), '/x')).resolves.toBeUndefined();
  });
});
