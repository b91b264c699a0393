import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBridgeServer } from '../../../main/engines/bridge-daemon/server.js';
import { CATALOG_TIMEOUT_MS, DEFAULT_UPSTREAM_TIMEOUT_MS } from '../../../main/engines/bridge-daemon/upstream.js';
import { ManualClock } from '../../../main/infra/clock.js';
import { silentLogger } from '../../../main/infra/logger.js';
import { findFreePort } from '../../../main/infra/port-probe.js';
import { QuotaService } from '../../../main/services/proxy/quota/quota-service.js';
import { createQuotaHttp } from '../../../main/services/proxy/quota/upstream-http.js';
import { UpdateChecker } from '../../../main/services/proxy/update-check.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { MACHINE_ID_UUID, PLAIN_TOKEN } from '../../fixtures/bridge/editor-db.js';
import { startHungUpstream, type HangMode, type HungUpstream } from '../../fixtures/hung-upstream.js';
import { startEngineProcess, type EngineProcess } from '../../fixtures/proxy-engine-process.js';

/**
 * A hung upstream (accepts the connection and never answers, or stops mid-stream / mid-body):
 * the proxy engine, the bridge daemon, the quota route and the update check each answer within
 * a bound, with their documented error, and let go of the upstream connection. Bounds are
 * injected small here; the defaults are listed in docs/hardening.md.
 */

const LIMIT_MS = 800;
/**
 * What "within the bound" allows on a busy 2-core machine: the limit plus scheduling slack. The
 * sum (12.8 s) still tells the injected bound from the defaults (300 s for a completion, 15 s for
 * the bridge catalog) and from a hang.
 */
const SLACK_MS = 12_000;

async function timedFetch(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  // The test's own guard, far above the bound: a hang fails the assertion instead of the run.
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text().catch((err: Error) => `<body cut: ${err.message}>`);
  return { status: res.status, text, ms: performance.now() - t0 };
}

const hungs: HungUpstream[] = [];
async function hung(mode: HangMode): Promise<HungUpstream> {
  const h = await startHungUpstream(mode);
  hungs.push(h);
  return h;
}
afterAll(async () => {
  for (const h of hungs) await h.close();
});

