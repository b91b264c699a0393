import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { OutputTail } from './output-tail.js';
import type { LaunchSpec } from './process-supervisor-types.js';
import { readFileTail } from './process-wait.js';

/** A child the supervisor spawned, with its exit as a promise and as a flag. */
export interface Spawned {
  child: ChildProcess;
  exited: Promise<void>;
  hasExited: boolean;
  outputFile?: string;
}

export type ExitListener = (spawned: Spawned, code: number | null, signal: string | null) => void;

/**
 * Spawns the child with its output going to `output` (pipes) or to `spec.outputFile`, and calls
 * `onExit` exactly once: on its exit, or when it could not be launched at all.
 */
export function spawnSupervised(spec: LaunchSpec, output: OutputTail, onExit: ExitListener): Spawned {
  let fd: number | undefined;
  if (spec.outputFile) fd = fs.openSync(spec.outputFile, 'w', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      detached: spec.detached ?? false,
      stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
      windowsHide: true,
    });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  let markExited!: () => void;
  const spawned: Spawned = {
    child,
    exited: new Promise((resolve) => (markExited = resolve)),
    hasExited: false,
    outputFile: spec.outputFile,
  };
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const finish = (code: number | null, signal: string | null) => {
    if (spawned.hasExited) return;
    spawned.hasExited = true;
    markExited();
    onExit(spawned, code, signal);
  };
  child.once('error', (err) => {
    output.push(`failed to launch ${spec.command}: ${err.message}\n`);
    // A spawn failure (ENOENT) has no exit event; a later error on a live child does.
    if (child.pid === undefined) finish(null, null);
  });
  child.once('exit', (code, signal) => finish(code, signal));
  return spawned;
}

/** The child's last lines; in output-file mode followed by the supervisor's own notes (spawn errors). */
export async function childOutputLines(spawned: Spawned | undefined, output: OutputTail, count: number): Promise<string[]> {
  const fromFile = spawned?.outputFile ? (await readFileTail(spawned.outputFile, 16_384)).split(/\r?\n/).filter((l) => l.trim()) : [];
  return [...fromFile, ...output.tail(count)].slice(-count);
}

/** Lets the app exit while the child keeps running (keep-running-on-quit). */
export function releaseChild(child: ChildProcess): void {
  child.unref();
  for (const stream of [child.stdout, child.stderr]) unrefStream(stream);
}

function unrefStream(stream: Readable | null | undefined): void {
  const socket = stream as (Readable & { unref?: () => void }) | null | undefined;
  socket?.unref?.();
}
