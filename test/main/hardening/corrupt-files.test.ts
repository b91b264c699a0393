import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/infra/clock.js';
import { findFreePort } from '../../../main/infra/port-probe.js';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { waitUntil } from '../../../main/infra/process-wait.js';
import { decodeCacheFile, encodeCacheFile } from '../../../main/services/usage/disk-cache.js';
import { FRESH_MS } from '../../../main/services/usage/usage-service.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { OFFLINE_CONFIG_YAML } from '../../helpers/offline-config.js';
import { MACHINE_ID_UUID, PLAIN_TOKEN } from '../../fixtures/bridge/editor-db.js';
import { startFakeUpstream, type FakeUpstream } from '../../fixtures/bridge/fake-upstream.js';
import { prepareProxyHome, startOnHome, tempHome, type HomeApp } from '../../fixtures/proxy-home.js';
import { spawnBystander, waitDead } from '../../fixtures/supervised.js';
import { assistantLine } from '../../fixtures/usage/lines.js';

/**
 * Corrupted files, seen from the whole app (issue 9, faults): what the area tests do not cover
 * already. The area tests check one endpoint per file; here each damaged file is put in front of
 * every endpoint that reads it and of the ones that must not care, and then repaired.
 *
 *   config.yaml          → 500 "Invalid config file" naming file and line where it is needed;
 *                          settings, usage, proxy status, update check, openapi keep serving
 *   <profile>.settings   → a clear 500 for that profile only; the profile list and other
 *                          profiles unaffected; a PUT repairs it and keeps the broken bytes
 *   usage disk cache     → ignored, rebuilt on start with the right numbers
 *   proxy.json / daemon.pid → ignored (never signalled), status says "not running", start works
 */

const transcript = [
  assistantLine({ msg: 'a', req: 'ra', ts: '2026-01-08T09:00:00.000Z', input: 1000, output: 100, cacheRead: 4000 }),
  assistantLine({ msg: 'b', req: 'rb', ts: '2026-01-09T10:00:00.000Z', input: 10, output: 20 }),
];
const USAGE = { inputTokens: 1010, outputTokens: 120, cacheReadTokens: 4000 };

async function writeTranscript(agentDir: string, lines = transcript): Promise<string> {
  const file = path.join(agentDir, 'projects', 'p', 's.jsonl');
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, lines.join('\n') + '\n');
  return file;
}

function usageNumbers(body: Record<string, unknown>) {
  return { inputTokens: body.inputTokens, outputTokens: body.outputTokens, cacheReadTokens: body.cacheReadTokens };
}

