import { execFileSync } from 'node:child_process';
import { FramedPage, framedColumns, SqliteFrameError, type FramedColumn } from './sqlite-frame.js';

/**
 * Rows per query: one page is decoded at a time, never a whole store. Each page is a sqlite3
 * process; at 2 000 rows the 253 000-message opencode.db of the 1 GiB bench took 127 of them and
 * ~3 s, at 20 000 (about 6 MB of output a page there) 13 (docs/usage.md, "SQLite stores").
 */
export const SQLITE_PAGE_ROWS = 20_000;

/** A bound on one page's output: a page of very large rows fails its store's read rather than the process. */
const MAX_PAGE_BYTES = 256 * 1024 * 1024;

export interface SqlitePagesOptions {
  /** The sqlite3 command (`$SWITCHBOARD_SQLITE3` or `sqlite3` on PATH). */
  command: string;
  /** A bound on each query; on expiry the process is killed (SIGKILL). */
  timeoutMs: number;
  /** How long a query waits for an agent's write lock before giving up. */
  busyMs: number;
  /** A condition on the rows (SQL, ANDed with the paging condition); all rows when absent. */
  where?: string;
}

/**
 * Reads rows from a SQLite store with the `sqlite3` command-line tool, read-only, page by page
 * on `rowid` (docs/usage.md, "SQLite stores"). `select` names the columns (each an alias or a bare
 * column) and must select `rowid AS _rowid` first; `from` is the table (with any WHERE left out).
 * Each page is handed to `onRow` and dropped before the next is read; `options.where` narrows the
 * rows. A row's values are what `sqlite3 -json` gives (infra/sqlite-frame.ts). Throws when the tool
 * is missing, the store is not a database, the table is absent, or a query outlives `timeoutMs`.
 */
export function sqlitePages(dbPath: string, select: string, from: string, onRow: (row: Record<string, unknown>) => void, options: SqlitePagesOptions): void {
  const columns = framedColumns(select);
  let framed = true;
  let after = -Infinity;
  for (;;) {
    const conditions = [...(options.where === undefined ? [] : [`(${options.where})`]), ...(Number.isFinite(after) ? [`rowid > ${after}`] : [])];
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const tail = `FROM ${from} ${where} ORDER BY rowid LIMIT ${SQLITE_PAGE_ROWS};`;
    let page = framed ? framedPage(dbPath, columns, select, tail, options) : null;
    if (page === null) {
      // Not framed as asked: this page and the rest of this read as -json (slower, the same rows).
      framed = false;
      page = jsonPage(dbPath, select, tail, options);
    }
    page.forEach(onRow);
    if (page.rowCount < SQLITE_PAGE_ROWS) return;
    const last = page.lastRowid();
    // A page must move on: without a growing _rowid the next page would be this one again, for ever.
    if (!(Number(last) > after)) throw new Error(`sqlite3 paging on ${dbPath}: _rowid ${String(last)} does not follow ${after}`);
    after = Number(last);
  }
}

/** A page's rows, handed out one at a time (FramedPage), and what the paging needs of them. */
interface Page {
  rowCount: number;
  /** The `_rowid` of its last row. */
  lastRowid(): unknown;
  forEach(onRow: (row: Record<string, unknown>) => void): void;
}

/**
 * One page as SQL literals (`-quote`, infra/sqlite-frame.ts); null when it is not rows of literals
 * as this reader knows them (a shell that writes lines as CR LF, or control characters as `unistr(…)`).
 */
function framedPage(dbPath: string, columns: readonly FramedColumn[], select: string, tail: string, options: SqlitePagesOptions): Page | null {
  const out = runSqlite(dbPath, ['-quote'], `SELECT ${select} ${tail}`, options);
  try {
    const page = FramedPage.frame(out, columns);
    return { rowCount: page.rowCount, lastRowid: () => page.value(page.rowCount - 1, 0), forEach: (onRow) => page.forEach(onRow) }; // `_rowid` is the first column
  } catch (err) {
    if (err instanceof SqliteFrameError) return null;
    throw err;
  }
}

function jsonPage(dbPath: string, select: string, tail: string, options: SqlitePagesOptions): Page {
  const text = runSqlite(dbPath, ['-json'], `SELECT ${select} ${tail}`, options).toString('utf8').trim();
  const rows = text === '' ? [] : (JSON.parse(text) as Record<string, unknown>[]);
  return { rowCount: rows.length, lastRowid: () => rows[rows.length - 1]!._rowid, forEach: (onRow) => rows.forEach((row) => onRow(row)) };
}

function runSqlite(dbPath: string, mode: string[], sql: string, options: SqlitePagesOptions): Buffer {
  try {
    return execFileSync(options.command, ['-readonly', ...mode, '-cmd', `.timeout ${options.busyMs}`, dbPath, sql], {
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: MAX_PAGE_BYTES,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    // A plain error: a missing tool's ENOENT must not read as "the store is gone".
    const e = err as NodeJS.ErrnoException & { stderr?: Buffer; signal?: string | null };
    if (e.code === 'ENOENT') throw new Error(`sqlite3 is not available (${options.command}); install it to read ${dbPath}`);
    if (e.code === 'ETIMEDOUT' || e.signal === 'SIGKILL') throw new Error(`sqlite3 did not answer within ${options.timeoutMs} ms on ${dbPath} (is the database locked?)`);
    throw new Error(`sqlite3 failed on ${dbPath}: ${String(e.stderr ?? e.message).trim()}`);
  }
}
