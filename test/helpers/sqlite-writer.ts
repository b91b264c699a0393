import type { ChildProcess } from 'node:child_process';

/** Ends a test's `sqlite3` writer (one holding a lock, say) and waits for it to be gone. */
export async function stopWriter(writer: ChildProcess | null): Promise<void> {
  if (writer === null || writer.exitCode !== null || writer.signalCode !== null) return;
  const gone = new Promise((resolve) => writer.once('exit', resolve));
  writer.kill('SIGKILL');
  await gone;
}
