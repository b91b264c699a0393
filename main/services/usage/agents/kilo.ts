import path from 'node:path';
import { sqlitePages } from '../../../infra/sqlite-pages.js';
import type { AgentFileRecords, AgentLoader } from './agent.js';
import { isObject, parseJson } from './fields.js';
import { opencodeMessage } from './opencode.js';

/** A query's bound and its wait for the agent's write lock (docs/usage.md, "SQLite stores"). */
const QUERY_TIMEOUT_MS = 30_000;
const BUSY_MS = 2_000;

/**
 * Kilo (agents-usage.md §12): SQLite `kilo.db`, table `message(id, session_id, data)`, where
 * `data` is an OpenCode-shaped message. A recorded cost is used as is, 0 included.
 */
export const kilo: AgentLoader = {
  id: 'kilo',
  name: 'Kilo',
  envVar: 'KILO_DATA_DIR',
  defaultDirs: [path.join('.local', 'share', 'kilo')],
  roots: (dir) => [dir],
  accepts: (file) => path.basename(file) === 'kilo.db',
  read: () => ({ records: [], malformed: 0 }),
  readStore: readKilo,
};

export function readKilo(file: { path: string }): AgentFileRecords {
  const found: AgentFileRecords = { records: [], malformed: 0 };
  const command = process.env.SWITCHBOARD_SQLITE3 || 'sqlite3';
  sqlitePages(file.path, 'rowid AS _rowid, session_id, data', 'message', (row) => {
    const m = typeof row.data === 'string' ? parseJson(row.data) : undefined;
    if (!isObject(m)) {
      found.malformed++;
      return;
    }
    if (m.sessionID === undefined && typeof row.session_id === 'string') m.sessionID = row.session_id;
    const one = opencodeMessage(m, 'kilo', file.path, () => true);
    found.records.push(...one.records);
  }, { command, timeoutMs: QUERY_TIMEOUT_MS, busyMs: BUSY_MS });
  return found;
}
