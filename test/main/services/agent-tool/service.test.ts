import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/infra/clock.js';
import { createPaths } from '../../../../main/infra/paths.js';
import { AgentToolService } from '../../../../main/services/agent-tool/service.js';
import { AppConfigStore } from '../../../../main/services/app-config/store.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const fixtures = path.resolve(__dirname, '../../../fixtures/agent-tool');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-agent-tool-'));
});
afterEach(() => cleanup());

async function serviceWith(agentTool: Record<string, string>, options: { versionTimeoutMs?: number; env?: NodeJS.ProcessEnv } = {}) {
  const paths = createPaths({ configDir: path.join(dir, 'config'), agentDir: path.join(dir, 'agent') });
  await fs.mkdir(paths.configDir, { recursive: true });
  const lines = Object.entries(agentTool).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`);
  await fs.writeFile(paths.appConfig, `agent_tool:\n${lines.join('\n')}\n`);
  const ctx = {
    paths,
    appConfig: new AppConfigStore(paths.appConfig),
    clock: new ManualClock(),
    env: { PATH: [fixtures, process.env.PATH].join(path.delimiter), HOME: path.join(dir, 'home'), ...options.env },
  };
  return new AgentToolService(ctx, { versionTimeoutMs: options.versionTimeoutMs });
}

describe('binary detection', () => {
  it('finds the fixture binary on PATH and reads its version', async () => {
    const service = await serviceWith({ binary: 'droid' });
    const diag = await service.diagnostics();
    expect(diag.binary).toEqual({ installed: true, path: path.join(fixtures, 'droid'), version: 'droid 0.22.3 (fixture)' });
    expect(diag.warnings.filter((w) => w.includes('binary') || w.includes('version'))).toEqual([]);
  });

  it('takes an absolute binary path', async () => {
    const service = await serviceWith({ binary: path.join(fixtures, 'droid') }, { env: { PATH: '' } });
    expect((await service.diagnostics()).binary.installed).toBe(true);
  });

  it('reports a missing binary as not installed with a warning, never as an error', async () => {
    const service = await serviceWith({ binary: 'no-such-droid' });
    const diag = await service.diagnostics();
    expect(diag.binary).toEqual({ installed: false, path: null, version: null });
    expect(diag.warnings).toContain("Agent tool binary 'no-such-droid' was not found on PATH");
  });

  it('gives up on a binary that hangs once the (injected) timeout passes', async () => {
    const pidFile = path.join(dir, 'pids');
    const service = await serviceWith({ binary: 'droid-hang' }, { versionTimeoutMs: 300, env: { FAKE_AGENT_PID_FILE: pidFile } });
    const started = Date.now();
    const diag = await service.diagnostics();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(diag.binary).toEqual({ installed: true, path: path.join(fixtures, 'droid-hang'), version: null });
    expect(diag.warnings).toContain(`Could not read the version of ${path.join(fixtures, 'droid-hang')}: no answer to --version within 300 ms`);
  });

  it('reports a failing --version as a warning', async () => {
    const service = await serviceWith({ binary: 'droid-fails' });
    const diag = await service.diagnostics();
    expect(diag.binary.version).toBeNull();
    expect(diag.warnings).toContain(`Could not read the version of ${path.join(fixtures, 'droid-fails')}: --version exited with code 3`);
  });

  it('asks an unchanged binary for its version once', async () => {
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin);
    const counter = path.join(dir, 'count');
    await fs.writeFile(path.join(bin, 'droid'), `#!/bin/sh\necho x >> "${counter}"\necho "droid 1.0.0"\n`, { mode: 0o755 });
    const service = await serviceWith({ binary: 'droid' }, { env: { PATH: bin } });
    await service.diagnostics();
    await service.diagnostics();
    expect((await fs.readFile(counter, 'utf8')).trim().split('\n')).toHaveLength(1);
  });
});

describe('settings file', () => {
  it('expands ~ in settings_path and reads a missing file as "{}"', async () => {
    const service = await serviceWith({ binary: 'droid', settings_path: '~/.factory/settings.json' });
    const settings = await service.readSettings();
    expect(settings).toMatchObject({
      path: path.join(dir, 'home', '.factory', 'settings.json'),
      exists: false,
      mtime: null,
      content: '{}',
      settings: {},
      parseError: null,
    });
    expect(settings.diagnostics.warnings).toContain(`Settings file ${settings.path} does not exist yet`);
  });

  it('reports invalid JSON and a non-object root as parseError', async () => {
    const file = path.join(dir, 'settings.json');
    const service = await serviceWith({ binary: 'droid', settings_path: file });
    await fs.writeFile(file, '{"a":');
    const broken = await service.readSettings();
    expect(broken).toMatchObject({ exists: true, content: '{"a":', settings: null });
    expect(broken.parseError).toMatch(/JSON/);
    expect(broken.diagnostics.settingsFile.parseError).toBe(broken.parseError);
    await fs.writeFile(file, '[1,2]');
    expect((await service.readSettings()).parseError).toBe('the root must be a JSON object, not an array');
  });

  it('writes with mode 0600 when new, keeps an existing mode, and backs up the old text', async () => {
    const file = path.join(dir, 'home', '.factory', 'settings.json');
    const service = await serviceWith({ binary: 'droid', settings_path: file });
    const created = await service.writeSettings('{"model":"a"}', null);
    expect(created.backupPath).toBeUndefined();
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    await fs.chmod(file, 0o640);
    const replaced = await service.writeSettings('{\n  "model": "b"\n}', created.mtime);
    expect(replaced.mtime).toBeGreaterThan(created.mtime);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
    expect(await fs.readFile(file, 'utf8')).toBe('{\n  "model": "b"\n}');
    expect(path.dirname(replaced.backupPath!)).toBe(path.join(dir, 'config', 'backups', 'agent-tool'));
    expect(await fs.readFile(replaced.backupPath!, 'utf8')).toBe('{"model":"a"}');
  });

  it('writes through a settings file that is a symlink instead of replacing the link', async () => {
    const real = path.join(dir, 'dotfiles', 'settings.json');
    await fs.mkdir(path.dirname(real), { recursive: true });
    await fs.writeFile(real, '{}');
    const file = path.join(dir, 'settings-link.json');
    await fs.symlink(real, file);
    const service = await serviceWith({ binary: 'droid', settings_path: file });
    await service.writeSettings('{"x":1}', undefined);
    expect((await fs.lstat(file)).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(real, 'utf8')).toBe('{"x":1}');
  });
});
