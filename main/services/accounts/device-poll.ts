import type { AccountView } from './account-view.js';

export type PollStep = 'pending' | { slowDown: number } | AccountView;

export interface PollTarget {
  /** Still waiting: a poll that answers after the sign-in ended is ignored. */
  waiting(): boolean;
  timers: Set<NodeJS.Timeout>;
  done(account: AccountView): void;
  failed(err: unknown): void;
}

/**
 * Polls a device flow: `step` every `intervalMs` (or the slower interval it asks for) until it
 * answers an account or fails, or the sign-in stops waiting. Timers never keep the process alive.
 */
export function pollDevice(target: PollTarget, intervalMs: number, step: () => Promise<PollStep>): void {
  const next = (ms: number) => {
    const timer = setTimeout(() => {
      target.timers.delete(timer);
      if (!target.waiting()) return;
      step().then(
        (result) => {
          if (!target.waiting()) return;
          if (result === 'pending') next(ms);
          else if ('slowDown' in result) next(result.slowDown);
          else target.done(result);
        },
        (err: unknown) => target.failed(err),
      );
    }, ms);
    timer.unref();
    target.timers.add(timer);
  };
  next(intervalMs);
}
