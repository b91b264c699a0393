import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords } from './agent.js';
import { count, instant, isObject, linesOf, parseJson, stem, text, withLoggedTotal } from './fields.js';

type Json = Record<string, unknown>;

/**
 * pi-agent and OpenClaw (agents-usage.md §10, §15) write the same session lines: `type: "message"`
 * with an assistant `message.usage {input, output, cacheRead, cacheWrite, totalTokens, cost.total}`.
 * The model is the message's; for OpenClaw (`modelEvents`) else the last `model_change` (`modelId`)
 * or `custom` model snapshot (pi's are not used: seen, a pi message without a model is unpriced).
 * A recorded `cost.total` is the cost, 0 included; without one the table prices it. Models are
 * listed as `[<agent>] <model>`, as ccusage lists them. A logged total above the parts counts in the
 * total but, unlike other agents' extra tokens, is not priced. Identical usage at one instant counts once
 * across files (observed: an archived copy with other message ids added nothing).
 */
export function readPiStyle(agent: string, file: AgentFile, modelEvents: boolean): AgentFileRecords {
  const out: AgentFileRecords = { records: [], malformed: 0 };
  let model: string | null = null;
  let sessionId = stem(file.path, /\.jsonl.*$/);
  let cwd: string | null = null;
  for (const { line, at } of linesOf(file.text)) {
    const o = parseJson(line);
    if (!isObject(o)) {
      out.malformed++;
      continue;
    }
    if (o.type === 'session') {
      sessionId = text(o.id) ?? sessionId;
      cwd = text(o.cwd) ?? cwd;
      continue;
    }
    if (!modelEvents && (o.type === 'model_change' || o.type === 'custom')) continue;
    if (o.type === 'model_change') {
      model = text(o.modelId) ?? text(o.model) ?? model;
      continue;
    }
    if (o.type === 'custom' && isObject(o.data)) {
      model = text(o.data.modelId) ?? text(o.data.model) ?? model;
      continue;
    }
    if (o.type !== 'message' || !isObject(o.message)) continue;
    const m = o.message;
    if (m.role !== 'assistant' || !isObject(m.usage)) continue;
    const ts = instant(o.timestamp ?? m.timestamp);
    if (Number.isNaN(ts)) continue;
    const r = recordOf(agent, file.path, at, m.usage, ts, text(m.model) ?? model, sessionId, cwd);
    if (hasTokens(r)) out.records.push(r);
  }
  return out;
}

function recordOf(agent: string, file: string, at: number, u: Json, ts: number, model: string | null, sessionId: string, cwd: string | null) {
  const [input, output, read, write, total] = [u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens].map(count) as [number, number, number, number, number];
  const parts = withLoggedTotal({ output, extra: 0, sum: input + output + read + write }, total);
  const cost = isObject(u.cost) && typeof u.cost.total === 'number' && Number.isFinite(u.cost.total) && u.cost.total >= 0 ? u.cost.total : null;
  return agentRecord(agent, file, at, {
    timestamp: ts,
    model: model === null ? null : `[${agent}] ${model}`,
    inputTokens: input,
    outputTokens: parts.output,
    cacheWriteTokens: write,
    cacheReadTokens: read,
    extraTokens: parts.extra,
    pricedOnlyTokens: -parts.extra, // the rest of the logged total counts, unpriced (seen)
    sessionId,
    projectPath: cwd,
    loggedCost: cost,
    key: `\u0002${agent}\u0000${ts}\u0000${input}\u0000${output}\u0000${read}\u0000${write}\u0000${total}\u0000${cost ?? ''}`,
  });
}
