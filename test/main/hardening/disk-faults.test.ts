import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.js';

/**
 * A full disk and a read-only {config_dir} during writes: the answer is the documented 500 and
 * the old file stays intact. {config_dir} lives on a tiny tmpfs the test mounts (needs root, as
 * on this project's machines and CI); where mounting is not permitted the test says so and skips.
 */

function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const mountable = canMount();
if (!mountable) console.warn('disk-faults: skipped, mounting a tmpfs needs root on Linux');

describe.skipIf(!mountable)('write faults on {config_dir}', () => {
  let app: TestApp;
  let home: string;
  const original = { env: { PROVIDER_BASE_URL: 'http://127.0.0.1:8317', PROVIDER_AUTH_TOKEN: 'tok-original-1', PROVIDER_MODEL: 'm1' } };

  beforeAll(async () => {
    app = await startTestApp({
      before: async (dirs) => {
        home = dirs.home;
        await fs.mkdir(home, { recursive: true });
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k,mode=0700', 'tmpfs', home]);
      },
    });
    const res = await app.json('PUT', '/api/settings/work', { settings: original });
    expect(res.status).toBe(200);
  });

  afterAll(async () => {
    try {
      execFileSync('mount', ['-o', 'remount,rw', home]);
    } catch {
      // already writable
    }
    await app?.close();
    execFileSync('umount', ['-l', home]);
    await app?.stop();
  });

  const stored = async () => JSON.parse(await fs.readFile(path.join(home, 'work.settings.json'), 'utf8'));
  const tempFiles = async () => (await fs.readdir(home)).filter((n) => n.endsWith('.tmp'));

  it('answers 500 with the documented text on a full disk and keeps the old file', async () => {
    const filler = path.join(home, 'filler.bin');
    const handle = await fs.open(filler, 'w');
    try {
      const block = Buffer.alloc(16 * 1024, 1);
      for (;;) await handle.write(block);
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      await handle.close();
    }
    const big = { env: { ...original.env, PROVIDER_MODEL: 'x'.repeat(64 * 1024) } };
    const res = await app.json('PUT', '/api/settings/work', { settings: big });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Failed to write settings file');
    expect(typeof res.body.message).toBe('string');
    expect((await stored()).env).toEqual(original.env);
    expect(await tempFiles()).toEqual([]);
    await fs.rm(filler);
  });

  it('answers 500 on a read-only {config_dir}, keeps the old file, and recovers when writable again', async () => {
    execFileSync('mount', ['-o', 'remount,ro', home]);
    try {
      const res = await app.json('PUT', '/api/settings/work', { settings: { env: { ...original.env, PROVIDER_MODEL: 'm2' } } });
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Failed to write settings file');
      expect((await stored()).env).toEqual(original.env);
      const read = await app.json('GET', '/api/settings/work');
      expect(read.status).toBe(200);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', home]);
    }
    const again = await app.json('PUT', '/api/settings/work', { settings: { env: { ...original.env, PROVIDER_MODEL: 'm3' } } });
    expect(again.status).toBe(200);
    expect((await stored()).env.PROVIDER_MODEL).toBe('m3');
  });
});
