import type { AgentFileRecords } from './agent.js';
import { isObject, parseJson, text } from './fields.js';
import { opencodeMessage } from './opencode-message.js';
import { storeRows } from './store-query.js';

/**
 * OpenCode 2's layout in the same database (docs/usage.md, "OpenCode 2"): table
 * `session_message(id, session_id, type, seq, time_created, time_updated, data)`, one row per
 * message of a session; an assistant turn is a row of `type` 'assistant' whose `data` holds
 * `model {id, providerID}`, `tokens {input, output, reasoning, cache {read, write}}`, `cost` and
 * `time.created` (epoch ms). Counted by the rules of OpenCode's older messages (ccusage 20.0.24,
 * observed): the row's columns name the message and session; `model.id` / `model.providerID`, each
 * else the older `modelID` / `providerID`; `time.created` when it is a number (taken as ms), else
 * the `time_created` column. Rows whose id is in `seen` (a message the older `message` table
 * counted) are skipped: ccusage reads that table first and keeps the first copy. With
 * `withDirectory` (the store has `session_v2`), a message's project is its session's `directory`.
 */
export function readSessionMessages(dbPath: string, seen: ReadonlySet<string>, withDirectory: boolean, found: AgentFileRecords): void {
  const directory = withDirectory ? ', (SELECT directory FROM session_v2 WHERE session_v2.id = session_message.session_id) AS directory' : '';
  const select = `rowid AS _rowid, CAST(id AS TEXT) AS id, CAST(session_id AS TEXT) AS session_id, time_created, data${directory}`;
  storeRows(dbPath, select, 'session_message', (row) => {
    if (typeof row.id !== 'string' || typeof row.session_id !== 'string' || typeof row.data !== 'string') return;
    if (seen.has(row.id)) return;
    const data = parseJson(row.data);
    if (!isObject(data)) {
      found.malformed++;
      return;
    }
    const model = isObject(data.model) ? data.model : {};
    const created = isObject(data.time) ? data.time.created : undefined;
    const at = typeof created === 'number' && Number.isFinite(created) ? created : row.time_created;
    if (typeof at !== 'number' || !Number.isFinite(at)) return;
    const m: Record<string, unknown> = {
      id: row.id,
      sessionID: row.session_id,
      modelID: text(model.id) ?? data.modelID,
      providerID: text(model.providerID) ?? data.providerID,
      tokens: data.tokens,
      cost: data.cost,
      path: { cwd: text(row.directory) },
    };
    found.records.push(...opencodeMessage(m, 'opencode', dbPath, (c) => c > 0, at).records);
  }, "type = 'assistant'");
}
