import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFile } from '../../../main/infra/file-lock.js';
import { acquireInterProcessLock, FileLockBusyError, LOCK_STALE_MS, lockPathOf } from '../../../main/infra/inter-process-lock.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-ipl-'));
});
afterAll(() => cleanup());

const record = (pid: number, at = Date.now(), host = os.hostname()) => JSON.stringify({ pid, host, at, token: 'theirs' });

describe('the inter-process lock of a {config_dir} file (issue 27.4)', () => {
  it('is a .<name>.lock beside the file, 0600, removed on release', async () => {
    const file = path.join(dir, 'a.yaml');
    const release = await acquireInterProcessLock(file);
    expect(lockPathOf(file)).toBe(path.join(dir, '.a.yaml.lock'));
    expect((await fs.stat(lockPathOf(file))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await fs.readFile(lockPathOf(file), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    await release();
    await expect(fs.stat(lockPathOf(file))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over a lock whose process is gone, and one older than the stale bound whoever holds it', async () => {
    for (const [name, content] of [
      ['dead.yaml', record(2 ** 22 + 12345)],
      ['old.yaml', record(process.ppid, Date.now() - LOCK_STALE_MS - 1000)],
      ['other-host.yaml', record(process.ppid, Date.now() - LOCK_STALE_MS - 1000, 'elsewhere')],
    ] as const) {
      const file = path.join(dir, name);
      await fs.writeFile(lockPathOf(file), content);
      const release = await acquireInterProcessLock(file, 2_000);
      expect(JSON.parse(await fs.readFile(lockPathOf(file), 'utf8')).pid).toBe(process.pid);
      await release();
    }
  });

  it('waits for a live holder, then answers FileLockBusyError naming it; the holder\'s lock stays', async () => {
    const file = path.join(dir, 'busy.yaml');
    await fs.writeFile(lockPathOf(file), record(process.ppid));
    const error = await acquireInterProcessLock(file, 150).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockBusyError);
    expect((error as Error).message).toBe(`busy.yaml is locked by process ${process.ppid}; try again`);
    expect(JSON.parse(await fs.readFile(lockPathOf(file), 'utf8')).token).toBe('theirs');
    await fs.rm(lockPathOf(file));
  });

  it('a release after a takeover leaves the new holder\'s lock in place', async () => {
    const file = path.join(dir, 'taken.yaml');
    const release = await acquireInterProcessLock(file);
    await fs.writeFile(lockPathOf(file), record(process.ppid));
    await release();
    expect(JSON.parse(await fs.readFile(lockPathOf(file), 'utf8')).token).toBe('theirs');
    await fs.rm(lockPathOf(file));
  });

  it('keeps two processes\' read-modify-write steps apart: no increment is lost', { timeout: 120_000 }, async () => {
    const file = path.join(dir, 'counter.txt');
    await fs.writeFile(file, '0');
    const ROUNDS = 150;
    // The child does what this process does, with the same lock, from the compiled-on-the-fly sources.
    const script = `
      import fs from 'node:fs/promises';
      import { lockFile } from ${JSON.stringify(fileURLToPath(new URL('../../../main/infra/file-lock.ts', import.meta.url)))};
      process.stdout.write('ready\\n');
      for (let i = 0; i < ${ROUNDS}; i++) {
        await lockFile(${JSON.stringify(file)}, async () => {
          const n = Number(await fs.readFile(${JSON.stringify(file)}, 'utf8'));
          await new Promise((r) => setImmediate(r));
          await fs.writeFile(${JSON.stringify(file)}, String(n + 1));
        });
      }`;
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Both loops start together: the child says when its modules are loaded.
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      void exited.then(() => reject(new Error(`child exited before starting: ${stderr}`)));
    });
    for (let i = 0; i < ROUNDS; i++) {
      await lockFile(file, async () => {
        const n = Number(await fs.readFile(file, 'utf8'));
        await new Promise((r) => setImmediate(r));
        await fs.writeFile(file, String(n + 1));
      });
    }
    expect(await exited, stderr).toBe(0);
    expect(Number(await fs.readFile(file, 'utf8'))).toBe(2 * ROUNDS);
  });
});
