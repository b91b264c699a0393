import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assetName, compareVersions } from '../../../../main/services/cliproxy/backends.js';
import { installCliproxy, InstallError, readInstalled, type InstallProgress } from '../../../../main/services/cliproxy/installer.js';
import { overrideOrigin } from '../../../../main/infra/origin-overrides.js';
import { CLIPROXY_ORIGINAL, startFakeReleaseFeed } from '../../../helpers/fake-release-feed.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const script = (v: string) => `#!/bin/sh\necho "CLIProxyAPI Version: ${v}"\n`;

describe('CLIProxyAPI installer (fake release feed)', () => {
  let tmp: Awaited<ReturnType<typeof makeTempDir>>;
  let feed: Awaited<ReturnType<typeof startFakeReleaseFeed>>;
  let binDir: string;

  beforeEach(async () => {
    tmp = await makeTempDir('cliproxy-install-');
    binDir = path.join(tmp.dir, 'proxy', 'bin');
    feed = await startFakeReleaseFeed({
      workDir: path.join(tmp.dir, 'feed'),
      ...CLIPROXY_ORIGINAL,
      releases: [
        { version: '6.9.40', script: script('6.9.40') },
        { version: '6.9.41', script: script('6.9.41'), badChecksum: true },
        { version: '6.9.42', script: script('6.9.42'), cutAfter: 40 },
        { version: '6.9.45', script: script('6.9.45') },
      ],
    });
  });
  afterEach(async () => {
    await feed.close();
    await tmp.cleanup();
  });

  const install = (version: string | null, extra: { force?: boolean; knownBad?: string[]; onProgress?: (p: InstallProgress) => void } = {}) =>
    installCliproxy({ binDir, backend: 'original', version, force: extra.force ?? false, knownBad: extra.knownBad ?? [], overrides: feed.overrides, onProgress: extra.onProgress });

  it('installs the latest release for this OS/arch, reports progress, records the version', async () => {
    const progress: InstallProgress[] = [];
    const got = await install(null, { onProgress: (p) => progress.push(p) });
    expect(got).toEqual({ backend: 'original', version: '6.9.45', path: path.join(binDir, 'cli-proxy-api') });
    expect(await fs.readFile(got.path, 'utf8')).toBe(script('6.9.45'));
    expect((await fs.stat(got.path)).mode & 0o111).not.toBe(0);
    expect(await readInstalled(binDir)).toEqual(got);
    const last = progress.at(-1);
    expect(last?.total).toBeGreaterThan(0);
    expect(last?.received).toBe(last?.total);
    expect((await fs.readdir(binDir)).sort()).toEqual(['cli-proxy-api', 'version.json']); // no scratch left
    expect(feed.requests.some((r) => r.startsWith('/repos/router-for-me/CLIProxyAPI/releases/latest'))).toBe(true);
  });

  it('refuses an archive whose SHA-256 does not match checksums.txt and keeps the old binary', async () => {
    const old = await install('6.9.40');
    const err = await install('6.9.41').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).kind).toBe('checksum');
    expect(await fs.readFile(old.path, 'utf8')).toBe(script('6.9.40'));
    expect((await readInstalled(binDir))?.version).toBe('6.9.40');
  });

  it('a download cut short never replaces the working binary', async () => {
    await install('6.9.40');
    const err = await install('6.9.42').catch((e: unknown) => e);
    expect((err as InstallError).kind).toBe('download');
    expect(await fs.readFile(path.join(binDir, 'cli-proxy-api'), 'utf8')).toBe(script('6.9.40'));
    expect((await fs.readdir(binDir)).sort()).toEqual(['cli-proxy-api', 'version.json']);
  });

  it('refuses a known-bad version unless forced', async () => {
    const err = await install('6.9.45', { knownBad: ['6.9.45'] }).catch((e: unknown) => e);
    expect((err as InstallError).kind).toBe('known-bad');
    expect(await readInstalled(binDir)).toBeNull();
    expect((await install('6.9.45', { knownBad: ['6.9.45'], force: true })).version).toBe('6.9.45');
  });

  it('a version that has no release or no asset is a clear error', async () => {
    await expect(install('1.0.0')).rejects.toThrow(/HTTP 404/);
    const err = await installCliproxy({ binDir, backend: 'original', version: null, force: false, knownBad: [], overrides: feed.overrides, platform: 'aix' }).catch((e: unknown) => e);
    expect((err as InstallError).kind).toBe('no-asset');
  });
});

describe('asset names and origin overrides', () => {
  it('follows reference §9.1 naming', () => {
    expect(assetName('original', 'v6.9.45', 'linux', 'x64')).toBe('CLIProxyAPI_6.9.45_linux_amd64.tar.gz');
    expect(assetName('original', '6.9.45', 'win32', 'arm64')).toBe('CLIProxyAPI_6.9.45_windows_aarch64.zip');
    expect(assetName('plus', '7.1.45-0', 'darwin', 'arm64')).toBe('CLIProxyAPIPlus_7.1.45-0_darwin_arm64.tar.gz');
    expect(assetName('plus', '7.1.68-0', 'linux', 'arm64')).toBe('CLIProxyAPIPlus_7.1.68-0_linux_aarch64_no-plugin.tar.gz');
    expect(assetName('plus', '7.1.68-0', 'win32', 'x64')).toBe('CLIProxyAPIPlus_7.1.68-0_windows_amd64.zip');
    expect(assetName('original', '6.9.45', 'freebsd', 'x64')).toBeNull();
    expect(compareVersions('7.1.45-1', '7.1.45-0')).toBeGreaterThan(0);
  });

  it('rewrites only an exactly matching origin, keeping path and query', () => {
    const o = { 'https://api.github.com/': 'http://127.0.0.1:9' };
    expect(overrideOrigin('https://api.github.com/repos/x/y?a=1', o)).toBe('http://127.0.0.1:9/repos/x/y?a=1');
    expect(overrideOrigin('https://api.github.com.evil/repos', o)).toBe('https://api.github.com.evil/repos');
    expect(overrideOrigin('https://github.com/x', o)).toBe('https://github.com/x');
    expect(overrideOrigin('https://github.com/x', undefined)).toBe('https://github.com/x');
  });
});
