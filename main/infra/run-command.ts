import { spawn } from 'node:child_process';
import treeKill from 'tree-kill';

export interface RunOptions {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Output kept per stream; the rest is dropped, so a chatty program cannot fill memory. */
  maxOutputBytes?: number;
}

export interface RunResult {
  /** null when killed by a signal or on timeout. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The spawn itself failed (not found, not executable). */
  error?: Error;
}

/**
 * Runs a short-lived command (a `--version` probe) and always settles within `timeoutMs`.
 * On timeout the whole process tree is killed: a shell script's children included, so nothing
 * outlives the probe.
 */
export function runCommand(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  const limit = options.maxOutputBytes ?? 64 * 1024;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (result: Omit<RunResult, 'stdout' | 'stderr'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, stdout, stderr });
    };
    const posix = process.platform !== 'win32';
    const child = spawn(command, args, {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      // Own process group on POSIX, so one kill reaches every descendant.
      detached: posix,
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < limit) stdout += chunk.toString('utf8').slice(0, limit - stdout.length);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < limit) stderr += chunk.toString('utf8').slice(0, limit - stderr.length);
    });
    child.on('error', (error) => finish({ code: null, timedOut: false, error }));
    child.on('close', (code) => finish({ code, timedOut: false }));
    const timer = setTimeout(() => {
      killTree(child.pid, posix);
      finish({ code: null, timedOut: true });
    }, options.timeoutMs);
  });
}

function killTree(pid: number | undefined, posix: boolean): void {
  if (pid === undefined) return;
  if (posix) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
    return;
  }
  treeKill(pid, 'SIGKILL');
}
