#!/usr/bin/env node
// The project's own generator of realistic agent usage logs (Claude Code 2.x data dirs), used by
// the tests (cross-check with ccusage, load, end-to-end fixtures) and the benches alike.
// Plain Node, no dependencies, seeded: the same options give byte-identical files.
//
//   node scripts/gen-usage.mjs --out DIR [--bytes 10MB] [--seed 1] [--projects N] [--sessions M]
//     [--instances 2] [--instance-share 0.2] [--start 2025-11-01] [--days 90] [--bad-rate 0.002]
//     [--noreq-rate 0] [--quiet]
//
// Layout written under DIR:
//   projects/<cwd, non-alphanumerics as '-'>/<session>.jsonl               one transcript per session
//   projects/<…>/<session>/subagents/agent-<id>.jsonl                      subagents (2.1.x sessions)
//   instances/<work|personal|…>/projects/…                                  isolated instances
//   gen-manifest.json                                                      options, totals, the dirs
//
// What the lines look like, and why each kind is here (a reader must get every one right):
// - an assistant reply is split into one line per content block (thinking, text, tool_use), all
//   with the same message.id and requestId; earlier lines may carry a smaller, partial
//   output_tokens, so a reader must keep the largest duplicate, not the first;
// - Claude usage carries cache_creation {ephemeral_5m, ephemeral_1h} (1-hour sessions bill more),
//   proxied models (gpt-5, gemini-2.5-pro, glm-4.6) carry no cache_creation object and gpt-5 and
//   gemini often no cache fields at all; long Sonnet sessions pass 200k context (tiered price);
// - sidechains: 2.0.x writes isSidechain lines inline; 2.1.x (from 2026-01-07) writes subagent
//   files and mirrors each subagent reply into the parent as a `progress` line (a duplicate);
// - Task tool results put a usage object in toolUseResult on a user line: it must not count;
// - `<synthetic>` API-error lines with zero usage and no requestId;
// - resumed sessions replay an earlier transcript verbatim under a new sessionId (cross-file
//   duplicates), after a summary line;
// - summary, file-history-snapshot and compact_boundary lines, tool results up to ~120 KB;
// - damage: a share of lines truncated, blank, `null`, `{}` or garbage, and some files ending in a
//   cut-off line without a newline. Subagent files stay whole so every progress line has its twin.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MiB = 1 << 20;
/** Claude Code 2.1 (subagent files + progress lines) from this day on. */
const V21_FROM = Date.UTC(2026, 0, 7);

const MODELS = {
  sonnet: 'claude-sonnet-4-5-20250929',
  opus: 'claude-opus-4-1-20250805',
  haiku: 'claude-haiku-4-5-20251001',
  gpt: 'gpt-5',
  gemini: 'gemini-2.5-pro',
  glm: 'glm-4.6',
};
const SESSION_MODELS = [
  [MODELS.sonnet, 48],
  [MODELS.opus, 15],
  [MODELS.haiku, 9],
  [MODELS.gpt, 10],
  [MODELS.gemini, 10],
  [MODELS.glm, 8],
];
const INSTANCE_NAMES = ['work', 'personal', 'client-a', 'client-b', 'lab', 'ci'];
const PROJECT_NAMES = [
  'orders-api', 'admin-console', 'terraform-live', 'feature-store', 'ios-client', 'handbook', 'ledger',
  'dev-scripts', 'ingest-jobs', 'sso-gateway', 'catalog-search', 'ui-kit', 'render-core', 'support-bot',
  'invoice-worker', 'cluster-ops', 'metrics-web', 'lab-notebooks', 'edge-cache', 'homepage',
];
/** Offsets (hours) of the users behind the projects: local working hours spread over UTC days. */
const ZONES = [-8, -7, -6, -5, -3, 0, 1, 2, 3, 5.5, 8, 9, 10];
const TOOLS = [['Bash', 28], ['Read', 30], ['Edit', 15], ['Grep', 8], ['Glob', 5], ['Write', 5], ['TodoWrite', 5], ['WebFetch', 2], ['Task', 2]];
const WORDS = (
  'the of and to in that it is for on with this as be at by we can not or from will should ' +
  'handler request response cache token session config schema route worker queue retry timeout ' +
  'parse render commit branch merge test build deploy index query migrate field record stream ' +
  'buffer socket client server proxy upstream daemon profile settings error warning log metric ' +
  'refactor rename extract inline verify ensure check update remove add move split join fix'
).split(' ');
/** Non-ASCII words from the Basic Multilingual Plane only: a slice can never cut a surrogate pair. */
const FOREIGN = ['résumé', 'Straße', 'déjà', '東京', 'ログ', '数据', 'ошибка', '→', '✓', 'λ', '—', 'µs'];

