import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LONG_STRING } from '../../../../../main/engines/proxy-engine/traffic/body-scan.js';
import { ClientBody } from '../../../../../main/engines/proxy-engine/traffic/client-body.js';
import { responsesPlan } from '../../../../../main/engines/proxy-engine/traffic/plan-responses.js';
import { ResponsesTools } from '../../../../../main/engines/proxy-engine/traffic/responses-tools.js';
import { anthropicRequestToResponses } from '../../../../../main/engines/translate/anthropic-responses/request.js';
import type { AnthropicRequest } from '../../../../../main/engines/translate/index.js';

const long = (tag: string) => `${tag} ${'quote " backslash \\ café ’ 😀 \u0001 '.repeat(Math.ceil(LONG_STRING / 30))}`;
const golden = path.resolve('test/fixtures/translate/request-anthropic-to-responses');

/** What the engine sends for `body` to a codex account, and whether it parsed the body whole. */
function plan(body: unknown, tools = new ResponsesTools()): { sent: string; session: string | undefined; parsedWhole: boolean } {
  const request = ClientBody.of(Buffer.from(JSON.stringify(body)))!;
  const parsed = vi.spyOn(request, 'parsed');
  const p = responsesPlan({ client: 'anthropic', endpoint: 'messages', request, clientModel: 'gpt-5.4', upstreamModel: 'gpt-5.4-up' }, true, tools);
  return { sent: p.body.toString('utf8'), session: p.sessionKey, parsedWhole: parsed.mock.calls.length > 0 };
}

/** What a full parse and translation sends (the mapper the golden files pin). */
function reference(body: unknown): { sent: string; session: string | undefined } {
  const out = anthropicRequestToResponses(JSON.parse(JSON.stringify(body)) as AnthropicRequest, { model: 'gpt-5.4-up' });
  return { sent: JSON.stringify(out.body), session: out.body.prompt_cache_key };
}

/** A Claude Code–shaped conversation whose long strings are everywhere the mapper copies, joins or prefixes them. */
function conversation(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'gpt-5.4',
    max_tokens: 32000,
    stream: true,
    system: [{ type: 'text', text: long('system one') }, { type: 'text', text: long('system two'), cache_control: { type: 'ephemeral' } }],
    thinking: { type: 'enabled', budget_tokens: 4000 },
    metadata: { user_id: 'user_abc_account_0123_session_7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09' },
    tools: [{ name: 'Bash', description: long('Bash tool'), input_schema: { type: 'object', properties: { command: { type: 'string', description: long('schema') } } } }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: long('question') }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo'.repeat(60) } }] },
      { role: 'assistant', content: [{ type: 'text', text: long('a') }, { type: 'text', text: long('b') }, { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: { command: long('cmd') } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: long('output'), is_error: true }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: [{ type: 'text', text: long('one') }, { type: 'text', text: long('two') }] }] },
      { role: 'system', content: long('reminder') },
      { role: 'user', content: 'Go on.' },
    ],
    ...over,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('responsesPlan for Anthropic clients', () => {
  it('sends the same bytes as the full translation without parsing a long conversation whole', () => {
    const got = plan(conversation());
    expect(got.sent).toBe(reference(conversation()).sent);
    expect(got.session).toBe('7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09');
    expect(got.parsedWhole).toBe(false);
  });

  it('sends the same bytes as the golden inputs translate to', () => {
    for (const name of fs.readdirSync(golden).filter((f) => f.endsWith('.input.json'))) {
      const input = JSON.parse(fs.readFileSync(path.join(golden, name), 'utf8')) as unknown;
      expect(plan(input).sent, name).toBe(reference(input).sent);
    }
  });

  // Strings the mapper reads rather than copies: hidden as markers they would change the output,
  // so these requests take the full parse and still send what it sends.
  it.each([
    ['a long JSON user_id (the prompt cache key)', { metadata: { user_id: JSON.stringify({ device_id: long('device'), session_id: 'sess-long-1' }) } }],
    [
      'a long backend-signed thinking block',
      { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'thinking', thinking: long('thought'), signature: `gAAAA${'x'.repeat(LONG_STRING)}` }, { type: 'text', text: 'ok' }] }, { role: 'user', content: 'more' }] },
    ],
    ['a long tool name', { tools: [{ name: `mcp__server__${'t'.repeat(LONG_STRING)}`, input_schema: { type: 'object' } }], tool_choice: { type: 'tool', name: `mcp__server__${'t'.repeat(LONG_STRING)}` } }],
    ['a long tool call id', { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${'i'.repeat(LONG_STRING)}`, name: 'Bash', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${'i'.repeat(LONG_STRING)}`, content: 'done' }] }] }],
  ])('%s: the full parse, the same bytes', (_, over) => {
    const got = plan(conversation(over));
    const want = reference(conversation(over));
    expect(got.sent).toBe(want.sent);
    expect(got.session).toBe(want.session);
    expect(got.parsedWhole).toBe(true);
  });

  it('gives the mapper\u2019s error for a body it cannot translate', () => {
    expect(() => plan({ model: 'gpt-5.4', messages: [{ role: 'user', content: [{ type: 'text', text: long('q') }] }, { role: 'assistant', content: 42 }] })).toThrow();
    expect(() => reference({ model: 'gpt-5.4', messages: [{ role: 'user', content: [{ type: 'text', text: long('q') }] }, { role: 'assistant', content: 42 }] })).toThrow();
  });
});

