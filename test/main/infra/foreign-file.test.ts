import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotRegularFileError, openRegularFile, openRegularFileSync } from '../../../main/infra/foreign-file.js';
import { readSettingsFile, SettingsWriteError, writeSettingsFile } from '../../../main/services/agent-tool/settings-file.js';
import { fingerprintMatches } from '../../../main/services/usage/scan-file.js';
import { readAll } from '../../../main/services/usage/scan-worker.js';
import { Pricing } from '../../../main/services/usage/pricing.js';

// Issue 27 point 9: a FIFO where the app expects someone else's file. Opened the plain way, the
// open blocks until a writer comes (forever here: the test would hang, not fail).
let dir: string;
let fifo: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-fifo-'));
  fifo = path.join(dir, 'pipe.jsonl');
  execFileSync('mkfifo', [fifo]);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('openRegularFile', () => {
  it('refuses a FIFO at once, async and sync, and opens a regular file', async () => {
    await expect(openRegularFile(fifo)).rejects.toBeInstanceOf(NotRegularFileError);
    expect(() => openRegularFileSync(fifo)).toThrow(NotRegularFileError);
    const file = path.join(dir, 'plain.txt');
    await fs.writeFile(file, 'hello');
    const handle = await openRegularFile(file);
    expect((await handle.readFile()).toString()).toBe('hello');
    await handle.close();
    const fd = openRegularFileSync(file);
    expect(fsSync.readFileSync(fd, 'utf8')).toBe('hello');
    fsSync.closeSync(fd);
    await expect(openRegularFile(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readers of files the app does not own, given a FIFO', () => {
  it('the usage scan reports the transcript as failed instead of hanging', () => {
    const { reads, failed } = readAll([{ path: fifo, start: 0 }], new Pricing());
    expect(reads).toEqual([]);
    expect(failed).toEqual([{ path: fifo, message: expect.stringContaining('not a regular file') }]);
    expect(fingerprintMatches(fifo, 10, 'x')).toBe(false);
  });

  // (Its stat already said so before; the open itself is now non-blocking too, for a FIFO swapped in after the stat.)
  it('the agent tool settings file reads as "not a regular file"', async () => {
    const state = await readSettingsFile(fifo);
    expect(state).toMatchObject({ exists: true, settings: null, parseError: 'not a regular file' });
  });

  it('writing the agent tool settings file over a FIFO is refused instead of hanging on its backup read', async () => {
    const write = writeSettingsFile(fifo, '{}', undefined, { backupsDir: path.join(dir, 'backups'), home: dir, now: new Date() });
    await expect(write).rejects.toBeInstanceOf(SettingsWriteError);
    await expect(write).rejects.toThrow('not a regular file');
    expect(fsSync.lstatSync(fifo).isFIFO()).toBe(true);
  });

});
