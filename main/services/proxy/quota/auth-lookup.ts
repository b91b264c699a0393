import fs from 'node:fs/promises';
import path from 'node:path';
import { READ_LIMITS, readTextBounded } from '../../../infra/bounded-read.js';
import { isNotFound } from '../../../infra/file-stat.js';
import { isSafeFileName } from '../../../infra/safe-path.js';
import { isRecord, type AuthRecord } from './types.js';

/**
 * The auth file of one account (decisions §4): `<type>-<accountId>.json`, else any `*.json` in
 * the directory whose `type` matches and whose `email` is the account id. Only regular files:
 * a symlink in proxy/auth is never followed.
 */
export async function findAccountAuth(authDir: string, type: string, accountId: string): Promise<AuthRecord | null> {
  const direct = `${type}-${accountId}.json`;
  if (isSafeFileName(direct)) {
    const record = await readAuth(path.join(authDir, direct));
    if (record) return record;
  }
  let names: string[];
  try {
    names = await fs.readdir(authDir);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const record = await readAuth(path.join(authDir, name));
    if (record && record.type === type && record.email === accountId) return record;
  }
  return null;
}

async function readAuth(file: string): Promise<AuthRecord | null> {
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile()) return null;
    // Too large (or unreadable): not an auth record, like any other file that is not one.
    const parsed: unknown = JSON.parse(await readTextBounded(file, READ_LIMITS.authFile));
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
