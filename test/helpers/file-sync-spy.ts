import fs from 'node:fs/promises';
import { vi } from 'vitest';

/** A spy on every file handle's sync() (fsync): the prototype is taken from a handle, Node does not export the class. */
export async function spyOnFileSync() {
  const probe = await fs.open(import.meta.filename ?? new URL(import.meta.url).pathname, 'r');
  await probe.close();
  return vi.spyOn(Object.getPrototypeOf(probe) as { sync(): Promise<void> }, 'sync');
}
