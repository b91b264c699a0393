#!/usr/bin/env node
// Seeded generator of other coding agents' usage logs (issue 32), beside gen-usage.mjs (Claude
// Code). Plain Node, no dependencies: the same options give byte-identical files. Used by the
// ccusage cross-check (test/main/services/usage/cross-check-agents.test.ts) and the bench.
//
//   node scripts/gen-agents.mjs --out DIR [--seed 1] [--start 2026-01-01] [--days 12]
//     [--sessions 6] [--turns 30] [--agents codex,gemini,…] [--opencode-v2] [--quiet]
// --agents writes only those agents (the speed bench's tier-1 corpus); without it, every agent.
// --opencode-v2 adds OpenCode 2's layout (below); without it the files are as they were before it.
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
//   kimi/cli/sessions/<group>/<session>/wire.jsonl             KIMI_DATA_DIR=kimi/cli,kimi/code (Kimi CLI; config.json names the model)
//   kimi/code/sessions/<ws>/<session>/agents/<a>/wire.jsonl    (Kimi Code usage.record lines; no config.json)
//   codebuff/manicode[-dev]/projects/<p>/chats/<chat>/chat-messages.json   CODEBUFF_DATA_DIR=both channels
//   copilot/home/session-state/<id>/events.jsonl, otel/**.jsonl  COPILOT_HOME=copilot/home
//   copilot/export/copilot-otel.jsonl                          COPILOT_OTEL_FILE_EXPORTER_PATH (read besides)
//   opencode/a/opencode.db, opencode/b/opencode-beta.db|-zeta.db  OpenCode's database beside its files (SQLite)
//   goose/data/sessions/sessions.db                            GOOSE_PATH_ROOT=goose (SQLite, session totals)
//   hermes/h1|h2/state.db                                      HERMES_HOME=hermes/h1,hermes/h2 (SQLite, session totals)
// With --opencode-v2 (OpenCode 2's tables, docs/usage.md "OpenCode 2"):
//   opencode/a/opencode.db gains session_v2 + session_message     (a 1.x store OpenCode 2 has opened: both layouts)
//   opencode/c/opencode.db                                      a fresh OpenCode 2 store (no message table); OPENCODE_DATA_DIR adds opencode/c
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
// - opencode 2 (--opencode-v2): assistant rows among user, model-switched and synthetic ones; the
//   model as {id, providerID, variant}, sometimes the older modelID/providerID or a model without a
//   provider (not counted); rows repeating a message of the older table or of the file storage with
//   other counts (the older table's copy counts; the row beats a file); a row without time.created
//   (its time_created column counts); a damaged data; session totals in session_v2 (not counted).
// - kilo: OpenCode-shaped messages in a SQLite `message` table, a recorded cost (0 included) used
//   as is, sessions only in the session_id column, a damaged data cell, more rows than one page.
// - kimi: StatusUpdate lines (message ids, re-emitted identical lines counted once, a total above
//   the parts, string and fractional counts, a missing timestamp), Kimi Code usage.record lines
//   (turn and session scope, the kimi-code/ prefix) around 2026-04-20T15:28:10.072Z, where
//   kimi-for-coding's price moves from K2.5 to K2.6, and damaged lines.
// - codebuff: metadata usage in camelCase, snake_case and OpenAI names, codebuff.usage filling
//   gaps, run-state provider usage, a message id re-written (the later copy counts), times from the
//   message, createdAt in epoch seconds or the chat folder's name, credits-only messages, no model.
// - copilot: session-state shutdown snapshots (cumulative, resumed sessions, -1m model ids), OTel
//   chat spans beside inference logs and invoke_agent summaries of the same trace, agent-turn logs
//   taking their model from the trace, totals above the parts, OTel rows of a pair session-state
//   holds (before and after its last shutdown), and an exporter file outside COPILOT_HOME.
// Times spread over the day, many near midnight UTC, so a zone moves requests between days.
// The newer agents draw from their own seeded generators, so adding one leaves the others' files as they were.
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
    else if (a === '--opencode-v2') o.opencodeV2 = true;
    else if (a === '--agents') o.agents = next().split(',');
    else if (a === '--help') {
      console.log('node scripts/gen-agents.mjs --out DIR [--seed 1] [--start 2026-01-01] [--days 12] [--sessions 6] [--turns 30] [--agents codex,gemini,…] [--opencode-v2] [--quiet]');
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
  const written = [];
  for (let s = 0; s < o.sessions; s++) {
    const session = `ses_${r.id(10)}`;
    let t = sessionStart(r, o);
    const [providerID, modelID] = r.pick(OPENCODE_MODELS);
    for (let i = 0; i < r.int(3, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      const id = `msg_${r.id(14)}`;
      const tokens = opencodeTokens(r);
      const cost = r.chance(0.25) ? Math.round(r.next() * 1e6) / 1e7 : 0;
      const msg = { id, sessionID: session, role: 'assistant', modelID, providerID, cost, time: { created: t, completed: t + 900 }, tokens, path: { cwd: '/w/oc', root: '/w/oc' } };
      const file = path.join('storage', 'message', session, `${id}.json`);
      write(path.join(dir, 'a', file), JSON.stringify(msg, null, 2));
      written.push(msg);
      if (r.chance(0.15)) copies.push([file, msg]);
    }
    // A user message: no tokens, does not count.
    write(path.join(dir, 'a', 'storage', 'message', session, `msg_user${s}.json`), JSON.stringify({ id: `msg_user${s}`, sessionID: session, role: 'user', time: { created: t } }));
  }
  for (const [file, msg] of copies) write(path.join(dir, 'b', file), JSON.stringify(msg));
  return written;
}

/** One OpenCode-shaped `tokens` object (files and Kilo's rows alike): reasoning, cache, and sometimes a total above the parts. */
function opencodeTokens(r) {
  const input = r.int(10, 8_000);
  const output = r.int(0, 3_000);
  const reasoning = r.chance(0.4) ? r.int(1, 1_500) : 0;
  const read = r.chance(0.7) ? r.int(0, 50_000) : 0;
  const write_ = r.chance(0.3) ? r.int(0, 10_000) : 0;
  const tokens = { input, output, reasoning, cache: { read, write: write_ } };
  if (r.chance(0.2)) tokens.total = input + output + reasoning + read + write_ + (r.chance(0.5) ? r.int(1, 200) : 0);
  return tokens;
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
      const tokens = opencodeTokens(r);
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

// ---------------------------------------------------------------- opencode.db, goose, hermes

const sqlValue = (v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : sqlText(v));

/** A store written with the sqlite3 tool in one transaction (`journal` WAL or the default rollback journal). */
function writeStore(file, schema, table, rows, journal) {
  const sql = [...(journal === 'wal' ? ['PRAGMA journal_mode=WAL;'] : []), schema, 'BEGIN;'];
  for (const row of rows) sql.push(`INSERT INTO ${table} VALUES(${row.map(sqlValue).join(',')});`);
  sql.push('COMMIT;');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true });
  execFileSync('sqlite3', [file], { input: sql.join('\n'), stdio: ['pipe', 'ignore', 'inherit'] });
}

