import { assertNothingLeft, RUN_MARKER } from './run-marker.js';

/** Playwright global teardown: fails the run naming any process it started that is still alive. */
export default async function teardown(): Promise<void> {
  const marker = process.env[RUN_MARKER];
  if (marker) await assertNothingLeft(marker, 'playwright');
}
