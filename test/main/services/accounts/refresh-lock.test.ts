import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RefreshBusyError, withRefreshLock } from '../../../../main/services/accounts/refresh-lock.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/** The cross-process half of "exactly one refresher per auth file" (reference §1). */
const record = (pid: number, at: number) => JSON.stringify({ pid, host: os.hostname(), at, token: 'other' });
let dir: { dir: string; cleanup: () => Promise<void> };
let file: string;
let lock: string;
beforeEach(async () => {
  dir = await makeTempDir();
  file = path.join(dir.dir, 'codex-1.json');
  lock = path.join(dir.dir, '.codex-1.json.refresh-lock');
});
afterEach(() => dir.cleanup());

describe('withRefreshLock', () => {
  it('holds the lock file (with our pid) while the task runs, and removes it after', async () => {
    const seen = await withRefreshLock(file, () => fs.readFile(lock, 'utf8'));
    expect(JSON.parse(seen).pid).toBe(process.pid);
    await expect(fs.stat(lock)).rejects.toThrow();
  });

  it('a live process holding the lock keeps the task from running; it gives up with RefreshBusyError', async () => {
    await fs.writeFile(lock, record(process.ppid, Date.now()));
    let ran = false;
    await expect(withRefreshLock(file, async () => void (ran = true), { waitMs: 150 })).rejects.toBeInstanceOf(RefreshBusyError);
    expect(ran).toBe(false);
  });

  it('runs once the other holder lets go', async () => {
    await fs.writeFile(lock, record(process.ppid, Date.now()));
    let ran = false;
    const pending = withRefreshLock(file, async () => void (ran = true), { waitMs: 10_000 });
    await Promise.resolve();
    expect(ran).toBe(false);
    await fs.rm(lock);
    await pending;
    expect(ran).toBe(true);
  });

  it('does not wait on the quick-write lock of the same file (a refresh and a pause are separate locks)', async () => {
    await fs.writeFile(path.join(dir.dir, '.codex-1.json.lock'), record(process.ppid, Date.now()));
    expect(await withRefreshLock(file, async () => 'ran', { waitMs: 100 })).toBe('ran');
  });

  it('takes over a lock whose holder is gone, or one older than staleMs', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await fs.writeFile(lock, record(gone, Date.now()));
    expect(await withRefreshLock(file, async () => 'ran', { waitMs: 100 })).toBe('ran');
    await fs.writeFile(lock, record(process.ppid, Date.now() - 10_000));
    expect(await withRefreshLock(file, async () => 'ran', { waitMs: 100, staleMs: 5_000 })).toBe('ran');
  });
});
