import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * "No temporary folder left behind", checked for the whole run: the global setup points TMPDIR
 * (read by os.tmpdir() on every call) at a folder of the run's own, which every process the run
 * starts inherits with the environment; the teardown fails the run when anything is left in it.
 * A folder of its own, not a before/after look at /tmp: other runs on the machine use /tmp at the
 * same time, and a prefix list would miss a new test's prefix.
 */
export const RUN_TEMP = 'SWITCHBOARD_TEST_TMPDIR';

/** Creates the run's temp folder under the current temp folder and makes it the temp folder of everything started from here. */
export function useRunTempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-run-')));
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = dir;
  process.env[RUN_TEMP] = dir;
  return dir;
}

/**
 * Tools' own caches, which they keep on purpose and reuse: not left behind by a test. `tsx-<uid>`
 * is tsx's transform cache (children run from sources outside `npm test`); `jiti` is the config
 * loader's cache of electron-builder (test/electron-builder.test.ts reads its config through it);
 * `playwright-transform-cache-<uid>` is Playwright's own compile cache of the specs and the
 * helpers they import (written under TMPDIR when a worker compiles a file it has not seen).
 */
const TOOL_CACHES = [/^tsx-\d+$/, /^jiti$/, /^playwright-transform-cache-\d+$/];

/** What is left in the run's temp folder (top-level entries, sorted), tools' caches aside. */
export function tempLeftovers(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => !TOOL_CACHES.some((re) => re.test(name)))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Removes the run's temp folder either way, so the machine is clean, and throws naming what the
 * run left in it. Call it after the process check: a live child may still be writing there.
 */
export function assertNoTempLeft(dir: string, runner: string): void {
  const left = tempLeftovers(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  if (left.length === 0) return;
  const lines = left.slice(0, 20).map((name) => `  ${name}`);
  if (left.length > 20) lines.push(`  … and ${left.length - 20} more`);
  throw new Error(`${runner} left ${left.length} temporary entr${left.length === 1 ? 'y' : 'ies'} in ${dir} (now removed):\n${lines.join('\n')}`);
}
