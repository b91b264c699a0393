import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { Clock } from './clock.js';
import { errorMessage } from './file-stat.js';
import { killTree as defaultKillTree, type KillTree } from './kill-tree.js';
import type { Logger } from './logger.js';
import { OutputTail } from './output-tail.js';
import { isPortInUse } from './port-probe.js';
import { isProcessAlive, processRunsArgs } from './process-alive.js';
import { readFileTail, sleep, waitUntil } from './process-wait.js';
import {
  readSupervisorRecord,
  removeSupervisorRecord,
  writeSupervisorRecord,
  type SupervisorRecord,
} from './supervisor-state-file.js';

export type SupervisorState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed';

export interface LaunchSpec {
  command: string;
  args: string[];
  /** Added to the app's own environment. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Own process group, so a terminal's Ctrl-C to the app does not reach the child
   * (keep-running-on-quit). Use with `outputFile`: a pipe would break when the app exits.
   */
  detached?: boolean;
  /** Child stdout/stderr go to this file (truncated at each start) instead of pipes. */
  outputFile?: string;
  /** Extra fields for the state file, e.g. `{engine: 'builtin'}`. */
  meta?: Record<string, unknown>;
}

export interface SupervisorOptions {
  name: string;
  launch: () => Promise<LaunchSpec>;
  port: () => Promise<number> | number;
  isHealthy: (port: number) => Promise<boolean>;
  readyTimeoutMs: number;
  readyPollMs: number;
  stopGraceMs: number;
  /** How often an adopted pid is checked for life (default 500 ms). */
  exitWatchMs?: number;
  stateFile: string;
  /** Proves a pid from the state file is ours; default: its argv still matches what we launched. */
  verifyPid?: (pid: number, port: number, record: SupervisorRecord) => Promise<boolean>;
  clock: Clock;
  logger: Logger;
  onChange?: (status: SupervisorStatus) => void;
  /** Injectable for tests; default tree-kill. */
  killTree?: KillTree;
  /** Refuse to start when something already listens on the port (default true). */
  checkPortFree?: boolean;
}

export interface SupervisorStatus {
  state: SupervisorState;
  pid?: number;
  port?: number;
  startedAt?: number;
  lastError?: string;
  lastExit?: { code: number | null; signal: string | null; at: number; expected: boolean };
}

export interface StartResult {
  alreadyRunning: boolean;
  pid: number;
  port: number;
}

/** A start or stop that failed; `message` is meant for users (it ends up in API answers). */
export class SupervisorError extends Error {}

interface Spawned {
  child: ChildProcess;
  exited: Promise<void>;
  hasExited: boolean;
  outputFile?: string;
}

const KILL_WAIT_MS = 2_000;

/**
 * The one supervisor of long-lived child processes (style habit 5): stopped → starting →
 * running → stopping → stopped, failed on a failed start or an unexpected exit. Timestamps
 * come from the injected clock; timeouts are real time, since they wait on real processes.
 */
export class ProcessSupervisor {
  private current: SupervisorStatus = { state: 'stopped' };
  private spawned: Spawned | undefined;
  private readonly output = new OutputTail(50);
  private starting: Promise<StartResult> | undefined;
  private stopping: Promise<{ stopped: boolean; pid?: number }> | undefined;
  private cancelStart: (() => void) | undefined;
  /** The pid we are signalling: its exit is expected even while starting. */
  private terminatingPid: number | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly kill: KillTree;

  constructor(private readonly opts: SupervisorOptions) {
    this.kill = opts.killTree ?? defaultKillTree;
  }

  status(): SupervisorStatus {
    return { ...this.current, ...(this.current.lastExit ? { lastExit: { ...this.current.lastExit } } : {}) };
  }