// ------------------------------------------------------------------ options

/** @param {string} text */
export function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(String(text).trim());
  if (!m) throw new Error(`gen-usage: bad size "${text}" (use e.g. 512KB, 3MB, 1GB)`);
  const unit = { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2].toLowerCase()];
  return Math.round(Number(m[1]) * unit);
}

function parseArgs(argv) {
  const o = {};
  const flags = {
    '--out': ['out', String], '--bytes': ['bytes', String], '--seed': ['seed', Number],
    '--projects': ['projects', Number], '--sessions': ['sessions', Number], '--instances': ['instances', Number],
    '--instance-share': ['instanceShare', Number], '--start': ['start', String], '--days': ['days', Number],
    '--bad-rate': ['badRate', Number], '--noreq-rate': ['noReqRate', Number],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quiet') { o.quiet = true; continue; }
    if (a === '--help' || a === '-h') { o.help = true; continue; }
    const f = flags[a];
    if (!f) throw new Error(`gen-usage: unknown argument ${a}`);
    if (i + 1 >= argv.length) throw new Error(`gen-usage: ${a} needs a value`);
    const v = f[1](argv[++i]);
    if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`gen-usage: ${a} needs a number`);
    o[f[0]] = v;
  }
  return o;
}

// ------------------------------------------------------------------ randomness (sfc32)

class Rng {
  constructor(seed) {
    this.s = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, (seed >>> 0) ^ 0x510e527f];
    for (let i = 0; i < 20; i++) this.next();
  }
  next() {
    const s = this.s;
    const t = (((s[0] + s[1]) | 0) + s[3]) | 0;
    s[3] = (s[3] + 1) | 0;
    s[0] = s[1] ^ (s[1] >>> 9);
    s[1] = (s[2] + (s[2] << 3)) | 0;
    s[2] = ((s[2] << 21) | (s[2] >>> 11)) + t | 0;
    return (t >>> 0) / 4294967296;
  }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); }
  chance(p) { return this.next() < p; }
  pick(list) { return list[Math.floor(this.next() * list.length)]; }
  weighted(pairs) {
    let total = 0;
    for (const [, w] of pairs) total += w;
    let r = this.next() * total;
    for (const [v, w] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1][0];
  }
  /** Log-normal around `median`: most values near it, a long tail above. */
  spread(median, sigma) {
    let u = this.next();
    while (u === 0) u = this.next();
    return median * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next()));
  }
  chars(alphabet, n) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

// ------------------------------------------------------------------ text

/** Pools of prose and tool output, sliced for message bodies (JSON.stringify does the escaping). */
class Text {
  constructor(rng) {
    this.rng = rng;
    const prose = [];
    for (let n = 0; n < 600_000;) {
      let w = rng.chance(0.005) ? rng.pick(FOREIGN) : rng.pick(WORDS);
      const r = rng.next();
      if (r < 0.06) w += '.';
      else if (r < 0.08) w += ',';
      else if (r < 0.09) w = `"${w}"`;
      else if (r < 0.1) w = `\`${w}()\``;
      else if (r < 0.105) w += '.\n\n-';
      prose.push(w);
      n += w.length + 1;
    }
    this.prose = prose.join(' ');
    const out = [];
    const shapes = [
      (w) => `export async function ${w}(req: Request): Promise<Response> {`,
      (w) => `  const ${w} = await db.query('SELECT * FROM ${w} WHERE id = $1', [id]);`,
      (w) => `  if (!${w}) throw new Error("${w} missing");`,
      () => '}',
      (w) => `\tat ${w} (/srv/app/node_modules/${w}/lib/index.js:${rng.int(1, 999)}:${rng.int(1, 80)})`,
      (w) => ` ✓ ${w} works (${rng.int(1, 900)} ms)`,
      (w) => ` FAIL src/${w}.test.ts > expected "${w}" to equal undefined`,
      (w) => `diff --git a/src/${w}.ts b/src/${w}.ts`,
      (w) => `@@ -${rng.int(1, 400)},${rng.int(1, 30)} +${rng.int(1, 400)},${rng.int(1, 30)} @@ ${w}`,
      (w) => `+  ${w}(next, { retries: ${rng.int(1, 5)} });`,
      (w) => `-  ${w}(prev);`,
      (w) => `${new Date(Date.UTC(2026, 0, 1) + rng.int(0, 1e9)).toISOString()} INFO ${w} done in ${rng.int(1, 999)}ms`,
      () => 'C:\\Users\\dev\\build\\output.log',
      () => '',
    ];
    for (let n = 0; n < 2_400_000;) {
      const line = rng.pick(shapes)(rng.pick(WORDS));
      out.push(line);
      n += line.length + 1;
    }
    this.code = out.join('\n');
  }
  slice(pool, len) {
    len = Math.max(4, Math.min(Math.round(len), pool.length - 1));
    const at = Math.floor(this.rng.next() * (pool.length - len));
    return pool.slice(at, at + len);
  }
  words(len) { return this.slice(this.prose, len).trim() || 'ok'; }
  output(len) { return this.slice(this.code, len); }
}

