import path from 'node:path';
import type { AgentFileRecords } from './agent.js';
import { parseJson } from './fields.js';

/**
 * For agents whose copies of one request in several dirs count as ccusage keeps them, the first
 * dir's copy (OpenCode, Hermes; docs/usage.md): the scan flags name the dirs in order, and each
 * record carries its copy's precedence in `offset`, which de-duplication compares first for these
 * agents (dedupe.ts COPY_RULES).
 */

/** The scan flags of such an agent: its dirs, resolved, in the order they were given. */
export function dirsInOrder(dirs: readonly string[]): string {
  return JSON.stringify(dirs.map((d) => path.resolve(d)));
}

/** Flags parsed, by their text: one parse per agent per scan, not one per file. */
const parsed = new Map<string, string[]>();
const MAX_PARSED = 16;

/**
 * The index of the first dir (in the flags' order) that holds `file`: the one it sits in for a
 * store (`store`: a database directly in its dir), else the one it is below; the number of dirs
 * for a file in none (not expected: it ranks after all).
 */
export function dirIndex(file: string, flags: string, store: boolean): number {
  let dirs = parsed.get(flags);
  if (dirs === undefined) {
    const doc = parseJson(flags);
    dirs = Array.isArray(doc) ? doc.filter((d): d is string => typeof d === 'string') : [];
    if (parsed.size >= MAX_PARSED) parsed.clear();
    parsed.set(flags, dirs);
  }
  const full = path.isAbsolute(file) ? file : path.resolve(file);
  const at = dirs.findIndex((dir) => (store ? path.dirname(full) === dir : full.startsWith(dir + path.sep)));
  return at === -1 ? dirs.length : at;
}

/**
 * What a file's reading depends on (agent.ts `flagsOf`): its dir's place, '' for the first dir, so
 * dirs added after it read nothing again and dirs put in another order read the files whose place moved.
 */
export function placeKey(index: number): string {
  return index === 0 ? '' : String(index);
}

/** Gives every record `precedence` (lower wins among copies). */
export function ranked(found: AgentFileRecords, precedence: number): AgentFileRecords {
  for (const r of found.records) r.offset = precedence;
  return found;
}
