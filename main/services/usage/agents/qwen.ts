import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { count, instant, isObject, linesOf, parseJson, stem, text, withLoggedTotal } from './fields.js';

/** Qwen Code (agents-usage.md §14): `projects/<project>/chats/*.jsonl` below `~/.qwen`. */
export const qwen: AgentLoader = {
  id: 'qwen',
  name: 'Qwen Code',
  envVar: 'QWEN_DATA_DIR',
  defaultDirs: ['.qwen'],
  roots: (dir) => [path.join(dir, 'projects')],
  accepts: (file) => file.endsWith('.jsonl') && path.basename(path.dirname(file)) === 'chats',
  read: readQwen,
};

/**
 * Assistant lines with `usageMetadata` (Gemini's field names): cached tokens are cache reads and
 * are not taken out of the prompt (seen); thoughts are extra tokens; a total above the parts
 * follows the total-token fallback. ccusage 20.0.24 counts identical usage of one session at one
 * instant once, across files too (observed: two lines with other uuids but the same counts and
 * time counted once; the same uuid with other counts counted twice), hence the key.
 */
export function readQwen(file: AgentFile): AgentFileRecords {
  const out: AgentFileRecords = { records: [], malformed: 0 };
  const project = path.basename(path.dirname(path.dirname(file.path)));
  for (const { line, at } of linesOf(file.text)) {
    const o = parseJson(line);
    if (!isObject(o)) {
      out.malformed++;
      continue;
    }
    if (o.type !== 'assistant' || !isObject(o.usageMetadata)) continue;
    const u = o.usageMetadata;
    const ts = instant(o.timestamp);
    if (Number.isNaN(ts)) continue;
    const [input, output, cached, thoughts, total] = [u.promptTokenCount, u.candidatesTokenCount, u.cachedContentTokenCount, u.thoughtsTokenCount, u.totalTokenCount].map(count) as [number, number, number, number, number];
    const sessionId = text(o.sessionId) ?? stem(file.path, /\.jsonl$/);
    const parts = withLoggedTotal({ output, extra: thoughts, sum: input + output + cached + thoughts }, total);
    const r = agentRecord('qwen', file.path, at, {
      timestamp: ts,
      model: text(o.model) ?? 'unknown',
      inputTokens: input,
      outputTokens: parts.output,
      cacheWriteTokens: 0,
      cacheReadTokens: cached,
      extraTokens: parts.extra,
      sessionId,
      projectPath: text(o.cwd) ?? project,
      key: `\u0002qwen\u0000${sessionId}\u0000${ts}\u0000${input}\u0000${output}\u0000${cached}\u0000${thoughts}\u0000${total}`,
    });
    if (hasTokens(r)) out.records.push(r);
  }
  return out;
}
