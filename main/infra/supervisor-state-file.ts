import fs from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';

/** What the supervisor records about a running child so a restarted app can adopt it. */
export interface SupervisorRecord {
  name: string;
  pid: number;
  port: number;
  startedAt: number;
  /** argv of the child as launched; proves a live pid is still our program. */
  argv: string[];
  [extra: string]: unknown;
}

/**
 * Writes the record, and with `pidFile` the bare decimal pid and a newline beside it, as every
 * pid file holds (`kill $(cat daemon.pid)` works; decisions §0). The record goes first, so a pid
 * file never names a child whose record is missing.
 */
export async function writeSupervisorRecord(file: string, record: SupervisorRecord, pidFile?: string): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
  if (pidFile) await writeFileAtomic(pidFile, `${record.pid}\n`, { mode: 0o600 });
}

/**
 * The record, or null when the file is missing or not a record (a stale or foreign file is
 * ignored). With `pidFile`, a record found there instead (the JSON an earlier version wrote into
 * the pid file) is read once and moved to `file`, leaving the bare pid behind.
 */
export async function readSupervisorRecord(file: string, pidFile?: string): Promise<SupervisorRecord | null> {
  const record = await readRecordFile(file);
  if (record || !pidFile) return record;
  const legacy = await readRecordFile(pidFile);
  if (legacy) await writeSupervisorRecord(file, legacy, pidFile).catch(() => undefined);
  return legacy;
}

async function readRecordFile(file: string): Promise<SupervisorRecord | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Partial<SupervisorRecord>;
  const validPid = Number.isInteger(r.pid) && (r.pid as number) > 0;
  const validPort = Number.isInteger(r.port) && (r.port as number) > 0 && (r.port as number) < 65536;
  if (!validPid || !validPort) return null;
  return {
    ...r,
    name: typeof r.name === 'string' ? r.name : '',
    pid: r.pid as number,
    port: r.port as number,
    startedAt: typeof r.startedAt === 'number' ? r.startedAt : 0,
    argv: Array.isArray(r.argv) ? r.argv.filter((a): a is string => typeof a === 'string') : [],
  };
}

/** Removes the record and the pid file; a failure on one (a directory in its place) does not keep the other. */
export async function removeSupervisorRecord(file: string, pidFile?: string): Promise<void> {
  const removals = [file, ...(pidFile ? [pidFile] : [])].map((f) => fs.rm(f, { force: true }));
  const failed = (await Promise.allSettled(removals)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
