import { errorMessage } from './file-stat.js';
import { killTree as defaultKillTree } from './kill-tree.js';
import { OutputTail } from './output-tail.js';
import { isPortInUse } from './port-probe.js';
import {
  StartCancelledError,
  SupervisorError,
  type LaunchSpec,
  type StartResult,
  type StopResult,
  type SupervisorOptions,
  type SupervisorStatus,
} from './process-supervisor-types.js';
import { childOutputLines, releaseChild, spawnSupervised, type Spawned } from './supervised-child.js';
import { isAdoptable, recordLaunch, watchPidExit } from './supervisor-adoption.js';
import { waitReady } from './supervisor-readiness.js';
import { readSupervisorRecord, removeSupervisorRecord } from './supervisor-state-file.js';
import { SupervisorStatusCell } from './supervisor-status.js';
import { terminateTree, type Termination } from './supervisor-termination.js';

export { StartCancelledError, SupervisorError } from './process-supervisor-types.js';
export type { LaunchSpec, StartResult, StopResult, SupervisorOptions, SupervisorState, SupervisorStatus } from './process-supervisor-types.js';

/**
 * The one supervisor of long-lived child processes (style habit 5): stopped → starting →
 * running → stopping → stopped, failed on a failed start or an unexpected exit. Timestamps
 * come from the injected clock; timeouts are real time, since they wait on real processes.
 * This class owns the transitions; spawning, readiness, termination and the state file that
 * adoption reads each live in their own module beside it.
 */
export class ProcessSupervisor {
  private readonly state: SupervisorStatusCell;
  private spawned: Spawned | undefined;
  private readonly output = new OutputTail(50);
  private starting: Promise<StartResult> | undefined;
  private stopping: Promise<StopResult> | undefined;
  private cancelStart: (() => void) | undefined;
  /** The pid we are signalling: its exit is expected even while starting. */
  private terminatingPid: number | undefined;
  private unwatch: (() => void) | undefined;
  private readonly termination: Termination;

  constructor(private readonly opts: SupervisorOptions) {
    this.state = new SupervisorStatusCell(opts.name, opts.logger, opts.onChange);
    const kill = opts.killTree ?? defaultKillTree;
    this.termination = { name: opts.name, kill, graceMs: opts.stopGraceMs, logger: opts.logger, ownChild: () => this.spawned };
  }

  private get current(): Readonly<SupervisorStatus> {
    return this.state.value;
  }

  private set(patch: Partial<SupervisorStatus>): void {
    this.state.set(patch);
  }

  status(): SupervisorStatus {
    return this.state.snapshot();
  }

