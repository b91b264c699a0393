import path from 'node:path';
import { agentRecord, hasTokens, type AgentFileRecords } from './agent.js';
import { count, instant, isObject, text, withLoggedTotal } from './fields.js';

/**
 * One OpenCode-shaped message (OpenCode's files, Kilo's `message.data`); `usesCost` says which
 * recorded costs are taken as the cost (OpenCode: above 0; Kilo: any, 0 included). `at` is the
 * message's time when the caller has already settled it (OpenCode's v2 rows), else `time.created`.
 */
export function opencodeMessage(m: Record<string, unknown>, agent: string, filePath: string, usesCost: (cost: number) => boolean, at?: number): AgentFileRecords {
  const id = text(m.id);
  const model = text(m.modelID);
  const provider = text(m.providerID);
  const ts = at ?? instant(isObject(m.time) ? m.time.created : undefined);
  if (id === null || model === null || provider === null || !isObject(m.tokens) || Number.isNaN(ts)) return { records: [], malformed: 0 };
  const t = m.tokens;
  const cache = isObject(t.cache) ? t.cache : {};
  const [input, output, reasoning, read, write] = [t.input, t.output, t.reasoning, cache.read, cache.write].map(count) as [number, number, number, number, number];
  const { output: out, extra } = withLoggedTotal({ output, extra: reasoning, sum: input + output + reasoning + read + write }, count(t.total));
  const cost = typeof m.cost === 'number' && Number.isFinite(m.cost) && usesCost(m.cost) ? m.cost : null;
  const r = agentRecord(agent, filePath, 0, {
    timestamp: ts,
    model,
    inputTokens: input,
    outputTokens: out,
    cacheWriteTokens: write,
    cacheReadTokens: read,
    extraTokens: extra,
    sessionId: text(m.sessionID) ?? path.basename(path.dirname(filePath)),
    projectPath: isObject(m.path) ? text(m.path.cwd) : null,
    // One message, wherever it was found (several roots, a copy): counted once.
    key: `\u0002${agent}\u0000${id}`,
    loggedCost: cost,
  });
  return { records: hasTokens(r) ? [r] : [], malformed: 0 };
}
