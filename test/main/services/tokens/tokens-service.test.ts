import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigFileError } from '../../../../main/services/app-config/store.js';
import { MASKED_API_KEY } from '../../../../main/services/tokens/token-rules.js';
import { RESTART_MESSAGE, TokensService } from '../../../../main/services/tokens/tokens-service.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

let t: TempContext;
beforeEach(async () => {
  t = await tempContext();
});
afterEach(() => t.cleanup());

describe('TokensService.init on a bare {config_dir}', () => {
  it('creates config.yaml (0600) with generated defaults and proxy/config.yaml with them', async () => {
    await new TokensService(t.ctx).init();
    const configFile = path.join(t.home, 'config.yaml');
    expect((await fs.stat(configFile)).mode & 0o777).toBe(0o600);
    const defaults = YAML.parse(await fs.readFile(configFile, 'utf8')).proxy.auth.defaults;
    expect(defaults.api_key).toMatch(/^sk-sb-[A-Za-z0-9]{32}$/);
    expect(defaults.management_secret).toMatch(/^[A-Za-z0-9]{32}$/);
    const proxy = YAML.parse(await fs.readFile(path.join(t.home, 'proxy', 'config.yaml'), 'utf8'));
    expect(proxy.auth).toEqual(defaults);
  });

  it('generates different defaults for different installs', async () => {
    const a = new TokensService(t.ctx);
    const other = await tempContext();
    try {
      const b = new TokensService(other.ctx);
      expect((await a.effective()).apiKey).not.toBe((await b.effective()).apiKey);
      expect((await a.effective()).managementSecret).not.toBe((await b.effective()).managementSecret);
    } finally {
      await other.cleanup();
    }
  });

  it('regenerates a default a user deleted from config.yaml', async () => {
    const service = new TokensService(t.ctx);
    await service.init();
    const first = await service.effective();
    const file = path.join(t.home, 'config.yaml');
    const doc = YAML.parseDocument(await fs.readFile(file, 'utf8'));
    doc.deleteIn(['proxy', 'auth', 'defaults', 'management_secret']);
    await fs.writeFile(file, doc.toString());
    const again = await service.effective();
    expect(again.apiKey).toBe(first.apiKey);
    expect(again.managementSecret).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(again.managementSecret).not.toBe(first.managementSecret);
  });

  it('does not keep the app from starting when config.yaml is broken, and logs why', async () => {
    await fs.writeFile(path.join(t.home, 'config.yaml'), 'proxy: [unclosed\n');
    const service = new TokensService(t.ctx);
    await expect(service.init()).resolves.toBeUndefined();
    expect(t.logs.some((l) => l.startsWith('warn tokens not initialised'))).toBe(true);
    await expect(service.view({ raw: false })).rejects.toBeInstanceOf(ConfigFileError);
  });
});

describe('restartRequired', () => {
  // Decisions §2: every change answers the restart message, and restartRequired is whether the
  // proxy runs, also when the values did not change (a no-op PUT, a second reset).
  it('is true for every change while the proxy runs, a no-op PUT or reset included', async () => {
    const service = new TokensService(t.ctx, { isProxyRunning: () => true });
    await service.init();
    const answers = [
      await service.update({ apiKey: 'custom-key-1' }),
      await service.update({ apiKey: 'custom-key-1' }), // the same value: nothing changes
      await service.update({ apiKey: MASKED_API_KEY }), // the masked form keeps the stored key
      await service.regenerateSecret(),
      await service.regenerateApiKey(),
      await service.reset(),
      await service.reset(), // already the defaults
    ];
    expect(answers.map((a) => [a.message, a.restartRequired])).toEqual(answers.map(() => [RESTART_MESSAGE, true]));
  });

  it('is false for every change while the proxy is stopped, with the same message', async () => {
    const service = new TokensService(t.ctx, { isProxyRunning: () => false });
    await service.init();
    const answers = [
      await service.update({ managementSecret: 'another-1' }),
      await service.update({ managementSecret: 'another-1' }),
      await service.regenerateSecret(),
      await service.regenerateApiKey(),
      await service.reset(),
      await service.reset(),
    ];
    expect(answers.map((a) => [a.message, a.restartRequired])).toEqual(answers.map(() => [RESTART_MESSAGE, false]));
  });

  it('follows the proxy state at the time of each answer', async () => {
    let running = false;
    const service = new TokensService(t.ctx, { isProxyRunning: () => running });
    await service.init();
    expect((await service.reset()).restartRequired).toBe(false);
    running = true;
    expect((await service.reset()).restartRequired).toBe(true);
  });

  it('defaults to a stopped proxy when nobody wires the probe', async () => {
    const service = new TokensService(t.ctx);
    expect((await service.update({ apiKey: 'custom-key-1' })).restartRequired).toBe(false);
  });
});

describe('effective', () => {
  it('answers the values the proxy must use: custom over default', async () => {
    const service = new TokensService(t.ctx);
    const defaults = await service.effective();
    await service.update({ managementSecret: 'my-secret-1' });
    expect(await service.effective()).toEqual({ apiKey: defaults.apiKey, managementSecret: 'my-secret-1' });
  });
});
