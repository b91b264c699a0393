import { assertNothingLeft, markRun } from './run-marker.js';
import { assertNoTempLeft, useRunTempDir } from './run-temp.js';

/**
 * Vitest global setup: marks the run and gives it a temp folder of its own; the teardown fails
 * the run naming any process it left running and anything it left in that folder.
 */
export default function setup(): () => Promise<void> {
  const marker = markRun();
  const tempDir = useRunTempDir();
  return async () => {
    const problems: string[] = [];
    try {
      await assertNothingLeft(marker, 'vitest', Number(process.env.SWITCHBOARD_LEAK_GRACE_MS ?? 10_000));
    } catch (err) {
      problems.push((err as Error).message);
    }
    try {
      assertNoTempLeft(tempDir, 'vitest');
    } catch (err) {
      problems.push((err as Error).message);
    }
    if (problems.length === 0) return;
    // Vitest prints a teardown error but keeps exit code 0: set it, or the leak would pass.
    process.exitCode = 1;
    throw new Error(problems.join('\n'));
  };
}