/**
 * OpenCode's database in root a (WAL, as OpenCode keeps it): its own messages, some of the file
 * storage's messages again with other counts (the database's row is the one that counts), rows
 * whose `data` names another id and session than the row's columns (the columns win), a damaged
 * `data`, a message without tokens. Root b gets a channel database (`opencode-beta.db`, read
 * because b has no `opencode.db`) and an `opencode-zeta.db` that is not read (only the first by name).
 */
function genOpencodeDb(r, o, dir, fileMessages) {
  const rows = [];
  const message = (id, session, t, model) => {
    const [providerID, modelID] = model;
    const tokens = { input: r.int(10, 9_000), output: r.int(0, 3_000), reasoning: r.chance(0.4) ? r.int(1, 1_500) : 0, cache: { read: r.chance(0.7) ? r.int(0, 60_000) : 0, write: r.chance(0.3) ? r.int(0, 10_000) : 0 } };
    if (r.chance(0.2)) tokens.total = tokens.input + tokens.output + tokens.reasoning + tokens.cache.read + tokens.cache.write + (r.chance(0.5) ? r.int(1, 200) : 0);
    const data = { role: 'assistant', modelID, providerID, time: { created: t, completed: t + 700 }, tokens, cost: r.chance(0.25) ? Math.round(r.next() * 1e6) / 1e7 : 0 };
    if (r.chance(0.3)) Object.assign(data, { id: `msg_elsewhere_${r.id(6)}`, sessionID: 'ses_named_in_data' });
    return [id, session, t, t + 700, JSON.stringify(data)];
  };
  for (let s = 0; s < o.sessions; s++) {
    const session = `ses_db_${r.id(8)}`;
    const model = r.pick(OPENCODE_MODELS.slice(0, 4));
    let t = sessionStart(r, o);
    for (let i = 0; i < r.int(3, o.turns) * 4; i++) {
      t += r.int(2, 200) * 1000;
      rows.push(message(`msg_${r.id(14)}`, session, t, model));
    }
  }
  // Messages the file storage has too: the database's counts are the ones that count.
  for (const m of fileMessages.filter(() => r.chance(0.2))) rows.push(message(m.id, m.sessionID, m.time.created, [m.providerID, m.modelID]));
  const counted = rows.map(([id, session, t]) => ({ id, session, t }));
  rows.push(['msg_broken_db', 'ses_x', 1, 1, '{"tokens": {']);
  rows.push(['msg_user_db', 'ses_x', 1, 1, JSON.stringify({ role: 'user', time: { created: Date.parse(`${o.start}T12:00:00Z`) } })]);
  const schema = 'CREATE TABLE message(id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);';
  writeStore(path.join(dir, 'a', 'opencode.db'), schema, 'message', rows, 'wal');
  const channel = (n) => {
    const out = [];
    let t = sessionStart(r, o);
    for (let i = 0; i < n; i++) out.push(message(`msg_ch_${r.id(12)}`, 'ses_channel', (t += r.int(5, 300) * 1000), r.pick(OPENCODE_MODELS.slice(0, 4))));
    return out;
  };
  writeStore(path.join(dir, 'b', 'opencode-beta.db'), schema, 'message', channel(o.turns), 'wal');
  writeStore(path.join(dir, 'b', 'opencode-zeta.db'), schema, 'message', channel(5), 'wal');
  return counted;
}

