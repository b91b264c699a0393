import type { AgentFileRecords } from './agent.js';
import { isObject, parseJson } from './fields.js';
import { opencodeMessage } from './opencode-message.js';
import { readSessionMessages } from './opencode-v2.js';
import { storeRows, storeTables } from './store-query.js';

/**
 * OpenCode's database (agents-usage.md §4): table `message(id, session_id, data)`, `data` the
 * message JSON as the file storage holds it. The row's `id` and `session_id` columns name the
 * message and its session, whatever `data` says (ccusage 20.0.24, observed: a file whose id is
 * another row's `data.id` still counts). A row without id, session or data is skipped.
 * OpenCode 2 keeps its messages in `session_message` of the same database (`opencode-v2.ts`); a
 * store may hold either table or both (a 1.x store OpenCode 2 has opened). Neither: the read fails.
 */
export function readOpencodeDb(file: { path: string }): AgentFileRecords {
  const found: AgentFileRecords = { records: [], malformed: 0 };
  const tables = storeTables(file.path);
  const v1 = tables.has('message');
  const v2 = tables.has('session_message');
  if (!v1 && !v2) throw new Error(`no OpenCode messages in ${file.path} (neither a message nor a session_message table)`);
  // The ids the older table counted: their session_message copies do not count again.
  const seen = new Set<string>();
  if (v1) {
    storeRows(file.path, 'rowid AS _rowid, CAST(id AS TEXT) AS id, CAST(session_id AS TEXT) AS session_id, data', 'message', (row) => {
      if (typeof row.id !== 'string' || typeof row.session_id !== 'string' || typeof row.data !== 'string') return;
      const m = parseJson(row.data);
      if (!isObject(m)) {
        found.malformed++;
        return;
      }
      m.id = row.id;
      m.sessionID = row.session_id;
      const records = opencodeMessage(m, 'opencode', file.path, (c) => c > 0).records;
      if (v2 && records.length > 0) seen.add(row.id);
      found.records.push(...records);
    });
  }
  if (v2) readSessionMessages(file.path, seen, tables.has('session_v2'), found);
  return found;
}