// ------------------------------------------------------------------ files

/** One JSONL file; damaged lines are injected at `badRate` (never into subagent files). */
class Jsonl {
  constructor(file, rng, badRate) {
    this.file = file;
    this.rng = rng;
    this.badRate = badRate;
    this.parts = [];
    this.pending = 0;
    this.bytes = 0;
    this.lines = 0;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'w');
  }
  /** @param {string} line */
  write(line) {
    this.lines++;
    if (this.badRate > 0 && this.rng.chance(this.badRate)) {
      const r = this.rng.next();
      if (r < 0.65) {
        this.raw(line.slice(0, this.rng.int(5, Math.max(6, line.length - 2))) + '\n'); // a torn write
        return;
      }
      this.raw(this.rng.pick(['\n', 'null\n', '{}\n', '[]\n', '{"type":"assistant","message":{"usage":{"input_tokens":7,\n', '\u0000\u0000\n', '{"type":"user" "x":1}\n']));
    }
    this.raw(line + '\n');
  }
  raw(s) {
    this.parts.push(s);
    this.pending += s.length;
    if (this.pending > 4 * MiB) this.flush();
  }
  flush() {
    if (this.parts.length === 0) return;
    this.bytes += fs.writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  close(cutTail) {
    if (cutTail) this.raw('{"parentUuid":"0b8d0e4e-tail","isSidechain":false,"type":"assistant","message":{"usa');
    this.flush();
    fs.closeSync(this.fd);
  }
  get size() { return this.bytes + this.pending; }
}

// ------------------------------------------------------------------ sessions

const iso = (ms) => new Date(ms).toISOString();
/** @param {Rng} r */
const uuid = (r) => `${r.chars(HEX, 8)}-${r.chars(HEX, 4)}-4${r.chars(HEX, 3)}-${r.pick(['8', '9', 'a', 'b'])}${r.chars(HEX, 3)}-${r.chars(HEX, 12)}`;
const isClaude = (model) => model.startsWith('claude-');

function versionAt(ms) {
  if (ms >= V21_FROM) return `2.1.${Math.min(60, Math.floor((ms - V21_FROM) / (3 * DAY)))}`;
  return `2.0.${Math.max(20, Math.min(77, 77 - Math.floor((V21_FROM - ms) / (2 * DAY))))}`;
}

class Session {
  /**
   * @param {{ rng: Rng, text: Text, badRate: number, noReqRate: number }} g
   * @param {object} plan
   */
  constructor(g, plan) {
    Object.assign(this, { g, rng: g.rng, text: g.text, plan });
    this.t = plan.startMs;
    this.model = plan.model;
    this.parent = null;
    this.context = 0;
    this.calls = 0;
    this.file = new Jsonl(plan.file, this.rng, g.badRate);
    this.subfiles = [];
    /** Lines a later `--resume` of this session replays (bounded). */
    this.kept = [];
    this.keptBytes = 0;
  }

  uuid() {
    return uuid(this.rng);
  }
  wait(lo, hi) { this.t += this.rng.int(lo, hi); }
  get version() { return versionAt(this.t); }

  /** The fields every transcript line carries, in Claude Code's order. */
  head(extra = {}) {
    return {
      parentUuid: this.parent,
      isSidechain: false,
      userType: 'external',
      cwd: this.plan.cwd,
      sessionId: this.plan.sid,
      version: this.version,
      gitBranch: this.plan.branch,
      ...extra,
    };
  }

  emit(file, obj) {
    const line = JSON.stringify(obj);
    file.write(line);
    if (file === this.file && this.kept && !this.plan.noResume) {
      if (this.keptBytes + line.length > 3 * MiB) this.kept = null;
      else {
        this.kept.push(line);
        this.keptBytes += line.length;
      }
    }
  }

