import path from 'node:path';
import type { UsageSlice } from './slice.js';
import { byName, listedModel, sortedNames, tableCost } from './totals.js';
import type { UsageRecord } from './types.js';

export interface SessionEntry {
  sessionId: string;
  /** The `cwd` of the session's lines; the project folder of the transcript when none says. */
  projectPath: string;
  lastActivity: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** input + output + cache read + cache write. */
  totalTokens: number;
  cost: number;
  modelsUsed: string[];
  /** Agent version of the newest line that names one. */
  version: string | null;
  /** The coding agent that wrote the session (decisions §5.1). */
  agent: string;
}

interface Building {
  entry: SessionEntry;
  last: number;
  pathAt: number;
  versionAt: number;
  models: Set<string>;
}

/**
 * Every project (as the Projects table groups them: `projectOf`) each session has requests in. A
 * session that moved between folders counts in each project's figures, so filtering sessions by
 * a project must find it under each of them, not only under its latest `projectPath`.
 */
export function projectsBySession(slice: UsageSlice): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of slice.records) {
    let set = out.get(r.sessionId);
    if (!set) out.set(r.sessionId, (set = new Set()));
    set.add(projectOf(r));
  }
  return out;
}

/** Every session with requests in the slice, newest `lastActivity` first. */
export function sessionEntries(slice: UsageSlice, costOf: (r: UsageRecord) => number = tableCost): SessionEntry[] {
  const sessions = new Map<string, Building>();
  for (const r of slice.records) {
    const id = sessionKey(r);
    let s = sessions.get(id);
    if (!s) {
      const entry: SessionEntry = {
        sessionId: r.sessionId,
        projectPath: projectOf(r),
        lastActivity: '',
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        totalTokens: 0,
        cost: 0,
        modelsUsed: [],
        version: null,
        agent: r.agent,
      };
      sessions.set(id, (s = { entry, last: -Infinity, pathAt: -Infinity, versionAt: -Infinity, models: new Set() }));
    }
    const e = s.entry;
    e.inputTokens += r.inputTokens;
    e.outputTokens += r.outputTokens;
    e.cacheReadTokens += r.cacheReadTokens;
    e.cacheWriteTokens += r.cacheWrite5mTokens + r.cacheWrite1hTokens;
    e.cost += costOf(r);
    const model = listedModel(r);
    if (model !== null) s.models.add(model);
    if (r.timestamp > s.last) s.last = r.timestamp;
    if (r.projectPath !== null && r.timestamp >= s.pathAt) {
      e.projectPath = r.projectPath;
      s.pathAt = r.timestamp;
    }
    if (r.version !== null && r.timestamp >= s.versionAt) {
      e.version = r.version;
      s.versionAt = r.timestamp;
    }
  }
  const list = [...sessions.values()];
  list.sort((a, b) => b.last - a.last || byName(a.entry.sessionId, b.entry.sessionId));
  return list.map((s) => {
    const e = s.entry;
    const totalTokens = e.inputTokens + e.outputTokens + e.cacheReadTokens + e.cacheWriteTokens;
    return { ...e, totalTokens, lastActivity: new Date(s.last).toISOString(), modelsUsed: sortedNames(s.models) };
  });
}

/** Two agents may use the same session id: Claude's stay keyed by the id alone, as they always were. */
function sessionKey(r: UsageRecord): string {
  return r.agent === 'claude' ? r.sessionId : `${r.agent}\u0000${r.sessionId}`;
}

/**
 * ccusage's project: the line's `cwd`, else the folder under `projects/` (the one above
 * `<session>/subagents/`); another agent's request without a folder is `[<agent>]`.
 */
export function projectOf(r: UsageRecord): string {
  if (r.projectPath !== null) return r.projectPath;
  if (r.agent !== 'claude') return `[${r.agent}]`;
  const parts = r.file.split(/[\\/]/);
  const at = parts.lastIndexOf('subagents');
  return at > 1 ? parts[at - 2]! : path.basename(path.dirname(r.file));
}
