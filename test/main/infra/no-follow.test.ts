import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureOwnDir, LinkRefusedError, readOwnFile, readOwnText } from '../../../main/infra/no-follow.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await makeTempDir('sb-nofollow-')));
afterEach(() => cleanup());

describe('readOwnFile / readOwnText', () => {
  it('reads a regular file, with the mtime of the bytes read', async () => {
    const file = path.join(dir, 'a.json');
    await fs.writeFile(file, '{"a":1}');
    expect((await readOwnFile(file)).toString('utf8')).toBe('{"a":1}');
    expect(await readOwnText(file)).toEqual({ text: '{"a":1}', mtime: Math.floor((await fs.stat(file)).mtimeMs) });
  });

  it('refuses a link, even to a file of ours, and keeps ENOENT for a missing file', async () => {
    await fs.writeFile(path.join(dir, 'target'), 'x');
    await fs.symlink(path.join(dir, 'target'), path.join(dir, 'link'));
    await expect(readOwnFile(path.join(dir, 'link'))).rejects.toBeInstanceOf(LinkRefusedError);
    await expect(readOwnFile(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a directory and does not block on a FIFO', async () => {
    await expect(readOwnFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(readOwnFile(fifo)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('ensureOwnDir', () => {
  it('creates missing directories 0700 and replaces a link (not its target) on the way', async () => {
    const outside = path.join(dir, 'outside');
    const home = path.join(dir, 'home');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'keep'), 'k');
    await fs.mkdir(home);
    await fs.symlink(outside, path.join(home, 'backups'));
    expect(await ensureOwnDir(path.join(home, 'backups', 'config'), home)).toEqual([path.join(home, 'backups')]);
    expect((await fs.lstat(path.join(home, 'backups'))).isDirectory()).toBe(true);
    expect((await fs.stat(path.join(home, 'backups', 'config'))).mode & 0o777).toBe(0o700);
    expect(await fs.readdir(outside)).toEqual(['keep']);
  });

  it('refuses a regular file in the way and a directory outside home; create: false creates nothing', async () => {
    const home = path.join(dir, 'home');
    await fs.mkdir(home);
    await fs.writeFile(path.join(home, 'backups'), 'data');
    await expect(ensureOwnDir(path.join(home, 'backups'), home)).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(ensureOwnDir(dir, home)).rejects.toThrow('is not inside');
    expect(await ensureOwnDir(path.join(home, 'x', 'y'), home, { create: false })).toEqual([]);
    await expect(fs.access(path.join(home, 'x'))).rejects.toThrow();
  });
});
