import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The project (or packaged app) root: the nearest directory above this file with package.json. */
export function appRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  cached = dir;
  return dir;
}

export function resourcePath(...parts: string[]): string {
  return path.join(appRoot(), 'resources', ...parts);
}
