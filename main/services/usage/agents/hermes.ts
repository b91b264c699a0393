import path from 'node:path';
import { agentRecord, hasTokens, type AgentFileRecords, type AgentLoader } from './agent.js';
import { dirIndex, dirsInOrder, placeKey, ranked } from './root-order.js';
import { storeCount, storeRows } from './store-query.js';

/**
 * Hermes Agent (agents-usage.md §9): SQLite `<home>/state.db`, table `sessions`, one row per
 * session with its totals, all on `started_at`. A session in several homes counts once, the first
 * home's row (in the order `HERMES_HOME` names them), as ccusage 20.0.24 keeps it (observed): its
 * precedence is the home's place (root-order.ts).
 */
export const hermes: AgentLoader = {
  id: 'hermes',
  name: 'Hermes Agent',
  envVar: 'HERMES_HOME',
  defaultDirs: ['.hermes'],
  roots: () => [],
  accepts: () => false,
  read: () => ({ records: [], malformed: 0 }),
  stores: (dir) => [path.join(dir, 'state.db')],
  flags: dirsInOrder,
  flagsOf: (file, flags) => placeKey(dirIndex(file, flags, true)),
  readStore: (file) => ranked(readHermes(file), dirIndex(file.path, file.flags, true)),
};

// Columns as ccusage reads them: SQLite's own conversions (a text `started_at` reads as the
// number it starts with, as ccusage's column read does), NULL as 0.
const SELECT = [
  'rowid AS _rowid',
  'CAST(id AS TEXT) AS id',
  'CAST(model AS TEXT) AS model',
  'CAST(started_at AS REAL) AS started_at',
  'CAST(input_tokens AS INTEGER) AS input',
  'CAST(output_tokens AS INTEGER) AS output',
  'CAST(cache_read_tokens AS INTEGER) AS cache_read',
  'CAST(cache_write_tokens AS INTEGER) AS cache_write',
  'CAST(reasoning_tokens AS INTEGER) AS reasoning',
  'CAST(actual_cost_usd AS REAL) AS actual_cost',
].join(', ');

export function readHermes(file: { path: string }): AgentFileRecords {
  const found: AgentFileRecords = { records: [], malformed: 0 };
  storeRows(file.path, SELECT, 'sessions', (row) => {
    const r = hermesRow(row, file.path);
    if (r !== null) found.records.push(r);
  });
  return found;
}

/**
 * One session row: input, output and the cache counts as recorded, reasoning as extra (in the
 * total, priced as output), on `started_at` (epoch seconds, or milliseconds above 1e12). An
 * `actual_cost_usd` above 0 is the cost; otherwise the table prices it — `estimated_cost_usd` is
 * never used (ccusage 20.0.24, observed: its read of a NULL actual cost gives 0, which prices).
 * One session id counts once across homes.
 */
export function hermesRow(row: Record<string, unknown>, file: string): ReturnType<typeof agentRecord> | null {
  const id = typeof row.id === 'string' && row.id !== '' ? row.id : null;
  const model = typeof row.model === 'string' ? row.model.trim() : '';
  const started = typeof row.started_at === 'number' && Number.isFinite(row.started_at) ? row.started_at : 0;
  const ms = Math.trunc(started > 1e12 ? started : started * 1000);
  if (id === null || model === '' || !(ms > 0)) return null;
  const actual = typeof row.actual_cost === 'number' && row.actual_cost > 0 ? row.actual_cost : null;
  const r = agentRecord('hermes', file, 0, {
    timestamp: ms,
    model,
    inputTokens: storeCount(row.input),
    outputTokens: storeCount(row.output),
    cacheWriteTokens: storeCount(row.cache_write),
    cacheReadTokens: storeCount(row.cache_read),
    extraTokens: storeCount(row.reasoning),
    sessionId: id,
    key: `\u0002hermes\u0000${id}`,
    loggedCost: actual,
  });
  return hasTokens(r) ? r : null;
}
