import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { count, countOf, instant, isObject, parseJson, text, withLoggedTotal } from './fields.js';

const SUFFIX = '.settings.json';

/** Droid by Factory (agents-usage.md §7): one `<session>.settings.json` per session below `~/.factory/sessions`. */
export const droid: AgentLoader = {
  id: 'droid',
  name: 'Droid (Factory)',
  envVar: 'DROID_SESSIONS_DIR',
  defaultDirs: [path.join('.factory', 'sessions')],
  roots: (dir) => [dir],
  accepts: (file) => file.endsWith(SUFFIX),
  read: readDroid,
};

/**
 * Session totals, not turns: the whole session lands on `providerLockTimestamp` (else the file's
 * mtime). Thinking tokens are extra (priced as output); a total above the parts follows the
 * fallback. The model is normalised as ccusage does (`custom:Claude-Sonnet-4.5-[Anthropic]` →
 * `claude-sonnet-4-5`); none → `unknown`. One session id is one request (its key).
 */
export function readDroid(file: AgentFile): AgentFileRecords {
  const doc = parseJson(file.text);
  if (!isObject(doc)) return { records: [], malformed: 1 };
  if (!isObject(doc.tokenUsage)) return { records: [], malformed: 0 };
  const u = doc.tokenUsage;
  const input = countOf(u, 'inputTokens');
  const output = countOf(u, 'outputTokens');
  const write = countOf(u, 'cacheCreationTokens');
  const read = countOf(u, 'cacheReadTokens');
  const thinking = countOf(u, 'thinkingTokens');
  const parts = withLoggedTotal({ output, extra: thinking, sum: input + output + write + read + thinking }, count(u.totalTokens));
  const at = instant(doc.providerLockTimestamp);
  const sessionId = path.basename(file.path).slice(0, -SUFFIX.length);
  const r = agentRecord('droid', file.path, 0, {
    timestamp: Number.isNaN(at) ? file.mtimeMs : at,
    model: normaliseDroidModel(text(doc.model)),
    inputTokens: input,
    outputTokens: parts.output,
    cacheWriteTokens: write,
    cacheReadTokens: read,
    extraTokens: parts.extra,
    sessionId,
    projectPath: text(doc.cwd),
    key: `\u0002droid\u0000${sessionId}`,
  });
  return { records: hasTokens(r) ? [r] : [], malformed: 0 };
}

export function normaliseDroidModel(model: string | null): string {
  if (model === null) return 'unknown';
  const s = model
    .replace(/^custom:/i, '')
    .replace(/\[[^\]]*\]/g, '')
    .toLowerCase()
    .replace(/[.\s]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return s.length > 0 ? s : 'unknown';
}
