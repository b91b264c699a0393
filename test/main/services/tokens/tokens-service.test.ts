import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigFileError } from '../../../../main/services/app-config/store.js';
import { TokensService } from '../../../../main/services/tokens/tokens-service.js';
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
  it('is true for a change while the proxy runs, false for a no-op or while it is stopped', async () => {
    let running = true;
    const service = new TokensService(t.ctx, { isProxyRunning: () => running });
    await service.init();
    expect((await service.update({ apiKey: 'custom-key-1' })).restartRequired).toBe(true);
    expect((await service.update({ apiKey: 'custom-key-1' })).restartRequired).toBe(false);
    expect((await service.regenerateSecret()).restartRequired).toBe(true);
    expect((await service.reset()).restartRequired).toBe(true);
    expect((await service.reset()).restartRequired).toBe(false);
    running = false;
    expect((await service.update({ managementSecret: 'another-1' })).restartRequired).toBe(false);
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
