import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsError } from '../../../../main/services/settings/errors.js';
import { SettingsStore, type FileWriter } from '../../../../main/services/settings/settings-store.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

let t: TempContext;
beforeEach(async () => {
  t = await tempContext();
});
afterEach(() => t.cleanup());

const failingWriter: FileWriter = async () => {
  throw new Error('ENOSPC: no space left on device, simulated');
};

describe('SettingsStore with a writer that fails', () => {
  it('reports write-failed with the cause and leaves the existing file intact', async () => {
    const store = new SettingsStore({ paths: t.ctx.paths, clock: t.clock, writeFile: failingWriter });
    const file = path.join(t.home, 'work.settings.json');
    await fs.writeFile(file, '{"env":{"A":"1"}}');
    const error = await store.update('work', () => ({ next: { env: { A: '2' } }, result: null })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsError);
    expect(error).toMatchObject({ kind: 'write-failed', message: 'ENOSPC: no space left on device, simulated' });
    expect(await fs.readFile(file, 'utf8')).toBe('{"env":{"A":"1"}}');
  });

  it('reports write-failed and creates nothing for a new file', async () => {
    const store = new SettingsStore({ paths: t.ctx.paths, clock: t.clock, writeFile: failingWriter });
    await expect(store.update('fresh', () => ({ next: { env: {} }, result: null }))).rejects.toMatchObject({ kind: 'write-failed' });
    await expect(fs.access(path.join(t.home, 'fresh.settings.json'))).rejects.toThrow();
  });
});

describe('SettingsStore', () => {
  it('names backups by the injected clock', async () => {
    const store = new SettingsStore({ paths: t.ctx.paths, clock: t.clock });
    await store.update('work', () => ({ next: { v: 1 }, result: null }));
    const { write } = await store.update('work', () => ({ next: { v: 2 }, result: null }));
    expect(path.basename(write.backupPath!)).toBe('work.20260102T030405006Z.settings.json');
  });

  it('aborts without writing when the plan throws', async () => {
    const store = new SettingsStore({ paths: t.ctx.paths, clock: t.clock });
    await expect(
      store.update('work', () => {
        throw new SettingsError('conflict', 'no', 1);
      }),
    ).rejects.toMatchObject({ kind: 'conflict' });
    await expect(fs.access(path.join(t.home, 'work.settings.json'))).rejects.toThrow();
  });

  it('refuses an invalid profile before touching the disk', async () => {
    const store = new SettingsStore({ paths: t.ctx.paths, clock: t.clock });
    await expect(store.read('../x')).rejects.toMatchObject({ kind: 'invalid-profile' });
    await expect(store.update('auth', () => ({ next: {}, result: null }))).rejects.toMatchObject({ kind: 'invalid-profile' });
  });
});
