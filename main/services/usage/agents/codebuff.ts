import path from 'node:path';
import { parseIsoTimestamp } from '../timestamp.js';
import { agentRecord, hasTokens, type AgentFile, type AgentFileRecords, type AgentLoader } from './agent.js';
import { isObject, parseJson, withLoggedTotal } from './fields.js';

type Json = Record<string, unknown>;

const FILE = 'chat-messages.json';
export const CODEBUFF_UNKNOWN_MODEL = 'codebuff-unknown';

/**
 * Codebuff (agents-usage.md §8): `projects/<project>/chats/<chat-id>/chat-messages.json` below
 * each channel root, `~/.config/manicode`, `manicode-dev` and `manicode-staging`. A configured
 * root that is itself a `projects` folder is read as one.
 */
export const codebuff: AgentLoader = {
  id: 'codebuff',
  name: 'Codebuff',
  envVar: 'CODEBUFF_DATA_DIR',
  defaultDirs: ['manicode', 'manicode-dev', 'manicode-staging'].map((c) => path.join('.config', c)),
  roots: (dir) => [path.basename(dir) === 'projects' ? dir : path.join(dir, 'projects')],
  accepts: (file) => path.basename(file) === FILE,
  read: readCodebuff,
};

/** One message's usage as ccusage 20.0.24 gathers it from its several places. */
interface Usage {
  model: string | null;
  credits: number;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  extra: number;
}

const none = (): Usage => ({ model: null, credits: 0, input: 0, output: 0, cacheWrite: 0, cacheRead: 0, extra: 0 });

/**
 * A JSON array of chat messages. Assistant messages (`variant` ai/agent/assistant, else `role`)
 * carry usage in `metadata.usage`, then `metadata.codebuff.usage`, then the run state's provider
 * usage (latest assistant entry first): each later place only fills the counts still 0. Counts
 * are positive integers under several names (camelCase, snake_case, OpenAI's prompt/completion);
 * cache reads are the largest of the named field and `prompt_tokens_details.cached_tokens`. A
 * total above the parts follows the total-token fallback. Time: the message's `timestamp`,
 * `createdAt` or `metadata.timestamp` (ISO or epoch s/ms), else the chat folder's name
 * (`2026-01-02T03-04-05.000Z`), else the file's mtime. Session = `<channel>/<project>/<chat-id>`.
 * One message id is one request (a later copy replaces an earlier one, as in ccusage). A message
 * with credits but no tokens is kept: ccusage lists its model and day. Credits are not reported.
 */
export function readCodebuff(file: AgentFile): AgentFileRecords {
  const doc = parseJson(file.text);
  if (!Array.isArray(doc)) return { records: [], malformed: 1 };
  const { session, chatId } = placeOf(file.path);
  const chatTime = chatIdTime(chatId);
  const byKey = new Map<string, { r: ReturnType<typeof agentRecord>; credits: number }>();
  doc.forEach((message: unknown, ordinal) => {
    if (!isObject(message) || !isAssistant(message)) return;
    const u = usageOf(message);
    const timestamp = messageTime(message) ?? chatTime ?? file.mtimeMs;
    const model = u.model ?? CODEBUFF_UNKNOWN_MODEL;
    const id = textField(message, 'id');
    const key = `\u0002codebuff\u0000${session}\u0000${id ?? `${timestamp}\u0000${model}\u0000${ordinal}\u0000${u.input}\u0000${u.output}\u0000${u.cacheRead}\u0000${u.cacheWrite}\u0000${u.extra}`}`;
    const r = agentRecord('codebuff', file.path, ordinal, {
      timestamp,
      model,
      inputTokens: u.input,
      outputTokens: u.output,
      cacheWriteTokens: u.cacheWrite,
      cacheReadTokens: u.cacheRead,
      extraTokens: u.extra,
      sessionId: session,
      key,
    });
    byKey.delete(key); // the later message with the key is the one that counts
    byKey.set(key, { r, credits: u.credits });
  });
  // Credits alone keep a message (no tokens, no cost): ccusage lists its model and day (observed).
  return { records: [...byKey.values()].filter((m) => hasTokens(m.r) || m.credits > 0).map((m) => m.r), malformed: 0 };
}

/** Positions fixed from the file, as ccusage takes them: `<channel>/projects/<project>/chats/<chat-id>/chat-messages.json`. */
function placeOf(file: string): { session: string; chatId: string } {
  const chatDir = path.dirname(file);
  const projectDir = path.dirname(path.dirname(chatDir));
  const name = (p: string, fallback: string) => path.basename(p) || fallback;
  const chatId = name(chatDir, 'unknown');
  return { session: `${name(path.dirname(path.dirname(projectDir)), 'manicode')}/${name(projectDir, 'unknown')}/${chatId}`, chatId };
}

function textField(o: Json, key: string): string | null {
  const v = o[key];
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t.length > 0 ? t : null;
}

function isAssistant(message: Json): boolean {
  const kind = textField(message, 'variant') ?? textField(message, 'role');
  return kind === 'ai' || kind === 'agent' || kind === 'assistant';
}