describe('proxy engine (routing.first_byte_timeout_seconds)', () => {
  const KEY = 'sk-sb-hung-client-key-0123456789';
  let dir: string;
  let cleanup: () => Promise<void>;
  let engine: EngineProcess;
  let upstream: HungUpstream;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sb-hung-'));
    upstream = await hung('silent');
    engine = await startEngineProcess(
      dir,
      `server: { port: {{PORT}}, host: 127.0.0.1 }
auth: { api_key: ${KEY} }
upstreams:
  - { name: hung, format: openai, base_url: "${upstream.origin}/v1", api_key: sk-upstream-1, models: [m] }
routing: { cooldown_seconds: 0.01, connect_timeout_seconds: 1, first_byte_timeout_seconds: ${LIMIT_MS / 1000} }
`,
    );
  }, 120_000);
  afterAll(async () => {
    await engine?.stop();
    await cleanup?.();
  });

  const chat = (stream: boolean) =>
    timedFetch(`${engine.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: 'hi' }] }),
    });

  const cases: Array<[HangMode, boolean, number, RegExp]> = [
    ['silent', true, 504, /no response within 800 ms/],
    ['silent', false, 504, /no response within 800 ms/],
    ['headers-only', true, 504, /sent nothing for 800 ms/],
    ['body-stalls', false, 504, /sent nothing for 800 ms/],
  ];
  for (const [mode, stream, status, message] of cases) {
    it(`${mode}, ${stream ? 'streaming' : 'non-streaming'}: ${status} within the bound, upstream connection released`, async () => {
      upstream.mode = mode;
      const r = await chat(stream);
      expect(r.status, r.text).toBe(status);
      expect(JSON.parse(r.text).error.message).toMatch(message);
      expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
      expect(await upstream.allClosed()).toBe(true);
    });
  }

  it('stream-stalls (stops mid-stream): the stream ends with an error event within the bound', async () => {
    upstream.mode = 'stream-stalls';
    const r = await chat(true);
    expect(r.status).toBe(200); // the first chunk went out: the error can only come in-stream
    expect(r.text).toContain('"content":"Hel"');
    expect(r.text).toMatch(/"error".*sent nothing for 800 ms/);
    expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    expect(await upstream.allClosed()).toBe(true);
  });
});

describe('bridge daemon (cursor.upstream_timeout_seconds)', () => {
  const TOKEN = 'sb-bridge-' + 'h'.repeat(48);
  const CREDS = { accessToken: 'editor-access-token-' + 'a'.repeat(40), machineId: '0123456789abcdef0123456789abcdef' };
  let upstream: HungUpstream;
  let daemon: http.Server;
  let base: string;

  beforeAll(async () => {
    upstream = await hung('silent');
    daemon = createBridgeServer({
      upstream: { baseUrl: upstream.origin, ghostMode: true, timeoutMs: LIMIT_MS },
      models: { model: 'claude-4.5-sonnet', opus: '', sonnet: '', haiku: '' },
      clientToken: TOKEN,
      readCredentials: async () => CREDS,
      clock: new ManualClock(Date.UTC(2026, 0, 1)),
      logger: silentLogger,
    });
    await new Promise<void>((resolve) => daemon.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(daemon.address() as AddressInfo).port}`;
    // The catalog is fetched from the same hung upstream first: bounded too, then the built-in list.
    const models = await timedFetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(models.status).toBe(200);
    expect(models.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
  });
  afterAll(async () => {
    daemon?.closeAllConnections();
    await new Promise((resolve) => daemon?.close(resolve));
  });

  const send = (route: string, stream: boolean) =>
    timedFetch(base + route, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-4.5-sonnet', max_tokens: 10, stream, messages: [{ role: 'user', content: 'hi' }] }),
    });

  for (const route of ['/v1/chat/completions', '/v1/messages']) {
    const cases: Array<[HangMode, boolean, number, RegExp]> = [
      ['silent', true, 504, /no response within 800 ms/],
      ['silent', false, 504, /no response within 800 ms/],
      ['headers-only', true, 504, /sent no data for 800 ms/],
      ['body-stalls', false, 504, /stalled for 800 ms/],
    ];
    for (const [mode, stream, status, message] of cases) {
      it(`${route} ${mode}, ${stream ? 'streaming' : 'non-streaming'}: ${status} in the route's format within the bound`, async () => {
        upstream.mode = mode;
        const r = await send(route, stream);
        expect(r.status, r.text).toBe(status);
        expect(JSON.parse(r.text).error.message).toMatch(message); // both formats nest it under error
        if (route === '/v1/messages') expect(JSON.parse(r.text).type).toBe('error');
        expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
        expect(await upstream.allClosed()).toBe(true);
      });
    }
  }

  it('/v1/messages stream-stalls: an Anthropic error event closes the stream within the bound', async () => {
    upstream.mode = 'stream-stalls';
    const r = await send('/v1/messages', true);
    expect(r.status).toBe(200);
    expect(r.text).toContain('event: message_start');
    expect(r.text).toMatch(/event: error\ndata: .*sent no data for 800 ms/);
    expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    expect(await upstream.allClosed()).toBe(true);
  });

  it('/v1/chat/completions stream-stalls: the passthrough stream is cut within the bound', async () => {
    upstream.mode = 'stream-stalls';
    const r = await send('/v1/chat/completions', true);
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/"content":"Hel"|body cut/);
    expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    expect(await upstream.allClosed()).toBe(true);
  });

  it('keeps sensible defaults: 300 s for a completion, 15 s for the catalog', () => {
    expect(DEFAULT_UPSTREAM_TIMEOUT_MS).toBe(300_000);
    expect(CATALOG_TIMEOUT_MS).toBe(15_000);
  });
});

