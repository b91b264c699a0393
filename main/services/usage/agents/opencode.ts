import fs from 'node:fs';
import path from 'node:path';
import type { AgentFile, AgentFileRecords, AgentLoader } from './agent.js';
import { isObject, parseJson } from './fields.js';
import { opencodeMessage } from './opencode-message.js';
import { readOpencodeDb } from './opencode-db.js';

export { opencodeMessage } from './opencode-message.js';

/**
 * OpenCode (agents-usage.md §4): its SQLite database `opencode.db` (else the first
 * `opencode-<channel>.db` by name) and the legacy file storage, one
 * `storage/message/<session>/msg_<id>.json` per message. A message in both counts once, as the
 * database has it (ccusage 20.0.24 reads the database first and skips ids it has seen).
 */
export const opencode: AgentLoader = {
  id: 'opencode',
  name: 'OpenCode',
  envVar: 'OPENCODE_DATA_DIR',
  defaultDirs: [path.join('.local', 'share', 'opencode')],
  xdgDataDir: 'opencode',
  roots: (dir) => [path.join(dir, 'storage', 'message')],
  accepts: (file) => file.endsWith('.json'),
  read: readOpencode,
  stores: opencodeDatabase,
  isStore: (file) => file.endsWith('.db'),
  readStore: readOpencodeDb,
};

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
  const found = opencodeMessage(m, 'opencode', file.path, (c) => c > 0);
  // A legacy file loses to the database's row of the same message, whatever their sizes: the
  // de-duplication's rule that a sidechain copy loses is that precedence (dedupe.ts).
  for (const r of found.records) r.sidechain = true;
  return found;
}