  /**
   * Starts the child, or joins the start in progress; resolves once it answers its health probe.
   * Only the call that began the start reports `alreadyRunning: false`: a joiner found it
   * starting, so for it the child was already on its way (issue 17: ten concurrent starts all
   * claimed to have started the one child).
   */
  async start(): Promise<StartResult> {
    if (this.stopping) await this.stopping.catch(() => undefined);
    if (this.current.state === 'running') return { alreadyRunning: true, pid: this.current.pid!, port: this.current.port! };
    if (this.starting) return this.starting.then((r) => ({ ...r, alreadyRunning: true }));
    this.starting = this.runStart().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async stop(): Promise<StopResult> {
    if (this.stopping) return this.stopping;
    if (this.starting) {
      const pid = this.current.pid;
      this.cancelStart?.();
      await this.starting.catch(() => undefined);
      // Before the spawn nothing ran: the start ends without a child, and the answer says so.
      return pid === undefined ? { stopped: false, cancelledStart: true } : { stopped: true, pid };
    }
    if (this.current.state !== 'running') return { stopped: false };
    this.stopping = this.runStop().finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  /** At app start: takes over a child a previous app run left running, if it is provably ours. */
  async adopt(): Promise<boolean> {
    if (this.current.state === 'running') return true;
    if (!this.idle()) return false;
    const record = await readSupervisorRecord(this.opts.stateFile, this.opts.pidFile);
    if (!record) return false;
    const ours = await isAdoptable(this.opts, record);
    // A start may have begun while the checks ran (status polls adopt concurrently): the file
    // may now hold that start's record, which must neither be removed nor taken over.
    if (!this.idle()) return this.status().state === 'running';
    if (!ours) {
      // Stale: the pid is gone or belongs to someone else now. Forget it; never signal it.
      this.opts.logger.info(`${this.opts.name}: ignoring stale state file (pid ${record.pid})`);
      await removeSupervisorRecord(this.opts.stateFile, this.opts.pidFile);
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
    this.state.mute();
    this.stopWatch();
    if (this.spawned) releaseChild(this.spawned.child);
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
      // A stop that came while the launch was prepared: spawn nothing rather than spawn and kill.
      if (cancelled) throw new StartCancelledError(`${this.opts.name} start cancelled by stop`);
      const spawned = spawnSupervised(spec, this.output, (s, code, signal) => this.onChildExit(s, code, signal));
      this.spawned = spawned;
      this.set({ pid: spawned.child.pid });
      const exitMessage = () => this.exitDuringStartMessage(spawned);
      await waitReady(this.opts, { spawned, port, cancel, cancelled: () => cancelled, exitMessage });
      const startedAt = this.opts.clock.now();
      await recordLaunch(this.opts, { pid: spawned.child.pid!, spec, port, startedAt });
      // Writing the record yields to the event loop: a stop or the child's death may have come
      // in meanwhile, and "running" would then be a lie nothing corrects (the exit is past).
      if (cancelled) throw new SupervisorError('cancelled');
      if (spawned.hasExited) throw new SupervisorError(await exitMessage());
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
      if (cancelled) throw new StartCancelledError(message);
      throw err instanceof SupervisorError ? err : new SupervisorError(message);
    } finally {
      this.cancelStart = undefined;
    }
  }

  private async exitDuringStartMessage(spawned: Spawned): Promise<string> {
    const exit = this.current.lastExit;
    const how = exit?.signal ? `signal ${exit.signal}` : `code ${exit?.code ?? 'unknown'}`;
    const tail = (await childOutputLines(spawned, this.output, 10)).join('\n');
    return `${this.opts.name} exited during start (${how})${tail ? `: ${tail}` : ''}`;
  }

  /** After a failed or cancelled start: the child must be gone before the state changes. */
  private async abandonStart(): Promise<void> {
    const spawned = this.spawned;
    if (spawned && !spawned.hasExited && spawned.child.pid !== undefined) {
      await this.terminate(spawned.child.pid).catch((err) => this.opts.logger.error(errorMessage(err)));
    }
    await removeSupervisorRecord(this.opts.stateFile, this.opts.pidFile).catch(() => undefined);
  }

  private async runStop(): Promise<StopResult> {
    const pid = this.current.pid!;
    this.set({ state: 'stopping' });
    this.stopWatch();
    try {
      await this.terminate(pid);
    } catch (err) {
      this.set({ state: 'failed', lastError: errorMessage(err) });
      throw err;
    }
    await removeSupervisorRecord(this.opts.stateFile, this.opts.pidFile).catch(() => undefined);
    if (!this.spawned || this.spawned.child.pid !== pid) {
      this.set({ lastExit: { code: null, signal: null, at: this.opts.clock.now(), expected: true } });
    }
    this.set({ state: 'stopped', pid: undefined, port: undefined, startedAt: undefined });
    return { stopped: true, pid };
  }

  private async terminate(pid: number): Promise<void> {
    this.terminatingPid = pid;
    try {
      await terminateTree(pid, this.termination);
    } finally {
      this.terminatingPid = undefined;
    }
  }

  private onChildExit(spawned: Spawned, code: number | null, signal: string | null): void {
    if (this.spawned !== spawned) return;
    const expected = this.current.state === 'stopping' || this.terminatingPid === spawned.child.pid;
    this.set({ lastExit: { code, signal, at: this.opts.clock.now(), expected } });
    if (this.current.state !== 'running') return;
    void childOutputLines(spawned, this.output, 5).then((lines) => {
      const how = signal ? `signal ${signal}` : `code ${code}`;
      this.exitedUnexpectedly(`${this.opts.name} exited unexpectedly (${how})${lines.length ? `: ${lines.join('\n')}` : ''}`);
    });
    // The state must flip at once; the message with the output tail follows a moment later.
    this.set({ state: 'failed', pid: undefined, port: undefined, startedAt: undefined, lastError: `${this.opts.name} exited unexpectedly` });
  }

  private exitedUnexpectedly(message: string): void {
    if (this.current.state === 'failed') this.set({ lastError: message });
    void removeSupervisorRecord(this.opts.stateFile, this.opts.pidFile).catch(() => undefined);
    this.opts.logger.warn(message);
  }

  private watchAdopted(pid: number): void {
    this.stopWatch();
    const watched = () => this.current.state === 'running' && this.current.pid === pid;
    this.unwatch = watchPidExit(pid, this.opts.exitWatchMs ?? 500, watched, () => {
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
    });
  }

  private stopWatch(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }
}