  /** One API call's usage, advancing the conversation's context. */
  usage(model, fresh, out) {
    const r = this.rng;
    if (!isClaude(model)) {
      if (this.context === 0) this.context = r.int(8_000, 20_000);
      const input = this.context + fresh;
      this.context += fresh + out;
      if (model === MODELS.glm) {
        const read = r.chance(0.7) ? Math.floor(input * (0.4 + r.next() * 0.55)) : 0;
        return { input_tokens: input - read, output_tokens: out, cache_read_input_tokens: read, cache_creation_input_tokens: 0 };
      }
      if (r.chance(0.5)) return { input_tokens: input, output_tokens: out };
      const read = Math.floor(input * r.next() * 0.85);
      return { input_tokens: input - read, output_tokens: out, cache_read_input_tokens: read, cache_creation_input_tokens: 0 };
    }
    let input;
    let write;
    let read;
    if (this.calls === 0 || this.context === 0) [input, write, read] = [r.int(2, 12), r.int(8_000, 20_000) + fresh, 0];
    else if (r.chance(0.05)) [input, write, read] = [r.int(2, 12), this.context + fresh, 0]; // the cache expired
    else [input, write, read] = [r.int(1, 9), fresh, this.context];
    if (r.chance(0.01)) input = r.int(1_500, 35_000); // an uncached tail
    this.context = input + write + read + out;
    // 1-hour sessions write to the 1h cache; now and then a call splits between both TTLs
    const hour = this.plan.hourCache ? (r.chance(0.1) ? Math.floor(write * r.next()) : write) : 0;
    return {
      input_tokens: input,
      cache_creation_input_tokens: write,
      cache_read_input_tokens: read,
      cache_creation: { ephemeral_5m_input_tokens: write - hour, ephemeral_1h_input_tokens: hour },
      output_tokens: out,
      service_tier: 'standard',
    };
  }

  toolInput(name) {
    const r = this.rng;
    const t = this.text;
    const file = `${this.plan.cwd}/src/${r.pick(WORDS)}/${r.pick(WORDS)}.ts`;
    switch (name) {
      case 'Bash': return { command: r.pick(['npm test', 'npm run build', 'git status', 'git diff --stat', 'ls -la', 'cargo test', 'pytest -q', 'make lint']), description: t.words(30) };
      case 'Read': return { file_path: file };
      case 'Edit': return { file_path: file, old_string: t.output(r.int(30, 500)), new_string: t.output(r.int(30, 700)) };
      case 'Write': return { file_path: file, content: t.output(r.int(200, 5000)) };
      case 'Grep': return { pattern: `${r.pick(WORDS)}\\(`, path: `${this.plan.cwd}/src`, output_mode: 'files_with_matches' };
      case 'Glob': return { pattern: `**/*.${r.pick(['ts', 'tsx', 'py', 'go', 'rs'])}` };
      case 'TodoWrite': return { todos: [{ content: t.words(40), status: 'in_progress', activeForm: t.words(25) }, { content: t.words(40), status: 'pending', activeForm: t.words(25) }] };
      case 'WebFetch': return { url: `https://docs.example.com/${r.pick(WORDS)}`, prompt: t.words(60) };
      default: return { description: t.words(30), prompt: t.words(r.int(200, 1200)), subagent_type: 'general-purpose' };
    }
  }

