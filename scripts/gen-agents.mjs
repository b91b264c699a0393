#!/usr/bin/env node
// Seeded generator of other coding agents' usage logs (issue 32), beside gen-usage.mjs (Claude
// Code). Plain Node, no dependencies: the same options give byte-identical files. Used by the
// ccusage cross-check (test/main/services/usage/cross-check-agents.test.ts) and the bench.
//
//   node scripts/gen-agents.mjs --out DIR [--seed 1] [--start 2026-01-01] [--days 12]
//     [--sessions 6] [--turns 30] [--agents codex,gemini,…] [--quiet]
// --agents writes only those agents (the speed bench's tier-1 corpus); without it, every agent.
//
// Layout written under DIR (each agent's override variable points at its folder):
//   codex/home/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl   CODEX_HOME=codex/home,codex/exec
//   codex/home/archived_sessions/…                             a copy of a live session (counted once) and an archived-only one
//   codex/home/config.toml                                     service_tier = "priority" (the fast tier)
//   codex/exec/exec-<n>.jsonl                                  `codex exec --json` output (headless lines)
//   gemini/<hash>/chats/session-<n>.json and .jsonl            GEMINI_DATA_DIR=gemini
//   opencode/a|b/storage/message/<session>/msg_<id>.json       OPENCODE_DATA_DIR=opencode/a,opencode/b (b repeats some of a)
//   amp/threads/T-<id>.json                                    AMP_DATA_DIR=amp (current schema and the usage ledger)
//   qwen/projects/<project>/chats/<session>.jsonl              QWEN_DATA_DIR=qwen
//   pi/<project>/<session>.jsonl                               PI_AGENT_DIR=pi
//   openclaw/agents/main/sessions/<id>.jsonl[.deleted.<ts>]    OPENCLAW_DIR=openclaw
//   droid/<project>/<session>.settings.json                    DROID_SESSIONS_DIR=droid (session totals)
//   kilo/kilo.db                                               KILO_DATA_DIR=kilo (SQLite, written with the sqlite3 tool)
//
// What each agent's files hold, and why (a reader must get every one right):
// - codex: cumulative totals with per-turn usage; re-emitted identical events (count once); events
//   with only the total (its growth counts); rate-limit events with info null; per-turn events
//   without totals; forked sub-agent files (thread_spawn) replaying the parent's events at their
//   creation second; models switching by turn_context, none at all (priced as gpt-5);
// - gemini: input including cached (reduced when the total says so), tool and thought tokens, a
//   total above the parts, Gemini 2.5 Pro requests above 200k (long-context price), JSONL lines
//   replacing an earlier message with the same id;
// - opencode: reasoning tokens, a recorded cost (used when > 0), cache reads and writes, a model
//   nobody prices, the same message in two roots (counted once);
// - amp: assistant message usage, and an older thread whose usage ledger takes precedence.
// - kilo: OpenCode-shaped messages in a SQLite `message` table, a recorded cost (0 included) used
//   as is, sessions only in the session_id column, a damaged data cell, more rows than one page.
// Times spread over the day, many near midnight UTC, so a zone moves requests between days.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const DAY = 86_400_000;
const MIN = 60_000;

