import { errorMessage } from './file-stat.js';
import type { Logger } from './logger.js';
import type { SupervisorStatus } from './process-supervisor-types.js';

/**
 * The supervisor's current status and the one way it changes: a patch, after which the
 * listener hears the whole new status. Absent fields are deleted, not kept as undefined, so a
 * status serializes the same way whichever transition produced it.
 */
export class SupervisorStatusCell {
  private current: SupervisorStatus = { state: 'stopped' };
  private muted = false;

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    private readonly onChange: ((status: SupervisorStatus) => void) | undefined,
  ) {}

  /** The live status, for the supervisor's own checks; callers outside get `snapshot()`. */
  get value(): Readonly<SupervisorStatus> {
    return this.current;
  }

  /** A copy nobody can change the supervisor's state through. */
  snapshot(): SupervisorStatus {
    return { ...this.current, ...(this.current.lastExit ? { lastExit: { ...this.current.lastExit } } : {}) };
  }

  set(patch: Partial<SupervisorStatus>): void {
    const next: SupervisorStatus = { ...this.current, ...patch };
    for (const key of Object.keys(next) as Array<keyof SupervisorStatus>) if (next[key] === undefined) delete next[key];
    this.current = next;
    if (this.muted) return;
    try {
      this.onChange?.(this.snapshot());
    } catch (err) {
      this.logger.error(`${this.name}: state listener failed: ${errorMessage(err)}`);
    }
  }

  /** After dispose: the state still changes (a late exit), but nobody is told any more. */
  mute(): void {
    this.muted = true;
  }
}
