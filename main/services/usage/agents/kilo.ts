import path from 'node:path';
import { sqlitePages } from '../../../infra/sqlite-pages.js';
import type { AgentFileRecords, AgentLoader } from './agent.js';
import { isObject, parseJson } from './fields.js';
import { opencodeMessage } from './opencode.js';
import { dirIndex, dirsInOrder, placeKey } from './root-order.js';

/** A query's bound and its wait for the agent's write lock (docs/usage.md, "SQLite stores"). */
const QUERY_TIMEOUT_MS = 30_000;
const BUSY_MS = 2_000;

/**
 * Kilo (agents-usage.md §12): SQLite `kilo.db`, table `message(id, session_id, data)`, where
 * `data` is an OpenCode-shaped message. A recorded cost is used as is, 0 included. A message id
 * found more than once counts once, the copy ccusage 20.0.24 keeps (observed): the first root's
 * (in the order `KILO_DATA_DIR` names them), in one store its first row; the precedence is the
 * root's place, then the row's (root-order.ts).
 */
export const kilo: AgentLoader = {
  id: 'kilo',
  name: 'Kilo',
  envVar: 'KILO_DATA_DIR',
  defaultDirs: [path.join('.local', 'share', 'kilo')],
  roots: (dir) => [dir],
  accepts: (file) => path.basename(file) === 'kilo.db',
  read: () => ({ records: [], malformed: 0 }),
  flags: dirsInOrder,
  flagsOf: (file, flags) => placeKey(dirIndex(file, flags, false)),
  readStore: (file) => {
    const found = readKilo(file);
    const first = dirIndex(file.path, file.flags, false) * ROWS_PER_PLACE;
    found.records.forEach((r, i) => (r.offset = first + i));
    return found;
  },
};

/** Room for each root's rows in the precedence (far above any store's row count). */
const ROWS_PER_PLACE = 2 ** 32;

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
