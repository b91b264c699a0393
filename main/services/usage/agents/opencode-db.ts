import type { AgentFileRecords } from './agent.js';
import { isObject, parseJson } from './fields.js';
import { opencodeMessage } from './opencode-message.js';
import { storeRows } from './store-query.js';

/**
 * OpenCode's database (agents-usage.md §4): table `message(id, session_id, data)`, `data` the
 * message JSON as the file storage holds it. The row's `id` and `session_id` columns name the
 * message and its session, whatever `data` says (ccusage 20.0.24, observed: a file whose id is
 * another row's `data.id` still counts). A row without id, session or data is skipped.
 */
export function readOpencodeDb(file: { path: string }): AgentFileRecords {
  const found: AgentFileRecords = { records: [], malformed: 0 };
  storeRows(file.path, 'rowid AS _rowid, CAST(id AS TEXT) AS id, CAST(session_id AS TEXT) AS session_id, data', 'message', (row) => {
    if (typeof row.id !== 'string' || typeof row.session_id !== 'string' || typeof row.data !== 'string') return;
    const m = parseJson(row.data);
    if (!isObject(m)) {
      found.malformed++;
      return;
    }
    m.id = row.id;
    m.sessionID = row.session_id;
    found.records.push(...opencodeMessage(m, 'opencode', file.path, (c) => c > 0).records);
  });
  return found;
}
