import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../../main/api/error-texts.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { assistantLine } from '../../fixtures/usage/lines.js';

/**
 * Files whose size the app does not control, made huge in no time as sparse files (ftruncate).
 * Before the bounds, the error-log listing handed a 600 MiB line to node:readline, which threw
 * `RangeError: Invalid string length` outside any handler and ended the whole process; the other
 * reads pulled the whole file into memory.
 */

const MiB = 1024 * 1024;
const HUGE_LOG = 'error-v1-messages-2026-11-24T070000-00000000.log';

/** Writes `head`, makes the file `size` bytes (a hole of zeros, no newline), writes `tail` at its end. */
async function sparse(file: string, size: number, head = '', tail = ''): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, 'w');
  try {
    await handle.write(head, 0);
    await handle.truncate(size - Buffer.byteLength(tail));
    await handle.write(tail, size - Buffer.byteLength(tail));
  } finally {
    await handle.close();
  }
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home, agentDir }) => {
      const request = '=== REQUEST BODY ===\n{"model":"claude-huge","messages":[]}\n=== RESPONSE ===\nStatus: 200\n';
      // One line of 600 MiB (over V8's 512 MiB string limit) between the request and the last response.
      await sparse(path.join(home, 'proxy', 'logs', HUGE_LOG), 600 * MiB + 200, request, '\n=== RESPONSE ===\nStatus: 529\n\n{}\n');
      await fs.writeFile(path.join(home, 'proxy', 'logs', 'error-small.log'), '=== Response ===\nStatus: 401\n');
      await sparse(path.join(home, 'proxy', 'auth', 'codex-huge.json'), 2 * MiB, '{"type":"codex",');
      await sparse(path.join(home, 'huge.settings.json'), 5 * MiB, '{"env":{');
      // An agent log with a 100 MiB line (over the scanner's 64 MiB bound) between two requests.
      const first = `${assistantLine({ msg: 'a', req: 'r1', output: 7 })}\n`;
      const last = `\n${assistantLine({ msg: 'b', req: 'r2', output: 35 })}\n`;
      await sparse(path.join(agentDir, 'projects', 'p', 'huge.jsonl'), 100 * MiB + first.length + last.length, first, last);
    },
  });
});
afterAll(() => app?.stop());

describe('error logs', () => {
  it('lists a log holding a 600 MiB line without dying, from its head and tail', async () => {
    const res = await app.json('GET', '/api/proxy/error-logs');
    expect(res.status).toBe(200);
    const huge = res.body.files.find((f: { name: string }) => f.name === HUGE_LOG);
    expect(huge).toMatchObject({ name: HUGE_LOG, size: 600 * MiB + 200, model: 'claude-huge', statusCode: 529 });
    expect(res.body.files.find((f: { name: string }) => f.name === 'error-small.log')).toMatchObject({ statusCode: 401 });
    // Still serving.
    expect((await app.json('GET', '/api/proxy/proxy-status')).status).toBe(200);
  }, 30_000);

  it('refuses to serve a log over 16 MiB as text, naming the file and the bound', async () => {
    const res = await app.json('GET', `/api/proxy/error-logs/${HUGE_LOG}`);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe(E.fileTooLarge);
    expect(res.body.message).toContain(HUGE_LOG);
    expect(res.body.message).toContain('16.0 MiB');
  });
});

describe('other files over their bound', () => {
  it('an auth file over 1 MiB: its download answers 413, the listing still works', async () => {
    const res = await app.json('GET', '/api/proxy/auth-files/download?name=codex-huge.json');
    expect(res.status).toBe(413);
    expect(res.body.error).toBe(E.fileTooLarge);
    expect((await app.json('GET', '/api/proxy/auth-files')).status).toBe(200);
  });

  it('a profile settings file over 4 MiB answers the damaged-file error naming the bound', async () => {
    const res = await app.json('GET', '/api/settings/huge');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe(E.readSettingsFailed);
    expect(res.body.message).toContain('over the 4.0 MiB');
    expect((await app.json('GET', '/api/profiles')).status).toBe(200);
  });

  it('an agent-tool settings.json over 4 MiB reads as a parse error', async () => {
    await sparse(path.join(app.home, '.factory', 'settings.json'), 5 * MiB, '{');
    const res = await app.json('GET', '/api/agent-tool/settings');
    expect(res.status).toBe(200);
    expect(res.body.parseError).toContain('over the 4.0 MiB');
  });

  it('config.yaml over 4 MiB answers Invalid config file, and a proxy/config.yaml over it 413', async () => {
    const config = path.join(app.home, 'config.yaml');
    const saved = await fs.readFile(config);
    await sparse(config, 5 * MiB, 'proxy:\n');
    try {
      const res = await app.json('GET', '/api/config');
      expect(res.status).toBe(500);
      expect(res.body.error).toBe(E.invalidConfigFile);
      expect(res.body.message).toContain('over the 4.0 MiB');
    } finally {
      await fs.writeFile(config, saved);
    }
    await sparse(path.join(app.home, 'proxy', 'config.yaml'), 5 * MiB, 'server:\n');
    const proxy = await app.json('GET', '/api/proxy/config.yaml');
    expect(proxy.status).toBe(413);
    expect(proxy.body.error).toBe(E.fileTooLarge);
  });
});

describe('agent logs', () => {
  it('a 100 MiB JSONL line is skipped and counted; the requests around it are counted', async () => {
    const summary = await app.json('GET', '/api/usage/summary');
    expect(summary.status).toBe(200);
    expect(summary.body.totalOutputTokens ?? summary.body.outputTokens ?? JSON.stringify(summary.body)).toBe(42);
    const status = await app.json('GET', '/api/usage/status');
    expect(status.body).toMatchObject({ cached: true, files: 1, malformedLines: 0, oversizedLines: 1 });
  }, 30_000);
});
