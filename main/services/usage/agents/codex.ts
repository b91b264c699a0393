import fs from 'node:fs';
import path from 'node:path';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { canonicalTokenCount, tokenCountOf, usageOf, type OpenAiUsage, type TokenCountEvent } from './codex-token-line.js';
import { instant, isObject, parseJson, stem, text } from './fields.js';

const FALLBACK_MODEL = 'gpt-5';
/** What a line that counts, names the model or starts a session contains (agents write no space before a colon). */
const RELEVANT = ['"token_count"', '"turn_context"', '"session_meta"', '"usage":'];
/** The markers as one regular expression's source (they hold no special characters). */
const MARKERS = RELEVANT.join('|');
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
  const all = file.text;
  const fork = all.includes('thread_spawn');
  const fast = file.flags === 'fast';
  const sessionId = sessionOf(file.path);
  let model: string | null = null;
  let cwd: string | null = null;
  let createdSecond: number | null = null;
  let previous: OpenAiUsage | null = null;
  const seenWithoutTotal = new Set<string>();
  /** The usage a token_count event adds, or null (re-emitted, seen, replayed history, or none). */
  const countEvent = (ev: TokenCountEvent, ts: number): OpenAiUsage | null => {
    model = ev.model ?? model;
    let use: OpenAiUsage | null = null;
    if (ev.total !== null) {
      if (previous !== null && sameUsage(ev.total, previous)) return null; // a re-emitted event
      use = ev.last ?? minus(ev.total, previous);
      previous = ev.total;
    } else if (ev.last !== null) {
      const seen = `${ts}|${ev.last.input}|${ev.last.cached}|${ev.last.output}|${ev.last.reasoning}`;
      if (seenWithoutTotal.has(seen)) return null;
      seenWithoutTotal.add(seen);
      use = ev.last;
    }
    if (fork && createdSecond !== null && Math.floor(ts / 1000) === createdSecond) return null; // the parent's replayed history
    return use;
  };
  const relevant = new RelevantLines(all);
  let at = 0;
  while (at < all.length) {
    let end = all.indexOf('\n', at);
    if (end === -1) end = all.length;
    const lineAt = at;
    at = end + 1;
    // Most bytes are response items (tool output, messages): only lines that can matter are cut out and parsed.
    if (!relevant.within(lineAt, end)) {
      if (!looksLikeObject(all, lineAt, end)) out.malformed++; // damage is still counted, as in scan-file.ts
      continue;
    }
    const line = all.slice(lineAt, end).trim();
    let use: OpenAiUsage | null;
    let when: number;
    const quick = canonicalTokenCount(line);
    if (quick !== null) {
      when = instant(quick.timestamp);
      use = countEvent(quick, when);
    } else {
      const o = parseJson(line);
      if (!isObject(o)) {
        out.malformed++;
        continue;
      }
      const payload = isObject(o.payload) ? o.payload : {};
      when = instant(o.timestamp);
      if (o.type === 'session_meta') {
        if (createdSecond === null && !Number.isNaN(when)) createdSecond = Math.floor(when / 1000);
        cwd = text(payload.cwd) ?? cwd;
        continue;
      }
      if (o.type === 'turn_context') {
        model = text(payload.model) ?? model;
        cwd = text(payload.cwd) ?? cwd;
        continue;
      }
      if (o.type === 'event_msg') {
        const ev = tokenCountOf(o);
        if (ev === null) continue;
        use = countEvent(ev, when);
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
    }
    if (use === null || Number.isNaN(when)) continue;
    const cached = Math.min(use.cached, use.input);
    const r = agentRecord('codex', file.path, lineAt, {
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

/**
 * Which lines hold one of the RELEVANT markers, found by one regular-expression search through the
 * whole text (a third of the time of four `includes` on every line). A marker holds no newline or
 * blank, so one that starts inside a line's span is inside its trimmed text.
 */
class RelevantLines {
  private readonly markers = new RegExp(MARKERS, 'g');
  private next = -1;

  constructor(private readonly all: string) {}

  /** True when a marker starts within [from, end); calls come with increasing `from`. */
  within(from: number, end: number): boolean {
    if (this.next < from) {
      this.markers.lastIndex = from;
      const found = this.markers.exec(this.all);
      this.next = found === null ? Infinity : found.index;
    }
    return this.next < end;
  }
}

/** The line's trimmed text is blank or starts with `{` and ends with `}`; cut out and trimmed only when an end is not a brace. */
function looksLikeObject(all: string, from: number, end: number): boolean {
  if (end > from && all.charCodeAt(from) === 0x7b && all.charCodeAt(end - 1) === 0x7d) return true;
  const line = all.slice(from, end).trim();
  return line.length === 0 || (line.startsWith('{') && line.endsWith('}'));
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
