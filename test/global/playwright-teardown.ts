import { assertNothingLeft, RUN_MARKER } from './run-marker.js';
import { assertNoTempLeft, RUN_TEMP } from './run-temp.js';

/** Playwright global teardown: fails the run naming any process it started that is still alive, or anything left in its temp folder. */
export default async function teardown(): Promise<void> {
  const marker = process.env[RUN_MARKER];
  const tempDir = process.env[RUN_TEMP];
  const problems: string[] = [];
  if (marker) await assertNothingLeft(marker, 'playwright').catch((err: Error) => problems.push(err.message));
  if (tempDir) {
    try {
      assertNoTempLeft(tempDir, 'playwright');
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
}
