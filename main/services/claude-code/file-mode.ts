import { isSensitiveEntry } from '../../infra/secret-rule.js';
import type { AgentFile } from './agent-file.js';
import { ClaudeCodeError } from './errors.js';

/**
 * The mode to write the agent's settings file with: a new file is 0600; an existing one keeps its
 * mode, except that an env holding a secret (decisions §2's rule) narrows a file others can read
 * to 0600. A file its owner cannot write (0444: made read-only on purpose) is not replaced at all.
 */
export function modeFor(file: string, current: AgentFile | null, env: Record<string, unknown>): number {
  if (!current) return 0o600;
  if ((current.mode & 0o200) === 0) {
    throw new ClaudeCodeError('read-only', `${file} is read-only (mode 0${current.mode.toString(8)}): its owner took the write permission away, so Switchboard does not replace it. Make it writable (chmod u+w) and try again`);
  }
  const holdsSecret = Object.entries(env).some(([key, value]) => isSensitiveEntry(key, value));
  return holdsSecret && (current.mode & 0o077) !== 0 ? 0o600 : current.mode;
}
