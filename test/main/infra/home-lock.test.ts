import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireHomeLock, HomeLockedError, readHomeLock } from '../../../main/infra/home-lock.js';
import { startTestApp } from '../../helpers/app.js';
import { startOnHome } from '../../fixtures/proxy-home.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir('sb-lock-')));
afterEach(() => cleanup());

const lockFile = () => path.join(dir, 'switchboard.lock');

describe('home lock', () => {
  it('is exclusive while held, records the URL, and is free again after release', async () => {
    const lock = await acquireHomeLock(dir);
    await lock.setUrl('http://127.0.0.1:4567');
    const err = await acquireHomeLock(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HomeLockedError);
    expect((err as Error).message).toBe(`${dir} is in use by another Switchboard (pid ${process.pid}) at http://127.0.0.1:4567/`);
    expect((await fs.stat(lockFile())).mode & 0o777).toBe(0o600);
    await lock.release();
    await lock.release();
    await expect(fs.access(lockFile())).rejects.toThrow();
    await (await acquireHomeLock(dir)).release();
  });

  it('says "still starting" before the URL is known', async () => {
    const lock = await acquireHomeLock(dir);
    await expect(acquireHomeLock(dir)).rejects.toThrow(`(pid ${process.pid}), still starting`);
    await lock.release();
  });

  it('takes over an unreadable lock, and a symlinked one without touching its target', async () => {
    await fs.writeFile(lockFile(), '{half');
    await (await acquireHomeLock(dir)).release();
    const target = path.join(dir, 'target.txt');
    await fs.writeFile(target, JSON.stringify({ pid: process.pid, url: null, startedAt: 1, argv: [] }));
    await fs.symlink(target, lockFile());
    const lock = await acquireHomeLock(dir);
    expect((await fs.lstat(lockFile())).isSymbolicLink()).toBe(false);
    expect(JSON.parse(await fs.readFile(target, 'utf8')).startedAt).toBe(1);
    expect((await readHomeLock(lockFile()))?.pid).toBe(process.pid);
    await lock.release();
  });

  it('a second app on a home in use is refused before it listens; the first one keeps its files', async () => {
    const first = await startTestApp();
    try {
      const err = await startOnHome(first.home, first.agentDir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HomeLockedError);
      expect((err as Error).message).toContain(first.url);
      expect((await readHomeLock(path.join(first.home, 'switchboard.lock')))?.url).toBe(first.url);
    } finally {
      await first.stop();
    }
  });
});
