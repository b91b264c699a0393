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

export async function writeSupervisorRecord(file: string, record: SupervisorRecord): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
}

/** The record, or null when the file is missing or not a record (a stale or foreign file is ignored). */
export async function readSupervisorRecord(file: string): Promise<SupervisorRecord | null> {
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

export async function removeSupervisorRecord(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}
