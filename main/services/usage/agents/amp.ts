import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { count, countOf, instant, isObject, parseJson, stem, text, withLoggedTotal } from './fields.js';

type Json = Record<string, unknown>;

/** Amp (agents-usage.md §5): one JSON thread per file under `threads/`. */
export const amp: AgentLoader = {
  id: 'amp',
  name: 'Amp',
  envVar: 'AMP_DATA_DIR',
  defaultDirs: [path.join('.local', 'share', 'amp')],
  roots: (dir) => [path.join(dir, 'threads')],
  accepts: (file) => file.endsWith('.json'),
  read: readAmp,
};

/**
 * The usage ledger when the thread has one (older schema; cache tokens from the message it
 * points to), else each assistant message's `usage`.
 */
export function readAmp(file: AgentFile): AgentFileRecords {
  const thread = parseJson(file.text);
  if (!isObject(thread)) return { records: [], malformed: 1 };
  const sessionId = text(thread.id) ?? stem(file.path, /\.json$/);
  const messages = Array.isArray(thread.messages) ? thread.messages.filter(isObject) : [];
  const events = isObject(thread.usageLedger) && Array.isArray(thread.usageLedger.events) ? thread.usageLedger.events.filter(isObject) : [];
  const records = [];
  if (events.length > 0) {
    const byId = new Map<unknown, Json>(messages.map((m) => [m.messageId ?? m.id, m]));
    for (const [i, e] of events.entries()) {
      const tokens = isObject(e.tokens) ? e.tokens : {};
      const target = byId.get(e.toMessageId);
      const usage = target && isObject(target.usage) ? target.usage : {};
      records.push(recordOf(file.path, i, sessionId, {
        timestamp: instant(e.timestamp),
        model: text(e.model),
        input: count(tokens.input),
        output: count(tokens.output),
        write: countOf(usage, 'cacheCreationInputTokens'),
        read: countOf(usage, 'cacheReadInputTokens'),
        total: count(tokens.total),
      }));
    }
  } else {
    for (const [i, m] of messages.entries()) {
      if (m.role !== 'assistant' || !isObject(m.usage)) continue;
      const u = m.usage;
      records.push(recordOf(file.path, i, sessionId, {
        timestamp: instant(u.timestamp ?? m.timestamp),
        model: text(u.model),
        input: countOf(u, 'inputTokens'),
        output: countOf(u, 'outputTokens'),
        write: countOf(u, 'cacheCreationInputTokens'),
        read: countOf(u, 'cacheReadInputTokens'),
        total: countOf(u, 'totalTokens'),
      }));
    }
  }
  return { records: records.filter((r) => r !== null && hasTokens(r)) as ReturnType<typeof agentRecord>[], malformed: 0 };
}

function recordOf(file: string, at: number, sessionId: string, u: { timestamp: number; model: string | null; input: number; output: number; write: number; read: number; total: number }) {
  if (Number.isNaN(u.timestamp)) return null;
  const { output, extra } = withLoggedTotal({ output: u.output, extra: 0, sum: u.input + u.output + u.write + u.read }, u.total);
  return agentRecord('amp', file, at, {
    timestamp: u.timestamp,
    model: u.model,
    inputTokens: u.input,
    outputTokens: output,
    cacheWriteTokens: u.write,
    cacheReadTokens: u.read,
    extraTokens: extra,
    sessionId,
  });
}
