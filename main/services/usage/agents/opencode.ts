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
  flags: (dirs) => JSON.stringify(dirs.map((d) => path.resolve(d))),
  /**
   * A file depends on its root's place in the list only; the first root's files on nothing (''):
   * roots added after it read nothing again, roots put in another order read the files whose place moved.
   */
  flagsOf: (file, flags) => {
    const root = rootOf(file, flags);
    return root === 0 ? '' : String(root);
  },
  read: readOpencode,
  stores: opencodeDatabase,
  isStore: (file) => file.endsWith('.db'),
  readStore: (file) => ranked(readOpencodeDb(file), precedenceOf(file.path, file.flags)),
};

/** The roots of the last flags parsed: one parse per scan, not one per file. */
let parsed: { flags: string; roots: string[] } = { flags: '', roots: [] };

/**
 * The index of the first root (in the flags' order) that holds `file`: its database, or a file
 * below it; the number of roots for one in none (not expected: it ranks after all).
 */
function rootOf(file: string, flags: string): number {
  if (parsed.flags !== flags) {
    const doc = parseJson(flags);
    parsed = { flags, roots: Array.isArray(doc) ? doc.filter((d): d is string => typeof d === 'string') : [] };
  }
  const { roots } = parsed;
  const full = path.isAbsolute(file) ? file : path.resolve(file);
  const store = file.endsWith('.db');
  const at = roots.findIndex((root) => (store ? path.dirname(full) === root : full.startsWith(root + path.sep)));
  return at === -1 ? roots.length : at;
}

/**
 * Which copy of a message wins (lower first): 2 × its root's index (rootOf), + 1 for a file of the
 * legacy storage (a root's database comes before its files).
 */
export function precedenceOf(file: string, flags: string): number {
  return rootOf(file, flags) * 2 + (file.endsWith('.db') ? 0 : 1);
}

function ranked(found: AgentFileRecords, rank: number): AgentFileRecords {
  for (const r of found.records) r.offset = rank;
  return found;
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