describe('bridge daemon started by the app, with the bound from config.yaml', () => {
  let app: TestApp;
  let upstream: HungUpstream;
  let port: number;

  beforeAll(async () => {
    upstream = await hung('silent');
    port = await findFreePort();
    app = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(home, { recursive: true });
        const cursor = `cursor:\n  enabled: true\n  port: ${port}\n  upstream_url: ${upstream.origin}\n  upstream_timeout_seconds: ${LIMIT_MS / 1000}\n`;
        await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML.replace(/cursor:\n.*\n/, cursor));
      },
    });
    expect((await app.json('POST', '/api/bridge/auth/import', { accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_UUID })).status).toBe(200);
    expect((await app.json('POST', '/api/bridge/daemon/start')).status).toBe(200);
  }, 60_000);
  afterAll(() => app?.stop());

  it('/v1/messages and /api/bridge/models answer within the bound while the upstream hangs', async () => {
    const token = (await fs.readFile(path.join(app.home, 'cursor', 'daemon-token'), 'utf8')).trim();
    const models = await timedFetch(`${app.url}/api/bridge/models`);
    expect(models.status).toBe(200);
    expect(models.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
    const r = await timedFetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': token, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-4.5-sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(r.status, r.text).toBe(504);
    expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
  });

  it('refuses a bound that is not a positive number of seconds as an invalid config file', async () => {
    const file = path.join(app.home, 'config.yaml');
    const saved = await fs.readFile(file, 'utf8');
    try {
      await fs.writeFile(file, saved.replace(/upstream_timeout_seconds: .*/, 'upstream_timeout_seconds: "soon"'));
      const res = await app.json('GET', '/api/bridge/settings');
      expect(res.status).toBe(500);
      expect(res.body.message).toMatch(/cursor\.upstream_timeout_seconds/);
    } finally {
      await fs.writeFile(file, saved);
    }
  });
});

describe('quota route and update check', () => {
  let app: TestApp;
  let upstream: HungUpstream;

  beforeAll(async () => {
    upstream = await hung('silent');
    app = await startTestApp({
      before: async ({ home }) => {
        await fs.mkdir(path.join(home, 'proxy', 'auth'), { recursive: true });
        await fs.writeFile(path.join(home, 'proxy', 'auth', 'codex-dev@example.com.json'), JSON.stringify({ type: 'codex', email: 'dev@example.com', access_token: 'at-1' }));
        const config = OFFLINE_CONFIG_YAML.replace(/update_feed_url: .*/, `update_feed_url: ${upstream.origin}/releases/latest`).replace(/codex: .*/, `codex: ${upstream.origin}`);
        await fs.writeFile(path.join(home, 'config.yaml'), config);
      },
    });
    // The app's own services with the bounds injected small (production: 10 s quota, 5 s feed).
    const ctx = app.services.ctx;
    Object.assign(app.services.proxy, { quota: new QuotaService(ctx, createQuotaHttp(LIMIT_MS)), updates: new UpdateChecker(ctx, LIMIT_MS) });
  });
  afterAll(() => app?.stop());
  afterEach(() => upstream.allClosed());

  const quotaMessages = {
    silent: /wham\/usage did not answer within 800 ms$/,
    'headers-only': /wham\/usage stopped sending its answer: not complete within 800 ms$/,
    'body-stalls': /wham\/usage stopped sending its answer: not complete within 800 ms$/,
  };
  for (const mode of ['silent', 'headers-only', 'body-stalls'] as const) {
    it(`quota, upstream ${mode}: 502 Quota fetch failed within the bound, naming what happened`, async () => {
      upstream.mode = mode;
      const r = await timedFetch(`${app.url}/api/proxy/quota/codex/dev%40example.com`);
      expect(r.status, r.text).toBe(502);
      expect(JSON.parse(r.text).error).toBe('Quota fetch failed');
      expect(JSON.parse(r.text).message).toMatch(quotaMessages[mode]);
      expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
      expect(await upstream.allClosed()).toBe(true);
    });

    it(`update check, feed ${mode}: no update, not from cache, within the bound (never a 5xx)`, async () => {
      upstream.mode = mode;
      const r = await timedFetch(`${app.url}/api/proxy/update-check`);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.text)).toMatchObject({ hasUpdate: false, fromCache: false, checkedAt: null, error: expect.any(String) });
      expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
      expect(await upstream.allClosed()).toBe(true);
    });
  }

  it('update check with an older cached answer: the cached answer, marked fromCache, within the bound', async () => {
    upstream.mode = 'silent';
    const feedUrl = `${upstream.origin}/releases/latest`;
    const checkedAt = app.services.ctx.clock.now() - 2 * 3_600_000;
    await fs.mkdir(path.join(app.home, '.cache'), { recursive: true });
    await fs.writeFile(path.join(app.home, '.cache', 'update-check.json'), JSON.stringify({ feedUrl, latestVersion: '99.0.0', checkedAt }));
    const r = await timedFetch(`${app.url}/api/proxy/update-check`);
    expect(JSON.parse(r.text)).toMatchObject({ hasUpdate: true, latestVersion: '99.0.0', fromCache: true, checkedAt, error: expect.stringMatching(/did not answer within/) });
    expect(r.ms).toBeLessThan(LIMIT_MS + SLACK_MS);
  });
});