  /** Starts the child, or joins the start in progress; resolves once it answers its health probe. */
  async start(): Promise<StartResult> {
    if (this.stopping) await this.stopping.catch(() => undefined);
    if (this.current.state === 'running') return { alreadyRunning: true, pid: this.current.pid!, port: this.current.port! };
    this.starting ??= this.runStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async stop(): Promise<{ stopped: boolean; pid?: number }> {
    if (this.stopping) return this.stopping;
    if (this.starting) {
      const pid = this.current.pid;
      this.cancelStart?.();
      await this.starting.catch(() => undefined);
      return pid === undefined ? { stopped: false } : { stopped: true, pid };
    }
    if (this.current.state !== 'running') return { stopped: false };
    this.stopping = this.runStop().finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  /** At app start: takes over a child a previous app run left running, if it is provably ours. */
  async adopt(): Promise<boolean> {
    if (this.current.state === 'running') return true;
    if (!this.idle()) return false;
    const record = await readSupervisorRecord(this.opts.stateFile);
    if (!record) return false;
    const verify = this.opts.verifyPid ?? ((pid: number) => processRunsArgs(pid, record.argv));
    const ours =
      isProcessAlive(record.pid) &&
      record.argv.length > 0 &&
      (await verify(record.pid, record.port, record).catch(() => false)) &&
      (await this.opts.isHealthy(record.port).catch(() => false));
    // A start may have begun while the checks ran (status polls adopt concurrently): the file
    // may now hold that start's record, which must neither be removed nor taken over.
    if (!this.idle()) return this.status().state === 'running';
    if (!ours) {
      // Stale: the pid is gone or belongs to someone else now. Forget it; never signal it.
      this.opts.logger.info(`${this.opts.name}: ignoring stale state file (pid ${record.pid})`);
      await removeSupervisorRecord(this.opts.stateFile);
      return false;
    }
    this.set({ state: 'running', pid: record.pid, port: record.port, startedAt: record.startedAt, lastError: undefined });
    this.watchAdopted(record.pid);
    this.opts.logger.info(`${this.opts.name}: adopted running process ${record.pid} on port ${record.port}`);
    return true;
  }

  /** Nothing running and nothing under way: the only states adopt() may act in. */
  private idle(): boolean {
    return (this.current.state === 'stopped' || this.current.state === 'failed') && !this.starting && !this.stopping;
  }

  /** Stops timers and lets go of the child without stopping it (app quits with keep-running). */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopWatch();
    const child = this.spawned?.child;
    if (child) {
      child.unref();
      for (const stream of [child.stdout, child.stderr]) unrefStream(stream);
    }
  }

  private async runStart(): Promise<StartResult> {
    let cancelled = false;
    const cancel = new Promise<void>((resolve) => {
      this.cancelStart = () => {
        cancelled = true;
        resolve();
      };
    });
    this.output.clear();
    this.set({ state: 'starting', pid: undefined, port: undefined, startedAt: undefined, lastError: undefined });
    let port: number | undefined;
    let spec: LaunchSpec | undefined;
    try {
      port = await this.opts.port();
      this.set({ port });
      if ((this.opts.checkPortFree ?? true) && (await isPortInUse(port))) {
        throw new SupervisorError(`port ${port} is already in use by another process`);
      }
      spec = await this.opts.launch();
      const spawned = this.spawnChild(spec);
      this.set({ pid: spawned.child.pid });
      await this.waitReady(spawned, port, cancel, () => cancelled);
      const startedAt = this.opts.clock.now();
      await this.writeRecord(spawned, spec, port, startedAt);
      // Writing the record yields to the event loop: a stop or the child's death may have come
      // in meanwhile, and "running" would then be a lie nothing corrects (the exit is past).
      if (cancelled) throw new SupervisorError('cancelled');
      if (spawned.hasExited) throw new SupervisorError(await this.exitDuringStartMessage(spawned));
      this.set({ state: 'running', startedAt });
      return { alreadyRunning: false, pid: spawned.child.pid!, port };
    } catch (err) {
      await this.abandonStart();
      const message = cancelled ? `${this.opts.name} start cancelled by stop` : errorMessage(err);
      this.set(
        cancelled
          ? { state: 'stopped', pid: undefined, port: undefined }
          : { state: 'failed', pid: undefined, port: undefined, lastError: message },
      );
      throw err instanceof SupervisorError && !cancelled ? err : new SupervisorError(message);
    } finally {
      this.cancelStart = undefined;
    }
  }

  private spawnChild(spec: LaunchSpec): Spawned {
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
    child.stdout?.on('data', (chunk: Buffer) => this.output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.output.push(chunk));
    const finish = (code: number | null, signal: string | null) => {
      if (spawned.hasExited) return;
      spawned.hasExited = true;
      markExited();
      this.onChildExit(spawned, code, signal);
    };
    child.once('error', (err) => {
      this.output.push(`failed to launch ${spec.command}: ${err.message}\n`);
      // A spawn failure (ENOENT) has no exit event; a later error on a live child does.
      if (child.pid === undefined) finish(null, null);
    });
    child.once('exit', (code, signal) => finish(code, signal));
    this.spawned = spawned;
    return spawned;
  }

  private async waitReady(spawned: Spawned, port: number, cancel: Promise<void>, cancelled: () => boolean): Promise<void> {
    const deadline = performance.now() + this.opts.readyTimeoutMs;
    for (;;) {
      if (cancelled()) throw new SupervisorError('cancelled');
      if (spawned.hasExited) throw new SupervisorError(await this.exitDuringStartMessage(spawned));
      const healthy = await Promise.race([this.opts.isHealthy(port).catch(() => false), spawned.exited.then(() => false), cancel.then(() => false)]);
      if (healthy && !spawned.hasExited && !cancelled()) return;
      if (performance.now() >= deadline) {
        throw new SupervisorError(`${this.opts.name} did not answer its health check within ${this.opts.readyTimeoutMs} ms`);
      }
      await Promise.race([sleep(this.opts.readyPollMs), spawned.exited, cancel]);
    }
  }

  private async exitDuringStartMessage(spawned: Spawned): Promise<string> {
    const exit = this.current.lastExit;
    const how = exit?.signal ? `signal ${exit.signal}` : `code ${exit?.code ?? 'unknown'}`;
    const tail = (await this.outputLines(spawned, 10)).join('\n');
    return `${this.opts.name} exited during start (${how})${tail ? `: ${tail}` : ''}`;
  }

  /** The child's last lines; in output-file mode followed by the supervisor's own notes (spawn errors). */
  private async outputLines(spawned: Spawned | undefined, count: number): Promise<string[]> {
    const fromFile = spawned?.outputFile ? (await readFileTail(spawned.outputFile, 16_384)).split(/\r?\n/).filter((l) => l.trim()) : [];
    return [...fromFile, ...this.output.tail(count)].slice(-count);
  }

  /** After a failed or cancelled start: the child must be gone before the state changes. */
  private async abandonStart(): Promise<void> {
    const spawned = this.spawned;
    if (spawned && !spawned.hasExited && spawned.child.pid !== undefined) {
      await this.terminate(spawned.child.pid).catch((err) => this.opts.logger.error(errorMessage(err)));
    }
    await removeSupervisorRecord(this.opts.stateFile).catch(() => undefined);
  }

  private async runStop(): Promise<{ stopped: boolean; pid?: number }> {
    const pid = this.current.pid!;
    this.set({ state: 'stopping' });
    this.stopWatch();
    try {
      await this.terminate(pid);
    } catch (err) {
      this.set({ state: 'failed', lastError: errorMessage(err) });
      throw err;
    }
    await removeSupervisorRecord(this.opts.stateFile).catch(() => undefined);
    if (!this.spawned || this.spawned.child.pid !== pid) {
      this.set({ lastExit: { code: null, signal: null, at: this.opts.clock.now(), expected: true } });
    }
    this.set({ state: 'stopped', pid: undefined, port: undefined, startedAt: undefined });
    return { stopped: true, pid };
  }

  /** SIGTERM to the whole tree, SIGKILL after the grace period; resolves once the pid is gone. */
  private async terminate(pid: number): Promise<void> {
    this.terminatingPid = pid;
    try {
      await this.kill(pid, 'SIGTERM');
      if (await this.waitExit(pid, this.opts.stopGraceMs)) return;
      this.opts.logger.warn(`${this.opts.name} (pid ${pid}) still running ${this.opts.stopGraceMs} ms after SIGTERM; sending SIGKILL`);
      await this.kill(pid, 'SIGKILL');
      if (await this.waitExit(pid, KILL_WAIT_MS)) return;
      throw new SupervisorError(`${this.opts.name} (pid ${pid}) did not exit after SIGKILL`);
    } finally {
      this.terminatingPid = undefined;
    }
  }

  private async waitExit(pid: number, timeoutMs: number): Promise<boolean> {
    const spawned = this.spawned;
    if (spawned && spawned.child.pid === pid) {
      // Our own child: wait for its exit event, which also means Node has reaped it (no zombie).
      if (spawned.hasExited) return true;
      await Promise.race([spawned.exited, sleep(timeoutMs)]);
      return spawned.hasExited;
    }
    return waitUntil(() => !isProcessAlive(pid), timeoutMs, 25);
  }

  private onChildExit(spawned: Spawned, code: number | null, signal: string | null): void {
    if (this.spawned !== spawned) return;
    const expected = this.current.state === 'stopping' || this.terminatingPid === spawned.child.pid;
    this.set({ lastExit: { code, signal, at: this.opts.clock.now(), expected } });
    if (this.current.state !== 'running') return;
    void this.outputLines(spawned, 5).then((lines) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      this.exitedUnexpectedly(`${this.opts.name} exited unexpectedly (${how})${lines.length ? `: ${lines.join('\n')}` : ''}`);
    });
    // The state must flip at once; the message with the output tail follows a moment later.
    this.set({ state: 'failed', pid: undefined, port: undefined, startedAt: undefined, lastError: `${this.opts.name} exited unexpectedly` });
  }

