import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords } from './agent.js';
import { isObject, linesOf, parseJson, withLoggedTotal } from './fields.js';

type Json = Record<string, unknown>;

/** Copilot's long-context model ids (`claude-opus-4.6-1m`, `…-1m-internal`) are the priced model (ccusage 20.0.24). */
export function copilotModel(model: string): string {
  return model.replace(/-1m(?:-internal)?$/, '');
}

/** The OTel record kinds that carry usage, best first: a lower kind counts only when no better one covers its trace or response. */
enum Source {
  ChatSpan,
  InferenceLog,
  AgentTurnLog,
  AgentSummarySpan,
}

const MODEL_ATTRS = ['gen_ai.response.model', 'gen_ai.request.model'];
const SESSION_ATTRS: readonly [string, number][] = [
  ['gen_ai.conversation.id', 3],
  ['copilot_chat.session_id', 3],
  ['copilot_chat.chat_session_id', 3],
  ['session.id', 3],
  ['github.copilot.interaction_id', 2],
  ['gen_ai.response.id', 1],
];

function str(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length > 0 ? t : null;
}

/** OTel numbers: a non-negative integer, or its decimal text. */
function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : null;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return null;
}

const attrNum = (a: Json, key: string) => num(a[key]) ?? 0;
const firstNum = (a: Json, keys: readonly string[]) => keys.map((k) => attrNum(a, k)).find((v) => v > 0) ?? 0;
const firstStr = (a: Json, keys: readonly string[]) => keys.map((k) => str(a[k])).find((v) => v !== null) ?? null;

function bestSession(a: Json): [string, number] | null {
  let best: [string, number] | null = null;
  for (const [key, priority] of SESSION_ATTRS) {
    const v = str(a[key]);
    if (v !== null && (best === null || priority > best[1])) best = [v, priority];
  }
  return best;
}

function traceId(r: Json): string | null {
  return str(r.traceId) ?? (isObject(r.spanContext) ? str(r.spanContext.traceId) : null);
}

function isSpan(r: Json): boolean {
  if (typeof r.type === 'string') return r.type === 'span';
  return str(r.name) !== null && (str(r.spanId) !== null || str(r.traceId) !== null || ['startTime', 'endTime', 'duration', 'kind'].some((k) => r[k] !== undefined));
}

function sourceOf(r: Json, a: Json): Source | null {
  const span = isSpan(r);
  const operation = str(a['gen_ai.operation.name']);
  const name = str(r.name) ?? '';
  const event = str(a['event.name']);
  const body = str(r.body) ?? str(r._body) ?? '';
  if (span && (operation === 'chat' || name.startsWith('chat '))) return Source.ChatSpan;
  if (!span && (event === 'gen_ai.client.inference.operation.details' || body.startsWith('GenAI inference:'))) return Source.InferenceLog;
  if (!span && (event === 'copilot_chat.agent.turn' || body.startsWith('copilot_chat.agent.turn'))) return Source.AgentTurnLog;
  if (span && (operation === 'invoke_agent' || name.startsWith('invoke_agent '))) return Source.AgentSummarySpan;
  return null;
}

/** `[seconds, nanos]`. */
function parts(v: unknown): number | null {
  if (!Array.isArray(v)) return null;
  const s = num(v[0]);
  const n = num(v[1]);
  return s === null || n === null ? null : s * 1000 + Math.floor(n / 1_000_000);
}

/** A scalar in seconds, ms, µs or ns, told apart by size as ccusage does. */
function scalar(v: unknown): number | null {
  const raw = num(v);
  if (raw === null) return null;
  if (raw >= 1e17) return Math.floor(raw / 1e6);
  if (raw >= 1e14) return Math.floor(raw / 1e3);
  if (raw >= 1e11) return raw;
  return raw * 1000;
}

function timeOf(r: Json): number | null {
  for (const k of ['endTime', 'startTime', 'hrTime', '_hrTime', 'time']) {
    const t = parts(r[k]);
    if (t !== null) return t;
  }
  const t = scalar(r.timestamp) ?? scalar(r.observedTimestamp);
  if (t !== null) return t;
  const n = r.timeUnixNano;
  const ms = typeof n === 'string' && /^\s*\d+\s*$/.test(n) ? Number(BigInt(n.trim()) / 1_000_000n) : typeof n === 'number' && num(n) !== null ? Math.floor(n / 1e6) : null;
  return ms !== null && ms > 0 ? ms : null;
}

interface Candidate {
  source: Source;
  trace: string | null;
  response: string | null;
  at: number;
  model: string;
  session: string;
  timestamp: number;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  extra: number;
}

