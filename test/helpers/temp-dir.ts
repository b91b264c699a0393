import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A fresh temp directory (real path, so symlink assertions compare equal) and its cleanup. */
export async function makeTempDir(prefix = 'switchboard-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  return { dir, cleanup: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** Writes files given as `relative path -> content`, creating directories on the way. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(root, rel);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, content);
  }
}
