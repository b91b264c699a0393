import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startTestApp, type TestApp } from '../../helpers/app.js';

// Issue 27.3: parallel key changes used to read the old key outside the serialised section, so
// the routed profiles ended on a key neither config file held (5 of 5 rounds).
let app: TestApp;
const ROUTED = ['routed-a', 'routed-b', 'routed-c'];
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const fileOf = (profile: string) => path.join(app.home, `${profile}.settings.json`);
const readEnv = async (file: string) => JSON.parse(await fs.readFile(file, 'utf8')).env as Record<string, string>;
const rawKey = async () => (await app.json('GET', '/api/settings/auth/tokens/raw')).body.apiKey.value as string;

async function keysOnDisk(): Promise<{ config: string; proxy: string }> {
  const config = YAML.parse(await fs.readFile(path.join(app.home, 'config.yaml'), 'utf8'));
  const proxy = YAML.parse(await fs.readFile(path.join(app.home, 'proxy', 'config.yaml'), 'utf8'));
  return { config: config.proxy.auth.api_key ?? config.proxy.auth.defaults.api_key, proxy: proxy.auth.api_key };
}

async function expectEveryoneOnOneKey(round: string): Promise<void> {
  const { config, proxy } = await keysOnDisk();
  expect(proxy, `${round}: proxy/config.yaml`).toBe(config);
  for (const name of ROUTED) expect((await readEnv(fileOf(name))).PROVIDER_AUTH_TOKEN, `${round}: ${name}`).toBe(config);
  // Claude Code's copy of the applied routed profile follows in the same step.
  expect((await readEnv(path.join(app.agentDir, 'settings.json'))).ANTHROPIC_AUTH_TOKEN, `${round}: Claude Code`).toBe(config);
}

describe('parallel API key changes (issue 27.3)', () => {
  beforeAll(async () => {
    const key = await rawKey();
    for (const name of ROUTED) {
      await fs.writeFile(fileOf(name), JSON.stringify({ env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: key, PROVIDER_MODEL: 'm' } }));
    }
    expect((await app.json('POST', '/api/claude-code/apply', { profile: 'routed-a' })).status).toBe(200);
    await expectEveryoneOnOneKey('start');
  });

  it.each([2, 3, 4, 5, 5])('%i parallel regenerate-api-key leave every routed profile on the key both files hold', async (n) => {
    const answers = await Promise.all(Array.from({ length: n }, () => app.json('POST', '/api/settings/auth/tokens/regenerate-api-key')));
    for (const res of answers) expect(res.status).toBe(200);
    await expectEveryoneOnOneKey(`${n} at once`);
    // Each change found the routed profiles on the key before it, so each one rewrote them all.
    for (const res of answers) expect(res.body.updatedProfiles).toEqual(expect.arrayContaining(ROUTED));
  });

  it('PUT tokens, reset and regenerate at once end on one key too', async () => {
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        app.json('PUT', '/api/settings/auth/tokens', { apiKey: `custom-key-${round}-aaaaaaaa` }),
        app.json('POST', '/api/settings/auth/tokens/regenerate-api-key'),
        app.json('POST', '/api/settings/auth/tokens/reset'),
        app.json('PUT', '/api/settings/auth/tokens', { apiKey: `custom-key-${round}-bbbbbbbb` }),
      ]);
      for (const res of answers) expect(res.status).toBe(200);
      await expectEveryoneOnOneKey(`mixed round ${round}`);
    }
  });
});
