import os from 'node:os';
import path from 'node:path';

/**
 * Expands a leading `~` to the home directory (from `env`, so tests can point it at a temp
 * dir). Other relative paths are taken relative to the home directory too: config paths
 * are dotfile paths, never relative to wherever the app was started.
 */
export function expandHome(value: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (value === '~') return home;
  if (value.startsWith('~/') || value.startsWith('~\\')) return path.join(home, value.slice(2));
  return path.resolve(home, value);
}
