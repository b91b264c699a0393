import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * Issue 17: links planted inside {config_dir}. The app's own files and directories are never
 * reached through a link: a linked file is refused, a linked directory is replaced by a real one,
 * and nothing outside the home is read, written or chmod-ed.
 */

const CANARY = 'CANARY-outside-9d41';
const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.stop();
});

async function start(plant: (home: string, outside: string) => Promise<void>): Promise<{ app: TestApp; outside: string }> {
  let outside = '';
  const app = await startTestApp({
    before: async ({ home }) => {
      outside = path.join(path.dirname(home), 'outside');
      await fs.mkdir(outside, { recursive: true });
      await fs.mkdir(home, { recursive: true, mode: 0o700 });
      await plant(home, outside);
    },
  });
  apps.push(app);
  return { app, outside };
}

async function treeText(dir: string): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const parts: string[] = [];
  for (const e of entries) if (e.isFile()) parts.push(await fs.readFile(path.join(e.parentPath, e.name), 'utf8'));
  return parts.join('\n');
}

describe('symlinks inside {config_dir}', () => {
  it('a planted <profile>.settings.json link is neither read nor copied into backups/', async () => {
    const { app, outside } = await start(async (home, out) => {
      await fs.writeFile(path.join(out, 'secret.json'), JSON.stringify({ env: { STOLEN: CANARY } }));
      await fs.symlink(path.join(out, 'secret.json'), path.join(home, 'victim.settings.json'));
    });
    for (const suffix of ['/raw', '']) {
      const res = await app.request('GET', `/api/settings/victim${suffix}`);
      const text = await res.text();
      expect(text).not.toContain(CANARY);
      expect(res.status).toBe(500);
      expect(JSON.parse(text)).toEqual({
        error: 'Failed to read settings file',
        message: 'victim.settings.json is a symbolic link; Switchboard does not follow links inside its home',
      });
    }
    const put = await app.json('PUT', '/api/settings/victim', { settings: { env: { A: '1' } } });
    expect(put.status).toBe(500);
    expect((await app.json('GET', '/api/profiles')).body.profiles.map((p: { name: string }) => p.name)).not.toContain('victim');
    const backups = path.join(app.home, 'backups');
    expect(await treeText(backups).catch(() => '')).not.toContain(CANARY);
    expect(JSON.parse(await fs.readFile(path.join(outside, 'secret.json'), 'utf8'))).toEqual({ env: { STOLEN: CANARY } });
  });

  it('a symlinked backups/ is replaced by a real directory: no backup lands outside the home', async () => {
    const { app, outside } = await start(async (home, out) => {
      await fs.symlink(out, path.join(home, 'backups'));
    });
    // Also planted while the app runs, not only before it starts.
    await fs.rm(path.join(app.home, 'backups'), { recursive: true, force: true });
    await fs.symlink(outside, path.join(app.home, 'backups'));
    expect((await app.json('PUT', '/api/settings/p', { settings: { env: { A_TOKEN: CANARY } } })).status).toBe(200);
    const second = await app.json('PUT', '/api/settings/p', { settings: { env: { A_TOKEN: 'new' } } });
    expect(second.status).toBe(200);
    expect(second.body.backupPath.startsWith(path.join(app.home, 'backups') + path.sep)).toBe(true);
    expect((await fs.lstat(path.join(app.home, 'backups'))).isDirectory()).toBe(true);
    expect(await fs.readdir(outside)).toEqual([]);
    // config.yaml's backups (backups/config/) go the same way.
    await fs.rm(path.join(app.home, 'backups'), { recursive: true, force: true });
    await fs.symlink(outside, path.join(app.home, 'backups'));
    const cfg = await app.json('GET', '/api/config');
    expect((await app.json('PUT', '/api/config', { config: cfg.body.config, expectedMtime: cfg.body.mtime })).status).toBe(200);
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('a symlinked proxy/auth/ does not get its target’s modes changed', async () => {
    const { app, outside } = await start(async (home, out) => {
      await fs.writeFile(path.join(out, 'acct.json'), '{}', { mode: 0o644 });
      await fs.chmod(path.join(out, 'acct.json'), 0o644);
      await fs.chmod(out, 0o755);
      await fs.mkdir(path.join(home, 'proxy'), { recursive: true, mode: 0o700 });
      await fs.symlink(out, path.join(home, 'proxy', 'auth'));
    });
    expect((await fs.stat(outside)).mode & 0o777).toBe(0o755);
    expect((await fs.stat(path.join(outside, 'acct.json'))).mode & 0o777).toBe(0o644);
    const auth = path.join(app.home, 'proxy', 'auth');
    expect((await fs.lstat(auth)).isDirectory()).toBe(true);
    expect((await app.json('GET', '/api/proxy/auth-files')).body.files).toEqual([]);
  });

  it('a linked auth file is not served for download', async () => {
    const { app } = await start(async (home, out) => {
      await fs.writeFile(path.join(out, 'x.json'), JSON.stringify({ token: CANARY }));
      await fs.mkdir(path.join(home, 'proxy', 'auth'), { recursive: true, mode: 0o700 });
      await fs.symlink(path.join(out, 'x.json'), path.join(home, 'proxy', 'auth', 'x.json'));
    });
    const res = await app.request('GET', '/api/proxy/auth-files/download?name=x.json');
    expect(await res.text()).not.toContain(CANARY);
    expect(res.status).toBe(404);
  });

  it('a linked config.yaml is refused, not read', async () => {
    const { app } = await start(async (home, out) => {
      await fs.writeFile(path.join(out, 'c.yaml'), `default: ${CANARY}\n`);
      await fs.rm(path.join(home, 'config.yaml'), { force: true });
    });
    await fs.rm(path.join(app.home, 'config.yaml'), { force: true });
    await fs.symlink(path.join(path.dirname(app.home), 'outside', 'c.yaml'), path.join(app.home, 'config.yaml'));
    const res = await app.request('GET', '/api/config');
    expect(await res.text()).not.toContain(CANARY);
  });
});