describe('responsesPlan keeps the mapped tools by their bytes', () => {
  /** A memo of its own, with a count of how often the tools were really mapped. */
  function counted(): ResponsesTools & { mapped: () => number } {
    const tools = new ResponsesTools();
    const map = vi.spyOn(tools.mapping, 'map');
    return Object.assign(tools, { mapped: () => map.mock.calls.length });
  }
  const longName = `mcp__claude_in_chrome__${'navigate_to_the_page_'.repeat(4)}`; // over 64: shortened, mapped back
  const withTools = (description: string) =>
    conversation({
      tools: [
        { name: 'Bash', description, input_schema: { type: 'object', properties: { command: { type: 'string', description: long('schema') } } } },
        { name: longName, description: 'Opens a page', input_schema: { type: 'object', properties: {} } },
        { type: 'web_search_20250305', name: 'web_search' },
      ],
      messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: longName, input: { url: long('url') } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: long('page') }] }],
      tool_choice: { type: 'tool', name: 'Bash' },
    });

  it('maps the same tools once and sends what the full translation sends every time', () => {
    const tools = counted();
    const body = withTools(long('Bash tool'));
    for (let i = 0; i < 3; i++) {
      const got = plan(body, tools);
      expect(got.sent).toBe(reference(body).sent);
      expect(got.parsedWhole).toBe(false);
    }
    expect(tools.mapped()).toBe(1);
  });

  it('maps again when one byte of the tools changed, and the answer follows the change', () => {
    const tools = counted();
    plan(withTools(long('Bash tool')), tools);
    const changed = withTools(long('Bash toal'));
    const got = plan(changed, tools);
    expect(got.sent).toBe(reference(changed).sent);
    expect(got.sent).toContain('Bash toal');
    expect(tools.mapped()).toBe(2);
  });

  it('keeps four sets: a fifth pushes out the least recently used', () => {
    const tools = counted();
    const sets = ['a', 'b', 'c', 'd', 'e'].map((tag) => withTools(long(`Bash ${tag}`)));
    for (const body of sets.slice(0, 4)) plan(body, tools);
    plan(sets[0], tools); // a is the newest again
    expect(tools.mapped()).toBe(4);
    plan(sets[4], tools); // pushes out b
    expect(tools.mapped()).toBe(5);
    plan(sets[0], tools);
    expect(tools.mapped()).toBe(5);
    const got = plan(sets[1], tools);
    expect(tools.mapped()).toBe(6);
    expect(got.sent).toBe(reference(sets[1]).sent);
  });

  it('the answer maps shortened tool names back through the kept names', () => {
    const tools = counted();
    const body = withTools(long('Bash tool'));
    plan(body, tools);
    const request = ClientBody.of(Buffer.from(JSON.stringify(body)))!;
    const p = responsesPlan({ client: 'anthropic', endpoint: 'messages', request, clientModel: 'gpt-5.4', upstreamModel: 'gpt-5.4-up' }, false, tools);
    const sent = JSON.parse(p.body.toString('utf8')) as { tools: Array<{ name?: string }> };
    const upstreamName = sent.tools[1]!.name!;
    expect(upstreamName).not.toBe(longName);
    const stream =
      `event: response.output_item.done\ndata: ${JSON.stringify({ type: 'response.output_item.done', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: upstreamName, arguments: '{}' } })}\n\n` +
      `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { id: 'r', status: 'completed', model: 'gpt-5.4', output: [], usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } })}\n\n`;
    const whole = p.decodeWhole!(Buffer.from(stream)) as { answer: { content: Array<{ type: string; name?: string }> } };
    expect(whole.answer.content.find((b) => b.type === 'tool_use')?.name).toBe(longName);
    expect(tools.mapped()).toBe(1);
  });
});