/**
 * GitHub Copilot CLI's OpenTelemetry file export (agents-usage.md §6): chat spans count; an
 * inference-details log, an agent-turn log and an `invoke_agent` summary span count only when no
 * better kind covers the same trace or response id. Input includes cache reads (taken out); cache
 * writes are `cache_write` else `cache_creation`; reasoning is not counted (ccusage 20.0.24,
 * observed); a total above the parts follows the total-token fallback. Model and session come
 * from the record, else from another record of its trace. A row of a session and model that the
 * session-state files also hold, at or before that pair's last shutdown, is left to them (`flags`:
 * the last shutdown per pair). Identical lines count twice, as in ccusage.
 */
export function readCopilotOtel(file: AgentFile): AgentFileRecords {
  const out: AgentFileRecords = { records: [], malformed: 0 };
  const rows: { r: Json; a: Json; at: number }[] = [];
  for (const { line, at } of linesOf(file.text)) {
    if (!line.includes('"attributes"')) continue;
    const r = parseJson(line);
    if (!isObject(r)) {
      out.malformed++;
      continue;
    }
    if (isObject(r.attributes)) rows.push({ r, a: r.attributes, at });
  }
  const traces = new Map<string, { model: string | null; session: string | null; priority: number }>();
  for (const { r, a } of rows) {
    const t = traceId(r);
    if (t === null) continue;
    let c = traces.get(t);
    if (c === undefined) traces.set(t, (c = { model: null, session: null, priority: 0 }));
    c.model ??= firstStr(a, MODEL_ATTRS);
    const s = bestSession(a);
    if (s !== null && s[1] > c.priority) [c.session, c.priority] = s;
  }
  const candidates: Candidate[] = [];
  for (const { r, a, at } of rows) {
    const source = sourceOf(r, a);
    if (source === null) continue;
    const input = attrNum(a, 'gen_ai.usage.input_tokens');
    const output = attrNum(a, 'gen_ai.usage.output_tokens');
    const cacheRead = attrNum(a, 'gen_ai.usage.cache_read.input_tokens');
    const cacheWrite = firstNum(a, ['gen_ai.usage.cache_write.input_tokens', 'gen_ai.usage.cache_creation.input_tokens']);
    const total = firstNum(a, ['gen_ai.usage.total_tokens', 'gen_ai.usage.total.token_count']);
    const uncached = input - Math.min(input, cacheRead);
    const rest = withLoggedTotal({ output, extra: 0, sum: uncached + output + cacheWrite + cacheRead }, total);
    if (uncached + rest.output + cacheWrite + cacheRead + rest.extra === 0) continue;
    const trace = traceId(r);
    const context = trace === null ? undefined : traces.get(trace);
    const model = copilotModel(firstStr(a, MODEL_ATTRS) ?? context?.model ?? 'unknown');
    const session = bestSession(a)?.[0] ?? context?.session ?? trace ?? 'unknown-session';
    const timestamp = timeOf(r) ?? file.mtimeMs;
    candidates.push({ source, trace, response: str(a['gen_ai.response.id']), at, model, session, timestamp, input: uncached, output: rest.output, cacheWrite, cacheRead, extra: rest.extra });
  }
  const seen = [Source.ChatSpan, Source.InferenceLog, Source.AgentTurnLog].map((source) => {
    const of = candidates.filter((c) => c.source === source);
    return { traces: new Set(of.map((c) => c.trace)), responses: new Set(of.map((c) => c.response)) };
  });
  const covered = (c: Candidate) => seen.slice(0, c.source).some((s) => (c.trace !== null && s.traces.has(c.trace)) || (c.response !== null && s.responses.has(c.response)));
  const lastShutdown = shutdowns(file.flags);
  for (const c of candidates) {
    if (covered(c)) continue;
    const shutdown = lastShutdown[`${c.session}\u0000${c.model}`];
    if (shutdown !== undefined && c.timestamp <= shutdown) continue;
    const rec = agentRecord('copilot', file.path, c.at, {
      timestamp: c.timestamp,
      model: c.model,
      inputTokens: c.input,
      outputTokens: c.output,
      cacheWriteTokens: c.cacheWrite,
      cacheReadTokens: c.cacheRead,
      extraTokens: c.extra,
      sessionId: c.session,
    });
    if (hasTokens(rec)) out.records.push(rec);
  }
  return out;
}

function shutdowns(flags: string): Record<string, number> {
  const parsed = parseJson(flags);
  if (!isObject(parsed) || !isObject(parsed.shutdowns)) return {};
  return parsed.shutdowns as Record<string, number>;
}