describe('a corrupted config.yaml', () => {
  let app: TestApp;
  let configFile: string;
  const goodProfile = { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:9', PROVIDER_AUTH_TOKEN: 'tok-good-123456', PROVIDER_MODEL: 'm' } };
  const syntaxError = `${OFFLINE_CONFIG_YAML}usage:\n  timezone: a: b\n`;
  // Sections appended to the offline config start on this line; their first key is on the next.
  const appendedLine = OFFLINE_CONFIG_YAML.split('\n').length;
  const syntaxLine = appendedLine + 1;

  beforeAll(async () => {
    app = await startTestApp({
      before: async ({ home, agentDir }) => {
        await prepareProxyHome(home); // an install that worked: proxy/config.yaml exists
        await fs.writeFile(path.join(home, 'work.settings.json'), JSON.stringify(goodProfile));
        await fs.writeFile(path.join(home, 'config.yaml'), syntaxError); // broken before the app starts
        await writeTranscript(agentDir);
      },
    });
    configFile = path.join(app.home, 'config.yaml');
  });
  afterAll(() => app?.stop());

  // Endpoints that cannot answer without config.yaml.
  const needsConfig: Array<[string, string, unknown?]> = [
    ['GET', '/api/config'],
    ['PUT', '/api/config', { config: {} }],
    ['GET', '/api/bridge/status'],
    ['GET', '/api/bridge/settings'],
    ['PUT', '/api/bridge/settings', { ghost_mode: false }],
    ['GET', '/api/bridge/models'],
    ['POST', '/api/bridge/daemon/start'],
    ['GET', '/api/settings/auth/tokens'],
    ['PUT', '/api/settings/auth/tokens', { apiKey: 'abcdefgh1234' }],
    ['POST', '/api/settings/auth/tokens/regenerate-secret'],
    ['DELETE', '/api/accounts/reset-default'],
    ['GET', '/api/agent-tool/diagnostics'],
  ];

  /** Everything that does not read config.yaml, or falls back without it, answers as usual. */
  async function expectRestServing(): Promise<void> {
    expect((await app.json('GET', '/api/settings/work')).body.settings.env.PROVIDER_MODEL).toBe('m');
    expect((await app.json('GET', '/api/settings/work/raw')).body.settings).toEqual(goodProfile);
    const put = await app.json('PUT', '/api/settings/other', { settings: { env: { A: '1' } } });
    expect(put.status).toBe(200);
    expect((await app.json('GET', '/api/profiles')).body.profiles.map((p: { name: string }) => p.name)).toEqual(['other', 'work']);
    const summary = await app.json('GET', '/api/usage/summary?tz=UTC');
    expect(summary.status).toBe(200);
    expect(usageNumbers(summary.body)).toEqual(USAGE);
    // Without tz the zone comes from config.yaml; unreadable, it falls back to the system zone.
    expect(usageNumbers((await app.json('GET', '/api/usage/summary')).body)).toEqual(USAGE);
    expect((await app.json('GET', '/api/usage/daily?tz=UTC')).body.daily.map((d: { date: string }) => d.date)).toEqual(['2026-01-08', '2026-01-09']);
    expect((await app.json('GET', '/api/openapi.json')).status).toBe(200);
    expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });
    expect(await app.json('POST', '/api/proxy/proxy-stop')).toEqual({ status: 200, body: { stopped: false, message: 'Proxy is not running' } });
    const update = await app.json('GET', '/api/proxy/update-check');
    expect(update.status).toBe(200); // decisions §4: never a 5xx
    expect(update.body).toMatchObject({ hasUpdate: false, fromCache: false });
    expect((await app.request('GET', '/api/proxy/config.yaml')).status).toBe(200);
    expect((await app.json('GET', '/api/proxy/error-logs')).status).toBe(200);
    expect((await app.json('GET', '/api/shared/summary')).status).toBe(200);
  }

  it('started anyway; every endpoint that needs it answers 500 Invalid config file naming the file, line and column', async () => {
    const message = `${configFile}: line ${syntaxLine}, column 13: Nested mappings are not allowed in compact mappings`;
    for (const [method, url, body] of needsConfig) {
      expect(await app.json(method, url, body), `${method} ${url}`).toEqual({ status: 500, body: { error: 'Invalid config file', message } });
    }
    // Starting the proxy needs the proxy section: the documented start failure, naming the cause.
    expect(await app.json('POST', '/api/proxy/proxy-start')).toEqual({ status: 500, body: { error: 'Failed to start proxy', message } });
    expect(await fs.readFile(configFile, 'utf8')).toBe(syntaxError); // nothing rewrote the user's file
  });

  it('keeps serving settings, usage, proxy status, update check and openapi', async () => {
    await expectRestServing();
  });

  const laterCorruptions: Array<[string, string, RegExp]> = [
    ['a known key of the wrong type', `${OFFLINE_CONFIG_YAML}desktop:\n  notifications: "yes"\n`, new RegExp(` line ${appendedLine + 1}: desktop\\.notifications: `)],
    ['a value cut short by a crash (not a URL any more)', OFFLINE_CONFIG_YAML.replace(/update_feed_url: .*/, 'update_feed_url: htt'), / line 3: proxy\.update_feed_url: /],
    ['binary garbage', '\0\0\u0001\u00ff\u00fe garbage', /: the top level must be a mapping$/],
    ['a list at the top level', '- a\n- b\n', /: the top level must be a mapping$/],
    ['duplicate sections', `${OFFLINE_CONFIG_YAML}proxy:\n  auto_start: true\n`, /: line \d+, column \d+: Map keys must be unique/],
  ];
  for (const [what, text, detail] of laterCorruptions) {
    it(`${what} while running: the same 500 with a message naming the problem; the rest keeps serving`, async () => {
      await fs.writeFile(configFile, text);
      for (const [method, url, body] of needsConfig) {
        const res = await app.json(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(500);
        expect(res.body.error).toBe('Invalid config file');
        expect(res.body.message.startsWith(configFile)).toBe(true);
        expect(res.body.message).toMatch(detail);
      }
      await expectRestServing();
      expect(await fs.readFile(configFile, 'utf8')).toBe(text);
    });
  }

  it('on a first start (no proxy/config.yaml yet) a proxy start still names config.yaml as the cause', async () => {
    const fresh = await startTestApp({ before: async ({ home }) => {
      await fs.mkdir(home, { recursive: true });
      await fs.writeFile(path.join(home, 'config.yaml'), syntaxError);
    } });
    try {
      const res = await fresh.json('POST', '/api/proxy/proxy-start');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'Failed to start proxy',
        message: `${path.join(fresh.home, 'config.yaml')}: line ${syntaxLine}, column 13: Nested mappings are not allowed in compact mappings`,
      });
    } finally {
      await fresh.stop();
    }
  });

  it('a repaired file is picked up without a restart', async () => {
    await fs.writeFile(configFile, OFFLINE_CONFIG_YAML);
    for (const [method, url] of needsConfig.filter(([m]) => m === 'GET')) {
      expect((await app.json(method, url)).status, url).toBe(200);
    }
  });
});

