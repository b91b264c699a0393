import { assertNothingLeft, markRun } from './run-marker.js';

/** Vitest global setup: marks the run; the teardown fails it naming any process the run left. */
export default function setup(): () => Promise<void> {
  const marker = markRun();
  return async () => {
    try {
      await assertNothingLeft(marker, 'vitest', Number(process.env.SWITCHBOARD_LEAK_GRACE_MS ?? 10_000));
    } catch (err) {
      // Vitest prints a teardown error but keeps exit code 0: set it, or the leak would pass.
      process.exitCode = 1;
      throw err;
    }
  };
}
