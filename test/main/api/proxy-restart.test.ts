import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { isProcessAlive } from '../../../main/infra/process-alive.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { prepareProxyHome } from '../../fixtures/proxy-home.js';

/** POST /api/proxy/proxy-restart (issue 28.7): stop then start with the current key; profiles follow. */
let app: TestApp;
let proxyPort: number;

beforeAll(async () => {
  app = await startTestApp({
    before: async ({ home }) => {
      proxyPort = await prepareProxyHome(home);
    },
  });
});
afterAll(() => app.stop());
afterEach(async () => {
  await app.json('POST', '/api/proxy/proxy-stop');
});

const restart = () => app.json('POST', '/api/proxy/proxy-restart');
const rawKey = async (): Promise<string> => (await app.json('GET', '/api/settings/auth/tokens/raw')).body.apiKey.value;
const profileFile = (name: string) => path.join(app.home, `${name}.settings.json`);

/** What the running proxy answers a client sending `key`. */
async function modelsWith(key: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${proxyPort}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  await res.arrayBuffer();
  return res.status;
}

async function writeProfile(name: string, key: string): Promise<void> {
  await fs.writeFile(profileFile(name), JSON.stringify({ env: { PROVIDER_BASE_URL: `http://127.0.0.1:${proxyPort}`, PROVIDER_AUTH_TOKEN: key, PROVIDER_MODEL: 'gpt-4o' } }, null, 2));
}
const profileKey = async (name: string): Promise<string> => JSON.parse(await fs.readFile(profileFile(name), 'utf8')).env.PROVIDER_AUTH_TOKEN;

describe('proxy restart', () => {
  it('stopped: starts it and says it was not running (restarted: false)', async () => {
    const res = await restart();
    expect(res).toEqual({ status: 200, body: { restarted: false, port: proxyPort, pid: expect.any(Number), updatedProfiles: [] } });
    const status = (await app.json('GET', '/api/proxy/proxy-status')).body;
    expect(status).toMatchObject({ running: true, port: proxyPort, pid: res.body.pid });
  });

  it('running, after a key change: a new process on the new key; the old key is refused, the profile follows', async () => {
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    const before = (await app.json('GET', '/api/proxy/proxy-status')).body.pid as number;
    const oldKey = await rawKey();
    await writeProfile('onproxy', oldKey);
    expect(await modelsWith(oldKey)).toBe(200);

    const change = await app.json('POST', '/api/settings/auth/tokens/regenerate-api-key');
    expect(change.body).toMatchObject({ restartRequired: true, updatedProfiles: ['onproxy'] });
    const newKey = await rawKey();
    // Not applied until the restart: the running engine still has the old key.
    expect(await modelsWith(oldKey)).toBe(200);
    expect(await modelsWith(newKey)).toBe(401);

    const res = await restart();
    expect(res).toEqual({ status: 200, body: { restarted: true, port: proxyPort, pid: expect.any(Number), updatedProfiles: [] } });
    expect(res.body.pid).not.toBe(before);
    expect(isProcessAlive(before)).toBe(false);
    expect(await modelsWith(newKey)).toBe(200);
    expect(await modelsWith(oldKey)).toBe(401);
    expect(await profileKey('onproxy')).toBe(newKey);
  });

  it('a key changed by hand in config.yaml: the restart applies it and moves the profiles that used the old one', async () => {
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    const oldKey = await rawKey();
    await writeProfile('handedit', oldKey);
    const handKey = 'sk-hand-edited-key-0001';
    const configFile = path.join(app.home, 'config.yaml');
    const config = await fs.readFile(configFile, 'utf8');
    const doc = parseDocument(config);
    doc.setIn(['proxy', 'auth', 'api_key'], handKey);
    await fs.writeFile(configFile, doc.toString());
    try {
      expect(await rawKey()).toBe(handKey);
      const res = await restart();
      expect(res.body).toMatchObject({ restarted: true, updatedProfiles: expect.arrayContaining(['handedit']) });
      expect(await profileKey('handedit')).toBe(handKey);
      expect(await modelsWith(handKey)).toBe(200);
      expect(await modelsWith(oldKey)).toBe(401);
    } finally {
      await fs.writeFile(configFile, config);
    }
  });

  it('two restarts at once run one after the other; both answer, the last process is the one running', async () => {
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    const [a, b] = await Promise.all([restart(), restart()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.restarted && b.body.restarted).toBe(true);
    expect(a.body.pid).not.toBe(b.body.pid);
    expect(isProcessAlive(a.body.pid)).toBe(false);
    expect((await app.json('GET', '/api/proxy/proxy-status')).body).toMatchObject({ running: true, pid: b.body.pid });
  });

  it('when the start fails (port taken): 500 Failed to start proxy naming the port, and the proxy is stopped', async () => {
    expect((await app.json('POST', '/api/proxy/proxy-start')).status).toBe(200);
    const configFile = path.join(app.home, 'proxy', 'config.yaml');
    const proxyConfig = await fs.readFile(configFile, 'utf8');
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      await fs.writeFile(configFile, proxyConfig.replace(`port: ${proxyPort}`, `port: ${taken}`));
      const res = await restart();
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Failed to start proxy', message: `port ${taken} is already in use by another process` });
      expect(await app.json('GET', '/api/proxy/proxy-status')).toEqual({ status: 200, body: { running: false } });
    } finally {
      await new Promise((r) => blocker.close(r));
      await fs.writeFile(configFile, proxyConfig);
    }
  });
});
