import fs from 'node:fs';
import path from 'node:path';
import { parseIsoTimestamp } from '../timestamp.js';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { copilotModel, readCopilotOtel } from './copilot-otel.js';
import { isObject, linesOf, parseJson } from './fields.js';

const SESSION_STATE = 'session-state';
const EVENTS = 'events.jsonl';

/**
 * GitHub Copilot CLI as ccusage 20.0.24 reads it: `session-state/<session>/events.jsonl` and
 * OpenTelemetry JSONL below `otel/` of `${COPILOT_HOME:-~/.copilot}`, plus the one file
 * `COPILOT_OTEL_FILE_EXPORTER_PATH` names (a file root: read as it is).
 */
export const copilot: AgentLoader = {
  id: 'copilot',
  name: 'GitHub Copilot CLI',
  envVar: 'COPILOT_HOME',
  envOnePath: true,
  defaultDirs: ['.copilot'],
  alsoFileVar: 'COPILOT_OTEL_FILE_EXPORTER_PATH',
  roots: (dir) => (isFile(dir) ? [dir] : [path.join(dir, SESSION_STATE), path.join(dir, 'otel')]),
  accepts: (file) => (isEventsFile(file) ? true : !file.split(/[\\/]/).includes(SESSION_STATE) && file.endsWith('.jsonl')),
  /** The last shutdown per session and model in the session-state files: OTel rows up to it are theirs. */
  flags(dirs) {
    const last: Record<string, number> = {};
    for (const dir of dirs) {
      if (isFile(dir)) continue;
      for (const file of eventsFiles(path.join(dir, SESSION_STATE))) {
        for (const [key, at] of Object.entries(shutdownsOf(file))) if (!(last[key]! >= at)) last[key] = at;
      }
    }
    return JSON.stringify({ shutdowns: last });
  },
  /**
   * Only OTel rows are left to session-state: a session-state file reads the same whatever the
   * shutdowns. (No `flagInputs`: the shutdowns come from below its watched roots.)
   */
  flagsOf: (file, flags) => (isEventsFile(file) ? '' : flags),
  read: (file) => (isEventsFile(file.path) ? readCopilotSessionState(file) : readCopilotOtel(file)),
};

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isEventsFile(file: string): boolean {
  return path.basename(file) === EVENTS && path.basename(path.dirname(path.dirname(file))) === SESSION_STATE;
}

function eventsFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name, EVENTS))
      .filter(isFile)
      .sort(); // listing order is the file system's: the flags' text must not depend on it
  } catch {
    return []; // no session-state folder
  }
}

/** Per file, the last answer while its size and mtime stay: `flags` runs on every scan. */
const shutdownMemo = new Map<string, { size: number; mtimeMs: number; last: Record<string, number> }>();

function shutdownsOf(file: string): Record<string, number> {
  try {
    const stat = fs.statSync(file);
    const memo = shutdownMemo.get(file);
    if (memo !== undefined && memo.size === stat.size && memo.mtimeMs === stat.mtimeMs) return memo.last;
    const last: Record<string, number> = {};
    const session = sessionOf(file);
    for (const s of snapshots(fs.readFileSync(file, 'utf8')).list) for (const model of Object.keys(s.models)) last[`${session}\u0000${model}`] = Math.max(last[`${session}\u0000${model}`] ?? -Infinity, s.timestamp);
    shutdownMemo.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, last });
    return last;
  } catch {
    return {}; // vanished between the listing and the read
  }
}

const sessionOf = (file: string) => path.basename(path.dirname(file));

interface Counts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

interface Snapshot {
  timestamp: number;
  at: number;
  models: Record<string, Counts>;
}

const whole = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

/**
 * `session.shutdown` events with a valid ISO `timestamp` and `data.modelMetrics.<model>.usage`
 * counts that are all non-negative integers; any other shutdown line is skipped whole (observed).
 * Input includes both cache kinds: uncached input = max(input − cache read − cache write, 0).
 */
function snapshots(textIn: string): { list: Snapshot[]; malformed: number } {
  const list: Snapshot[] = [];
  let malformed = 0;
  for (const { line, at } of linesOf(textIn)) {
    if (!line.includes('"session.shutdown"')) continue;
    const o = parseJson(line);
    if (!isObject(o)) {
      malformed++;
      continue;
    }
    if (o.type !== 'session.shutdown' || typeof o.timestamp !== 'string' || !isObject(o.data) || !isObject(o.data.modelMetrics)) continue;
    const timestamp = parseIsoTimestamp(o.timestamp);
    if (Number.isNaN(timestamp)) continue;
    const models: Record<string, Counts> = Object.create(null) as Record<string, Counts>; // model names are data: no prototype keys
    let valid = true;
    for (const [name, metric] of Object.entries(o.data.modelMetrics)) {
      const u = isObject(metric) && isObject(metric.usage) ? metric.usage : {};
      if (!['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'].every((k) => whole(u[k]))) valid = false;
      const n = (k: string) => (u[k] as number | undefined) ?? 0;
      const model = copilotModel(name);
      const prev = models[model];
      const c = { input: Math.max(n('inputTokens') - n('cacheReadTokens') - n('cacheWriteTokens'), 0), output: n('outputTokens'), cacheRead: n('cacheReadTokens'), cacheWrite: n('cacheWriteTokens') };
      models[model] = prev === undefined ? c : { input: prev.input + c.input, output: prev.output + c.output, cacheRead: prev.cacheRead + c.cacheRead, cacheWrite: prev.cacheWrite + c.cacheWrite };
    }
    if (valid) list.push({ timestamp, at, models });
  }
  return { list, malformed };
}

/**
 * A session's `session.shutdown` snapshots are cumulative per model: the first counts as it is,
 * each later one as its growth over the previous snapshot of that model (each kind apart, never
 * below 0), on the shutdown's date. Reasoning is inside output. Session = the folder's name.
 */
export function readCopilotSessionState(file: AgentFile): AgentFileRecords {
  const { list, malformed } = snapshots(file.text);
  const session = sessionOf(file.path);
  const before = new Map<string, Counts>();
  const records = [];
  for (const s of list) {
    for (const [model, c] of Object.entries(s.models)) {
      const p = before.get(model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      before.set(model, c);
      const grew = (k: keyof Counts) => Math.max(c[k] - p[k], 0);
      const r = agentRecord('copilot', file.path, s.at, {
        timestamp: s.timestamp,
        model,
        inputTokens: grew('input'),
        outputTokens: grew('output'),
        cacheWriteTokens: grew('cacheWrite'),
        cacheReadTokens: grew('cacheRead'),
        extraTokens: 0,
        sessionId: session,
      });
      if (hasTokens(r)) records.push(r);
    }
  }
  return { records, malformed };
}
