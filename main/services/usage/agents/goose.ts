import path from 'node:path';
import { parseIsoTimestamp } from '../timestamp.js';
import { agentRecord, hasTokens, type AgentFileRecords, type AgentLoader } from './agent.js';
import { isObject, parseJson, text } from './fields.js';
import { storeCount, storeRows } from './store-query.js';

const DB = 'sessions.db';

/**
 * Goose (agents-usage.md §11): SQLite `sessions.db`, one row per session with the session's
 * totals. `GOOSE_PATH_ROOT` names a root whose store is `<root>/data/sessions/sessions.db`; the
 * defaults name the store's own folder. Both shapes are looked for in every dir (docs/usage.md).
 */
export const goose: AgentLoader = {
  id: 'goose',
  name: 'Goose',
  envVar: 'GOOSE_PATH_ROOT',
  envOnePath: true,
  defaultDirs: [path.join('.local', 'share', 'goose', 'sessions'), path.join('Library', 'Application Support', 'goose', 'sessions'), path.join('.local', 'share', 'Block', 'goose', 'sessions')],
  roots: () => [],
  accepts: () => false,
  read: () => ({ records: [], malformed: 0 }),
  stores: (dir) => [path.join(dir, 'data', 'sessions', DB), path.join(dir, DB)],
  readStore: readGoose,
};

// Columns as ccusage reads them (SQLite's own conversions, as its column reads apply them).
const SELECT = [
  'rowid AS _rowid',
  'CAST(id AS TEXT) AS id',
  'CAST(model_config_json AS TEXT) AS model_config',
  'CAST(created_at AS TEXT) AS created_at',
  'CAST(input_tokens AS INTEGER) AS input',
  'CAST(output_tokens AS INTEGER) AS output',
  'CAST(total_tokens AS INTEGER) AS total',
  'CAST(accumulated_input_tokens AS INTEGER) AS acc_input',
  'CAST(accumulated_output_tokens AS INTEGER) AS acc_output',
  'CAST(accumulated_total_tokens AS INTEGER) AS acc_total',
].join(', ');

export function readGoose(file: { path: string }): AgentFileRecords {
  const found: AgentFileRecords = { records: [], malformed: 0 };
  storeRows(file.path, SELECT, 'sessions', (row) => {
    const r = gooseRow(row, file.path);
    if (r === 'malformed') found.malformed++;
    else if (r !== null) found.records.push(...r.records);
  });
  return found;
}

/**
 * One session row: the accumulated counts (else the plain ones) land on the creation date; what
 * the total holds beyond input + output is extra (priced as output) — always extra, even when
 * output is 0 (observed in ccusage 20.0.24). No cache counts. A row without a model
 * (`model_config_json.model_name`) or a readable `created_at` is skipped, as in ccusage.
 */
export function gooseRow(row: Record<string, unknown>, file: string): AgentFileRecords | 'malformed' | null {
  const id = typeof row.id === 'string' ? row.id : null;
  if (id === null || typeof row.model_config !== 'string' || row.model_config.trim() === '') return null;
  const config = parseJson(row.model_config);
  if (config === null) return 'malformed';
  const model = isObject(config) ? text(typeof config.model_name === 'string' ? config.model_name.trim() : null) : null;
  const at = typeof row.created_at === 'string' ? gooseInstant(row.created_at) : NaN;
  if (model === null || Number.isNaN(at)) return null;
  const input = storeCount(row.acc_input) || storeCount(row.input);
  const output = storeCount(row.acc_output) || storeCount(row.output);
  const total = storeCount(row.acc_total) || storeCount(row.total) || input + output;
  const r = agentRecord('goose', file, 0, {
    timestamp: at,
    model,
    inputTokens: input,
    outputTokens: output,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    extraTokens: Math.max(0, total - input - output),
    sessionId: id,
  });
  return { records: hasTokens(r) ? [r] : [], malformed: 0 };
}

/**
 * Goose's `created_at` as ccusage reads it: an integer (above 1e12 milliseconds, else seconds),
 * RFC 3339, `YYYY-MM-DD HH:MM:SS` (SQLite's CURRENT_TIMESTAMP, UTC) or a bare date (UTC
 * midnight). NaN for anything else, which drops the row.
 */
export function gooseInstant(value: string): number {
  const s = value.trim();
  if (/^[+-]?\d{1,18}$/.test(s)) {
    const n = Number(s);
    const ms = n > 1e12 ? n : n * 1000;
    return ms > 0 ? ms : NaN;
  }
  const iso = parseIsoTimestamp(s);
  if (!Number.isNaN(iso)) return iso;
  if (s.length === 19 && s[4] === '-' && s[7] === '-' && (s[10] === ' ' || s[10] === 'T')) return parseIsoTimestamp(`${s.slice(0, 10)}T${s.slice(11)}Z`);
  if (s.length === 10 && s[4] === '-' && s[7] === '-') return parseIsoTimestamp(`${s}T00:00:00Z`);
  return NaN;
}