  private exitedUnexpectedly(message: string): void {
    if (this.current.state === 'failed') this.set({ lastError: message });
    void removeSupervisorRecord(this.opts.stateFile).catch(() => undefined);
    this.opts.logger.warn(message);
  }

  private watchAdopted(pid: number): void {
    this.stopWatch();
    this.watchTimer = setInterval(() => {
      if (this.current.state !== 'running' || this.current.pid !== pid || isProcessAlive(pid)) return;
      this.stopWatch();
      this.set({
        state: 'failed',
        pid: undefined,
        port: undefined,
        startedAt: undefined,
        lastExit: { code: null, signal: null, at: this.opts.clock.now(), expected: false },
        lastError: `${this.opts.name} (pid ${pid}) exited unexpectedly`,
      });
      this.exitedUnexpectedly(`${this.opts.name} (pid ${pid}) exited unexpectedly`);
    }, this.opts.exitWatchMs ?? 500);
    this.watchTimer.unref();
  }

  private stopWatch(): void {
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.watchTimer = undefined;
  }

  private async writeRecord(spawned: Spawned, spec: LaunchSpec, port: number, startedAt: number): Promise<void> {
    const record: SupervisorRecord = {
      ...spec.meta,
      name: this.opts.name,
      pid: spawned.child.pid!,
      port,
      startedAt,
      argv: [spec.command, ...spec.args],
    };
    try {
      await writeSupervisorRecord(this.opts.stateFile, record);
    } catch (err) {
      // Without the record the child cannot be adopted after a restart; it still runs fine now.
      this.opts.logger.warn(`${this.opts.name}: could not write ${this.opts.stateFile}: ${errorMessage(err)}`);
    }
  }

  private set(patch: Partial<SupervisorStatus>): void {
    const next: SupervisorStatus = { ...this.current, ...patch };
    for (const key of Object.keys(next) as Array<keyof SupervisorStatus>) if (next[key] === undefined) delete next[key];
    this.current = next;
    if (this.disposed) return;
    try {
      this.opts.onChange?.(this.status());
    } catch (err) {
      this.opts.logger.error(`${this.opts.name}: state listener failed: ${errorMessage(err)}`);
    }
  }
}

function unrefStream(stream: Readable | null | undefined): void {
  const socket = stream as (Readable & { unref?: () => void }) | null | undefined;
  socket?.unref?.();
}
