import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const config = YAML.parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation', async () => {
    // Resolved the way electron-builder resolves it, so the check runs the installed version's schema.
    const fromBuilder = createRequire(createRequire(__filename).resolve('electron-builder'));
    const { validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config.js');
    const { DebugLogger } = fromBuilder('builder-util');
    await expect(validateConfiguration(structuredClone(config), new DebugLogger(false))).resolves.toBeUndefined();
    const broken = { ...structuredClone(config), electronFuses: { ...config.electronFuses, runAsNodee: true } };
    await expect(validateConfiguration(broken, new DebugLogger(false))).rejects.toThrow(/configuration/i);
  });

  it('names the app and its places', () => {
    expect(config.appId).toBe('dev.switchboard.app');
    expect(config.productName).toBe('Switchboard');
    expect(config.directories).toEqual({ output: 'release', buildResources: 'resources' });
    expect(config.asar).toBe(true);
  });

  it('builds dmg+zip, nsis, AppImage+deb with the icon from resources/', () => {
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    for (const platform of ['mac', 'win', 'linux']) {
      expect(config[platform].icon).toBe('resources/icon.png');
      expect(fs.existsSync(path.join(root, config[platform].icon))).toBe(true);
    }
    expect(config.linux.maintainer).toMatch(/<[^>]+@[^>]+>/);
  });

  it('packs the build and resources only: no sources, tests, benches or maps', () => {
    expect(config.files.filter((f: string) => !f.startsWith('!'))).toEqual(['package.json', 'dist/**', 'resources/**']);
    expect(config.files).toEqual(
      expect.arrayContaining(['!dist/**/*.map', '!dist/test/**', '!dist/bench/**', '!**/*.{test,spec}.{js,mjs,cjs}', '!**/*.{ts,tsx,mts,cts}']),
    );
  });

  it('starts from the built Electron entry that main/app/main.ts compiles to', () => {
    expect(pkg.main).toBe('dist/main/app/main.js');
    expect(fs.existsSync(path.join(root, 'main/app/main.ts'))).toBe(true);
    expect(pkg.scripts.desktop).toBe('npm run build && electron .');
  });

  it('sets fuses that fit children started as ELECTRON_RUN_AS_NODE and lock down the rest', () => {
    const nodeEntry = fs.readFileSync(path.join(root, 'main/infra/node-entry.ts'), 'utf8');
    expect(nodeEntry).toContain("ELECTRON_RUN_AS_NODE = '1'");
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('child processes of the built app need no NODE_OPTIONS (that fuse is off)', () => {
    // From dist/ the entry is run directly; only the source run uses `--import tsx`.
    const nodeEntry = fs.readFileSync(path.join(root, 'main/infra/node-entry.ts'), 'utf8');
    expect(nodeEntry).not.toMatch(/NODE_OPTIONS/);
    const distLaunch = nodeEntry.split('\n').filter((line) => line.includes("'dist'"));
    expect(distLaunch.length).toBeGreaterThan(0);
    for (const line of distLaunch) expect(line).not.toContain('--import');
  });
});
