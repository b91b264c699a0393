import { errorMessage } from './file-stat.js';
import { isProcessAlive, processRunsArgs } from './process-alive.js';
import type { LaunchSpec, SupervisorOptions } from './process-supervisor-types.js';
import { writeSupervisorRecord, type SupervisorRecord } from './supervisor-state-file.js';

/**
 * Records a healthy child in the state file, so a later app run can adopt it. A failed write
 * is only logged: without the record the child cannot be adopted, but it runs fine now.
 */
export async function recordLaunch(
  opts: Pick<SupervisorOptions, 'name' | 'stateFile' | 'pidFile' | 'logger'>,
  launch: { pid: number; spec: LaunchSpec; port: number; startedAt: number },
): Promise<void> {
  const { pid, spec, port, startedAt } = launch;
  const record: SupervisorRecord = { ...spec.meta, name: opts.name, pid, port, startedAt, argv: [spec.command, ...spec.args] };
  try {
    await writeSupervisorRecord(opts.stateFile, record, opts.pidFile);
  } catch (err) {
    opts.logger.warn(`${opts.name}: could not write ${opts.stateFile}: ${errorMessage(err)}`);
  }
}

/** A recorded pid is ours only while it lives, still runs what we launched, and answers its probe. */
export async function isAdoptable(
  opts: Pick<SupervisorOptions, 'verifyPid' | 'isHealthy'>,
  record: SupervisorRecord,
): Promise<boolean> {
  const verify = opts.verifyPid ?? ((pid: number) => processRunsArgs(pid, record.argv));
  return (
    isProcessAlive(record.pid) &&
    record.argv.length > 0 &&
    (await verify(record.pid, record.port, record).catch(() => false)) &&
    (await opts.isHealthy(record.port).catch(() => false))
  );
}

/**
 * An adopted pid is not our child, so no exit event comes: poll it, and call `onGone` once
 * when it has died while `watched()` still holds. Returns the function that stops the watch.
 */
export function watchPidExit(pid: number, everyMs: number, watched: () => boolean, onGone: () => void): () => void {
  const timer = setInterval(() => {
    if (!watched() || isProcessAlive(pid)) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
