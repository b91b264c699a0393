import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupStamp, writeBackup } from '../../../main/infra/backup.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-backup-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 2, 4, 5, 6, 7, 89);
const options = (now: number, base = 'work', keep = 20) => ({ backupsDir: path.join(dir, 'backups'), home: dir, base, suffix: '.settings.json', keep, now: new Date(now) });

describe('backupStamp', () => {
  it('is UTC YYYYMMDDTHHMMSSmmmZ', () => {
    expect(backupStamp(new Date(T0))).toBe('20260304T050607089Z');
  });
});

describe('writeBackup', () => {
  it('writes the content as <base>.<stamp><suffix> with mode 0600', async () => {
    const file = await writeBackup('{"a":1}', options(T0));
    expect(file).toBe(path.join(dir, 'backups', 'work.20260304T050607089Z.settings.json'));
    expect(await fs.readFile(file, 'utf8')).toBe('{"a":1}');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('gives a second backup in the same millisecond the next free millisecond', async () => {
    const a = await writeBackup('one', options(T0));
    const b = await writeBackup('two', options(T0));
    expect(path.basename(a)).toBe('work.20260304T050607089Z.settings.json');
    expect(path.basename(b)).toBe('work.20260304T050607090Z.settings.json');
    expect(await fs.readFile(b, 'utf8')).toBe('two');
  });

  it('keeps only the newest `keep` backups of its base, even when stamps collide', async () => {
    for (let i = 0; i < 25; i++) await writeBackup(`v${i}`, options(T0 + (i < 10 ? 0 : i * 1000)));
    const names = (await fs.readdir(path.join(dir, 'backups'))).sort();
    expect(names).toHaveLength(20);
    for (const n of names) expect(n).toMatch(/^work\.\d{8}T\d{9}Z\.settings\.json$/);
    const contents = await Promise.all(names.map((n) => fs.readFile(path.join(dir, 'backups', n), 'utf8')));
    expect(contents).toEqual(Array.from({ length: 20 }, (_, i) => `v${i + 5}`));
  });

  it('does not prune the backups of another base that shares its prefix', async () => {
    await writeBackup('other', options(T0, 'work.b'));
    await writeBackup('mine-1', options(T0 + 1, 'work', 1));
    await writeBackup('mine-2', options(T0 + 2, 'work', 1));
    const names = (await fs.readdir(path.join(dir, 'backups'))).sort();
    expect(names).toEqual(['work.20260304T050607091Z.settings.json', 'work.b.20260304T050607089Z.settings.json']);
  });
});
