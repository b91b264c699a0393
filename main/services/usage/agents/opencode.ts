import fs from 'node:fs';
import path from 'node:path';
import type { AgentFile, AgentFileRecords, AgentLoader } from './agent.js';
import { isObject, parseJson } from './fields.js';
import { opencodeMessage } from './opencode-message.js';
import { readOpencodeDb } from './opencode-db.js';
import { dirIndex, dirsInOrder, placeKey, ranked } from './root-order.js';

export { opencodeMessage } from './opencode-message.js';

/**
 * OpenCode (agents-usage.md §4): its SQLite database `opencode.db` (else the first
 * `opencode-<channel>.db` by name) and the legacy file storage, one
 * `storage/message/<session>/msg_<id>.json` per message. A message found more than once counts
 * once, the copy ccusage 20.0.24 keeps (observed, docs/usage.md): the first root's (in the order
 * `OPENCODE_DATA_DIR` names them), in a root its database's row before any file. Each record
 * carries its copy's precedence (`precedenceOf`) in `offset`, which de-duplication compares first
 * (dedupe.ts); the scan flags are the roots in order.
 */
export const opencode: AgentLoader = {
  id: 'opencode',
  name: 'OpenCode',
  envVar: 'OPENCODE_DATA_DIR',
  defaultDirs: [path.join('.local', 'share', 'opencode')],
  xdgDataDir: 'opencode',
  roots: (dir) => [path.join(dir, 'storage', 'message')],
  accepts: (file) => file.endsWith('.json'),
  flags: dirsInOrder,
  flagsOf: (file, flags) => placeKey(dirIndex(file, flags, file.endsWith('.db'))),
  read: readOpencode,
  stores: opencodeDatabase,
  isStore: (file) => file.endsWith('.db'),
  readStore: (file) => ranked(readOpencodeDb(file), precedenceOf(file.path, file.flags)),
};

/**
 * Which copy of a message wins (lower first): 2 × its root's place in the list (root-order.ts),
 * + 1 for a file of the legacy storage (a root's database comes before its files).
 */
export function precedenceOf(file: string, flags: string): number {
  const store = file.endsWith('.db');
  return dirIndex(file, flags, store) * 2 + (store ? 0 : 1);
}

/** `opencode.db` when present, else the first `opencode-<channel>.db` in name order; at most one per dir. */
export function opencodeDatabase(dir: string): string[] {
  const main = path.join(dir, 'opencode.db');
  if (isFile(main)) return [main];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return []; // a missing dir is no data
  }
  const channel = names
    .filter((n) => /^opencode-[A-Za-z0-9_-]*\.db$/.test(n))
    .sort()
    .find((n) => isFile(path.join(dir, n)));
  return channel === undefined ? [] : [path.join(dir, channel)];
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Reasoning always counts (extra, priced as output); a recorded cost above 0 is the cost. */
export function readOpencode(file: AgentFile): AgentFileRecords {
  const m = parseJson(file.text);
  if (!isObject(m)) return { records: [], malformed: 1 };
  return ranked(opencodeMessage(m, 'opencode', file.path, (c) => c > 0), precedenceOf(file.path, file.flags));
}
