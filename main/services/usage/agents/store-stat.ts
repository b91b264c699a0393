import fs from 'node:fs';

/**
 * A SQLite store's size and mtime with its write-ahead log folded in: an agent in WAL mode
 * writes to `<db>-wal` and leaves the database file unchanged until a checkpoint, so the
 * database's own stat would miss new rows. An unchanged pair means the store is not queried again.
 */
export function storeStat(dbPath: string, db: { size: number; mtimeMs: number }): { size: number; mtimeMs: number } {
  let wal: fs.Stats | undefined;
  try {
    wal = fs.statSync(`${dbPath}-wal`);
  } catch {
    return { size: db.size, mtimeMs: db.mtimeMs };
  }
  // An empty log holds no rows. Our own read-only open of a WAL store creates one when the agent
  // is not running; counting its mtime would make the next scan query the unchanged store again.
  if (wal.size === 0) return { size: db.size, mtimeMs: db.mtimeMs };
  return { size: db.size + wal.size, mtimeMs: Math.max(db.mtimeMs, wal.mtimeMs) };
}
