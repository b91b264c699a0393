import fs from 'node:fs';
import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { count, countOf, instant, isObject, linesOf, parseJson, stem, text } from './fields.js';

/** One usage object in OpenAI's terms: cached ⊂ input, reasoning ⊂ output. */
interface OpenAiUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

const FALLBACK_MODEL = 'gpt-5';
/** What a line that counts, names the model or starts a session contains (agents write no space before a colon). */
const RELEVANT = ['"token_count"', '"turn_context"', '"session_meta"', '"usage":'];
const LIVE = `${path.sep}sessions${path.sep}`;
const ARCHIVED = `${path.sep}archived_sessions${path.sep}`;

/**
 * OpenAI Codex CLI (agents-usage.md §2): `sessions/` and `archived_sessions/` of each home, or a
 * home without them read as a folder of `codex exec --json` output.
 */
export const codex: AgentLoader = {
  id: 'codex',
  name: 'OpenAI Codex CLI',
  envVar: 'CODEX_HOME',
  defaultDirs: ['.codex'],
  roots(dir) {
    const live = path.join(dir, 'sessions');
    const archived = path.join(dir, 'archived_sessions');
    const some = [live, archived].filter((d) => fs.existsSync(d));
    return some.length > 0 ? some : [dir];
  },
  accepts: (file) => file.endsWith('.jsonl'),
  choose(files) {
    const live = new Set(files.filter((f) => f.includes(LIVE)));
    return new Set(files.filter((f) => !(f.includes(ARCHIVED) && live.has(f.replace(ARCHIVED, LIVE)))));
  },
  flags(dirs) {
    for (const dir of dirs) {
      try {
        const toml = fs.readFileSync(path.join(dir, 'config.toml'), 'utf8');
        if (/^\s*service_tier\s*=\s*["'](?:priority|fast)["']/m.test(toml)) return 'fast';
      } catch {
        // no config.toml: the standard tier
      }
    }
    return '';
  },
  flagInputs: (dirs) => dirs.map((dir) => path.join(dir, 'config.toml')),
  read: readCodex,
};

/**
 * Per-turn usage (`last_token_usage`) counts; the cumulative total only tells a re-emitted event
 * (total unchanged: counts 0) and stands in when the turn's usage is missing (its growth counts).
 * A forked sub-agent file (`thread_spawn`) first replays its parent's events at its creation
 * second: they advance the baseline but are not counted again.
 */
export function readCodex(file: AgentFile): AgentFileRecords {
  const out: AgentFileRecords = { records: [], malformed: 0 };
  const fork = file.text.includes('thread_spawn');
  const fast = file.flags === 'fast';
  const sessionId = sessionOf(file.path);
  let model: string | null = null;
  let cwd: string | null = null;
  let createdSecond: number | null = null;
  let previous: OpenAiUsage | null = null;
  const seenWithoutTotal = new Set<string>();
  for (const { line, at } of linesOf(file.text)) {
    // Most bytes are response items (tool output, messages): only lines that can matter are parsed.
    if (!RELEVANT.some((marker) => line.includes(marker))) {
      if (!(line.startsWith('{') && line.endsWith('}'))) out.malformed++; // damage is still counted, as in scan-file.ts
      continue;
    }
    const o = parseJson(line);
    if (!isObject(o)) {
      out.malformed++;
      continue;
    }
    const payload = isObject(o.payload) ? o.payload : {};
    const ts = instant(o.timestamp);
    if (o.type === 'session_meta') {
      if (createdSecond === null && !Number.isNaN(ts)) createdSecond = Math.floor(ts / 1000);
      cwd = text(payload.cwd) ?? cwd;
      continue;
    }
    if (o.type === 'turn_context') {
      model = text(payload.model) ?? model;
      cwd = text(payload.cwd) ?? cwd;
      continue;
    }
    let use: OpenAiUsage | null = null;
    let when = ts;
    if (o.type === 'event_msg') {
      if (payload.type !== 'token_count' || !isObject(payload.info)) continue;
      const info = payload.info;
      model = text(payload.model) ?? text(info.model) ?? text(o.model_name) ?? (isObject(o.metadata) ? text(o.metadata.model) : null) ?? model;
      const total = usageOf(info.total_token_usage);
      const last = usageOf(info.last_token_usage);
      if (total !== null) {
        if (previous !== null && sameUsage(total, previous)) continue; // a re-emitted event
        use = last ?? minus(total, previous);
        previous = total;
      } else if (last !== null) {
        const seen = `${ts}|${last.input}|${last.cached}|${last.output}|${last.reasoning}`;
        if (seenWithoutTotal.has(seen)) continue;
        seenWithoutTotal.add(seen);
        use = last;
      }
      if (fork && createdSecond !== null && Math.floor(ts / 1000) === createdSecond) continue; // the parent's replayed history
    } else {
      use = headlessUsage(o);
      if (use === null) continue;
      model = text(o.model) ?? model;
      when = instant(o.timestamp ?? o.created_at ?? o.createdAt);
      if (Number.isNaN(when)) when = file.mtimeMs;
      const seen = `${when}|${use.input}|${use.cached}|${use.output}`;
      if (seenWithoutTotal.has(seen)) continue;
      seenWithoutTotal.add(seen);
    }
    if (use === null || Number.isNaN(when)) continue;
    const cached = Math.min(use.cached, use.input);
    const r = agentRecord('codex', file.path, at, {
      timestamp: when,
      model: model ?? FALLBACK_MODEL,
      inputTokens: use.input - cached,
      outputTokens: use.output,
      cacheWriteTokens: 0,
      cacheReadTokens: cached,
      extraTokens: 0,
      sessionId,
      projectPath: cwd,
      fast,
    });
    if (hasTokens(r)) out.records.push(r);
  }
  return out;
}

function usageOf(v: unknown): OpenAiUsage | null {
  if (!isObject(v)) return null;
  const details = isObject(v.input_tokens_details) ? v.input_tokens_details : isObject(v.prompt_tokens_details) ? v.prompt_tokens_details : {};
  return {
    input: countOf(v, 'input_tokens', 'prompt_tokens'),
    cached: typeof v.cached_input_tokens === 'number' || typeof v.cached_tokens === 'number' ? countOf(v, 'cached_input_tokens', 'cached_tokens') : count(details.cached_tokens),
    output: countOf(v, 'output_tokens', 'completion_tokens'),
    reasoning: countOf(v, 'reasoning_output_tokens', 'reasoning_tokens'),
  };
}

/** `codex exec --json` lines (`turn.completed`) carry `usage`, also under `data`, `result` or `response`. */
function headlessUsage(o: Record<string, unknown>): OpenAiUsage | null {
  for (const holder of [o, o.data, o.result, o.response]) {
    if (isObject(holder) && isObject(holder.usage)) {
      const u = holder.usage;
      const known = ['input_tokens', 'prompt_tokens', 'output_tokens', 'completion_tokens'].some((k) => typeof u[k] === 'number');
      if (known) return usageOf(u);
    }
  }
  return null;
}

function sameUsage(a: OpenAiUsage, b: OpenAiUsage): boolean {
  return a.input === b.input && a.cached === b.cached && a.output === b.output && a.reasoning === b.reasoning;
}

function minus(total: OpenAiUsage, before: OpenAiUsage | null): OpenAiUsage {
  if (before === null) return total;
  return {
    input: Math.max(0, total.input - before.input),
    cached: Math.max(0, total.cached - before.cached),
    output: Math.max(0, total.output - before.output),
    reasoning: Math.max(0, total.reasoning - before.reasoning),
  };
}

/** ccusage's session id: the path below `sessions/` without `.jsonl` (`2026/01/02/rollout-…`). */
function sessionOf(file: string): string {
  for (const marker of [LIVE, ARCHIVED]) {
    const at = file.lastIndexOf(marker);
    if (at !== -1) return file.slice(at + marker.length).replace(/\.jsonl$/, '').split(path.sep).join('/');
  }
  return stem(file, /\.jsonl$/);
}