// ---------------------------------------------------------------- opencode 2 (--opencode-v2)

/** OpenCode 2's tables as its migration 20260804233008_loose_psylocke creates them. */
const OPENCODE_V2_SCHEMA = [
  'CREATE TABLE IF NOT EXISTS session_v2 (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, fork_session_id text, fork_boundary text, slug text NOT NULL, directory text NOT NULL, path text, title text, version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text, metadata text, cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer, time_suspended integer);',
  'CREATE TABLE IF NOT EXISTS session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);',
  'CREATE UNIQUE INDEX IF NOT EXISTS session_message_session_seq_idx ON session_message (session_id, seq);',
].join('\n');

/**
 * OpenCode 2's messages: sessions in `session_v2` (with totals, which ccusage does not count) and
 * their messages in `session_message`, an assistant turn's `data` holding model, tokens, cost and
 * time. Root a's database (already holding `message`) gains both tables, with rows that repeat
 * messages of its `message` table and of the file storage; root c is a fresh OpenCode 2 store.
 * Its own seeded generator: the other agents' files stay as they are.
 */
function genOpencodeV2(r, o, dir, counted, fileMessages) {
  const storeA = { sessions: [], messages: [] };
  const storeC = { sessions: [], messages: [] };
  const assistant = (model, t, extra = {}) => {
    const [providerID, id] = model;
    const data = { agent: 'build', model: { id, providerID, ...(r.chance(0.3) ? { variant: 'high' } : {}) }, content: [], finish: 'stop', tokens: opencodeTokens(r), time: { created: t, completed: t + 800 } };
    if (r.chance(0.3)) data.cost = Math.round(r.next() * 1e6) / 1e7;
    else if (r.chance(0.5)) data.cost = 0;
    return { ...data, ...extra };
  };
  const session = (store, directory) => {
    const id = `ses_v2_${r.id(10)}`;
    const model = r.pick(OPENCODE_MODELS);
    let t = sessionStart(r, o);
    const start = t;
    let seq = 0;
    const totals = [0, 0, 0, 0, 0, 0];
    const push = (type, data, at = t) => store.messages.push([`msg_v2_${r.id(14)}`, id, type, seq++, at, at, JSON.stringify(data)]);
    push('user', { text: 'go', time: { created: t } });
    for (let i = 0; i < r.int(3, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      const k = r.next();
      if (k < 0.06) push('model-switched', { model: { id: model[1], providerID: model[0] }, time: { created: t } });
      else if (k < 0.1) push('synthetic', { sessionID: id, text: 'note', time: { created: t } });
      else if (k < 0.14) push('user', { text: 'more', time: { created: t } });
      else {
        const data = assistant(model, t);
        if (r.chance(0.05)) delete data.time.created; // its time_created column counts
        if (r.chance(0.05)) Object.assign(data, { modelID: data.model.id, providerID: data.model.providerID, model: undefined });
        if (r.chance(0.04)) data.model = { id: data.model?.id ?? 'gpt-5' }; // no provider: not counted
        if (r.chance(0.04)) delete data.tokens; // an aborted turn: nothing to count
        push('assistant', data, t + r.int(0, 2) * 1000);
        const tk = data.tokens ?? { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
        [tk.input, tk.output, tk.reasoning, tk.cache.read, tk.cache.write, data.cost ?? 0].forEach((v, n) => (totals[n] += v));
      }
    }
    store.sessions.push([id, 'prj_1', null, null, null, null, id.slice(-6), directory, null, 'A session', '2.0.14', null, null, null, null, null, null,
      totals[5], totals[0], totals[1], totals[2], totals[3], totals[4], null, null, 'build', JSON.stringify({ id: model[1], providerID: model[0] }), start, t, null, null, null]);
    return id;
  };
  for (let s = 0; s < Math.ceil(o.sessions / 2); s++) session(storeA, '/w/oc2');
  for (let s = 0; s < o.sessions; s++) session(storeC, '/w/oc2-fresh');
  // Messages the older table (root a) and the file storage hold too, with other counts.
  const sessionA = storeA.sessions[0][0];
  let seq = 10_000;
  for (const m of counted.filter(() => r.chance(0.15))) storeA.messages.push([m.id, sessionA, 'assistant', seq++, m.t, m.t, JSON.stringify(assistant(r.pick(OPENCODE_MODELS.slice(0, 4)), m.t))]);
  const repeated = new Set(storeA.messages.map((m) => m[0]));
  for (const m of fileMessages.filter((f) => r.chance(0.1) && !repeated.has(f.id))) storeA.messages.push([m.id, sessionA, 'assistant', seq++, m.time.created, m.time.created, JSON.stringify(assistant([m.providerID, m.modelID], m.time.created))]);
  storeA.messages.push(['msg_v2_broken', sessionA, 'assistant', seq++, 1, 1, '{"tokens": {']);
  const write_ = (file, store, fresh) => {
    const sql = [...(fresh ? ['PRAGMA journal_mode=WAL;'] : []), OPENCODE_V2_SCHEMA, 'BEGIN;'];
    for (const row of store.sessions) sql.push(`INSERT INTO session_v2 VALUES(${row.map(sqlValue).join(',')});`);
    for (const row of store.messages) sql.push(`INSERT INTO session_message VALUES(${row.map(sqlValue).join(',')});`);
    sql.push('COMMIT;');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (fresh) fs.rmSync(file, { force: true });
    execFileSync('sqlite3', [file], { input: sql.join('\n'), stdio: ['pipe', 'ignore', 'inherit'] });
  };
  write_(path.join(dir, 'a', 'opencode.db'), storeA, false);
  write_(path.join(dir, 'c', 'opencode.db'), storeC, true);
}

const SQLITE_AGENT_MODELS = ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-5'];

/** `created_at` in the forms ccusage reads: SQLite's CURRENT_TIMESTAMP text (UTC), RFC 3339, epoch seconds and ms. */
function gooseCreated(r, ms) {
  const k = r.next();
  if (k < 0.55) return iso(ms).slice(0, 19).replace('T', ' ');
  if (k < 0.7) return iso(ms);
  if (k < 0.85) return Math.floor(ms / 1000);
  return String(ms);
}

/**
 * Goose: `<root>/data/sessions/sessions.db`, one row per session with its totals: accumulated
 * counts (the plain ones where those are 0 or missing), a total above input + output (extra, also
 * with no output), a total below it, rows without a model config (not counted), gpt-5 among the
 * Claude models. Sessions are large, so some cross the 200k long-context threshold.
 */
function genGoose(r, o, dir) {
  const rows = [];
  for (let s = 0; s < o.sessions * 3; s++) {
    const ms = sessionStart(r, o);
    const model = r.chance(0.2) ? 'gpt-5' : r.pick(SQLITE_AGENT_MODELS);
    const input = r.int(1_000, 260_000);
    const output = r.chance(0.1) ? 0 : r.int(10, 20_000);
    const total = r.chance(0.3) ? input + output + r.int(1, 5_000) : r.chance(0.1) ? r.int(1, input) : input + output;
    const accumulated = r.chance(0.6);
    const config = r.chance(0.08) ? null : JSON.stringify({ model_name: model, context_limit: 200000 });
    rows.push([`2026${String(s).padStart(4, '0')}_${r.id(4)}`, config, r.pick(['anthropic', 'openai', null]), gooseCreated(r, ms),
      accumulated ? r.int(0, 50) : total, accumulated ? r.int(0, 50) : input, accumulated ? r.int(0, 50) : output,
      accumulated ? total : r.chance(0.5) ? 0 : null, accumulated ? input : null, accumulated ? output : null]);
  }
  // Rows every seed has: no output with a total above the input (the rest is extra, not output),
  // accumulated counts of 0 (the plain ones count), a total below the parts.
  const day = Date.parse(`${o.start}T23:40:00Z`);
  rows.push(['edge_no_output', JSON.stringify({ model_name: 'claude-sonnet-4-5' }), 'anthropic', iso(day).slice(0, 19).replace('T', ' '), null, null, null, 90_000, 60_000, 0]);
  rows.push(['edge_acc_zero', JSON.stringify({ model_name: 'claude-haiku-4-5' }), null, Math.floor((day + DAY) / 1000), 12_000, 9_000, 2_000, 0, 0, 0]);
  rows.push(['edge_total_low', JSON.stringify({ model_name: 'gpt-5' }), 'openai', iso(day + 2 * DAY), null, null, null, 10, 5_000, 700]);
  const schema = 'CREATE TABLE sessions(id TEXT PRIMARY KEY, name TEXT, description TEXT DEFAULT \'\', working_dir TEXT DEFAULT \'\', created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, model_config_json TEXT, provider_name TEXT, total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER);';
  const cols = 'id, model_config_json, provider_name, created_at, total_tokens, input_tokens, output_tokens, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens';
  writeStore(path.join(dir, 'data', 'sessions', 'sessions.db'), schema, `sessions(${cols})`, rows, 'rollback');
}

/**
 * Hermes: `<home>/state.db` in two homes, one row per session with its totals: reasoning (extra),
 * cache reads and writes, `started_at` as epoch seconds with a fraction or milliseconds, an actual
 * cost (used when above 0; GPT models only with one, see docs/usage.md), an estimate (never used),
 * rows without a model, a session repeated in the second home (counted once).
 */
function genHermes(r, o, dir) {
  const homes = [[], []];
  for (let s = 0; s < o.sessions * 3; s++) {
    const ms = sessionStart(r, o);
    const actual = r.chance(0.3) ? Math.round(r.next() * 1e6) / 1e6 : r.chance(0.3) ? 0 : null;
    const model = actual ? r.pick([...SQLITE_AGENT_MODELS, 'gpt-5']) : r.chance(0.05) ? '' : r.pick(SQLITE_AGENT_MODELS);
    const row = [`${iso(ms).slice(0, 10).replace(/-/g, '')}_${r.id(6)}`, 'cli', model, r.chance(0.8) ? ms / 1000 : ms, r.int(1, 80),
      r.int(100, 250_000), r.int(0, 15_000), r.chance(0.6) ? r.int(0, 400_000) : 0, r.chance(0.4) ? r.int(0, 30_000) : 0, r.chance(0.5) ? r.int(0, 6_000) : 0,
      r.pick(['anthropic', 'openrouter', null]), r.chance(0.5) ? Math.round(r.next() * 1e6) / 1e6 : null, actual];
    homes[s % 4 === 3 ? 1 : 0].push(row);
    if (s % 5 === 0 && s % 4 !== 3) homes[1].push(row); // the same session in the second home: once
  }
  const schema = 'CREATE TABLE sessions(id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, message_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT, estimated_cost_usd REAL, actual_cost_usd REAL);';
  homes.forEach((rows, i) => writeStore(path.join(dir, `h${i + 1}`, 'state.db'), schema, 'sessions', rows, i === 0 ? 'wal' : 'rollback'));
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

// ---------------------------------------------------------------- kimi

const KIMI_CUTOFF = Date.parse('2026-04-20T15:28:10.072Z');

function genKimi(r, o, dir) {
  const cli = path.join(dir, 'cli');
  write(path.join(cli, 'config.json'), JSON.stringify({ model: 'kimi-k2-0905-preview', default_thinking: false }));
  for (let s = 0; s < o.sessions; s++) {
    let t = sessionStart(r, o);
    const lines = [line({ type: 'metadata', protocol_version: '1.3' })];
    for (let i = 0; i < r.int(2, o.turns); i++) {
      t += r.int(5, 300) * 1000 + r.int(0, 999);
      lines.push(line({ timestamp: t / 1000, message: { type: 'TurnBegin', payload: { user_input: 'go' } } }));
      t += r.int(1, 40) * 1000 + r.int(0, 999);
      const usage = { input_other: r.int(100, 20_000), output: r.int(0, 3_000), input_cache_read: r.chance(0.6) ? r.int(0, 60_000) : 0, input_cache_creation: r.chance(0.2) ? r.int(0, 5_000) : 0 };
      if (r.chance(0.1)) usage.total = usage.input_other + usage.output + usage.input_cache_read + usage.input_cache_creation + r.int(1, 400);
      if (r.chance(0.05)) usage.output = r.int(1, 50) + 0.5; // a fraction: 0
      const status = { timestamp: t / 1000 + r.int(0, 999) / 1e6, message: { type: 'StatusUpdate', payload: { token_usage: usage, message_id: `chatcmpl-${r.id(10)}`, context_usage: 0.4 } } };
      lines.push(line(status));
      if (r.chance(0.12)) lines.push(line(status)); // re-emitted: counts once
    }
    if (s === 0) lines.push('{"timestamp": 1767400000, "message": {"type": "StatusUpdate", "payload": {"token_usage": {'); // damaged
    if (s === 1) lines.push(line({ message: { type: 'StatusUpdate', payload: { token_usage: { input_other: 1234, output: 5 } } } })); // no time: the file mtime
    write(path.join(cli, 'sessions', `g${s % 3}`, `s-${r.id(8)}`, 'wire.jsonl'), lines.join('\n') + '\n');
  }
  // Kimi Code: its own model per line, turn records count, session records are running totals.
  const code = path.join(dir, 'code');
  for (let s = 0; s < Math.max(2, Math.ceil(o.sessions / 2)); s++) {
    let t = KIMI_CUTOFF - r.int(10, 40) * 60_000; // straddles the K2.5 → K2.6 price change
    const model = s % 3 === 2 ? 'kimi-k2-turbo-preview' : 'kimi-code/kimi-for-coding';
    const lines = [];
    const sum = { inputOther: 0, output: 0, inputCacheRead: 0, inputCacheCreation: 0 };
    for (let i = 0; i < r.int(3, o.turns); i++) {
      t += r.int(20, 240) * 1000;
      const usage = { inputOther: r.int(200, 9_000), output: r.int(1, 900), inputCacheRead: r.chance(0.7) ? r.int(0, 40_000) : 0, inputCacheCreation: 0 };
      for (const k of Object.keys(sum)) sum[k] += usage[k];
      lines.push(line({ type: 'turn.begin', time: t - 5000 }));
      lines.push(line({ type: 'usage.record', model, usage, usageScope: 'turn', time: t }));
    }
    lines.push(line({ type: 'usage.record', model, usage: sum, usageScope: 'session', time: t + 1000 }));
    write(path.join(code, 'sessions', `ws${s % 2}`, `session-${r.id(8)}`, 'agents', 'main', 'wire.jsonl'), lines.join('\n') + '\n');
  }
  // A Kimi CLI session in the second root: no config.json there, so kimi-for-coding (January: K2.5).
  let t = sessionStart(r, o);
  const lines = [];
  for (let i = 0; i < 4; i++) {
    t += r.int(60, 600) * 1000;
    lines.push(line({ timestamp: t / 1000, message: { type: 'StatusUpdate', payload: { token_usage: { input_other: r.int(100, 5000), output: r.int(1, 500), input_cache_read: r.int(0, 9000), input_cache_creation: 0 }, message_id: `m${i}` } } }));
  }
  write(path.join(code, 'sessions', 'g0', 'legacy', 'wire.jsonl'), lines.join('\n') + '\n');
}

// ---------------------------------------------------------------- codebuff

const CODEBUFF_MODELS = ['claude-sonnet-4-20250514', 'anthropic/claude-sonnet-4.5', 'gpt-5', 'openai/gpt-5-codex', 'x-ai/grok-code-fast-1', 'anthropic/claude-haiku-4.5'];

function codebuffUsage(r) {
  const input = r.int(100, 30_000);
  const output = r.int(1, 4_000);
  const read = r.chance(0.6) ? r.int(0, 80_000) : 0;
  const created = r.chance(0.3) ? r.int(0, 8_000) : 0;
  const kind = r.next();
  const u =
    kind < 0.5
      ? { inputTokens: input, outputTokens: output, cacheReadInputTokens: read, cacheCreationInputTokens: created }
      : kind < 0.75
        ? { prompt_tokens: input, completion_tokens: output, prompt_tokens_details: { cached_tokens: read } }
        : { promptTokens: input, completionTokens: output, promptTokensDetails: { cachedTokens: read }, cacheCreationTokens: created };
  if (r.chance(0.1)) u.totalTokens = input + output + read + created + r.int(1, 500);
  return u;
}

function genCodebuff(r, o, dir) {
  for (let s = 0; s < o.sessions; s++) {
    const channel = s % 3 === 2 ? 'manicode-dev' : 'manicode';
    let t = sessionStart(r, o);
    const chatId = new Date(t).toISOString().replace(/:/g, '-');
    const messages = [];
    const model = r.pick(CODEBUFF_MODELS);
    for (let i = 0; i < r.int(2, o.turns); i++) {
      t += r.int(5, 300) * 1000;
      messages.push({ id: `u${i}`, role: 'user', content: 'go', timestamp: new Date(t).toISOString() });
      t += r.int(1, 60) * 1000;
      const kind = r.next();
      const id = `a${s}-${i}`;
      const when = r.chance(0.7) ? { timestamp: new Date(t).toISOString() } : r.chance(0.5) ? { createdAt: Math.floor(t / 1000) } : {}; // none: the chat folder's time
      if (kind < 0.6) {
        messages.push({ id, variant: 'ai', ...when, metadata: { ...(r.chance(0.95) ? { model } : {}), usage: codebuffUsage(r) }, credits: Math.round(r.next() * 100) / 100 });
      } else if (kind < 0.75) {
        // codebuff.usage fills what metadata.usage lacks (cache reads here).
        const base = codebuffUsage(r);
        messages.push({ id, role: 'assistant', ...when, metadata: { model, usage: { inputTokens: base.inputTokens ?? base.prompt_tokens ?? base.promptTokens, outputTokens: r.int(1, 900) }, codebuff: { usage: { inputTokens: 1, cacheReadInputTokens: r.int(1, 30_000) } } } });
      } else if (kind < 0.9) {
        // Agent runs: usage in the run state's message history, the latest assistant entry first.
        const history = [
          { role: 'user', providerOptions: {} },
          { role: 'assistant', providerOptions: { codebuff: { model, usage: codebuffUsage(r) } } },
          { role: 'assistant', providerOptions: { usage: { inputTokens: r.int(10, 2000), outputTokens: r.chance(0.5) ? 0 : r.int(1, 300), ...(r.chance(0.5) ? { total: r.int(3000, 9000) } : {}) } } },
        ];
        messages.push({ id, variant: 'agent', ...when, metadata: { runState: { sessionState: { mainAgentState: { messageHistory: history } } } } });
      } else {
        messages.push({ id, role: 'assistant', ...when, credits: 1.5, metadata: { model } }); // credits only: listed, no tokens
      }
      if (r.chance(0.08)) messages.push({ id, role: 'assistant', ...when, metadata: { model, usage: codebuffUsage(r) } }); // a later copy: it counts
    }
    write(path.join(dir, channel, 'projects', `-w-cb${s % 2}`, 'chats', chatId, 'chat-messages.json'), JSON.stringify(messages, null, 2));
  }
  write(path.join(dir, 'manicode', 'projects', 'broken', 'chats', 'c1', 'chat-messages.json'), '[{"role": "assistant", ');
}

// ---------------------------------------------------------------- copilot

const COPILOT_MODELS = ['claude-sonnet-4.5', 'gpt-5.4-mini', 'gpt-4.1', 'claude-opus-4.6-1m', 'claude-haiku-4.5'];

function otelSpan(trace, span, name, ts, attributes) {
  return { type: 'span', traceId: trace, spanId: span, parentSpanId: null, name, kind: 2, startTime: [Math.floor(ts / 1000) - 3, 0], endTime: [Math.floor(ts / 1000), (ts % 1000) * 1_000_000], attributes, status: { code: 0 } };
}

function otelUsage(r, total) {
  const input = r.int(500, 40_000);
  const read = r.chance(0.6) ? r.int(0, input) : 0;
  const output = r.int(1, 3_000);
  const a = { 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, 'gen_ai.usage.cache_read.input_tokens': read };
  if (r.chance(0.2)) a['gen_ai.usage.cache_creation.input_tokens'] = r.int(1, 2_000);
  if (r.chance(0.3)) a['gen_ai.usage.reasoning.output_tokens'] = r.int(1, output);
  if (total && r.chance(0.3)) a['gen_ai.usage.total_tokens'] = input + output + (a['gen_ai.usage.cache_creation.input_tokens'] ?? 0) + r.int(0, 300);
  return a;
}

/** One Copilot session's OTel lines: per turn a chat span, often beside an inference log and an invoke_agent summary. */
function copilotOtel(r, o, session, start, models, turns) {
  const lines = [];
  let t = start;
  for (let i = 0; i < turns; i++) {
    t += r.int(10, 400) * 1000 + r.int(0, 999);
    const trace = r.id(32);
    const model = r.pick(models);
    const kind = r.next();
    const common = { 'gen_ai.conversation.id': session, 'gen_ai.response.id': `resp-${r.id(8)}` };
    if (kind < 0.55) {
      lines.push(otelSpan(trace, r.id(16), `chat ${model}`, t, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model, 'gen_ai.response.model': model, ...common, ...otelUsage(r, true) }));
      if (r.chance(0.5)) lines.push({ hrTime: [Math.floor(t / 1000), 0], traceId: trace, attributes: { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.response.model': model, ...common, ...otelUsage(r, false) }, _body: `GenAI inference: ${model}` });
      if (r.chance(0.5)) lines.push(otelSpan(trace, r.id(16), 'invoke_agent GitHub Copilot CLI', t + 500, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.response.model': model, ...common, ...otelUsage(r, true) }));
    } else if (kind < 0.75) {
      lines.push({ hrTime: [Math.floor(t / 1000), (t % 1000) * 1_000_000], traceId: trace, spanId: r.id(16), attributes: { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.response.model': model, ...common, ...otelUsage(r, true) }, _body: `GenAI inference: ${model}` });
    } else if (kind < 0.9) {
      // An agent-turn log: model and session from a tool span of its trace.
      lines.push({ timestamp: t, traceId: trace, attributes: { 'event.name': 'copilot_chat.agent.turn', 'turn.index': i, ...otelUsage(r, false) } });
      lines.push(otelSpan(trace, r.id(16), 'execute_tool shell', t - 200, { 'gen_ai.request.model': model, 'copilot_chat.session_id': session }));
    } else {
      lines.push(otelSpan(trace, r.id(16), 'invoke_agent GitHub Copilot CLI', t, { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': model, ...common, ...otelUsage(r, true) }));
    }
  }
  return { lines: lines.map(line), end: t };
}

function genCopilot(r, o, dir) {
  const home = path.join(dir, 'home');
  const otelLines = [line({ type: 'metric', name: 'gen_ai.client.token.usage', attributes: { 'gen_ai.usage.input_tokens': 5 } })];
  for (let s = 0; s < o.sessions; s++) {
    const session = `${r.id(8)}-${r.id(4)}-${r.id(4)}-${r.id(12)}`;
    const models = [r.pick(COPILOT_MODELS), r.pick(COPILOT_MODELS)];
    let t = sessionStart(r, o);
    // Session state: a shutdown per run, cumulative per model; resumed sessions shut down again.
    const events = [line({ type: 'session.start', timestamp: new Date(t).toISOString(), data: { sessionId: session, copilotVersion: '0.0.400' } })];
    const totals = {};
    let last = t;
    for (let run = 0; run < r.int(1, 3); run++) {
      for (let i = 0; i < r.int(2, 8); i++) {
        const m = r.pick(models);
        const u = (totals[m] ??= { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
        const read = r.int(0, 30_000);
        const written = r.chance(0.3) ? r.int(0, 3_000) : 0;
        u.inputTokens += read + written + r.int(100, 20_000);
        u.cacheReadTokens += read;
        u.cacheWriteTokens += written;
        const out = r.int(1, 2_000);
        u.outputTokens += out;
        u.reasoningTokens += r.int(0, out);
      }
      t += r.int(10, 180) * 60_000 + r.int(0, 59_999);
      last = t;
      const modelMetrics = Object.fromEntries(Object.entries(totals).map(([m, u]) => [m, { requests: { count: r.int(1, 9), cost: 1 }, usage: { ...u } }]));
      events.push(line({ type: 'session.shutdown', timestamp: new Date(t).toISOString(), data: { shutdownType: 'routine', modelMetrics } }));
      t += r.int(1, 30) * 3_600_000; // resumed later
    }
    if (s === 0) events.push('{"type": "session.shutdown", "data": {'); // damaged
    write(path.join(home, 'session-state', session, 'events.jsonl'), events.join('\n') + '\n');
    // OTel of some of the same sessions: rows up to the last shutdown are session-state's; later ones count.
    if (s % 3 === 0) {
      const before = copilotOtel(r, o, session, last - 3_600_000, models, r.int(1, 4));
      const after = copilotOtel(r, o, session, last + 60_000, models, r.int(1, 4));
      otelLines.push(...before.lines, ...after.lines);
    }
  }
  // OTel-only sessions (no session state), in the home's otel/ folder and in the exporter file.
  const exported = [];
  for (let s = 0; s < o.sessions; s++) {
    const session = `otel-${r.id(8)}`;
    const { lines } = copilotOtel(r, o, session, sessionStart(r, o), [r.pick(COPILOT_MODELS), r.pick(COPILOT_MODELS)], r.int(2, o.turns));
    (s % 2 === 0 ? otelLines : exported).push(...lines);
  }
  otelLines.push('not json "attributes"');
  write(path.join(home, 'otel', 'nested', `copilot-otel-${o.seed}.jsonl`), otelLines.join('\n') + '\n');
  write(path.join(dir, 'export', 'copilot-otel.jsonl'), exported.join('\n') + '\n');
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const r = rng(o.seed);
  const on = (agent) => o.agents === null || o.agents.includes(agent);
  if (on('codex')) genCodex(r, o, path.join(o.out, 'codex'));
  if (on('gemini')) genGemini(r, o, path.join(o.out, 'gemini'));
  const opencodeFiles = on('opencode') ? genOpencode(r, o, path.join(o.out, 'opencode')) : [];
  if (on('amp')) genAmp(r, o, path.join(o.out, 'amp'));
  if (on('qwen')) genQwen(r, o, path.join(o.out, 'qwen'));
  if (on('pi')) genPiStyle(r, o, path.join(o.out, 'pi'), 'pi');
  if (on('openclaw')) genPiStyle(r, o, path.join(o.out, 'openclaw'), 'openclaw');
  if (on('droid')) genDroid(r, o, path.join(o.out, 'droid'));
  if (on('kilo')) genKilo(r, o, path.join(o.out, 'kilo'));
  if (on('kimi')) genKimi(rng(o.seed * 7919 + 1), o, path.join(o.out, 'kimi'));
  if (on('codebuff')) genCodebuff(rng(o.seed * 7919 + 2), o, path.join(o.out, 'codebuff'));
  if (on('copilot')) genCopilot(rng(o.seed * 7919 + 3), o, path.join(o.out, 'copilot'));
  // Written last, so the agents above keep their files whatever is added here.
  const opencodeRows = on('opencode') ? genOpencodeDb(r, o, path.join(o.out, 'opencode'), opencodeFiles) : [];
  if (on('opencode') && o.opencodeV2) genOpencodeV2(rng(o.seed * 7919 + 4), o, path.join(o.out, 'opencode'), opencodeRows, opencodeFiles);
  if (on('goose')) genGoose(r, o, path.join(o.out, 'goose'));
  if (on('hermes')) genHermes(r, o, path.join(o.out, 'hermes'));
  const env = {
    CODEX_HOME: [path.join(o.out, 'codex', 'home'), path.join(o.out, 'codex', 'exec')].join(','),
    GEMINI_DATA_DIR: path.join(o.out, 'gemini'),
    OPENCODE_DATA_DIR: [path.join(o.out, 'opencode', 'a'), path.join(o.out, 'opencode', 'b'), ...(o.opencodeV2 ? [path.join(o.out, 'opencode', 'c')] : [])].join(','),
    AMP_DATA_DIR: path.join(o.out, 'amp'),
    QWEN_DATA_DIR: path.join(o.out, 'qwen'),
    PI_AGENT_DIR: path.join(o.out, 'pi'),
    OPENCLAW_DIR: path.join(o.out, 'openclaw'),
    DROID_SESSIONS_DIR: path.join(o.out, 'droid'),
    KILO_DATA_DIR: path.join(o.out, 'kilo'),
    KIMI_DATA_DIR: [path.join(o.out, 'kimi', 'cli'), path.join(o.out, 'kimi', 'code')].join(','),
    CODEBUFF_DATA_DIR: [path.join(o.out, 'codebuff', 'manicode'), path.join(o.out, 'codebuff', 'manicode-dev')].join(','),
    COPILOT_HOME: path.join(o.out, 'copilot', 'home'),
    COPILOT_OTEL_FILE_EXPORTER_PATH: path.join(o.out, 'copilot', 'export', 'copilot-otel.jsonl'),
    GOOSE_PATH_ROOT: path.join(o.out, 'goose'),
    HERMES_HOME: [path.join(o.out, 'hermes', 'h1'), path.join(o.out, 'hermes', 'h2')].join(','),
  };
  // Only the agents written: a variable left unset would send a tool to its default folder.
  for (const name of Object.keys(env)) if (!on(name.split('_')[0].toLowerCase())) delete env[name];
  write(path.join(o.out, 'gen-agents-manifest.json'), JSON.stringify({ options: o, env }, null, 2));
  if (!o.quiet) console.log(JSON.stringify(env, null, 2));
}

main();
