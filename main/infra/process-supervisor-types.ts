import type { Clock } from './clock.js';
import type { KillTree } from './kill-tree.js';
import type { Logger } from './logger.js';
import type { SupervisorRecord } from './supervisor-state-file.js';

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
  /** A conventional pid file kept beside the record: the bare pid and a newline (decisions §0). */
  pidFile?: string;
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

/** What a stop did: stopped a child (its pid), or nothing; `cancelledStart` when it cancelled a start before any child ran. */
export interface StopResult {
  stopped: boolean;
  pid?: number;
  cancelledStart?: boolean;
}

/** A start or stop that failed; `message` is meant for users (it ends up in API answers). */
export class SupervisorError extends Error {}

/** A start that a stop cancelled: nothing failed, the user asked for it (the API answers 409). */
export class StartCancelledError extends SupervisorError {}
