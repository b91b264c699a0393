import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { count, instant, isObject, linesOf, parseJson, stem, text, withLoggedTotal } from './fields.js';

type Json = Record<string, unknown>;

/** Gemini CLI (agents-usage.md §3): every `*.json` / `*.jsonl` below `~/.gemini/tmp`. */
export const gemini: AgentLoader = {
  id: 'gemini',
  name: 'Gemini CLI',
  envVar: 'GEMINI_DATA_DIR',
  defaultDirs: [path.join('.gemini', 'tmp')],
  roots: (dir) => [dir],
  accepts: (file) => file.endsWith('.json') || file.endsWith('.jsonl'),
  read: readGemini,
};

/**
 * A session file `{sessionId, startTime, messages}` or its JSONL form (one message per line, a
 * later line with the same id replacing the earlier one). Messages of type `gemini` count.
 */
export function readGemini(file: AgentFile): AgentFileRecords {
  const out: AgentFileRecords = { records: [], malformed: 0 };
  const context = { sessionId: stem(file.path, /\.jsonl?$/), start: NaN };
  const messages = new Map<string, { m: Json; at: number }>();
  const unnamed: Array<{ m: Json; at: number }> = [];
  const take = (m: Json, at: number) => {
    if (m.type !== 'gemini' || !isObject(m.tokens)) return;
    const id = text(m.id);
    if (id === null) unnamed.push({ m, at });
    else {
      messages.delete(id); // a later line replaces the earlier one and takes its place in order
      messages.set(id, { m, at });
    }
  };
  if (file.path.endsWith('.jsonl')) {
    for (const { line, at } of linesOf(file.text)) {
      const o = parseJson(line);
      if (!isObject(o)) {
        out.malformed++;
        continue;
      }
      setContext(context, o);
      take(o, at);
    }
  } else {
    const doc = parseJson(file.text);
    if (!isObject(doc)) {
      out.malformed++;
      return out;
    }
    setContext(context, doc);
    if (Array.isArray(doc.messages)) doc.messages.forEach((m, i) => isObject(m) && take(m, i));
  }
  for (const { m, at } of [...messages.values(), ...unnamed]) {
    let ts = instant(m.timestamp);
    if (Number.isNaN(ts)) ts = Number.isNaN(context.start) ? file.mtimeMs : context.start;
    const r = recordOf(file.path, at, m, ts, context.sessionId);
    if (hasTokens(r)) out.records.push(r);
  }
  return out;
}

function setContext(context: { sessionId: string; start: number }, o: Json): void {
  context.sessionId = text(o.sessionId) ?? context.sessionId;
  const start = instant(o.startTime ?? o.lastUpdated);
  if (!Number.isNaN(start) && Number.isNaN(context.start)) context.start = start;
}

/**
 * Gemini's `input` includes `cached` when the total says so; tool tokens are input. Thoughts count
 * only through the logged total (ccusage 20.0.24, seen): what the total holds beyond input, output
 * and cache reads is extra tokens up to the thoughts, and the rest follows the total-token
 * fallback (output when there is none, else extra). Thoughts the total leaves out are still
 * priced at the output rate, in no total (`pricedOnlyTokens`).
 */
function recordOf(file: string, at: number, m: Json, ts: number, sessionId: string) {
  const t = m.tokens as Json;
  const [input, cached, output, thoughts, tool, total] = [t.input, t.cached, t.output, t.thoughts, t.tool, t.total].map(count) as [number, number, number, number, number, number];
  const freshInput = (cached > 0 && total === input + output + thoughts + tool ? input - cached : input) + tool;
  const rest = Math.max(0, total - (freshInput + output + cached));
  const thought = Math.min(thoughts, rest);
  const { output: out, extra } = withLoggedTotal({ output, extra: thought, sum: freshInput + output + cached + thought }, total);
  return agentRecord('gemini', file, at, {
    timestamp: ts,
    model: text(m.model),
    inputTokens: freshInput,
    outputTokens: out,
    cacheWriteTokens: 0,
    cacheReadTokens: cached,
    extraTokens: extra,
    pricedOnlyTokens: thoughts - thought,
    sessionId,
  });
}
