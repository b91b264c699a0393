import type { KillTree } from './kill-tree.js';
import type { Logger } from './logger.js';
import { isProcessAlive } from './process-alive.js';
import { SupervisorError } from './process-supervisor-types.js';
import { sleep, waitUntil } from './process-wait.js';
import type { Spawned } from './supervised-child.js';

const KILL_WAIT_MS = 2_000;

export interface Termination {
  name: string;
  kill: KillTree;
  graceMs: number;
  logger: Logger;
  /** The child we spawned, if any: its exit event is awaited instead of polling the pid. */
  ownChild: () => Spawned | undefined;
}

/** SIGTERM to the whole tree, SIGKILL after the grace period; resolves once the pid is gone. */
export async function terminateTree(pid: number, t: Termination): Promise<void> {
  await t.kill(pid, 'SIGTERM');
  if (await waitExit(pid, t.graceMs, t.ownChild())) return;
  t.logger.warn(`${t.name} (pid ${pid}) still running ${t.graceMs} ms after SIGTERM; sending SIGKILL`);
  await t.kill(pid, 'SIGKILL');
  if (await waitExit(pid, KILL_WAIT_MS, t.ownChild())) return;
  throw new SupervisorError(`${t.name} (pid ${pid}) did not exit after SIGKILL`);
}

async function waitExit(pid: number, timeoutMs: number, spawned: Spawned | undefined): Promise<boolean> {
  if (spawned && spawned.child.pid === pid) {
    // Our own child: wait for its exit event, which also means Node has reaped it (no zombie).
    if (spawned.hasExited) return true;
    await Promise.race([spawned.exited, sleep(timeoutMs)]);
    return spawned.hasExited;
  }
  return waitUntil(() => !isProcessAlive(pid), timeoutMs, 25);
}