function parseArgs(argv) {
  const o = { out: null, seed: 1, start: '2026-01-01', days: 12, sessions: 6, turns: 30, quiet: false, agents: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--out') o.out = next();
    else if (a === '--seed') o.seed = Number(next());
    else if (a === '--start') o.start = next();
    else if (a === '--days') o.days = Number(next());
    else if (a === '--sessions') o.sessions = Number(next());
    else if (a === '--turns') o.turns = Number(next());
    else if (a === '--quiet') o.quiet = true;
    else if (a === '--agents') o.agents = next().split(',');
    else if (a === '--help') {
      console.log('node scripts/gen-agents.mjs --out DIR [--seed 1] [--start 2026-01-01] [--days 12] [--sessions 6] [--turns 30] [--agents codex,gemini,…] [--quiet]');
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!o.out) throw new Error('--out DIR is required');
  return o;
}

/** mulberry32: small, seeded, good enough for test data. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    id: (n = 12) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(next() * 16)]).join(''),
  };
}

const iso = (ms) => new Date(ms).toISOString();
const line = (o) => JSON.stringify(o);

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** A session start: a random day, a third of them in the hour before midnight UTC. */
function sessionStart(r, o) {
  const day = Date.parse(`${o.start}T00:00:00Z`) + r.int(0, o.days - 1) * DAY;
  const minute = r.chance(0.35) ? 23 * 60 + r.int(0, 50) : r.int(0, 22 * 60);
  return day + minute * MIN + r.int(0, 59_999);
}

// ---------------------------------------------------------------- codex

const CODEX_MODELS = ['gpt-5-codex', 'gpt-5', 'gpt-5.1-codex', 'gpt-5.2-codex', 'gpt-5.4', 'gpt-5.5', 'gpt-5-mini'];

function tokenCount(ts, total, last) {
  const info = total === null && last === null ? null : { ...(total ? { total_token_usage: total } : {}), ...(last ? { last_token_usage: last } : {}) };
  return { timestamp: iso(ts), type: 'event_msg', payload: { type: 'token_count', info, ...(info === null ? { rate_limits: { primary: { used_percent: 12 } } } : {}) } };
}

function usage(input, cached, output, reasoning) {
  return { input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output };
}

function add(a, b) {
  return usage(a.input_tokens + b.input_tokens, a.cached_input_tokens + b.cached_input_tokens, a.output_tokens + b.output_tokens, a.reasoning_output_tokens + b.reasoning_output_tokens);
}

/** One rollout: its lines and the token_count events (for a fork to replay). */
function codexSession(r, o, id, start, cwd, withModel) {
  const lines = [line({ timestamp: iso(start), type: 'session_meta', payload: { id, timestamp: iso(start), cwd, originator: 'codex_cli_rs', cli_version: '0.63.0' } })];
  const events = [];
  let t = start + 1000;
  let total = usage(0, 0, 0, 0);
  let model = r.pick(CODEX_MODELS);
  if (withModel) lines.push(line({ timestamp: iso(t), type: 'turn_context', payload: { cwd, model, approval_policy: 'on-request' } }));
  const turns = r.int(Math.ceil(o.turns / 2), o.turns);
  for (let i = 0; i < turns; i++) {
    t += r.int(5, 240) * 1000 + r.int(0, 999);
    if (withModel && r.chance(0.1)) {
      model = r.pick(CODEX_MODELS);
      lines.push(line({ timestamp: iso(t), type: 'turn_context', payload: { cwd, model } }));
    }
    lines.push(line({ timestamp: iso(t), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `step ${i}` }] } }));
    const input = r.int(2_000, 90_000);
    const cached = r.chance(0.7) ? r.int(0, input) : 0;
    const output = r.int(20, 4_000);
    const reasoning = r.int(0, output);
    const last = usage(input, cached, output, reasoning);
    total = add(total, last);
    t += r.int(1, 30) * 1000;
    const kind = r.next();
    let ev;
    if (kind < 0.1) ev = tokenCount(t, total, null); // only the cumulative total: its growth counts
    else ev = tokenCount(t, total, last);
    lines.push(line(ev));
    events.push(ev);
    if (r.chance(0.15)) lines.push(line({ ...ev, timestamp: iso(t + r.int(1, 900)) })); // re-emitted: counts once
    if (r.chance(0.1)) lines.push(line(tokenCount(t + 2, null, null))); // rate limits only
  }
  return { lines, events, end: t };
}

