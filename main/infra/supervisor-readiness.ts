import type { SupervisorOptions } from './process-supervisor-types.js';
import { SupervisorError } from './process-supervisor-types.js';
import { sleep } from './process-wait.js';
import type { Spawned } from './supervised-child.js';

export interface ReadyWait {
  spawned: Spawned;
  port: number;
  /** Settles when a stop cancels the start; `cancelled()` then holds. */
  cancel: Promise<void>;
  cancelled: () => boolean;
  /** Why the start failed when the child exits before it is healthy. */
  exitMessage: () => Promise<string>;
}

type ReadyOptions = Pick<SupervisorOptions, 'name' | 'isHealthy' | 'readyTimeoutMs' | 'readyPollMs'>;

/**
 * Polls the health probe until it answers, giving up at once when the child exits or the
 * start is cancelled, and after `readyTimeoutMs` of real time (the child runs in real time).
 */
export async function waitReady(opts: ReadyOptions, wait: ReadyWait): Promise<void> {
  const { spawned, port, cancel, cancelled } = wait;
  const deadline = performance.now() + opts.readyTimeoutMs;
  for (;;) {
    if (cancelled()) throw new SupervisorError('cancelled');
    if (spawned.hasExited) throw new SupervisorError(await wait.exitMessage());
    const healthy = await Promise.race([opts.isHealthy(port).catch(() => false), spawned.exited.then(() => false), cancel.then(() => false)]);
    if (healthy && !spawned.hasExited && !cancelled()) return;
    if (performance.now() >= deadline) {
      throw new SupervisorError(`${opts.name} did not answer its health check within ${opts.readyTimeoutMs} ms`);
    }
    await Promise.race([sleep(opts.readyPollMs), spawned.exited, cancel]);
  }
}