  /**
   * One API reply: one line per content block, sharing message.id and requestId.
   * @returns {{ name: string, id: string }[]} the tool calls it made
   */
  reply(file, { model, sidechain = false, agentId, fresh, last = false, mirror }) {
    const r = this.rng;
    const t = this.text;
    const id = `msg_01${r.chars(ALNUM, 22)}`;
    const requestId = !isClaude(model) && r.chance(this.g.noReqRate) ? undefined : `req_011C${r.chars(ALNUM, 20)}`;
    const blocks = [];
    if (isClaude(model) && r.chance(0.3)) blocks.push({ type: 'thinking', thinking: t.words(r.spread(500, 0.9)), signature: r.chars(ALNUM + '+/', r.int(200, 1200)) });
    if (last || r.chance(0.55)) blocks.push({ type: 'text', text: t.words(r.spread(last ? 450 : 160, 0.9)) });
    const tools = [];
    if (!last) {
      const n = r.chance(0.85) ? 1 : r.int(2, 4);
      for (let i = 0; i < n; i++) {
        let name = r.weighted(TOOLS);
        if (name === 'Task' && (sidechain || agentId)) name = 'Grep';
        const tid = `toolu_01${r.chars(ALNUM, 22)}`;
        tools.push({ name, id: tid });
        blocks.push({ type: 'tool_use', id: tid, name, input: this.toolInput(name) });
      }
    }
    if (blocks.length === 0) blocks.push({ type: 'text', text: t.words(100) });
    let out = Math.max(1, Math.round(r.spread(last ? 320 : 150, 1)));
    if (blocks[0].type === 'thinking') out += r.int(100, 2_000);
    out = Math.min(out, 32_000);
    const usage = this.usage(model, fresh, out);
    this.calls++;
    this.wait(700, 25_000);
    const partial = blocks.length > 1 && r.chance(0.6);
    for (const [i, block] of blocks.entries()) {
      const final = i === blocks.length - 1;
      const u = partial && !final ? { ...usage, output_tokens: r.int(1, Math.max(1, Math.min(30, out - 1))) } : usage;
      this.wait(40, final ? 2_000 : 900);
      const uuid = this.uuid();
      const message = { model, id, type: 'message', role: 'assistant', content: [block], stop_reason: final ? (tools.length ? 'tool_use' : 'end_turn') : null, stop_sequence: null, usage: u };
      const line = { ...this.head({ isSidechain: sidechain, ...(agentId ? { agentId } : {}) }), message, ...(requestId ? { requestId } : {}), type: 'assistant', uuid, timestamp: iso(this.t) };
      this.emit(file, line);
      this.parent = uuid;
      if (mirror && final) {
        // 2.1.x mirrors the subagent's reply into the parent transcript: the same ids, a duplicate
        this.emit(this.file, {
          ...mirror.head,
          type: 'progress',
          data: { message: { type: 'assistant', message: { ...message, stop_reason: line.message.stop_reason }, ...(requestId ? { requestId } : {}), isSidechain: true, uuid, timestamp: line.timestamp }, normalizedMessages: [], type: 'agent_progress', prompt: '', agentId },
          toolUseID: `agent_msg_01${r.chars(ALNUM, 22)}`,
          parentToolUseID: mirror.taskId,
          uuid: this.uuid(),
          timestamp: iso(this.t + r.int(1, 30)),
        });
      }
    }
    return tools;
  }

