import { describe, expect, it } from 'vitest';
import { readCodebuff } from '../../../../../main/services/usage/agents/codebuff.js';
import { readCopilotSessionState } from '../../../../../main/services/usage/agents/copilot.js';
import { readCopilotOtel } from '../../../../../main/services/usage/agents/copilot-otel.js';
import { readKimi } from '../../../../../main/services/usage/agents/kimi.js';

// Logs are data from other programs: no shape of them may throw (a scan must never die of one file).
const odd: unknown[] = [null, 0, -1, 1e308, 'x', true, [], [null], {}, { __proto__: { input_other: 5 } }];
const holes = (make: (v: unknown) => object) => odd.map((v) => JSON.stringify(make(v)));

describe('the tier-2 loaders read any JSON without throwing', () => {
  it('kimi', () => {
    const lines = [
      ...holes((v) => ({ timestamp: v, message: { type: 'StatusUpdate', payload: { token_usage: v, message_id: v } } })),
      ...holes((v) => ({ timestamp: 1, message: { type: 'StatusUpdate', payload: { token_usage: { input_other: v, output: v, total: v }, message_id: v } } })),
      ...holes((v) => ({ type: 'usage.record', usage: { inputOther: v }, usageScope: 'turn', time: v, model: v })),
      ...holes((v) => ({ type: 'usage.record', usage: v, usageScope: v, message: v, token_usage: 1 })),
    ];
    for (const flags of ['', 'null', '[]', '{"/k": 5}']) {
      expect(() => readKimi({ path: '/k/sessions/g/s/wire.jsonl', text: lines.join('\n'), mtimeMs: 0, flags })).not.toThrow();
    }
  });

  it('codebuff', () => {
    for (const v of odd) {
      for (const doc of [v, [v], [{ role: 'assistant', id: v, timestamp: v, createdAt: v, credits: v, metadata: v }], [{ variant: 'agent', metadata: { model: v, usage: v, codebuff: { usage: v }, runState: { sessionState: { mainAgentState: { messageHistory: [v, { role: 'assistant', providerOptions: { usage: v, codebuff: { model: v, usage: { inputTokens: v, prompt_tokens_details: v } } } }] } } } } }]]) {
        expect(() => readCodebuff({ path: '/c/manicode/projects/p/chats/c/chat-messages.json', text: JSON.stringify(doc) ?? 'undefined', mtimeMs: 0, flags: '' })).not.toThrow();
      }
    }
  });

  it('copilot, both sources', () => {
    const otel = [
      ...holes((v) => ({ type: v, name: v, traceId: v, spanId: v, endTime: v, hrTime: [v, v], timestamp: v, timeUnixNano: v, spanContext: v, attributes: v })),
      ...holes((v) => ({ type: 'span', name: 'chat x', traceId: 't', endTime: [1, v], attributes: { 'gen_ai.operation.name': v, 'gen_ai.usage.input_tokens': v, 'gen_ai.usage.total_tokens': v, 'gen_ai.response.model': v, 'gen_ai.conversation.id': v } })),
      JSON.stringify({ timeUnixNano: '99999999999999999999999999', attributes: { 'event.name': 'gen_ai.client.inference.operation.details', 'gen_ai.usage.input_tokens': '123456789012345678901234567890' } }),
    ];
    for (const flags of ['', 'null', '{"shutdowns": 5}', '{"shutdowns": {"a": "b"}}']) {
      expect(() => readCopilotOtel({ path: '/h/otel/o.jsonl', text: otel.join('\n'), mtimeMs: 0, flags })).not.toThrow();
    }
    const events = [
      ...holes((v) => ({ type: 'session.shutdown', timestamp: v, data: v })),
      ...holes((v) => ({ type: 'session.shutdown', timestamp: '2026-01-01T00:00:00Z', data: { modelMetrics: v } })),
      ...holes((v) => ({ type: 'session.shutdown', timestamp: '2026-01-01T00:00:00Z', data: { modelMetrics: { __proto__: v, constructor: { usage: v }, m: { usage: { inputTokens: v } } } } })),
    ];
    expect(() => readCopilotSessionState({ path: '/h/session-state/s/events.jsonl', text: events.join('\n'), mtimeMs: 0, flags: '' })).not.toThrow();
  });
});
