import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { isHttpOk } from '../../../main/infra/http-probe.js';
import { isProcessAlive, processArgv } from '../../../main/infra/process-alive.js';
import { waitUntil } from '../../../main/infra/process-wait.js';
import type { AppEventMap } from '../../../main/services/events.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';
import { spawnBystander, waitDead } from '../../fixtures/supervised.js';

/** The proxy state table (spec 3, decisions §4) against the real engine process. */
let app: TestApp;
let proxyPort: number;
const clock = new ManualClock(1_767_225_600_000);
const events: Array<AppEventMap['proxy-state']> = [];

beforeAll(async () => {
  app = await startTestApp({
    clock,
    before: async ({ home }) => {
      proxyPort = await prepareProxyHome(home);
    },
  });
  app.services.ctx.events.on('proxy-state', (e) => events.push(e));
});
afterAll(() => app.stop());
afterEach(async () => {
  await app.json('POST', '/api/proxy/proxy-stop');
});

const stopped = { stopped: false, message: 'Proxy is not running' };

describe('proxy not running', () => {
  it('status answers only running: false', async () => {
    expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });
  });

  it('stop answers 200 stopped: false with the documented message', async () => {
    expect(await app.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: stopped });
  });

  it('models answers 503 CLIProxy Plus not running', async () => {
    const res = await app.json('GET', '/api/proxy/models');
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('CLIProxy Plus not running');
    expect(res.body.message).toEqual(expect.any(String));
  });
});

describe('proxy start / status / start again / stop / stop again', () => {
  it('walks every row of the state table with the real engine', async () => {
    events.length = 0;
    const start = await app.json('POST', '/api/proxy/proxy-start');
    expect(start).toEqual({ status: 200, body: { started: true, alreadyRunning: false, port: proxyPort } });

    const status = await app.json('GET', '/api/proxy/proxy-status');
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ running: true, port: proxyPort, pid: expect.any(Number), sessionCount: 0, startedAt: 1_767_225_600_000 });
    const pid: number = status.body.pid;
    expect(isProcessAlive(pid)).toBe(true);
    expect((await processArgv(pid))?.join(' ')).toContain(path.join('main', 'engines', 'proxy-engine', 'main'));
    expect(await isHttpOk(`http://127.0.0.1:${proxyPort}/`)).toBe(true);
    const record = JSON.parse(await fs.readFile(path.join(app.home, 'proxy', 'proxy.json'), 'utf8'));
    expect(record).toMatchObject({ pid, port: proxyPort, startedAt: 1_767_225_600_000, engine: 'builtin' });

    expect(await app.json('POST', '/api/proxy/proxy-start')).toEqual({
      status: 200,
      body: { started: false, alreadyRunning: true, port: proxyPort },
    });

    expect(await app.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: { stopped: true, pid, sessionCount: 0 } });
    expect(isProcessAlive(pid)).toBe(false);
    await expect(fs.access(path.join(app.home, 'proxy', 'proxy.json'))).rejects.toThrow();
    expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });

    expect(await app.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: stopped });
    expect(events.map((e) => e.state)).toEqual(expect.arrayContaining(['starting', 'running', 'stopping', 'stopped']));
    expect(events.find((e) => e.state === 'running')).toMatchObject({ running: true, port: proxyPort, pid });
  });

  it('serves the models of the running engine, grouped by owned_by and sorted by id', async () => {
    await app.json('POST', '/api/proxy/proxy-start');
    const res = await app.json('GET', '/api/proxy/models');
    expect(res.status).toBe(200);
    const entry = (id: string, owned_by: string) => ({ id, object: 'model', created: expect.any(Number), owned_by });
    expect(res.body).toEqual({
      models: [
        entry('claude-haiku-4-5', 'anthropic'),
        entry('claude-sonnet-4-5', 'anthropic'),
        entry('gpt-4o', 'openai'),
        entry('gpt-4o-mini', 'openai'),
      ],
      byCategory: {
        anthropic: [entry('claude-haiku-4-5', 'anthropic'), entry('claude-sonnet-4-5', 'anthropic')],
        openai: [entry('gpt-4o', 'openai'), entry('gpt-4o-mini', 'openai')],
      },
      totalCount: 4,
    });
  });

  it('reports the sessions the engine saw in status and stop, and lists the error logs it wrote', async () => {
    await app.json('POST', '/api/proxy/proxy-start');
    const key = (await app.json('GET', '/api/settings/auth/tokens/raw')).body.apiKey.value;
    for (const user of ['session-a', 'session-b', 'session-a']) {
      const res = await fetch(`http://127.0.0.1:${proxyPort}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'no-such-model', max_tokens: 10, messages: [], metadata: { user_id: user } }),
      });
      expect(res.status).toBe(404);
    }
    const status = (await app.json('GET', '/api/proxy/proxy-status')).body;
    expect(status.sessionCount).toBe(2);
    // The engine writes a failed request's log after answering it.
    const listed = () => app.json('GET', '/api/proxy/error-logs');
    expect(await waitUntil(async () => (await listed()).body.files.length >= 3, 2_000, 25)).toBe(true);
    const logs = await listed();
    expect(logs.body.files[0]).toMatchObject({ name: expect.stringMatching(/^error-v1-messages-.*\.log$/), statusCode: 404, model: 'no-such-model' });
    expect(logs.body.files[0].absolutePath).toBe(path.join(app.home, 'proxy', 'logs', logs.body.files[0].name));
    expect(await app.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: { stopped: true, pid: status.pid, sessionCount: 2 } });
  });

  it('the engine refuses clients without the API key the tokens service wrote', async () => {
    await app.json('POST', '/api/proxy/proxy-start');
    expect((await fetch(`http://127.0.0.1:${proxyPort}/v1/models`)).status).toBe(401);
    const raw = await app.json('GET', '/api/settings/auth/tokens/raw');
    const ok = await fetch(`http://127.0.0.1:${proxyPort}/v1/models`, { headers: { 'x-api-key': raw.body.apiKey.value } });
    expect(ok.status).toBe(200);
  });
});

