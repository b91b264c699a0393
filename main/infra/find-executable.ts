import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Finds a program the way a shell would: a bare name is searched on PATH (with PATHEXT on
 * Windows), an absolute path is taken as is. Relative paths with a separator are refused:
 * they would depend on whatever directory the app was started from.
 */
export async function findExecutable(
  name: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<string | null> {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (name.length === 0 || name.includes('\0')) return null;
  const extensions = platform === 'win32' ? windowsExtensions(env) : [''];
  if (p.isAbsolute(name)) return firstExecutable([name, ...extensions.filter(Boolean).map((e) => name + e)], platform);
  if (name.includes('/') || (platform === 'win32' && name.includes('\\'))) return null;
  const dirs = (envValue(env, 'PATH', platform) ?? '').split(p.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const found = await firstExecutable(extensions.map((ext) => p.join(dir, name + ext)), platform);
    if (found) return found;
  }
  return null;
}

async function firstExecutable(candidates: string[], platform: NodeJS.Platform): Promise<string | null> {
  for (const candidate of candidates) {
    try {
      if (!(await fs.stat(candidate)).isFile()) continue;
      if (platform !== 'win32') await fs.access(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not there or not executable: keep looking
    }
  }
  return null;
}

function windowsExtensions(env: NodeJS.ProcessEnv): string[] {
  const pathext = envValue(env, 'PATHEXT', 'win32') ?? '.COM;.EXE;.BAT;.CMD';
  return ['', ...pathext.split(';').filter(Boolean)];
}

/** Windows environment names are case-insensitive (`Path`). */
function envValue(env: NodeJS.ProcessEnv, key: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[key];
  const found = Object.keys(env).find((k) => k.toUpperCase() === key);
  return found ? env[found] : undefined;
}
