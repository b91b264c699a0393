import { describe, expect, it } from 'vitest';
import { responsesPair } from '../../../../../main/engines/translate/index.js';

const answer = {
  id: 'resp_1',
  status: 'completed',
  output: [{ type: 'function_call', call_id: 'call_1', name: 'mcp__do_it_' + 'x', arguments: '{}' }],
  usage: { input_tokens: 5, output_tokens: 1 },
};

describe('the Responses pairs, by client format', () => {
  it('anthropic: upstream model in the body, client model and client tool names in the answer', () => {
    const pair = responsesPair('anthropic');
    const long = `mcp__${'s'.repeat(60)}__do_it`;
    const plan = pair.request({ model: 'opus', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], tools: [{ name: long, input_schema: { type: 'object' } }] }, { model: 'opus', upstreamModel: 'gpt-5.1-codex' });
    expect(plan.body.model).toBe('gpt-5.1-codex');
    const upstreamName = (plan.body.tools![0] as { name: string }).name;
    const out = pair.response({ ...answer, output: [{ ...answer.output[0]!, name: upstreamName }] }, plan, { model: 'opus' }) as { model: string; content: Array<{ name?: string }> };
    expect(out.model).toBe('opus');
    expect(out.content[0]!.name).toBe(long);
    const sse = pair.stream(plan, { model: 'opus' });
    expect(sse.feed('event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1"}}\n\n')).toContain('"model":"opus"');
  });

  it('openai: a chat client gets chat completion shapes', () => {
    const pair = responsesPair('openai');
    const plan = pair.request({ model: 'gpt', messages: [{ role: 'user', content: 'x' }] }, { upstreamModel: 'gpt-5.1-codex' });
    expect(plan.body.input).toEqual([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }]);
    const out = pair.response(answer, plan, { model: 'gpt' }) as { object: string; choices: Array<{ finish_reason: string }> };
    expect(out.object).toBe('chat.completion');
    expect(out.choices[0]!.finish_reason).toBe('tool_calls');
    const sse = pair.stream(plan, { model: 'gpt' });
    expect(sse.feed('event: response.created\ndata: {"type":"response.created","response":{"id":"resp_1"}}\n\n')).toContain('chat.completion.chunk');
  });
});