describe('proxy faults', () => {
  it('shows an engine SIGKILLed behind the supervisor as not running within 2 s', async () => {
    events.length = 0;
    await app.json('POST', '/api/proxy/proxy-start');
    const { pid } = (await app.json('GET', '/api/proxy/proxy-status')).body;
    process.kill(pid, 'SIGKILL');
    const seen = await waitUntil(async () => (await app.json('GET', '/api/proxy/proxy-status')).body.running === false, 2_000, 25);
    expect(seen).toBe(true);
    expect(events.at(-1)).toMatchObject({ state: 'failed', running: false, message: expect.stringContaining('exited unexpectedly') });
    // A failed proxy starts again cleanly.
    expect((await app.json('POST', '/api/proxy/proxy-start')).body.started).toBe(true);
  });

  it('answers 500 Failed to start proxy naming the port when another process holds it', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(proxyPort, '127.0.0.1', r));
    try {
      const res = await app.json('POST', '/api/proxy/proxy-start');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to start proxy', message: `port ${proxyPort} is already in use by another process` });
      expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('answers 500 with the engine message when proxy/config.yaml has a key of the wrong type', async () => {
    const file = path.join(app.home, 'proxy', 'config.yaml');
    const saved = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, saved.replace(/port: \d+/, 'port: "not a number"'));
    try {
      const res = await app.json('POST', '/api/proxy/proxy-start');
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Failed to start proxy');
      expect(res.body.message).toMatch(/server\.port/);
    } finally {
      await fs.writeFile(file, saved);
    }
  });

  it('never signals an unrelated live pid found in a stale proxy.json', async () => {
    const bystander = spawnBystander();
    try {
      const stateFile = path.join(app.home, 'proxy', 'proxy.json');
      await fs.writeFile(stateFile, JSON.stringify({ name: 'proxy', pid: bystander.pid, port: proxyPort, startedAt: 1, argv: ['node', 'main.ts'] }));
      expect(await app.services.proxy.control.adopt()).toBe(false);
      expect(await app.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: stopped });
      expect(isProcessAlive(bystander.pid!)).toBe(true);
      const start = await app.json('POST', '/api/proxy/proxy-start');
      expect(start.body.started).toBe(true);
      expect(isProcessAlive(bystander.pid!)).toBe(true);
    } finally {
      bystander.kill('SIGKILL');
      await waitDead(bystander.pid!);
    }
  });
});
