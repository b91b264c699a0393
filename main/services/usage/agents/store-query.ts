import { sqlitePages } from '../../../infra/sqlite-pages.js';

/** A query's bound and its wait for the agent's write lock (docs/usage.md, "SQLite stores"). */
const QUERY_TIMEOUT_MS = 30_000;
const BUSY_MS = 2_000;

/**
 * Rows of one table of an agent's SQLite store, read-only, a page at a time (infra/sqlite-pages.ts).
 * `select` must start with `rowid AS _rowid` and name each column (an alias or a bare column); a
 * row's values are what `sqlite3 -json` gives. Throws when the tool is missing, the file is not a
 * database, the table or a column is absent, or the store stays locked: the caller's read of that
 * store fails (logged as a warning), the other agents and stores are unaffected.
 */
export function storeRows(dbPath: string, select: string, table: string, onRow: (row: Record<string, unknown>) => void, where?: string): void {
  sqlitePages(dbPath, select, table, onRow, { command: sqliteCommand(), timeoutMs: QUERY_TIMEOUT_MS, busyMs: BUSY_MS, ...(where === undefined ? {} : { where }) });
}

/** The names of a store's tables (one read of `sqlite_master`), for agents whose stores come in several layouts. */
export function storeTables(dbPath: string): Set<string> {
  const names = new Set<string>();
  storeRows(dbPath, 'rowid AS _rowid, name', 'sqlite_master', (row) => {
    if (typeof row.name === 'string') names.add(row.name);
  }, "type = 'table'");
  return names;
}

function sqliteCommand(): string {
  return process.env.SWITCHBOARD_SQLITE3 || 'sqlite3';
}

/** A column read as SQLite's CAST(… AS INTEGER) gives it: NULL and negatives are 0. */
export function storeCount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0;
}