  /** The user line answering a tool call; returns the tokens it adds to the context. */
  toolResult(file, tool, sidechain = false, agentId) {
    const r = this.rng;
    const t = this.text;
    const roll = r.next();
    const len = roll < 0.6 ? r.int(30, 1_500) : roll < 0.87 ? r.int(1_500, 8_000) : roll < 0.99 ? r.int(8_000, 30_000) : r.int(30_000, 120_000);
    const where = `${this.plan.cwd}/src/${r.pick(WORDS)}.ts`;
    let content;
    let result;
    switch (tool.name) {
      case 'Bash':
        content = t.output(len);
        result = { stdout: content, stderr: '', interrupted: false, isImage: false };
        break;
      case 'Read':
        content = t.output(len);
        result = { type: 'text', file: { filePath: where, content, numLines: Math.ceil(len / 42), startLine: 1, totalLines: Math.ceil(len / 42) } };
        break;
      case 'Edit':
      case 'Write':
        content = `The file ${where} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${t.output(r.int(150, 1_800))}`;
        result = { filePath: where, oldString: t.output(r.int(30, 300)), newString: t.output(r.int(30, 400)), originalFile: t.output(len), structuredPatch: [{ oldStart: r.int(1, 300), oldLines: r.int(1, 9), newStart: r.int(1, 300), newLines: r.int(1, 12), lines: [`-${r.pick(WORDS)}`, `+${r.pick(WORDS)}`] }], userModified: false, replaceAll: false };
        break;
      case 'Task': {
        // the subagent's report carries its own usage on a *user* line: a reader must not count it
        content = t.words(r.int(300, 2_500));
        const [read, write, out] = [r.int(2_000, 80_000), r.int(0, 18_000), r.int(200, 5_000)];
        result = { status: 'completed', prompt: t.words(150), agentId: r.chars(HEX, 8), content: [{ type: 'text', text: content }], totalDurationMs: r.int(4_000, 500_000), totalTokens: read + write + out, totalToolUseCount: r.int(1, 25), usage: { input_tokens: r.int(1, 30), cache_creation_input_tokens: write, cache_read_input_tokens: read, cache_creation: { ephemeral_5m_input_tokens: write, ephemeral_1h_input_tokens: 0 }, output_tokens: out, service_tier: 'standard' } };
        break;
      }
      case 'TodoWrite':
        content = 'Todos have been modified successfully.';
        result = { oldTodos: [], newTodos: [{ content: t.words(40), status: 'in_progress', activeForm: t.words(25) }] };
        break;
      default:
        content = t.output(Math.min(len, 4_000));
        result = { mode: 'content', numFiles: r.int(1, 30), filenames: [], content: t.output(120), numLines: r.int(1, 150) };
    }
    const failed = r.chance(0.04);
    this.wait(80, tool.name === 'Bash' ? 80_000 : 2_500);
    const uuid = this.uuid();
    this.emit(file, {
      ...this.head({ isSidechain: sidechain, ...(agentId ? { agentId } : {}) }),
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: tool.id, type: 'tool_result', content, ...(failed ? { is_error: true } : {}) }] },
      uuid,
      timestamp: iso(this.t),
      toolUseResult: failed ? `Error: ${t.words(60)}` : result,
    });
    this.parent = uuid;
    return Math.round(content.length / 3.7) + r.int(15, 100);
  }

  prompt(file, sidechain = false, agentId) {
    const r = this.rng;
    if (sidechain) this.wait(100, 1_500);
    else this.wait(10_000, r.chance(0.1) ? 3 * HOUR : 15 * 60_000);
    const text = this.text.words(r.spread(sidechain ? 600 : 240, 1));
    const uuid = this.uuid();
    this.emit(file, {
      ...this.head({ isSidechain: sidechain, ...(agentId ? { agentId } : {}) }),
      type: 'user',
      message: { role: 'user', content: text },
      uuid,
      timestamp: iso(this.t),
      ...(sidechain ? {} : { thinkingMetadata: { level: 'high', disabled: false, triggers: [] } }),
    });
    this.parent = uuid;
    return Math.round(text.length / 3.7) + 4;
  }

  apiError() {
    const r = this.rng;
    this.wait(500, 20_000);
    const uuid = this.uuid();
    const reason = r.pick(['529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'Request was aborted.', '500 {"type":"error","error":{"type":"api_error","message":"Internal server error"}}']);
    this.emit(this.file, {
      ...this.head(),
      type: 'assistant',
      uuid,
      timestamp: iso(this.t),
      message: { id: this.uuid(), container: null, model: '<synthetic>', role: 'assistant', stop_reason: 'stop_sequence', stop_sequence: '', type: 'message', usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: null, cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 } }, content: [{ type: 'text', text: `API Error: ${reason}` }], context_management: null },
      isApiErrorMessage: true,
    });
    this.parent = uuid;
  }

  subagent(task) {
    const r = this.rng;
    const agentId = r.chars(HEX, 8);
    const model = isClaude(this.model) && r.chance(0.5) ? MODELS.haiku : this.model;
    const saved = { parent: this.parent, context: this.context, calls: this.calls };
    [this.parent, this.context, this.calls] = [null, 0, 0];
    let file = this.file;
    let mirror;
    if (this.t >= V21_FROM) {
      file = new Jsonl(path.join(path.dirname(this.plan.file), this.plan.sid, 'subagents', `agent-${agentId}.jsonl`), r, 0);
      this.subfiles.push(file);
      mirror = { head: { ...this.head(), parentUuid: saved.parent }, taskId: task.id };
    }
    let fresh = this.prompt(file, true, agentId);
    const n = r.int(2, 12);
    for (let i = 0; i < n; i++) {
      const tools = this.reply(file, { model, sidechain: true, agentId, fresh, last: i === n - 1, mirror });
      fresh = 0;
      for (const tool of tools) fresh += this.toolResult(file, tool, true, agentId);
    }
    [this.parent, this.context, this.calls] = [saved.parent, saved.context, saved.calls];
  }

  compactIfFull() {
    if (this.context < (this.plan.longContext ? 800_000 : 160_000)) return;
    const r = this.rng;
    this.wait(15_000, 80_000);
    const uuid = this.uuid();
    this.emit(this.file, { ...this.head({ parentUuid: null }), logicalParentUuid: this.parent, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, timestamp: iso(this.t), uuid, level: 'info', compactMetadata: { trigger: 'auto', preTokens: this.context } });
    this.parent = uuid;
    this.wait(10, 400);
    const summary = this.uuid();
    this.emit(this.file, { ...this.head(), type: 'user', message: { role: 'user', content: `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${this.text.words(r.int(2_000, 10_000))}` }, isVisibleInTranscriptOnly: true, isCompactSummary: true, uuid: summary, timestamp: iso(this.t) });
    this.parent = summary;
    [this.context, this.calls] = [0, 0];
  }

  turn() {
    const r = this.rng;
    if (r.chance(0.5)) this.emit(this.file, { type: 'file-history-snapshot', messageId: this.uuid(), snapshot: { messageId: this.uuid(), trackedFileBackups: {}, timestamp: iso(this.t) }, isSnapshotUpdate: false });
    let fresh = this.prompt(this.file);
    if (isClaude(this.model) && r.chance(0.03)) this.model = r.pick([MODELS.sonnet, MODELS.sonnet, MODELS.opus, MODELS.haiku]);
    const calls = Math.min(50, 1 + Math.floor(r.spread(5, 0.9)));
    for (let i = 0; i < calls; i++) {
      if (r.chance(0.01)) this.apiError();
      const tools = this.reply(this.file, { model: this.model, fresh, last: i === calls - 1 });
      fresh = 0;
      for (const tool of tools) {
        if (tool.name === 'Task') this.subagent(tool);
        fresh += this.toolResult(this.file, tool);
      }
      this.compactIfFull();
      if (this.size >= this.plan.target) break; // the user stopped mid-turn
    }
  }

  get size() {
    let n = this.file.size;
    for (const f of this.subfiles) n += f.size;
    return n;
  }

  run() {
    const r = this.rng;
    const from = this.plan.resumeFrom;
    if (from) {
      // `claude --resume`: a summary, then the earlier transcript replayed under the new sessionId
      this.emit(this.file, { type: 'summary', summary: this.text.words(r.int(20, 60)), leafUuid: from.leaf });
      const before = `"sessionId":"${from.sid}"`;
      const after = `"sessionId":"${this.plan.sid}"`;
      for (const line of from.lines) this.file.write(line.split(before).join(after));
      [this.parent, this.context, this.calls, this.model] = [from.leaf, from.context, 1, from.model];
      this.t = Math.max(this.t, from.endMs + r.int(60_000, 6 * HOUR));
    } else if (r.chance(0.15)) {
      this.emit(this.file, { type: 'summary', summary: this.text.words(r.int(20, 60)), leafUuid: this.uuid() });
    }
    do this.turn(); while (this.size < this.plan.target); // a resumed session adds at least one turn
    this.file.close(this.g.badRate > 0 && r.chance(0.05));
    for (const f of this.subfiles) f.close(false);
    const files = [this.file, ...this.subfiles];
    return {
      resumable: this.kept ? { sid: this.plan.sid, lines: this.kept, leaf: this.parent, context: this.context, endMs: this.t, model: this.model } : null,
      bytes: files.reduce((n, f) => n + f.bytes, 0),
      lines: files.reduce((n, f) => n + f.lines, 0),
      files: files.length,
    };
  }
}

