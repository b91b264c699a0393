import fs from 'node:fs/promises';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `done` every `everyMs` until it holds (true) or `timeoutMs` passes (false). */
export async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs: number, everyMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await done()) return true;
    if (performance.now() >= deadline) return false;
    await sleep(everyMs);
  }
}

/** The last `maxBytes` of a text file ('' when it cannot be read). */
export async function readFileTail(file: string, maxBytes: number): Promise<string> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    await handle?.close();
  }
}
