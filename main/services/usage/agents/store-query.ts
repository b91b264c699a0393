import { sqlitePages } from '../../../infra/sqlite-pages.js';

/** A query's bound and its wait for the agent's write lock (docs/usage.md, "SQLite stores"). */
const QUERY_TIMEOUT_MS = 30_000;
const BUSY_MS = 2_000;

/**
 * Rows of one table of an agent's SQLite store, read-only, a page at a time (infra/sqlite-pages.ts).
 * `select` must start with `rowid AS _rowid`. Throws when the tool is missing, the file is not a
 * database, the table or a column is absent, or the store stays locked: the caller's read of that
 * store fails (logged as a warning), the other agents and stores are unaffected.
 */
export function storeRows(dbPath: string, select: string, table: string, onRow: (row: Record<string, unknown>) => void): void {
  const command = process.env.SWITCHBOARD_SQLITE3 || 'sqlite3';
  sqlitePages(dbPath, select, table, onRow, { command, timeoutMs: QUERY_TIMEOUT_MS, busyMs: BUSY_MS });
}

/** A column read as SQLite's CAST(… AS INTEGER) gives it: NULL and negatives are 0. */
export function storeCount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0;
}
