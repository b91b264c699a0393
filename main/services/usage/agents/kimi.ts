import fs from 'node:fs';
import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { isObject, linesOf, parseJson, text, withLoggedTotal } from './fields.js';

/** The model Kimi names when `config.json` names none; priced by date (see prices.json `datedAliases`). */
export const KIMI_DEFAULT_MODEL = 'kimi-for-coding';
const WIRE = 'wire.jsonl';
/** Lines that can count hold one of these (ccusage 20.0.24 parses no others). */
const MARKERS = ['"token_usage"', '"usage.record"'];

/**
 * Kimi CLI and Kimi Code (agents-usage.md §13): `sessions/<group>/<session>/wire.jsonl` (Kimi CLI)
 * and `sessions/<workspace>/<session>/agents/<agent>/wire.jsonl` (Kimi Code) below `~/.kimi` and
 * `~/.kimi-code`.
 */
export const kimi: AgentLoader = {
  id: 'kimi',
  name: 'Kimi CLI',
  envVar: 'KIMI_DATA_DIR',
  defaultDirs: ['.kimi', '.kimi-code'],
  roots: (dir) => [path.join(dir, 'sessions')],
  accepts: isWireFile,
  /** Each dir's `config.json` model, read once per scan: Kimi CLI lines name no model. */
  flags(dirs) {
    const models: Record<string, string> = {};
    for (const dir of dirs) models[path.resolve(dir)] = configModel(dir);
    return JSON.stringify(models);
  },
  flagInputs: (dirs) => dirs.map((dir) => path.join(dir, 'config.json')),
  /** A file depends only on the model its Kimi CLI lines get (a change of another root's config.json reads nothing). */
  flagsOf: (file, flags) => cliModelOf(file, flags),
  read: readKimi,
};

/** `wire.jsonl` exactly three (Kimi CLI) or five (Kimi Code) folders below `sessions/`. */
function isWireFile(file: string): boolean {
  if (path.basename(file) !== WIRE) return false;
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('sessions');
  if (at === -1) return false;
  const depth = parts.length - at - 1;
  return depth === 3 || depth === 5;
}

