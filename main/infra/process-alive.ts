import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';

/** True when a process with this pid exists (EPERM still means it exists, just not ours to signal). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The argv of a running process, or null when it cannot be read. Used to prove that a pid
 * found in a state file still belongs to the program we started (pids get reused).
 */
export async function processArgv(pid: number): Promise<string[] | null> {
  if (!isProcessAlive(pid)) return null;
  if (process.platform === 'linux') {
    try {
      const raw = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8');
      const argv = raw.split('\0');
      if (argv.at(-1) === '') argv.pop();
      return argv.length > 0 ? argv : null;
    } catch {
      return null;
    }
  }
  if (process.platform === 'win32') return null;
  // macOS/BSD: ps joins argv with spaces; good enough to look for the program and its script.
  return new Promise((resolve) => {
    execFile('ps', ['-p', String(pid), '-o', 'command='], { timeout: 2_000 }, (err, stdout) => {
      const line = stdout?.trim();
      resolve(err || !line ? null : [line]);
    });
  });
}

/** True when every one of `expected` appears in the process's argv (or its one-line command). */
export async function processRunsArgs(pid: number, expected: string[]): Promise<boolean> {
  const argv = await processArgv(pid);
  if (!argv) return false;
  if (argv.length === 1 && expected.length > 1) return expected.every((part) => argv[0]!.includes(part));
  return expected.every((part) => argv.includes(part));
}
