import { markRun } from './run-marker.js';

/** Playwright global setup: marks the run (workers and the `serve` children they start inherit it). */
export default function setup(): void {
  markRun();
}
