import { isRecord } from '../../infra/json-checks.js';
import { parseAgentSettings, type AgentFile } from './agent-file.js';
import { sha256, type ClaudeCodeRecord } from './record.js';

export interface ClaudeCodeStatus {
  path: string;
  exists: boolean;
  applied: { profile: string; appliedAt: number; keys: string[] } | null;
  editedSince: boolean;
  canUndo: boolean;
  /** How many times Undo can step back (the last step brings back the original file). */
  undoSteps: number;
  /** "Restore my original settings" is possible: the file before Switchboard's first apply is kept. */
  canRestore: boolean;
  /**
   * Keys whose value in the file is not what the applied profile sets now (the profile was edited
   * and the file did not follow, or the user changed them); read from both files, not remembered.
   */
  staleKeys: string[];
}

/** The status from what the files hold now: the agent's settings file, the record and the applied profile's env. */
export function describeStatus(file: string, current: AgentFile | null, record: ClaudeCodeRecord | null, profileEnv: Record<string, string> | null): ClaudeCodeStatus {
  const applied = record?.applied ?? null;
  return {
    path: file,
    exists: current !== null,
    applied: applied ? { profile: applied.profile, appliedAt: applied.appliedAt, keys: applied.keys } : null,
    editedSince: applied ? editedSince(applied.written, current) : false,
    canUndo: applied !== null,
    undoSteps: applied ? Math.max(1, record!.steps.length) : 0,
    canRestore: record !== null,
    staleKeys: applied && current && profileEnv ? staleKeys(current, profileEnv, applied.keys, file) : [],
  };
}

/**
 * Edited = the content differs from what was written. A save that changes only the mtime (an editor
 * saving without changes, `touch`) is not an edit; the hash is only computed when the mtime moved.
 */
function editedSince(written: { sha256: string; mtime: number }, current: AgentFile | null): boolean {
  if (!current) return true;
  if (current.mtime === written.mtime) return false;
  return sha256(current.bytes) !== written.sha256;
}

function staleKeys(current: AgentFile, profileEnv: Record<string, string>, written: string[], file: string): string[] {
  let env: Record<string, unknown>;
  try {
    const settings = parseAgentSettings(current.bytes, file);
    env = isRecord(settings.env) ? settings.env : {};
  } catch {
    return [];
  }
  const keys = new Set([...Object.keys(profileEnv), ...written]);
  return [...keys].filter((key) => env[key] !== profileEnv[key]).sort();
}
