import { markRun } from './run-marker.js';
import { useRunTempDir } from './run-temp.js';

/** Playwright global setup: marks the run and gives it a temp folder (workers and the `serve` children they start inherit both). */
export default function setup(): void {
  markRun();
  useRunTempDir();
}