// ------------------------------------------------------------------ the corpus

/**
 * Writes a corpus and returns its manifest (also written to `<out>/gen-manifest.json`).
 * @param {import('./gen-usage.d.mts').GenUsageOptions} options
 */
export function generateUsage(options) {
  if (!options?.out) throw new Error('gen-usage: --out DIR is required');
  const o = { bytes: '10MB', seed: 1, instances: 2, instanceShare: 0.2, start: '2025-11-01', days: 90, badRate: 0.002, noReqRate: 0, ...options };
  const total = parseSize(o.bytes);
  const startMs = Date.parse(`${o.start}T00:00:00Z`);
  if (!Number.isFinite(startMs)) throw new Error(`gen-usage: bad --start "${o.start}" (use YYYY-MM-DD)`);
  if (!(o.days >= 1)) throw new Error('gen-usage: --days must be at least 1');
  const rng = new Rng(o.seed);
  const text = new Text(rng);
  const projectCount = o.projects ?? Math.max(4, Math.min(20, Math.round(4 + Math.log2(Math.max(1, total / MiB)))));
  const perProject = o.sessions ?? Math.max(3, Math.round(total / (projectCount * 1.5 * MiB)));
  const instances = INSTANCE_NAMES.slice(0, Math.max(0, Math.min(INSTANCE_NAMES.length, o.instances | 0)));

  const projects = Array.from({ length: projectCount }, (_, i) => {
    const name = PROJECT_NAMES[i % PROJECT_NAMES.length] + (i >= PROJECT_NAMES.length ? `-${Math.floor(i / PROJECT_NAMES.length) + 1}` : '');
    const cwd = rng.chance(0.15) ? `/home/dev/code/${name}/.worktrees/${rng.pick(WORDS)}-${rng.pick(WORDS)}` : `/home/dev/code/${name}`;
    return { cwd, folder: cwd.replace(/[^A-Za-z0-9]/g, '-'), zone: rng.pick(ZONES), weight: rng.spread(1, 0.7), last: new Map() };
  });

  const plans = [];
  for (const [p, project] of projects.entries()) {
    for (let s = 0; s < perProject; s++) {
      const localHour = rng.weighted([[8, 4], [9, 8], [10, 10], [11, 10], [12, 5], [13, 8], [14, 10], [15, 10], [16, 9], [17, 6], [19, 3], [21, 4], [22, 3], [23, 2], [1, 1]]);
      plans.push({
        p,
        weight: Math.min(rng.spread(1, 1.1), 12) * project.weight,
        home: instances.length > 0 && rng.chance(o.instanceShare) ? rng.pick(instances) : null,
        startMs: startMs + rng.int(0, o.days - 1) * DAY + Math.round((localHour - project.zone) * HOUR) + rng.int(0, HOUR - 1),
        model: rng.weighted(SESSION_MODELS),
      });
    }
  }
  // every model at least once, however small the corpus
  const step = Math.floor(plans.length / SESSION_MODELS.length);
  if (step > 0) SESSION_MODELS.forEach(([model], i) => Object.assign(plans[i * step], { model, fresh: true }));
  plans.sort((a, b) => a.startMs - b.startMs || a.p - b.p);

  const g = { rng, text, badRate: o.badRate, noReqRate: o.noReqRate };
  let weightLeft = plans.reduce((n, pl) => n + pl.weight, 0);
  const totals = { bytes: 0, files: 0, lines: 0, sessions: plans.length };
  for (const plan of plans) {
    const project = projects[plan.p];
    // each session gets its weight's share of what is left, so overshoot corrects itself
    plan.target = Math.max(4096, ((total - totals.bytes) * plan.weight) / weightLeft);
    weightLeft -= plan.weight;
    plan.sid = uuid(rng);
    plan.cwd = project.cwd;
    plan.branch = rng.pick(['main', 'main', 'main', 'develop', `feat/${rng.pick(WORDS)}`, `fix/${rng.pick(WORDS)}-${rng.pick(WORDS)}`]);
    plan.hourCache = isClaude(plan.model) && rng.chance(0.2);
    plan.longContext = plan.model === MODELS.sonnet && rng.chance(0.1);
    const root = plan.home ? path.join(o.out, 'instances', plan.home) : o.out;
    plan.file = path.join(root, 'projects', project.folder, `${plan.sid}.jsonl`);
    const previous = project.last.get(plan.home ?? '');
    if (previous && !plan.fresh && rng.chance(0.12)) plan.resumeFrom = previous;
    const done = new Session(g, plan).run();
    project.last.set(plan.home ?? '', done.resumable);
    totals.bytes += done.bytes;
    totals.files += done.files;
    totals.lines += done.lines;
  }

  const claudeConfigDirs = ['.', ...instances.map((n) => `instances/${n}`)];
  const manifest = {
    generator: 'scripts/gen-usage.mjs',
    version: 1,
    args: { bytes: o.bytes, seed: o.seed, projects: projectCount, sessionsPerProject: perProject, instances: instances.length, instanceShare: o.instanceShare, start: o.start, days: o.days, badRate: o.badRate, noReqRate: o.noReqRate },
    totals,
    claudeConfigDirs,
    note: 'for ccusage, CLAUDE_CONFIG_DIR is the comma-joined <out>/<entry> of claudeConfigDirs',
  };
  fs.mkdirSync(o.out, { recursive: true });
  fs.writeFileSync(path.join(o.out, 'gen-manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
    if (options.help) {
      const src = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
      const end = src.findIndex((l, i) => i > 0 && !l.startsWith('//'));
      process.stdout.write(`${src.slice(1, end).map((l) => l.replace(/^\/\/ ?/, '')).join('\n')}\n`);
      return;
    }
    const t0 = performance.now();
    const m = generateUsage(options);
    if (!options.quiet) {
      process.stderr.write(`gen-usage: ${m.totals.files} files, ${m.totals.sessions} sessions, ${m.totals.lines} lines, ${(m.totals.bytes / MiB).toFixed(1)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
      process.stdout.write(`${m.claudeConfigDirs.map((d) => path.resolve(options.out, d)).join(',')}\n`);
    }
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