describe('a corrupted profile settings file', () => {
  let app: TestApp;
  const good = { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:9', PROVIDER_AUTH_TOKEN: 'tok-good-123456', PROVIDER_MODEL: 'm' }, presets: [{ name: 'p', default: 'm' }] };
  const fileOf = (profile: string) => path.join(app.home, `${profile}.settings.json`);

  beforeAll(async () => {
    app = await startTestApp();
    expect((await app.json('PUT', '/api/settings/good', { settings: good })).status).toBe(200);
  });
  afterAll(() => app?.stop());

  const damaged: Array<[string, Buffer]> = [
    ['cut short mid-write', Buffer.from('{"env": {"PROVIDER_AUTH_TOKEN": "tok-')],
    ['empty (0 bytes)', Buffer.alloc(0)],
    ['binary garbage, not UTF-8', Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x80, 0x22, 0x0a])],
    ['JSON of the wrong shape', Buffer.from('[{"env": {}}]')],
  ];
  for (const [what, bytes] of damaged) {
    it(`${what}: a clear 500 for that profile only, then a PUT repairs it and backs the damaged bytes up`, async () => {
      await fs.writeFile(fileOf('bad'), bytes);
      for (const url of ['/api/settings/bad', '/api/settings/bad/raw', '/api/settings/bad/presets']) {
        const res = await app.json('GET', url);
        expect(res.status, url).toBe(500);
        expect(res.body.error).toBe('Failed to read settings file');
        expect(res.body.message).toMatch(/bad\.settings\.json/);
      }
      const add = await app.json('POST', '/api/settings/bad/presets', { name: 'x', default: 'y' });
      expect(add.status).toBe(500);
      expect(await fs.readFile(fileOf('bad'))).toEqual(bytes); // refused, untouched

      // The others do not notice.
      expect((await app.json('GET', '/api/settings/good/raw')).body.settings).toEqual(good);
      expect((await app.json('GET', '/api/settings/good/presets')).body.presets).toEqual(good.presets);
      const listed = (await app.json('GET', '/api/profiles')).body.profiles;
      expect(listed.map((p: { name: string }) => p.name)).toEqual(['bad', 'good']);

      // The profile list gives the mtime a careful client sends back: a stale one is refused.
      const { mtime } = listed[0];
      const stale = await app.json('PUT', '/api/settings/bad', { settings: good, expectedMtime: mtime - 1 });
      expect(stale.status).toBe(409);
      const repaired = await app.json('PUT', '/api/settings/bad', { settings: { env: { PROVIDER_MODEL: 'fixed' } }, expectedMtime: mtime });
      expect(repaired.status).toBe(200);
      expect(repaired.body.created).toBe(false);
      expect(await fs.readFile(repaired.body.backupPath)).toEqual(bytes); // what was there, byte for byte
      expect((await app.json('GET', '/api/settings/bad')).body.settings).toEqual({ env: { PROVIDER_MODEL: 'fixed' } });
      await fs.rm(fileOf('bad'));
    });
  }

  it('a directory in place of the file: the list skips it, reads and writes answer 500, nothing else breaks', async () => {
    await fs.mkdir(fileOf('dir'));
    try {
      expect((await app.json('GET', '/api/profiles')).body.profiles.map((p: { name: string }) => p.name)).toEqual(['good']);
      const read = await app.json('GET', '/api/settings/dir');
      expect(read.status).toBe(500);
      expect(read.body.error).toBe('Failed to read settings file');
      const write = await app.json('PUT', '/api/settings/dir', { settings: good });
      expect(write.status).toBe(500);
      expect((await fs.stat(fileOf('dir'))).isDirectory()).toBe(true);
      expect((await app.json('GET', '/api/settings/good/raw')).body.settings).toEqual(good);
    } finally {
      await fs.rm(fileOf('dir'), { recursive: true });
    }
  });
});