function configModel(dir: string): string {
  try {
    const doc = parseJson(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
    return (isObject(doc) ? text(typeof doc.model === 'string' ? doc.model.trim() : null) : null) ?? KIMI_DEFAULT_MODEL;
  } catch {
    return KIMI_DEFAULT_MODEL; // no config.json: Kimi's default model
  }
}

/** A count as ccusage 20.0.24 reads Kimi's: a non-negative integer; a string, fraction or negative is 0 (observed). */
function whole(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : 0;
}

const up = (p: string, n: number): string => (n === 0 ? p : up(path.dirname(p), n - 1));

/**
 * Where a wire file sits: its session folder and the root whose `config.json` names the model, as
 * ccusage 20.0.24 finds them (four folders up from the file, or from its agent folder in Kimi
 * Code's layout — which lands on `sessions/`, so Kimi CLI lines there get the default model).
 */
function placeOf(file: string): { session: string; root: string } {
  const parent = path.dirname(file);
  const kimiCode = path.basename(path.dirname(parent)) === 'agents';
  const sessionDir = kimiCode ? up(parent, 2) : parent;
  return { session: path.basename(sessionDir) || 'unknown', root: up(kimiCode ? parent : file, 4) };
}

/** The parsed flags of the last call: one parse per scan, not one per file. */
let parsed: { flags: string; models: Record<string, unknown> } = { flags: '', models: {} };

/** The model Kimi CLI lines of `file` get: its root's `config.json` model (from the scan flags), else the default. */
function cliModelOf(file: string, flags: string): string {
  if (parsed.flags !== flags) {
    const doc = parseJson(flags);
    parsed = { flags, models: isObject(doc) ? doc : {} };
  }
  return text(parsed.models[path.resolve(placeOf(file).root)]) ?? KIMI_DEFAULT_MODEL;
}

/**
 * Kimi CLI `StatusUpdate` lines (`message.payload.token_usage`, snake_case, epoch seconds, the
 * model from `config.json`) and Kimi Code `usage.record` lines (camelCase `usage`, epoch ms
 * `time`, their own model without the `kimi-code/` prefix; only `usageScope: "turn"` counts, a
 * session record is a running total). `input_other` is input without cache; cache reads and
 * writes are their own kinds. A Kimi CLI `total` above the parts follows the total-token fallback
 * (extra tokens count in the total but are not priced);
 * Kimi Code's is ignored (as ccusage does). A missing or non-numeric time is the file's mtime.
 * Identical usage of one session, message id and instant counts once, across files too.
 */
export function readKimi(file: AgentFile): AgentFileRecords {
  const out: AgentFileRecords = { records: [], malformed: 0 };
  const { session } = placeOf(file.path);
  const cliModel = cliModelOf(file.path, file.flags);
  for (const { line, at } of linesOf(file.text)) {
    if (!MARKERS.some((m) => line.includes(m))) continue;
    const o = parseJson(line);
    if (!isObject(o)) {
      out.malformed++;
      continue;
    }
    const u = o.type === 'usage.record' ? kimiCode(o, file.mtimeMs) : o.type === 'metadata' ? null : kimiCli(o, cliModel, file.mtimeMs);
    if (u === null) continue;
    const r = agentRecord('kimi', file.path, at, {
      timestamp: u.timestamp,
      model: u.model,
      inputTokens: u.input,
      outputTokens: u.output,
      cacheWriteTokens: u.cacheWrite,
      cacheReadTokens: u.cacheRead,
      extraTokens: u.extra,
      pricedOnlyTokens: -u.extra, // in the total, not priced (ccusage 20.0.24 prices the four kinds only, observed)
      sessionId: session,
      key: `\u0002kimi\u0000${session}\u0000${u.messageId ?? ''}\u0000${u.timestamp}\u0000${u.model}\u0000${u.input}\u0000${u.output}\u0000${u.cacheWrite}\u0000${u.cacheRead}\u0000${u.extra}`,
    });
    if (hasTokens(r)) out.records.push(r);
  }
  return out;
}

interface KimiUsage {
  timestamp: number;
  model: string;
  messageId: string | null;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  extra: number;
}

function kimiCli(o: Record<string, unknown>, model: string, mtimeMs: number): KimiUsage | null {
  const message = o.message;
  if (!isObject(message) || message.type !== 'StatusUpdate' || !isObject(message.payload)) return null;
  const payload = message.payload;
  if (!isObject(payload.token_usage)) return null;
  const t = payload.token_usage;
  const [input, output, cacheWrite, cacheRead, total] = [t.input_other, t.output, t.input_cache_creation, t.input_cache_read, t.total].map(whole) as [number, number, number, number, number];
  const parts = withLoggedTotal({ output, extra: 0, sum: input + output + cacheWrite + cacheRead }, total);
  const seconds = o.timestamp;
  const timestamp = typeof seconds === 'number' && Number.isFinite(seconds) ? Math.trunc(seconds * 1000) : mtimeMs;
  const messageId = typeof payload.message_id === 'string' ? text(payload.message_id.trim()) : null;
  return { timestamp, model, messageId, input, output: parts.output, cacheWrite, cacheRead, extra: parts.extra };
}

function kimiCode(o: Record<string, unknown>, mtimeMs: number): KimiUsage | null {
  if (o.usageScope !== 'turn' || !isObject(o.usage)) return null;
  const u = o.usage;
  const named = typeof o.model === 'string' ? text(o.model.trim()) : null;
  const model = (named ?? KIMI_DEFAULT_MODEL).replace(/^kimi-code\//, '');
  const timestamp = typeof o.time === 'number' && Number.isSafeInteger(o.time) ? o.time : mtimeMs;
  return { timestamp, model, messageId: null, input: whole(u.inputOther), output: whole(u.output), cacheWrite: whole(u.inputCacheCreation), cacheRead: whole(u.inputCacheRead), extra: 0 };
}
