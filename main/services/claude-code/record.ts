import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../infra/atomic-write.js';
import { isNotFound } from '../../infra/file-stat.js';
import { isRecord, isStringArray } from '../../infra/json-checks.js';
import { readOwnText } from '../../infra/no-follow.js';

/**
 * What Switchboard did to `{agent_dir}/settings.json`, kept in {config_dir}/claude-code/applied.json
 * (0600: it holds the user's file, which may hold tokens), with one file per Undo step in
 * claude-code/history/. The original file is kept here until the user restores it (or deletes
 * this record), however many applies come after: the backups/ rotation cannot lose it.
 */
export interface ClaudeCodeRecord {
  version: 2;
  path: string;
  /** The file before Switchboard's first apply. */
  original: FileSnapshot;
  /** Per env key Switchboard wrote and still owns: what the user had there before (restored when no profile sets it). */
  owned: Record<string, OwnedKey>;
  applied: AppliedInfo | null;
  /** Ids of the Undo steps in claude-code/history/, oldest first. */
  steps: number[];
}

export type FileSnapshot = { existed: false } | { existed: true; contentBase64: string; mode: number };
export type OwnedKey = { had: false } | { had: true; value: unknown };

export interface AppliedInfo {
  profile: string;
  appliedAt: number;
  keys: string[];
  /** sha256 of each value written: a key still holding it is Switchboard's, any other value the user's. */
  values: Record<string, string>;
  written: { sha256: string; mtime: number };
}

/** One Undo step: the file before it and what the record said then. */
export interface HistoryStep {
  before: FileSnapshot;
  owned: Record<string, OwnedKey>;
  applied: AppliedInfo | null;
}

/** The record holds the user's whole file (base64) at most once besides its own fields. */
const RECORD_LIMIT = 16 * 1024 * 1024;

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function snapshotOf(file: { bytes: Buffer; mode: number } | null): FileSnapshot {
  return file ? { existed: true, contentBase64: file.bytes.toString('base64'), mode: file.mode } : { existed: false };
}

/** The record for `agentFile`, or null when there is none, it is for another agent dir, or it cannot be understood. */
export async function readRecord(file: string, agentFile: string): Promise<ClaudeCodeRecord | null> {
  let value: unknown;
  try {
    value = JSON.parse((await readOwnText(file, RECORD_LIMIT)).text);
  } catch {
    return null;
  }
  const record = isRecordV2(value) ? value : fromVersion1(value);
  return record && record.path === agentFile ? record : null;
}

export async function writeRecord(file: string, record: ClaudeCodeRecord): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(record)}\n`, { mode: 0o600, dirMode: 0o700 });
}

/** Forgets everything: the record and every Undo step. */
export async function removeRecord(file: string, historyDir: string): Promise<void> {
  await fs.rm(file, { force: true });
  await fs.rm(historyDir, { recursive: true, force: true });
}

export async function writeStep(historyDir: string, id: number, step: HistoryStep): Promise<void> {
  await writeFileAtomic(path.join(historyDir, `${id}.json`), `${JSON.stringify(step)}\n`, { mode: 0o600, dirMode: 0o700 });
}

/** The step, or null when its file is gone or damaged (Undo then falls back to the original). */
export async function readStep(historyDir: string, id: number): Promise<HistoryStep | null> {
  try {
    const value: unknown = JSON.parse((await readOwnText(path.join(historyDir, `${id}.json`), RECORD_LIMIT)).text);
    return isRecord(value) && isSnapshot(value.before) && isOwned(value.owned) && (value.applied === null || isApplied(value.applied)) ? (value as unknown as HistoryStep) : null;
  } catch (err) {
    if (isNotFound(err) || err instanceof SyntaxError) return null;
    throw err;
  }
}

export async function removeStep(historyDir: string, id: number): Promise<void> {
  await fs.rm(path.join(historyDir, `${id}.json`), { force: true });
}

function isRecordV2(v: unknown): v is ClaudeCodeRecord {
  return (
    isRecord(v) &&
    v.version === 2 &&
    typeof v.path === 'string' &&
    isSnapshot(v.original) &&
    isOwned(v.owned) &&
    (v.applied === null || isApplied(v.applied)) &&
    Array.isArray(v.steps) &&
    v.steps.every((s) => Number.isSafeInteger(s))
  );
}

/**
 * A record of the first version (one level of undo): its "previous file" becomes the original,
 * and the keys it wrote are owned with the values that file had.
 */
function fromVersion1(v: unknown): ClaudeCodeRecord | null {
  if (!isRecord(v) || typeof v.path !== 'string' || typeof v.profile !== 'string' || typeof v.appliedAt !== 'number') return null;
  if (!isStringArray(v.keys) || !isRecord(v.values) || !isRecord(v.written) || !isSnapshot(v.previous)) return null;
  const applied = { profile: v.profile, appliedAt: v.appliedAt, keys: v.keys, values: v.values, written: v.written };
  if (!isApplied(applied)) return null;
  let env: unknown;
  try {
    env = v.previous.existed ? (JSON.parse(Buffer.from(v.previous.contentBase64, 'base64').toString('utf8')) as Record<string, unknown>).env : undefined;
  } catch {
    env = undefined;
  }
  const before = isRecord(env) ? env : {};
  const owned = Object.fromEntries(v.keys.map((k): [string, OwnedKey] => [k, Object.hasOwn(before, k) ? { had: true, value: before[k] } : { had: false }]));
  return { version: 2, path: v.path, original: v.previous, owned, applied, steps: [] };
}

function isSnapshot(v: unknown): v is FileSnapshot {
  if (!isRecord(v)) return false;
  if (v.existed === false) return true;
  return v.existed === true && typeof v.contentBase64 === 'string' && typeof v.mode === 'number';
}

function isOwned(v: unknown): v is Record<string, OwnedKey> {
  return isRecord(v) && Object.values(v).every((o) => isRecord(o) && (o.had === false || (o.had === true && Object.hasOwn(o, 'value'))));
}

function isApplied(v: unknown): v is AppliedInfo {
  if (!isRecord(v) || typeof v.profile !== 'string' || typeof v.appliedAt !== 'number' || !isStringArray(v.keys)) return false;
  if (!isRecord(v.values) || !Object.values(v.values).every((h) => typeof h === 'string')) return false;
  return isRecord(v.written) && typeof v.written.sha256 === 'string' && typeof v.written.mtime === 'number';
}
