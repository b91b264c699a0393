import type { ChildProcess } from 'node:child_process';

/** Ends a test's `sqlite3` writer (one holding a lock, say) and waits for it to be gone. */
export async function stopWriter(writer: ChildProcess | null): Promise<void> {
  if (writer === null || writer.exitCode !== null || writer.signalCode !== null) return;
  const gone = new Promise((resolve) => writer.once('exit', resolve));
  writer.kill('SIGKILL');
  await gone;
}

/**
 * Put first in a test writer's input: its BEGIN waits up to 10 s for a lock instead of failing at once.
 * The test's own lock probe (a read, or a BEGIN IMMEDIATE) may hold the database for a moment just
 * then; without a busy timeout the writer's BEGIN failed with "database is locked", its rows went in
 * without a transaction, and the test waited for a lock that never came (seen once in CI, Node 24).
 */
export const WRITER_WAITS = '.timeout 10000\n';
