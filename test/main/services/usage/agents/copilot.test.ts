import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copilot, readCopilotSessionState } from '../../../../../main/services/usage/agents/copilot.js';
import { readCopilotOtel } from '../../../../../main/services/usage/agents/copilot-otel.js';
import { dirsOf } from '../../../../../main/services/usage/agents/registry.js';
import { goose } from '../../../../../main/services/usage/agents/goose.js';
import { hermes } from '../../../../../main/services/usage/agents/hermes.js';
import { findTranscripts } from '../../../../../main/services/usage/discover.js';
import { Pricing } from '../../../../../main/services/usage/pricing.js';

// Each row was run through ccusage 20.0.24 (`ccusage copilot daily|session --json --offline`,
// COPILOT_HOME / COPILOT_OTEL_FILE_EXPORTER_PATH at the same lines); the expected figures are what
// it reported (docs/usage.md, "Every agent").
const pricing = new Pricing();
const MTIME = Date.parse('2026-03-05T12:00:00.000Z');
const lines = (l: (object | string)[]) => l.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n';
const otel = (l: (object | string)[], shutdowns: Record<string, number> = {}) => readCopilotOtel({ path: '/h/.copilot/otel/o.jsonl', text: lines(l), mtimeMs: MTIME, flags: JSON.stringify({ shutdowns }) });
const row = (r: ReturnType<typeof readCopilotOtel>['records'][number]) => [r.sessionId, r.model, r.inputTokens, r.outputTokens, r.cacheWrite5mTokens, r.cacheReadTokens, r.extraTokens, r.timestamp];
const span = (trace: string, span: string, name: string, attributes: object, more: object = { endTime: [1776000000, 0] }) => ({ type: 'span', traceId: trace, spanId: span, name, attributes, ...more });
const chat = (trace: string, attrs: object, more?: object) => span(trace, `s-${trace}`, 'chat gpt-4.1', { 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': 'gpt-4.1', 'gen_ai.conversation.id': `case-${trace}`, ...attrs }, more);
const T = 1776000000000;

describe('copilot: OpenTelemetry records', () => {
  it.each<[string, object, unknown[] | null]>([
    ['input includes cache reads (taken out); cache_creation is a cache write; reasoning alone is not counted', chat('a', { 'gen_ai.usage.input_tokens': 19452, 'gen_ai.usage.output_tokens': 281, 'gen_ai.usage.cache_read.input_tokens': 123, 'gen_ai.usage.cache_creation.input_tokens': 25, 'gen_ai.usage.reasoning.output_tokens': 128 }), ['case-a', 'gpt-4.1', 19329, 281, 25, 123, 0, T]],
    ['a total equal to input + output: reasoning adds nothing', chat('b', { 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 100, 'gen_ai.usage.reasoning.output_tokens': 7, 'gen_ai.usage.total_tokens': 1100 }), ['case-b', 'gpt-4.1', 1000, 100, 0, 0, 0, T]],
    ['a total above the parts: the rest is extra', chat('c', { 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 100, 'gen_ai.usage.reasoning.output_tokens': 7, 'gen_ai.usage.total_tokens': 1103 }), ['case-c', 'gpt-4.1', 1000, 100, 0, 0, 3, T]],
    ['… and output when output is 0', chat('d', { 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 0, 'gen_ai.usage.reasoning.output_tokens': 7, 'gen_ai.usage.total_tokens': 1107 }), ['case-d', 'gpt-4.1', 1000, 107, 0, 0, 0, T]],
    ['the total counts cache reads once (input 1000 with 400 cached, total 1507)', chat('e', { 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.cache_read.input_tokens': 400, 'gen_ai.usage.output_tokens': 100, 'gen_ai.usage.total_tokens': 1507 }), ['case-e', 'gpt-4.1', 600, 100, 0, 400, 407, T]],
    ['a total alone is output; startTime when there is no endTime; the interaction id is the session', span('f', 'f', 'chat gpt-4.1', { 'gen_ai.response.model': 'gpt-4.1', 'github.copilot.interaction_id': 'int-4', 'gen_ai.usage.total_tokens': 567 }, { startTime: [1775990000, 0] }), ['int-4', 'gpt-4.1', 0, 567, 0, 0, 0, 1775990000000]],
    ['counts as decimal text are read; hrTime with nanos', { hrTime: [1775934300, 500000000], traceId: 't2', attributes: { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.response.model': 'gpt-5.4-mini', 'gen_ai.response.id': 'r2', 'gen_ai.usage.input_tokens': '800', 'gen_ai.usage.output_tokens': 20, 'gen_ai.usage.total_tokens': 900 }, _body: 'GenAI inference: gpt-5.4-mini' }, ['r2', 'gpt-5.4-mini', 800, 20, 0, 0, 80, 1775934300500]],
    ['timeUnixNano text; spanContext ids; no session attribute: the trace id', { timeUnixNano: '1776100000000000000', spanContext: { traceId: 't6', spanId: 'x6' }, attributes: { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.request.model': 'claude-haiku-4.5', 'gen_ai.usage.input_tokens': 300, 'gen_ai.usage.output_tokens': 3 } }, ['t6', 'claude-haiku-4.5', 300, 3, 0, 0, 0, 1776100000000]],
    ['a -1m model id is the priced model', chat('g', { 'gen_ai.response.model': 'claude-opus-4.6-1m', 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 10 }), ['case-g', 'claude-opus-4.6', 1000, 10, 0, 0, 0, T]],
    ['no time at all: the file mtime', chat('h', { 'gen_ai.usage.input_tokens': 5 }, {}), ['case-h', 'gpt-4.1', 5, 0, 0, 0, 0, MTIME]],
    ['a metric is not usage', { type: 'metric', name: 'gen_ai.client.token.usage', attributes: { 'gen_ai.usage.input_tokens': 5 } }, null],
    ['a chat span without tokens is nothing', chat('i', { 'gen_ai.usage.reasoning.output_tokens': 9 }), null],
  ])('%s', (_name, record, expected) => {
    expect(otel([record]).records.map(row)).toEqual(expected === null ? [] : [expected]);
  });

  it('a chat span wins over the invoke_agent summary and the inference log of its trace or response', () => {
    const r = otel([
      span('t', 'agent-1', 'invoke_agent GitHub Copilot Chat', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.response.model': 'gpt-5.4-mini', 'gen_ai.conversation.id': 'conv', 'gen_ai.response.id': 'resp', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 30 }),
      { hrTime: [1775934263, 0], attributes: { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.response.model': 'gpt-5.4-mini', 'gen_ai.response.id': 'resp', 'gen_ai.usage.input_tokens': 80, 'gen_ai.usage.output_tokens': 20 }, _body: 'GenAI inference: gpt-5.4-mini' },
      span('t', 'chat-1', 'chat gpt-5.4-mini', { 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': 'gpt-5.4-mini', 'gen_ai.conversation.id': 'conv', 'gen_ai.response.id': 'resp', 'gen_ai.usage.input_tokens': 60, 'gen_ai.usage.output_tokens': 10 }),
      span('u', 'agent-2', 'invoke_agent x', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.request.model': 'claude-sonnet-4.5', 'gen_ai.usage.input_tokens': 1000, 'gen_ai.usage.output_tokens': 100 }),
    ]).records;
    expect(r.map((x) => [x.sessionId, x.inputTokens, x.outputTokens])).toEqual([['conv', 60, 10], ['u', 1000, 100]]);
  });

  it('an agent-turn log takes model and session from another record of its trace', () => {
    const [r] = otel([
      { timestamp: 1775934400123, traceId: 't3', attributes: { 'event.name': 'copilot_chat.agent.turn', 'turn.index': 2, 'gen_ai.usage.input_tokens': 500, 'gen_ai.usage.output_tokens': 50, 'gen_ai.usage.cache_read.input_tokens': 600 } },
      span('t3', 's9', 'execute_tool x', { 'gen_ai.request.model': 'gpt-4.1', 'copilot_chat.session_id': 'sess-3' }),
    ]).records;
    expect(row(r!)).toEqual(['sess-3', 'gpt-4.1', 0, 50, 0, 600, 0, 1775934400123]);
    expect(pricing.costOf(r!)).toBeCloseTo(0.0007, 12); // ccusage: $0.0007
  });

  it('identical lines count twice (ccusage: conv-1 twice, $0.1246653); a damaged line with attributes is malformed', () => {
    const line = chat('a', { 'gen_ai.response.model': 'claude-sonnet-4', 'gen_ai.usage.input_tokens': 19452, 'gen_ai.usage.output_tokens': 281, 'gen_ai.usage.cache_read.input_tokens': 123, 'gen_ai.usage.cache_creation.input_tokens': 25, 'gen_ai.usage.reasoning.output_tokens': 128 });
    const out = otel([line, line, 'not json "attributes"', 'plain noise']);
    expect(out.malformed).toBe(1);
    expect(out.records.reduce((s, r) => s + pricing.costOf(r), 0)).toBeCloseTo(0.1246653, 12);
  });

  it('rows of a session and model up to its last session-state shutdown are left to session-state (-1m ids alike)', () => {
    const shutdown = Date.parse('2026-04-14T12:00:00.000Z');
    const at = (ms: number, model = 'claude-opus-4.7', conv = 'sess-a') => span(`t${ms}${model}${conv}`, 's', 'chat x', { 'gen_ai.operation.name': 'chat', 'gen_ai.response.model': model, 'gen_ai.conversation.id': conv, 'gen_ai.usage.input_tokens': 1000 }, { endTime: [ms / 1000, 0] });
    const r = otel([at(shutdown - 86400_000), at(shutdown), at(shutdown + 1000), at(shutdown - 1000, 'claude-opus-4.7-1m'), at(shutdown - 1000, 'gpt-5'), at(shutdown - 1000, 'claude-opus-4.7', 'other')], { 'sess-a\u0000claude-opus-4.7': shutdown }).records;
    expect(r.map((x) => [x.sessionId, x.model, x.timestamp - shutdown])).toEqual([
      ['sess-a', 'claude-opus-4.7', 1000],
      ['sess-a', 'gpt-5', -1000],
      ['other', 'claude-opus-4.7', -1000],
    ]);
  });
});

describe('copilot: session-state shutdown snapshots', () => {
  const EVENTS = '/h/.copilot/session-state/sess-a/events.jsonl';
  const shutdown = (timestamp: unknown, metrics: Record<string, object>) => ({ type: 'session.shutdown', ...(timestamp !== undefined ? { timestamp } : {}), data: { modelMetrics: Object.fromEntries(Object.entries(metrics).map(([m, usage]) => [m, { usage, requests: { count: 2, cost: 1 } }])) } });
  const read = (l: (object | string)[]) => readCopilotSessionState({ path: EVENTS, text: lines(l), mtimeMs: MTIME, flags: '' });
  const day = (r: ReturnType<typeof read>['records'][number]) => [new Date(r.timestamp).toISOString().slice(0, 10), r.sessionId, r.model, r.inputTokens, r.outputTokens, r.cacheReadTokens, r.cacheWrite5mTokens];

  it('the first snapshot counts as it is (input less both cache kinds), later ones their growth per model and kind, never below 0', () => {
    const r = read([
      { type: 'session.start', timestamp: '2026-04-10T10:00:00.000Z', data: {} },
      shutdown('2026-04-10T12:00:00.000Z', { 'gpt-4.1': { inputTokens: 100, outputTokens: 5, cacheReadTokens: 50, cacheWriteTokens: 0 } }),
      shutdown('2026-04-11T12:00:00.000Z', { 'gpt-4.1': { inputTokens: 120, outputTokens: 6, cacheReadTokens: 20, cacheWriteTokens: 0 } }),
      shutdown('2026-04-12T12:00:00.000Z', {}),
      shutdown('2026-04-13T12:00:00.000Z', { 'gpt-4.1': { inputTokens: 200, outputTokens: 9, cacheReadTokens: 30, cacheWriteTokens: 0 }, 'claude-opus-4.6-1m': { inputTokens: 10, outputTokens: 1, cacheReadTokens: 30 } }),
    ]).records;
    expect(r.map(day)).toEqual([
      ['2026-04-10', 'sess-a', 'gpt-4.1', 50, 5, 50, 0],
      ['2026-04-11', 'sess-a', 'gpt-4.1', 50, 1, 0, 0],
      ['2026-04-13', 'sess-a', 'gpt-4.1', 70, 3, 10, 0],
      ['2026-04-13', 'sess-a', 'claude-opus-4.6', 0, 1, 30, 0],
    ]);
  });

  it('a shutdown without an ISO time or with a count that is not a whole number is skipped whole (no baseline)', () => {
    const r = read([
      shutdown('2026-04-10T12:00:00.000Z', { 'gpt-4.1': { inputTokens: 100, outputTokens: 5 } }),
      shutdown(undefined, { 'gpt-4.1': { inputTokens: 300, outputTokens: 6 } }),
      shutdown('2026-04-12T12:00:00.000Z', { 'gpt-4.1': { inputTokens: '500', outputTokens: 7.5 } }),
      shutdown(1776340800000, { 'gpt-4.1': { inputTokens: 600, outputTokens: 8 } }),
      shutdown('2026-04-14T12:00:00.000Z', { 'gpt-4.1': { inputTokens: 700, outputTokens: 9 } }),
      'not json "session.shutdown"',
    ]);
    expect(r.records.map(day)).toEqual([
      ['2026-04-10', 'sess-a', 'gpt-4.1', 100, 5, 0, 0],
      ['2026-04-14', 'sess-a', 'gpt-4.1', 600, 4, 0, 0],
    ]);
    expect(r.malformed).toBe(1);
  });

  it('costs: claude-opus-4.7 100 in (10 read, 20 written), 50 out → $0.00173 (ccusage docs and run)', () => {
    const [r] = read([shutdown('2026-04-10T12:00:00.000Z', { 'claude-opus-4.7': { inputTokens: 100, outputTokens: 50, cacheReadTokens: 10, cacheWriteTokens: 20, reasoningTokens: 5 } })]).records;
    expect(pricing.costOf(r!)).toBeCloseTo(0.00173, 12);
  });
});

describe('copilot: where it reads', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-copilot-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('COPILOT_HOME (else ~/.copilot) and the file COPILOT_OTEL_FILE_EXPORTER_PATH names, besides', () => {
    expect(dirsOf(copilot, undefined, { HOME: '/h' })).toEqual([path.join('/h', '.copilot')]);
    expect(dirsOf(copilot, undefined, { HOME: '/h', COPILOT_HOME: '/c', COPILOT_OTEL_FILE_EXPORTER_PATH: ' /x/o.jsonl ' })).toEqual(['/c', '/x/o.jsonl']);
    expect(dirsOf(copilot, ['/only'], { HOME: '/h', COPILOT_OTEL_FILE_EXPORTER_PATH: '/x/o.jsonl' })).toEqual(['/only']);
  });

  it('COPILOT_HOME and GOOSE_PATH_ROOT name one path each, commas and all (ccusage 20.0.24 reads a list there as no data; observed)', () => {
    expect(dirsOf(copilot, undefined, { HOME: '/h', COPILOT_HOME: ' /c,/d ' })).toEqual(['/c,/d']);
    expect(dirsOf(goose, undefined, { HOME: '/h', GOOSE_PATH_ROOT: '/g,/k' })).toEqual(['/g,/k']);
    expect(dirsOf(hermes, undefined, { HOME: '/h', HERMES_HOME: '/a, /b' })).toEqual(['/a', '/b']); // the others take lists
  });

  it('finds session-state/<id>/events.jsonl, otel/**/*.jsonl and the named file whatever its name; flags hold the last shutdown per pair', async () => {
    const home = path.join(dir, 'home');
    const put = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      fs.writeFileSync(path.join(home, rel), text);
    };
    put('session-state/s1/events.jsonl', lines([{ type: 'session.shutdown', timestamp: '2026-04-10T12:00:00.000Z', data: { modelMetrics: { 'gpt-4.1-1m': { usage: { inputTokens: 1 } } } } }, { type: 'session.shutdown', timestamp: '2026-04-11T12:00:00.000Z', data: { modelMetrics: { 'gpt-4.1': { usage: { inputTokens: 2 } } } } }]));
    put('session-state/s1/other.jsonl', '');
    put('session-state/s2/deeper/events.jsonl', '');
    put('otel/a/b.jsonl', '');
    put('otel/c.json', '');
    const named = path.join(dir, 'export.log');
    fs.writeFileSync(named, '');
    const dirs = [home, named];
    const found = await findTranscripts(dirs.flatMap((d) => copilot.roots(d)), undefined, copilot.accepts, true);
    expect(found.map((f) => path.relative(dir, f.path)).sort()).toEqual(['export.log', 'home/otel/a/b.jsonl', 'home/session-state/s1/events.jsonl']);
    expect(JSON.parse(copilot.flags!(dirs))).toEqual({ shutdowns: { 's1\u0000gpt-4.1': Date.parse('2026-04-11T12:00:00.000Z') } });
  });

  it('only OTel files depend on the flags (a new shutdown reads them again, not the other session-state files)', () => {
    const flags = JSON.stringify({ shutdowns: { 's1\u0000gpt-4.1': 1 } });
    expect(copilot.flagsOf!('/h/.copilot/session-state/s1/events.jsonl', flags)).toBe('');
    expect(copilot.flagsOf!('/h/.copilot/otel/o.jsonl', flags)).toBe(flags);
    expect(copilot.flagInputs).toBeUndefined(); // the shutdowns come from below its watched roots
  });
});
