import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isRecord, isStringArray } from '../../infra/json-checks.js';

/**
 * What the last "Use for Claude Code" did, kept in {config_dir}/claude-code/applied.json (0600:
 * it holds the previous file, which may hold tokens): enough to tell whether the file was edited
 * since, to take back keys a later apply no longer sets, and to restore the file byte for byte.
 */
export interface AppliedRecord {
  path: string;
  profile: string;
  appliedAt: number;
  keys: string[];
  /** sha256 of each value written, so only values still as written are taken back. */
  values: Record<string, string>;
  written: { sha256: string; mtime: number };
  previous: { existed: false } | { existed: true; contentBase64: string; mode: number };
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The record, or null when there is none (or it cannot be understood: then there is nothing safe to undo). */
export async function readRecord(file: string): Promise<AppliedRecord | null> {
  let value: unknown;
  try {
    value = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return null;
  }
  return isAppliedRecord(value) ? value : null;
}

export async function writeRecord(file: string, record: AppliedRecord): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
}

export async function removeRecord(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

function isAppliedRecord(v: unknown): v is AppliedRecord {
  if (!isRecord(v) || typeof v.path !== 'string' || typeof v.profile !== 'string' || typeof v.appliedAt !== 'number') return false;
  if (!isStringArray(v.keys) || !isRecord(v.values) || !isRecord(v.written) || !isRecord(v.previous)) return false;
  if (typeof v.written.sha256 !== 'string' || typeof v.written.mtime !== 'number') return false;
  if (v.previous.existed === false) return true;
  return v.previous.existed === true && typeof v.previous.contentBase64 === 'string' && typeof v.previous.mode === 'number';
}
