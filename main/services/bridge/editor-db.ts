import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BridgeError } from './errors.js';

/** Keys of the editor's `ItemTable` that hold what the bridge needs (decisions §6). */
export const TOKEN_KEY = 'cursorAuth/accessToken';
export const MACHINE_ID_KEYS = ['storage.serviceMachineId', 'telemetry.machineId'] as const;

export interface EditorDbOptions {
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The sqlite3 command; `$SWITCHBOARD_SQLITE3` or `sqlite3` on PATH. */
  sqlite3?: string;
  timeoutMs?: number;
}

export interface EditorValues {
  dbPath: string;
  accessToken: string | null;
  machineId: string | null;
}

/** Where the editor keeps `state.vscdb`: `$SWITCHBOARD_BRIDGE_DB`, else the OS default. */
export function editorDbPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.SWITCHBOARD_BRIDGE_DB) return path.resolve(env.SWITCHBOARD_BRIDGE_DB);
  const home = env.HOME || os.homedir();
  const tail = ['Cursor', 'User', 'globalStorage', 'state.vscdb'];
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', ...tail);
  if (platform === 'win32') return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), ...tail);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), ...tail);
}

/**
 * Reads the token and machine id from the editor's SQLite store with the `sqlite3` command
 * (read-only, bounded by a timeout). Values are returned raw; the caller validates them.
 */
export async function readEditorValues(options: EditorDbOptions): Promise<EditorValues> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') throw new BridgeError('auto-detect-windows');
  const dbPath = editorDbPath(options.env, platform);
  if (!(await isFile(dbPath))) throw new BridgeError('editor-db-not-found', `no editor database at ${dbPath}`);
  const keys = [TOKEN_KEY, ...MACHINE_ID_KEYS];
  // hex() keeps any byte of a value (newlines, separators) out of the line format.
  const sql = `SELECT key, hex(value) FROM ItemTable WHERE key IN (${keys.map((k) => `'${k}'`).join(', ')});`;
  const output = await runSqlite(options.sqlite3 ?? (options.env.SWITCHBOARD_SQLITE3 || 'sqlite3'), dbPath, sql, options.timeoutMs ?? 5_000);
  const values = new Map<string, string>();
  for (const line of output.split('\n')) {
    const sep = line.lastIndexOf('|');
    if (sep <= 0) continue;
    values.set(line.slice(0, sep), Buffer.from(line.slice(sep + 1).trim(), 'hex').toString('utf8'));
  }
  const machineId = MACHINE_ID_KEYS.map((k) => values.get(k)).find((v) => v !== undefined && v.trim() !== '');
  return { dbPath, accessToken: unquote(values.get(TOKEN_KEY) ?? null), machineId: unquote(machineId ?? null) };
}

function runSqlite(command: string, dbPath: string, sql: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['-readonly', '-batch', '-noheader', '-separator', '|', '-cmd', '.timeout 2000', dbPath, sql];
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') {
        return reject(new BridgeError('sqlite-unavailable', `cannot run ${command}; install sqlite3 or import the token manually`));
      }
      if ((err as { killed?: boolean }).killed) {
        return reject(new BridgeError('sqlite-unavailable', `sqlite3 did not answer within ${timeoutMs} ms (is the database locked?)`));
      }
      // Not a database, or no ItemTable: this is not the editor's store.
      const why = String(stderr).trim().split('\n')[0] || err.message;
      reject(new BridgeError('editor-db-not-found', `${dbPath} is not a readable editor database: ${why}`));
    });
  });
}

/** Some editor versions store strings JSON-encoded ("\"abc\""); accept both. */
function unquote(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (trimmed.startsWith('"') && trimmed.endsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // keep the raw text
    }
  }
  return trimmed;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}
