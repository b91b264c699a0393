import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editorDbPath, readEditorValues } from '../../../../main/services/bridge/editor-db.js';
import { BridgeError } from '../../../../main/services/bridge/errors.js';
import { makeEditorDb, MACHINE_ID_HEX, MACHINE_ID_UUID, PLAIN_TOKEN, requireSqlite3 } from '../../../fixtures/bridge/editor-db.js';

let dir: string;
beforeAll(async () => {
  requireSqlite3(); // fails the file loudly when the command is missing; never a skip
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-editor-db-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const read = (db: string, extra: Partial<Parameters<typeof readEditorValues>[0]> = {}) =>
  readEditorValues({ env: { SWITCHBOARD_BRIDGE_DB: db }, platform: 'linux', ...extra });

async function failure(p: Promise<unknown>): Promise<BridgeError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BridgeError);
  return err as BridgeError;
}

describe('editor database (sqlite3 command)', () => {
  it('reads the token and storage.serviceMachineId from a real database', async () => {
    const db = makeEditorDb(path.join(dir, 'full'), {
      'cursorAuth/accessToken': PLAIN_TOKEN,
      'storage.serviceMachineId': MACHINE_ID_UUID,
      'telemetry.machineId': 'f'.repeat(32),
      'other.key': 'x',
    });
    expect(await read(db)).toEqual({ dbPath: db, accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_UUID });
  });

  it('falls back to telemetry.machineId and unwraps JSON-quoted values', async () => {
    const db = makeEditorDb(path.join(dir, 'telemetry'), {
      'cursorAuth/accessToken': JSON.stringify(PLAIN_TOKEN),
      'telemetry.machineId': MACHINE_ID_HEX,
    });
    expect(await read(db)).toEqual({ dbPath: db, accessToken: PLAIN_TOKEN, machineId: MACHINE_ID_HEX });
  });

  it('keeps values with separators and newlines intact', async () => {
    const odd = `${PLAIN_TOKEN}|with|pipes`;
    const db = makeEditorDb(path.join(dir, 'odd'), { 'cursorAuth/accessToken': odd, 'storage.serviceMachineId': `${MACHINE_ID_HEX}\n` });
    expect(await read(db)).toMatchObject({ accessToken: odd, machineId: MACHINE_ID_HEX });
  });

  it('reports missing keys as null', async () => {
    const db = makeEditorDb(path.join(dir, 'empty'), { 'other.key': 'x' });
    expect(await read(db)).toEqual({ dbPath: db, accessToken: null, machineId: null });
  });

  it('404: no database at the path', async () => {
    const err = await failure(read(path.join(dir, 'missing', 'state.vscdb')));
    expect(err.code).toBe('editor-db-not-found');
  });

  it('404: a file that is not the editor store (no ItemTable, or not SQLite at all)', async () => {
    const other = path.join(dir, 'other');
    await fs.mkdir(other);
    const noTable = path.join(other, 'no-table.vscdb');
    const { execFileSync } = await import('node:child_process');
    execFileSync('sqlite3', [noTable, 'CREATE TABLE t (a);']);
    expect((await failure(read(noTable))).code).toBe('editor-db-not-found');
    const text = path.join(other, 'text.vscdb');
    await fs.writeFile(text, 'this is not a database at all, just text '.repeat(50));
    expect((await failure(read(text))).code).toBe('editor-db-not-found');
  });

  it('503: the sqlite3 command is missing', async () => {
    const db = makeEditorDb(path.join(dir, 'nosqlite'), { 'cursorAuth/accessToken': PLAIN_TOKEN });
    const err = await failure(read(db, { sqlite3: path.join(dir, 'no-such-sqlite3') }));
    expect(err.code).toBe('sqlite-unavailable');
    const viaEnv = await failure(readEditorValues({ env: { SWITCHBOARD_BRIDGE_DB: db, SWITCHBOARD_SQLITE3: '/nonexistent/sqlite3' }, platform: 'linux' }));
    expect(viaEnv.code).toBe('sqlite-unavailable');
  });

  it('501: auto-detect on Windows', async () => {
    expect((await failure(read('C:\\x\\state.vscdb', { platform: 'win32' }))).code).toBe('auto-detect-windows');
  });

  it('knows the OS default paths and the override', () => {
    const env = { HOME: '/h' };
    expect(editorDbPath(env, 'darwin')).toBe('/h/Library/Application Support/Cursor/User/globalStorage/state.vscdb');
    expect(editorDbPath(env, 'linux')).toBe('/h/.config/Cursor/User/globalStorage/state.vscdb');
    expect(editorDbPath({ ...env, XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Cursor/User/globalStorage/state.vscdb');
    expect(editorDbPath({ ...env, SWITCHBOARD_BRIDGE_DB: '/db/state.vscdb' }, 'darwin')).toBe('/db/state.vscdb');
  });
});