function genCodex(r, o, dir) {
  const home = path.join(dir, 'home');
  write(path.join(home, 'config.toml'), 'model = "gpt-5-codex"\nservice_tier = "priority"\n');
  const parents = [];
  for (let s = 0; s < o.sessions; s++) {
    const start = sessionStart(r, o);
    const id = `${r.id(8)}-${r.id(4)}-${r.id(4)}-${r.id(4)}-${r.id(12)}`;
    const d = new Date(start);
    const rel = path.join(String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'), `rollout-${iso(start).slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`);
    const session = codexSession(r, o, id, start, r.pick(['/w/api', '/w/web', '/w/infra']), s % 5 !== 4);
    write(path.join(home, 'sessions', rel), session.lines.join('\n') + '\n');
    if (s === 0) write(path.join(home, 'archived_sessions', rel), session.lines.join('\n') + '\n'); // the live copy counts
    parents.push({ id, session, rel });
  }
  // An archived-only session counts.
  const archived = codexSession(r, o, `arch-${r.id(8)}`, sessionStart(r, o), '/w/old', true);
  write(path.join(home, 'archived_sessions', '2026', '01', '01', 'rollout-archived.jsonl'), archived.lines.join('\n') + '\n');
  // Forks: the parent's events replayed at the creation second, then the sub-agent's own turns.
  for (const parent of parents.slice(0, 2)) {
    const created = parent.session.end + r.int(10, 300) * 1000;
    const second = Math.floor(created / 1000) * 1000;
    const id = `fork-${r.id(8)}`;
    const head = [
      line({ timestamp: iso(second + 5), type: 'session_meta', payload: { id, timestamp: iso(second + 5), cwd: '/w/api', source: { subagent: { thread_spawn: { parent_thread_id: parent.id, depth: 1 } } } } }),
      line({ timestamp: iso(second + 6), type: 'turn_context', payload: { cwd: '/w/api', model: 'gpt-5-codex' } }),
      ...parent.session.events.map((ev, i) => line({ ...ev, timestamp: iso(second + 10 + i) })),
    ];
    let total = parent.session.events.at(-1)?.payload.info.total_token_usage ?? usage(0, 0, 0, 0);
    let t = second + 2000;
    for (let i = 0; i < 4; i++) {
      t += r.int(3, 60) * 1000;
      const last = usage(r.int(1000, 20000), r.int(0, 800), r.int(10, 900), 0);
      total = add(total, last);
      head.push(line(tokenCount(t, total, last)));
    }
    write(path.join(home, 'sessions', '2026', '02', '01', `rollout-${id}.jsonl`), head.join('\n') + '\n');
  }
  // Headless `codex exec --json` output: a home without sessions/ is read as a folder of JSONL.
  for (let n = 0; n < 2; n++) {
    let t = sessionStart(r, o);
    const lines = [line({ type: 'thread.started', thread_id: r.id(8) })];
    for (let i = 0; i < 5; i++) {
      t += r.int(10, 600) * 1000;
      lines.push(line({ type: 'item.completed', item: { type: 'agent_message', text: 'done' } }));
      lines.push(line({ type: 'turn.completed', timestamp: iso(t), usage: { input_tokens: r.int(1000, 30000), cached_input_tokens: r.int(0, 900), output_tokens: r.int(10, 2000) } }));
    }
    write(path.join(dir, 'exec', `exec-${n}.jsonl`), lines.join('\n') + '\n');
  }
}

// ---------------------------------------------------------------- gemini

const GEMINI_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview'];

function geminiMessage(r, id, ts, model) {
  const big = model === 'gemini-2.5-pro' && r.chance(0.15);
  const input = big ? r.int(150_000, 400_000) : r.int(1_000, 60_000);
  const cached = r.chance(0.6) ? r.int(0, input) : 0;
  const output = r.int(10, 3_000);
  const thoughts = r.chance(0.7) ? r.int(0, 2_000) : 0;
  const tool = r.chance(0.2) ? r.int(1, 500) : 0;
  let total = input + output + thoughts + tool;
  if (r.chance(0.08)) total += r.int(1, 300); // a total above the parts
  if (cached > 0 && r.chance(0.08)) total = 0; // no total: input is then taken as logged
  return { id, timestamp: iso(ts), type: 'gemini', content: 'ok', model, tokens: { input, output, cached, thoughts, tool, total } };
}

function genGemini(r, o, dir) {
  for (let s = 0; s < o.sessions; s++) {
    const hash = r.id(16);
    const sessionId = `${r.id(8)}-${r.id(4)}`;
    let t = sessionStart(r, o);
    const messages = [];
    const model = r.pick(GEMINI_MODELS);
    for (let i = 0; i < r.int(3, o.turns); i++) {
      t += r.int(5, 400) * 1000;
      messages.push({ id: `u${i}`, timestamp: iso(t), type: 'user', content: 'hi' });
      t += r.int(1, 60) * 1000;
      messages.push(geminiMessage(r, `m${i}`, t, r.chance(0.85) ? model : r.pick(GEMINI_MODELS)));
    }
    const doc = { sessionId, projectHash: hash, startTime: messages[0]?.timestamp, lastUpdated: iso(t), messages };
    write(path.join(dir, hash, 'chats', `session-${s}.json`), JSON.stringify(doc, null, 2));
  }
  // JSONL form: a later line with the same id replaces the earlier one.
  const lines = [line({ sessionId: 'jsonl-session', projectHash: 'p', startTime: iso(sessionStart(r, o)) })];
  let t = sessionStart(r, o);
  for (let i = 0; i < 6; i++) {
    t += r.int(30, 900) * 1000;
    const m = geminiMessage(r, `j${i}`, t, 'gemini-2.5-flash');
    lines.push(line({ ...m, tokens: { ...m.tokens, output: 1, total: m.tokens.input + 1 + m.tokens.thoughts + m.tokens.tool } }));
    lines.push(line(m));
  }
  write(path.join(dir, 'p', 'chats', 'session-live.jsonl'), lines.join('\n') + '\n');
}

// ---------------------------------------------------------------- opencode

const OPENCODE_MODELS = [
  ['anthropic', 'claude-sonnet-4-5'],
  ['openai', 'gpt-5'],
  ['google', 'gemini-2.5-pro'],
  ['anthropic', 'claude-haiku-4-5'],
  ['local', 'mystery-coder-7b'],
];

function genOpencode(r, o, dir) {
  const copies = [];
  for (let s = 0; s < o.sessions; s++) {
    const session = `ses_${r.id(10)}`;
    let t = sessionStart(r, o);
    const [providerID, modelID] = r.pick(OPENCODE_MODELS);
    for (let i = 0; i < r.int(3, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      const id = `msg_${r.id(14)}`;
      const input = r.int(10, 8_000);
      const output = r.int(0, 3_000);
      const reasoning = r.chance(0.4) ? r.int(1, 1_500) : 0;
      const read = r.chance(0.7) ? r.int(0, 50_000) : 0;
      const write_ = r.chance(0.3) ? r.int(0, 10_000) : 0;
      const tokens = { input, output, reasoning, cache: { read, write: write_ } };
      if (r.chance(0.2)) tokens.total = input + output + reasoning + read + write_ + (r.chance(0.5) ? r.int(1, 200) : 0);
      const cost = r.chance(0.25) ? Math.round(r.next() * 1e6) / 1e7 : 0;
      const msg = { id, sessionID: session, role: 'assistant', modelID, providerID, cost, time: { created: t, completed: t + 900 }, tokens, path: { cwd: '/w/oc', root: '/w/oc' } };
      const file = path.join('storage', 'message', session, `${id}.json`);
      write(path.join(dir, 'a', file), JSON.stringify(msg, null, 2));
      if (r.chance(0.15)) copies.push([file, msg]);
    }
    // A user message: no tokens, does not count.
    write(path.join(dir, 'a', 'storage', 'message', session, `msg_user${s}.json`), JSON.stringify({ id: `msg_user${s}`, sessionID: session, role: 'user', time: { created: t } }));
  }
  for (const [file, msg] of copies) write(path.join(dir, 'b', file), JSON.stringify(msg));
}

// ---------------------------------------------------------------- kilo

const sqlText = (v) => `'${String(v).replaceAll("'", "''")}'`;

/** Kilo's `kilo.db`: rows go in through the sqlite3 tool (the reader's own tool), one transaction. */
function genKilo(r, o, dir) {
  const rows = [];
  for (let s = 0; s < o.sessions; s++) {
    const session = `ses_${r.id(10)}`;
    let t = sessionStart(r, o);
    const [providerID, modelID] = r.pick(OPENCODE_MODELS.slice(0, 4));
    // Enough turns that the store spans several of the reader's 2,000-row pages.
    const turns = r.int(3, o.turns) * 30;
    for (let i = 0; i < turns; i++) {
      t += r.int(1, 20) * 1000;
      const id = `msg_${r.id(14)}`;
      const input = r.int(10, 8_000);
      const output = r.int(0, 3_000);
      const reasoning = r.chance(0.4) ? r.int(1, 1_500) : 0;
      const read = r.chance(0.7) ? r.int(0, 50_000) : 0;
      const write_ = r.chance(0.3) ? r.int(0, 10_000) : 0;
      const tokens = { input, output, reasoning, cache: { read, write: write_ } };
      if (r.chance(0.2)) tokens.total = input + output + reasoning + read + write_ + (r.chance(0.5) ? r.int(1, 200) : 0);
      const msg = { id, role: 'assistant', modelID, providerID, time: { created: t }, tokens };
      if (r.chance(0.5)) msg.sessionID = session;
      if (r.chance(0.8)) msg.cost = r.chance(0.5) ? Math.round(r.next() * 1e6) / 1e7 : 0;
      rows.push([id, session, JSON.stringify(msg)]);
    }
  }
  rows.push(['msg_broken', 'ses_broken', '{"id": "msg_broken", "tokens": {']);
  const sql = ['PRAGMA journal_mode=WAL;', 'CREATE TABLE message(id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL);', 'BEGIN;'];
  for (const row of rows) sql.push(`INSERT INTO message VALUES(${row.map(sqlText).join(',')});`);
  sql.push('COMMIT;');
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(path.join(dir, 'kilo.db'), { force: true });
  execFileSync('sqlite3', [path.join(dir, 'kilo.db')], { input: sql.join('\n'), stdio: ['pipe', 'ignore', 'inherit'] });
}

// ---------------------------------------------------------------- amp

const AMP_MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'gpt-5', 'claude-haiku-4-5-20251001'];

function genAmp(r, o, dir) {
  for (let s = 0; s < o.sessions; s++) {
    const id = `T-${r.id(8)}-${r.id(4)}`;
    let t = sessionStart(r, o);
    const messages = [];
    const ledger = s % 3 === 2;
    const events = [];
    for (let i = 0; i < r.int(2, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      messages.push({ role: 'user', messageId: i * 2, content: [{ type: 'text', text: 'go' }] });
      const model = r.pick(AMP_MODELS);
      const u = {
        model,
        timestamp: iso(t),
        inputTokens: r.int(1, 5_000),
        outputTokens: r.int(1, 2_000),
        cacheCreationInputTokens: r.int(0, 20_000),
        cacheReadInputTokens: r.int(0, 80_000),
        credits: Math.round(r.next() * 100) / 10,
      };
      u.totalTokens = u.inputTokens + u.outputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens + (r.chance(0.1) ? r.int(1, 100) : 0);
      messages.push({ role: 'assistant', messageId: i * 2 + 1, content: [{ type: 'text', text: 'ok' }], usage: u });
      if (ledger) events.push({ id: `e${i}`, timestamp: iso(t + 50), model, credits: u.credits, tokens: { input: u.inputTokens, output: u.outputTokens, total: u.inputTokens + u.outputTokens }, operationType: 'inference', fromMessageId: i * 2, toMessageId: i * 2 + 1 });
    }
    const thread = { v: 1, id, created: t, title: 'work', messages, ...(ledger ? { usageLedger: { events } } : {}) };
    write(path.join(dir, 'threads', `${id}.json`), JSON.stringify(thread, null, 2));
  }
}

// ---------------------------------------------------------------- qwen, pi, openclaw

function genQwen(r, o, dir) {
  for (let s = 0; s < o.sessions; s++) {
    const project = `-w-q${s}`;
    const sessionId = `${r.id(8)}-${r.id(4)}`;
    let t = sessionStart(r, o);
    const model = r.pick(['qwen3-coder-plus', 'qwen3-coder', 'qwen3-max']);
    const lines = [];
    for (let i = 0; i < r.int(2, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      lines.push(line({ uuid: `u${s}-${i}`, sessionId, timestamp: iso(t), type: 'user', cwd: '/w/q', message: { role: 'user', parts: [{ text: 'go' }] } }));
      t += r.int(1, 40) * 1000;
      const prompt = r.int(500, 40_000);
      const cached = r.chance(0.5) ? r.int(0, prompt) : 0;
      const candidates = r.int(0, 2_000);
      const thoughts = r.chance(0.4) ? r.int(1, 800) : 0;
      const usageMetadata = { promptTokenCount: prompt, candidatesTokenCount: candidates, ...(cached ? { cachedContentTokenCount: cached } : {}), ...(thoughts ? { thoughtsTokenCount: thoughts } : {}), totalTokenCount: prompt + candidates + thoughts + (r.chance(0.1) ? r.int(1, 99) : 0) };
      const a = { uuid: `a${s}-${i}`, sessionId, timestamp: iso(t), type: 'assistant', cwd: '/w/q', ...(r.chance(0.9) ? { model } : {}), message: { role: 'model', parts: [{ text: 'ok' }] }, usageMetadata };
      lines.push(line(a));
      if (r.chance(0.1)) lines.push(line({ ...a, uuid: `dup${s}-${i}` })); // the same usage at the same instant: once
    }
    write(path.join(dir, 'projects', project, 'chats', `${sessionId}.jsonl`), lines.join('\n') + '\n');
  }
}

/** pi-agent and OpenClaw session lines; OpenClaw also keeps an archived `.deleted.<ts>` copy. */
function genPiStyle(r, o, dir, agent) {
  for (let s = 0; s < o.sessions; s++) {
    const id = `${agent}-${r.id(8)}`;
    let t = sessionStart(r, o);
    let model = r.pick(['claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-flash', 'claude-haiku-4-5']);
    const lines = [line({ type: 'session', id, timestamp: iso(t), cwd: `/w/${agent}` }), line({ type: 'model_change', timestamp: iso(t), provider: 'x', modelId: model })];
    for (let i = 0; i < r.int(2, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      if (r.chance(0.1)) {
        model = r.pick(['claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-flash']);
        lines.push(line({ type: 'model_change', timestamp: iso(t), modelId: model }));
      }
      const usage = { input: r.int(10, 30_000), output: r.int(0, 2_000), cacheRead: r.chance(0.6) ? r.int(0, 60_000) : 0, cacheWrite: r.chance(0.3) ? r.int(0, 8_000) : 0 };
      usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite + (r.chance(0.1) ? r.int(1, 99) : 0);
      const costKind = r.next();
      if (costKind < 0.4) usage.cost = { total: Math.round(r.next() * 1e6) / 1e7 };
      else if (costKind < 0.5) usage.cost = { total: 0 };
      const message = { role: 'assistant', ...(agent === 'pi' && r.chance(0.9) ? { model } : {}), usage };
      lines.push(line({ type: 'message', id: `m${s}-${i}`, timestamp: iso(t), message }));
      if (r.chance(0.08)) lines.push(line({ type: 'message', id: `m${s}-${i}`, timestamp: iso(t), message }));
    }
    const file = agent === 'pi' ? path.join(dir, `--w-${s}--`, `${id}.jsonl`) : path.join(dir, 'agents', 'main', 'sessions', `${id}.jsonl`);
    write(file, lines.join('\n') + '\n');
    if (agent === 'openclaw' && s % 3 === 0) write(`${file}.deleted.2026-02-01T00-00-00Z`, lines.slice(0, Math.ceil(lines.length / 2)).join('\n') + '\n');
  }
}

/** Droid: one settings file per session with the session's totals, model names as Droid writes them. */
function genDroid(r, o, dir) {
  const models = ['custom:Claude-Sonnet-4.5-[Anthropic]', 'gpt-5.1-codex', 'claude-opus-4-5-20251101', 'gemini-2.5-pro', null];
  for (let s = 0; s < o.sessions; s++) {
    const tokenUsage = { inputTokens: r.int(100, 90_000), outputTokens: r.chance(0.1) ? 0 : r.int(10, 9_000), cacheCreationTokens: r.int(0, 20_000), cacheReadTokens: r.int(0, 300_000), thinkingTokens: r.chance(0.5) ? r.int(1, 3_000) : 0 };
    tokenUsage.totalTokens = Object.values(tokenUsage).reduce((a, b) => a + b, 0) + (r.chance(0.2) ? r.int(1, 500) : 0);
    const model = r.pick(models);
    const doc = { ...(model ? { model } : {}), providerLock: 'x', providerLockTimestamp: iso(sessionStart(r, o)), tokenUsage };
    write(path.join(dir, `-w-d${s % 3}`, `${r.id(8)}-${r.id(4)}.settings.json`), JSON.stringify(doc, null, 2));
  }
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const r = rng(o.seed);
  const on = (agent) => o.agents === null || o.agents.includes(agent);
  if (on('codex')) genCodex(r, o, path.join(o.out, 'codex'));
  if (on('gemini')) genGemini(r, o, path.join(o.out, 'gemini'));
  if (on('opencode')) genOpencode(r, o, path.join(o.out, 'opencode'));
  if (on('amp')) genAmp(r, o, path.join(o.out, 'amp'));
  if (on('qwen')) genQwen(r, o, path.join(o.out, 'qwen'));
  if (on('pi')) genPiStyle(r, o, path.join(o.out, 'pi'), 'pi');
  if (on('openclaw')) genPiStyle(r, o, path.join(o.out, 'openclaw'), 'openclaw');
  if (on('droid')) genDroid(r, o, path.join(o.out, 'droid'));
  if (on('kilo')) genKilo(r, o, path.join(o.out, 'kilo'));
  const env = {
    CODEX_HOME: [path.join(o.out, 'codex', 'home'), path.join(o.out, 'codex', 'exec')].join(','),
    GEMINI_DATA_DIR: path.join(o.out, 'gemini'),
    OPENCODE_DATA_DIR: [path.join(o.out, 'opencode', 'a'), path.join(o.out, 'opencode', 'b')].join(','),
    AMP_DATA_DIR: path.join(o.out, 'amp'),
    QWEN_DATA_DIR: path.join(o.out, 'qwen'),
    PI_AGENT_DIR: path.join(o.out, 'pi'),
    OPENCLAW_DIR: path.join(o.out, 'openclaw'),
    DROID_SESSIONS_DIR: path.join(o.out, 'droid'),
    KILO_DATA_DIR: path.join(o.out, 'kilo'),
  };
  // Only the agents written: a variable left unset would send a tool to its default folder.
  for (const name of Object.keys(env)) if (!on(name.split('_')[0].toLowerCase())) delete env[name];
  write(path.join(o.out, 'gen-agents-manifest.json'), JSON.stringify({ options: o, env }, null, 2));
  if (!o.quiet) console.log(JSON.stringify(env, null, 2));
}

main();