describe('a corrupted usage disk cache', () => {
  let root: string;
  let home: string;
  let agentDir: string;
  let cacheFile: string;
  let validCache: Buffer;
  const apps: HomeApp[] = [];
  afterEach(async () => {
    for (const a of apps.splice(0)) await a.app.close();
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  const start = async (clock?: ManualClock) => {
    const a = await startOnHome(home, agentDir, clock);
    apps.push(a);
    return a;
  };
  const waitForValidCache = () =>
    waitUntil(async () => {
      const bytes = await fs.readFile(cacheFile).catch(() => Buffer.alloc(0));
      return decodeCacheFile(bytes) !== null && !bytes.equals(validCache);
    }, 10_000, 25);

  beforeAll(async () => {
    ({ root, home, agentDir } = await tempHome());
    await fs.writeFile(path.join(home, 'config.yaml'), OFFLINE_CONFIG_YAML);
    cacheFile = path.join(home, '.cache', 'usage-cache.json');
    await writeTranscript(agentDir);
    const first = await start();
    expect(usageNumbers((await first.json('GET', '/api/usage/summary')).body)).toEqual(USAGE);
    await first.app.services.usage.whenPersisted();
    await first.app.close();
    apps.length = 0;
    validCache = await fs.readFile(cacheFile);
    expect(validCache.length).toBeGreaterThan(100);
  });

  /** The valid cache with its head changed, written again with a valid checksum (the head is free-form JSON here, hence any). */
  const rewritten = (mutate: (head: any) => void, data = (d: Buffer) => d) => {
    const { head, data: records } = decodeCacheFile(validCache)!;
    mutate(head);
    return encodeCacheFile(head, [data(records)]);
  };

  const damage: Array<[string, () => string | Buffer]> = [
    ['truncated to half', () => validCache.subarray(0, Math.floor(validCache.length / 2))],
    ['truncated to nothing', () => ''],
    ['binary garbage', () => '\0\u00ff\u0001 not json'],
    ['valid JSON of another shape', () => JSON.stringify({ format: 'switchboard-usage-cache', version: 1, files: 'x' })],
    ['one byte changed in its records', () => {
      const bytes = Buffer.from(validCache);
      bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0x55;
      return bytes;
    }],
    ['its records cut short behind an intact head', () => rewritten(() => undefined, (d) => d.subarray(0, 12))],
    ['records claimed by the wrong file', () => rewritten((head) => (head.files[0][0] = path.join(agentDir, 'projects', 'p', 'other.jsonl')))],
  ];
  for (const [what, make] of damage) {
    it(`${what}: ignored at start and rebuilt, with the right numbers`, async () => {
      await fs.writeFile(cacheFile, make());
      const a = await start();
      expect((await a.json('GET', '/api/usage/status')).body.cached).toBe(false);
      expect(usageNumbers((await a.json('GET', '/api/usage/summary')).body)).toEqual(USAGE);
      expect((await a.json('GET', '/api/usage/status')).body).toMatchObject({ cached: true, files: 1 });
      await a.app.services.usage.whenPersisted();
      expect(decodeCacheFile(await fs.readFile(cacheFile))).not.toBeNull();
    });
  }

  it('a cache from the future (clock skew, damage) does not freeze the numbers: they refresh like a stale cache', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
    await fs.writeFile(cacheFile, rewritten((head) => (head.lastFetch = clock.now() + 365 * 24 * 3_600_000)));
    const more = [...transcript, assistantLine({ msg: 'c', req: 'rc', ts: '2026-01-09T11:00:00.000Z', input: 5, output: 5 })];
    const file = await writeTranscript(agentDir, more);
    try {
      const a = await start(clock);
      await a.json('GET', '/api/usage/summary');
      clock.advance(2 * FRESH_MS);
      await a.json('GET', '/api/usage/summary'); // stale: answered at once, refreshed behind
      await a.app.services.usage.whenIdle();
      expect((await a.json('GET', '/api/usage/summary')).body.inputTokens).toBe(USAGE.inputTokens + 5);
      const status = (await a.json('GET', '/api/usage/status')).body;
      expect(status.lastFetch).toBeLessThanOrEqual(clock.now());
    } finally {
      await fs.writeFile(file, transcript.join('\n') + '\n');
    }
  });

  it('a directory in place of the cache file: the app scans, answers, and keeps running without one', async () => {
    await fs.rm(cacheFile, { force: true });
    await fs.mkdir(cacheFile);
    try {
      const a = await start();
      expect(usageNumbers((await a.json('GET', '/api/usage/summary')).body)).toEqual(USAGE);
      await a.app.services.usage.whenPersisted();
      expect((await a.json('POST', '/api/usage/refresh')).status).toBe(200);
      expect(usageNumbers((await a.json('GET', '/api/usage/summary')).body)).toEqual(USAGE);
    } finally {
      await fs.rm(cacheFile, { recursive: true, force: true });
    }
  });
});

describe('corrupted proxy/proxy.json and cursor/daemon.pid', () => {
  let upstream: FakeUpstream;
  let app: TestApp;
  let bridgePort: number;
  let bystander: ReturnType<typeof spawnBystander>;

  beforeAll(async () => {
    bystander = spawnBystander();
    upstream = await startFakeUpstream();
    bridgePort = await findFreePort();
    app = await startTestApp({
      before: async ({ home }) => {
        await prepareProxyHome(home);
        const config = await fs.readFile(path.join(home, 'config.yaml'), 'utf8');
        await fs.writeFile(
          path.join(home, 'config.yaml'),
          config.replace(/cursor:\n.*\n/, `cursor:\n  enabled: true\n  port: ${bridgePort}\n  upstream_url: ${upstream.url}\n`),
        );
      },
    });
    expect((await app.json('POST', '/api/bridge/auth/import', { accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_UUID })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.stop();
    await upstream?.close();
    bystander?.kill('SIGKILL');
    if (bystander?.pid) await waitDead(bystander.pid);
  });

  const proxyState = () => path.join(app.home, 'proxy', 'proxy.json');
  const bridgePid = () => path.join(app.home, 'cursor', 'daemon.pid');
  const record = (pid: unknown, port: unknown, argv: unknown = ['node', 'main.ts']) => JSON.stringify({ name: 'x', pid, port, startedAt: 1, argv });

  const junk: Array<[string, () => string | 'dir']> = [
    ['garbage', () => '\0\u00ff garbage'],
    ['truncated JSON', () => record(bystander.pid, 8317).slice(0, 20)],
    ['fields of the wrong type', () => record(String(bystander.pid), '8317')],
    ['pid 0 and a negative pid', () => record(0, -1)],
    ['a live pid that is not ours', () => record(bystander.pid, 1)],
    ['our own server pid', () => record(process.pid, 1)],
    ['a directory', () => 'dir'],
  ];

  for (const [what, make] of junk) {
    it(`${what}: nothing is signalled, status says not running, stop is a no-op and start works`, async () => {
      for (const file of [proxyState(), bridgePid()]) {
        await fs.rm(file, { recursive: true, force: true });
        await fs.mkdir(path.dirname(file), { recursive: true });
        const content = make();
        if (content === 'dir') await fs.mkdir(file);
        else await fs.writeFile(file, content);
      }
      expect(await app.services.proxy.control.adopt()).toBe(false);
      expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });
      expect((await app.json('GET', '/api/bridge/status')).body).toMatchObject({ daemonRunning: false, pid: null });
      expect((await app.json('POST', '/api/proxy/proxy-stop')).body).toEqual({ stopped: false, message: 'Proxy is not running' });
      expect(await app.json('POST', '/api/bridge/daemon/stop')).toEqual({ status: 200, body: { success: true, stopped: false } });
      expect(isProcessAlive(bystander.pid!)).toBe(true);

      const proxy = await app.json('POST', '/api/proxy/proxy-start');
      expect(proxy.status, JSON.stringify(proxy.body)).toBe(200);
      const bridge = await app.json('POST', '/api/bridge/daemon/start');
      expect(bridge.status, JSON.stringify(bridge.body)).toBe(200);
      const proxyPid = (await app.json('GET', '/api/proxy/proxy-status')).body.pid;
      expect((await app.json('GET', '/api/bridge/status')).body).toMatchObject({ daemonRunning: true, pid: bridge.body.pid, port: bridgePort });

      expect((await app.json('POST', '/api/proxy/proxy-stop')).body.stopped).toBe(true);
      expect((await app.json('POST', '/api/bridge/daemon/stop')).body.stopped).toBe(true);
      expect(isProcessAlive(proxyPid)).toBe(false);
      expect(isProcessAlive(bridge.body.pid)).toBe(false);
      expect(isProcessAlive(bystander.pid!)).toBe(true);
    }, 240_000);
  }
});
