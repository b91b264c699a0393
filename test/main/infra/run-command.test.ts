import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../../main/infra/run-command.js';

const fixtures = path.resolve(__dirname, '../../fixtures/agent-tool');
const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

/** A killed orphan stays a zombie until PID 1 reaps it; on Linux that counts as dead. */
async function alive(pid: number): Promise<boolean> {
  if (process.platform === 'linux') {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runCommand', () => {
  it('returns the output and exit code of a command that finishes', async () => {
    const result = await runCommand(path.join(fixtures, 'droid'), ['--version'], { timeoutMs: 5_000 });
    expect(result).toMatchObject({ code: 0, timedOut: false, stdout: 'droid 0.22.3 (fixture)\n' });
    expect(result.error).toBeUndefined();
  });

  it('reports a non-zero exit with its stderr', async () => {
    const result = await runCommand(path.join(fixtures, 'droid-fails'), ['--version'], { timeoutMs: 5_000 });
    expect(result).toMatchObject({ code: 3, timedOut: false, stderr: 'droid: broken install\n' });
  });

  it('reports a spawn failure instead of throwing', async () => {
    const result = await runCommand(path.join(fixtures, 'no-such-binary'), [], { timeoutMs: 5_000 });
    expect(result.error?.message).toMatch(/ENOENT/);
    expect(result.code).toBeNull();
  });

  it('settles at the timeout and kills the whole process tree', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-run-'));
    temps.push(dir);
    const pidFile = path.join(dir, 'pids');
    const started = Date.now();
    const result = await runCommand(path.join(fixtures, 'droid-hang'), ['--version'], {
      timeoutMs: 1_000,
      env: { ...process.env, FAKE_AGENT_PID_FILE: pidFile },
    });
    expect(result.timedOut).toBe(true);
    // it gave up on the hung child instead of waiting for it (a generous bound: the machine may be busy)
    expect(Date.now() - started).toBeLessThan(15_000);
    const pids = (await fs.readFile(pidFile, 'utf8')).trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    // SIGKILL to the group is delivered at once, but the kernel may take a moment to reap.
    await expect.poll(async () => (await Promise.all(pids.map(alive))).some(Boolean), { timeout: 15_000 }).toBe(false);
  });

  it('keeps at most maxOutputBytes of output', async () => {
    const result = await runCommand(process.execPath, ['-e', 'process.stdout.write("x".repeat(100000))'], {
      timeoutMs: 10_000,
      maxOutputBytes: 1_000,
    });
    expect(result.stdout).toHaveLength(1_000);
  });
});