/** A positive integer, else 0 (strings and fractions are not counts here, observed). */
function whole(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : 0;
}

function pick(o: Json, names: readonly string[]): number {
  for (const n of names) {
    const v = whole(o[n]);
    if (v > 0) return v;
  }
  return 0;
}

function positive(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

/** One usage object (`metadata.usage` and the like); its own total-token fallback applied. */
export function usageObject(v: unknown): Usage {
  const u = none();
  if (!isObject(v)) return u;
  u.input = pick(v, ['inputTokens', 'input_tokens', 'promptTokens', 'prompt_tokens']);
  u.output = pick(v, ['outputTokens', 'output_tokens', 'completionTokens', 'completion_tokens']);
  const details = (key: string, name: string) => (isObject(v[key]) ? pick(v[key] as Json, [name]) : 0);
  u.cacheRead = Math.max(pick(v, ['cacheReadInputTokens', 'cache_read_input_tokens']), details('promptTokensDetails', 'cachedTokens'), details('prompt_tokens_details', 'cached_tokens'));
  u.cacheWrite = pick(v, ['cacheCreationInputTokens', 'cache_creation_input_tokens', 'cacheCreationTokens', 'cache_creation_tokens', 'cachedTokensCreated', 'cached_tokens_created']);
  const total = pick(v, ['totalTokens', 'total_tokens', 'total']);
  const parts = withLoggedTotal({ output: u.output, extra: 0, sum: u.input + u.output + u.cacheRead + u.cacheWrite }, total);
  u.output = parts.output;
  u.extra = parts.extra;
  u.credits = positive(v.credits);
  u.model = textField(v, 'model');
  return u;
}

/** Fills what `target` lacks (a 0 count, no credits, no model) from `more`. */
function fill(target: Usage, more: Usage): void {
  if (target.input === 0) target.input = more.input;
  if (target.output === 0) target.output = more.output;
  if (target.cacheWrite === 0) target.cacheWrite = more.cacheWrite;
  if (target.cacheRead === 0) target.cacheRead = more.cacheRead;
  if (target.extra === 0) target.extra = more.extra;
  if (target.credits <= 0) target.credits = more.credits;
  if (target.model === null) target.model = more.model;
}

function hasSignal(u: Usage): boolean {
  return u.input + u.output + u.cacheWrite + u.cacheRead + u.extra > 0 || u.credits > 0;
}

function usageOf(message: Json): Usage {
  const u = none();
  const metadata = message.metadata;
  if (isObject(metadata)) {
    u.model = textField(metadata, 'model');
    fill(u, usageObject(metadata.usage));
    fill(u, usageObject(isObject(metadata.codebuff) ? metadata.codebuff.usage : undefined));
    const fromRun = runStateUsage(metadata);
    if (fromRun !== null) fill(u, fromRun);
  }
  const credits = positive(message.credits);
  if (credits > 0 && u.credits <= 0) u.credits = credits;
  return u;
}

/** `metadata.runState.sessionState.mainAgentState.messageHistory`: assistant entries' provider usage, latest first. */
function runStateUsage(metadata: Json): Usage | null {
  let at: unknown = metadata;
  for (const key of ['runState', 'sessionState', 'mainAgentState', 'messageHistory']) at = isObject(at) ? at[key] : undefined;
  if (!Array.isArray(at)) return null;
  const u = none();
  let found = false;
  for (const item of [...(at as unknown[])].reverse()) {
    if (!isObject(item) || textField(item, 'role') !== 'assistant' || !isObject(item.providerOptions)) continue;
    const options = item.providerOptions;
    const entry = none();
    fill(entry, usageObject(options.usage));
    if (isObject(options.codebuff)) {
      fill(entry, usageObject(options.codebuff.usage));
      entry.model = textField(options.codebuff, 'model') ?? entry.model;
    }
    if (hasSignal(entry) || entry.model !== null) found = true;
    fill(u, entry);
  }
  return found ? u : null;
}

function timeValue(v: unknown): number | null {
  if (typeof v === 'string') {
    const t = parseIsoTimestamp(v);
    return Number.isNaN(t) ? null : t;
  }
  if (typeof v === 'number' && Number.isSafeInteger(v)) {
    const ms = v < 10_000_000_000 ? v * 1000 : v;
    return ms > 0 ? ms : null;
  }
  return null;
}

function messageTime(message: Json): number | null {
  return timeValue(message.timestamp) ?? timeValue(message.createdAt) ?? (isObject(message.metadata) ? timeValue(message.metadata.timestamp) : null);
}

/** `2026-01-02T03-04-05.000Z` → that instant (the first two dashes after the T are colons). */
function chatIdTime(chatId: string): number | null {
  const t = chatId.indexOf('T');
  if (t === -1) return null;
  const time = chatId.slice(t + 1).replace('-', ':').replace('-', ':');
  return timeValue(`${chatId.slice(0, t)}T${time}`);
}
