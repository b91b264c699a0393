import fs from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../infra/clock.js';
import type { Logger } from '../../infra/logger.js';
import { nodeEntry } from '../../infra/node-entry.js';
import { processArgv, processRunsArgs } from '../../infra/process-alive.js';
import { ProcessSupervisor, type LaunchSpec, type SupervisorStatus } from '../../infra/process-supervisor.js';
import type { BridgeSection } from '../app-config/schema.js';

export const DAEMON_ENTRY = 'main/engines/bridge-daemon/main';
export const DAEMON_SERVICE = 'switchboard-bridge';

/** Spec 8: start waits up to 30 s polling every second; stop waits 5 s before SIGKILL. */
export const READY_TIMEOUT_MS = 30_000;
export const READY_POLL_MS = 1_000;
export const STOP_GRACE_MS = 5_000;

export interface DaemonFiles {
  configDir: string;
  /** The bare pid (`{config_dir}/cursor/daemon.pid`). */
  pidFile: string;
  /** The supervisor record beside it (`{config_dir}/cursor/daemon.json`). */
  recordFile: string;
  /** Daemon stdout/stderr (`{config_dir}/cursor/daemon.log`). */
  logFile: string;
}

export interface DaemonControlOptions {
  files: DaemonFiles;
  settings: () => Promise<BridgeSection>;
  clock: Clock;
  logger: Logger;
  onChange?: (status: SupervisorStatus) => void;
  readyTimeoutMs?: number;
  readyPollMs?: number;
  stopGraceMs?: number;
  /** Replaces the real daemon (tests run fixture daemons that misbehave). */
  launch?: (settings: BridgeSection) => Promise<LaunchSpec> | LaunchSpec;
}

/** The real daemon's command line: its entry with `--config-dir` and `--port`, settings in the env. */
export function daemonLaunchSpec(configDir: string, settings: BridgeSection): LaunchSpec {
  const entry = nodeEntry(DAEMON_ENTRY);
  const options = {
    upstreamUrl: settings.upstream_url,
    ghostMode: settings.ghost_mode,
    model: settings.model,
    opus: settings.opus_model,
    sonnet: settings.sonnet_model,
    haiku: settings.haiku_model,
    ...(settings.upstream_timeout_seconds !== undefined ? { upstreamTimeoutMs: settings.upstream_timeout_seconds * 1000 } : {}),
  };
  return {
    command: entry.command,
    args: [...entry.args, '--config-dir', configDir, '--port', String(settings.port)],
    env: { ...entry.env, SWITCHBOARD_BRIDGE_OPTIONS: JSON.stringify(options) },
  };
}

/** True when `/health` on the port answers as the bridge daemon (not just anything listening). */
const HEALTH_TIMEOUT_MS = 5_000;

export async function isBridgeHealthy(port: number, timeoutMs = 1_000): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) {
      await res.body?.cancel();
      return false;
    }
    const body = (await res.json()) as { ok?: unknown; service?: unknown };
    return body.ok === true && body.service === DAEMON_SERVICE;
  } catch {
    return false;
  }
}

/**
 * The daemon's process control, through the shared supervisor. The child runs detached with its
 * output in daemon.log: `switchboard bridge start` exits right after starting it, and the app may
 * leave it running on quit (keep-running policy), so it must not depend on our pipes or group.
 */
export function createDaemonSupervisor(options: DaemonControlOptions): ProcessSupervisor {
  const { files } = options;
  return new ProcessSupervisor({
    name: 'bridge',
    launch: async () => {
      const settings = await options.settings();
      const spec = options.launch ? await options.launch(settings) : daemonLaunchSpec(files.configDir, settings);
      await fs.mkdir(path.dirname(files.logFile), { recursive: true, mode: 0o700 });
      return { ...spec, detached: true, outputFile: files.logFile };
    },
    port: async () => (await options.settings()).port,
    // 5 s, not 1: adoption forgets a record whose daemon does not answer, and on a busy machine a
    // live daemon took over a second (it was then left running with nothing to stop it).
    isHealthy: (port) => isBridgeHealthy(port, HEALTH_TIMEOUT_MS),
    readyTimeoutMs: options.readyTimeoutMs ?? READY_TIMEOUT_MS,
    readyPollMs: options.readyPollMs ?? READY_POLL_MS,
    stopGraceMs: options.stopGraceMs ?? STOP_GRACE_MS,
    exitWatchMs: 1_000,
    stateFile: files.recordFile,
    pidFile: files.pidFile,
    // A pid from daemon.json is ours only if it still runs the command line we launched; the
    // supervisor then also asks /health on the recorded port for our service name.
    verifyPid: async (pid, _port, record) => {
      if (process.platform === 'win32' && (await processArgv(pid)) === null) return true; // health decides
      return processRunsArgs(pid, record.argv);
    },
    clock: options.clock,
    logger: options.logger,
    onChange: options.onChange,
  });
}
