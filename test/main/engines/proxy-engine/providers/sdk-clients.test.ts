import fs from 'node:fs/promises';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeChatGptBackend, textAnswer, toolCallAnswer, type FakeChatGptBackend } from '../../../../fixtures/fake-chatgpt-backend.js';
import { startFakeCopilot, type FakeCopilot } from '../../../../fixtures/fake-copilot.js';
import type { SeenRequest } from '../../../../fixtures/fake-llm-upstream.js';
import { startEngineProcess, type EngineProcess } from '../../../../fixtures/proxy-engine-process.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';

// The official @anthropic-ai/sdk and openai clients, as a user's code or Claude Code would call
// the engine, through a codex account and a Copilot account, against the local fakes (reached
// through SWITCHBOARD_ORIGIN_OVERRIDES, as the app hands them to the engine). What is asserted is
// what the SDKs parsed: content, tool input, usage and stop reasons.

const KEY = 'sk-sb-proxy-client-key-0123456789';
const SESSION = '7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let dir: string;
let cleanup: () => Promise<void>;
let backend: FakeChatGptBackend;
let copilot: FakeCopilot;
let engine: EngineProcess;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('sb-sdk-clients-'));
  backend = await startFakeChatGptBackend();
  copilot = await startFakeCopilot();
  copilot.subscribed.add('gho_subscribed');
  await fs.mkdir(path.join(dir, 'auth'), { mode: 0o700 });
  await fs.writeFile(
    path.join(dir, 'auth', 'codex-aaaa1111-alice@example.com-plus.json'),
    JSON.stringify({ type: 'codex', access_token: 'at-alice', refresh_token: 'rt-alice', account_id: 'acct-alice', email: 'alice@example.com', expired: '2099-01-01T00:00:00Z' }),
  );
  await fs.writeFile(path.join(dir, 'auth', 'github-copilot-octo.json'), JSON.stringify({ type: 'github-copilot', username: 'octo', email: 'octo@example.com', access_token: 'gho_subscribed', token_type: 'bearer' }));
  engine = await startEngineProcess(dir, `server: { port: {{PORT}}, host: 127.0.0.1 }\nauth: { api_key: ${KEY} }\n`, dir, {
    SWITCHBOARD_ORIGIN_OVERRIDES: JSON.stringify({ 'https://chatgpt.com': backend.origin, 'https://api.github.com': copilot.github.origin }),
  });
  anthropic = new Anthropic({ apiKey: KEY, baseURL: engine.base, maxRetries: 0 });
  openai = new OpenAI({ apiKey: KEY, baseURL: `${engine.base}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await engine?.stop();
  await backend?.close();
  await copilot?.close();
  await cleanup?.();
});

beforeEach(() => {
  backend.seen.length = 0;
  copilot.api.seen.length = 0;
  backend.respond = () => textAnswer('Hello from codex');
  copilot.respond = copilotAnswer;
});

const bash: Anthropic.Tool = { name: 'Bash', description: 'Runs a command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };
const bashFn: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'Bash', description: 'Runs a command', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } } };

/** A Claude Code–shaped first turn: system, tools, thinking, an image, its session. */
function firstTurn(model: string): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: 32000,
    system: [{ type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." }],
    thinking: { type: 'enabled', budget_tokens: 4000 },
    metadata: { user_id: `user_abc_account_0123_session_${SESSION}` },
    tools: [bash],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture? Then list the files.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }],
  };
}

describe('@anthropic-ai/sdk through a codex account', () => {
  it('messages.create, whole: thinking, text, usage and stop reason parsed', async () => {
    // A whole answer: the SDK refuses max_tokens it expects to take over ten minutes unstreamed.
    const message = await anthropic.messages.create({ ...firstTurn('gpt-5.4'), max_tokens: 4096 });
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: 'Thinking it over.', signature: 'gAAAAABfakeEncrypted' });
    expect(message.content[1]).toMatchObject({ type: 'text', text: 'Hello from codex' });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(40);
    expect(message.usage.input_tokens + (message.usage.cache_read_input_tokens ?? 0)).toBe(1200);
    const sent = backend.seen.at(-1)!.body as { input: Array<{ content?: Array<{ type: string; image_url?: string }> }>; tools: Array<{ name: string }>; reasoning: unknown };
    expect(sent.input[0]!.content!.find((c) => c.type === 'input_image')?.image_url).toBe(`data:image/png;base64,${PNG}`);
    expect(sent.tools.map((t) => t.name)).toEqual(['Bash']);
    expect(sent.reasoning).toMatchObject({ summary: 'auto' });
  });

  it('messages.stream with tools: the SDK assembles the tool_use input', async () => {
    backend.respond = () => toolCallAnswer('Bash', { command: 'ls -la' });
    const stream = anthropic.messages.stream(firstTurn('gpt-5.4'));
    const deltas: string[] = [];
    stream.on('inputJson', (partial) => deltas.push(partial));
    const message = await stream.finalMessage();
    const call = message.content.find((b) => b.type === 'tool_use');
    expect(call).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'ls -la' } });
    expect(deltas.join('')).toBe(JSON.stringify({ command: 'ls -la' }));
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage.output_tokens).toBe(40);
  });

  it('a two-turn agent loop: the call and its tool_result go back, the answer is parsed', async () => {
    backend.respond = () => toolCallAnswer('Bash', { command: 'ls' });
    const first = firstTurn('gpt-5.4');
    const turn1 = await anthropic.messages.stream(first).finalMessage();
    const call = turn1.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    backend.respond = () => textAnswer('There are two files.');
    const turn2 = await anthropic.messages
      .stream({ ...first, messages: [...first.messages, { role: 'assistant', content: turn1.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'a.ts\nb.ts' }] }] })
      .finalMessage();
    expect(turn2.content.find((b) => b.type === 'text')).toMatchObject({ text: 'There are two files.' });
    expect(turn2.stop_reason).toBe('end_turn');
    const input = (backend.seen.at(-1)!.body as { input: Array<Record<string, unknown>> }).input;
    expect(input.find((i) => i.type === 'function_call')).toMatchObject({ name: 'Bash', arguments: JSON.stringify({ command: 'ls' }) });
    expect(input.find((i) => i.type === 'function_call_output')).toMatchObject({ output: 'a.ts\nb.ts' });
  });
});

describe('openai client through a codex account', () => {
  it('chat.completions.create, whole, with tools', async () => {
    backend.respond = () => toolCallAnswer('Bash', { command: 'pwd' });
    const completion = await openai.chat.completions.create({ model: 'gpt-5.4', messages: [{ role: 'user', content: 'Where am I?' }], tools: [bashFn] });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('Bash');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ command: 'pwd' });
    expect(completion.usage).toMatchObject({ prompt_tokens: 1200, completion_tokens: 40 });
  });

  it('chat.completions streaming, with tools: the client\u2019s helper assembles the call', async () => {
    backend.respond = () => toolCallAnswer('Bash', { command: 'pwd' });
    const stream = openai.chat.completions.stream({ model: 'gpt-5.4', messages: [{ role: 'user', content: 'Where am I?' }], tools: [bashFn], stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls![0]!;
    expect(call.type === 'function' && call.function.name).toBe('Bash');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ command: 'pwd' });
    expect(completion.usage).toMatchObject({ prompt_tokens: 1200, completion_tokens: 40 });
  });

  it('chat.completions streaming, text', async () => {
    const stream = openai.chat.completions.stream({ model: 'gpt-5.4', messages: [{ role: 'user', content: 'hi' }] });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]!.message.content).toBe('Hello from codex');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
  });
});

// Copilot: Claude models are passed through to its Anthropic endpoint; GPT models go to its chat completions.
const claudeWhole = { id: 'msg_cp', type: 'message', role: 'assistant', model: 'claude-sonnet-4.5', content: [{ type: 'thinking', thinking: 'Let me think.', signature: 'EqQBsig' }, { type: 'tool_use', id: 'toolu_cp1', name: 'Bash', input: { command: 'ls' } }], stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 30, output_tokens: 9 } };
const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const claudeStream = [
  sse('message_start', { type: 'message_start', message: { ...claudeWhole, content: [], stop_reason: null, usage: { input_tokens: 30, output_tokens: 1 } } }),
  sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think.' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBsig' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_cp1', name: 'Bash', input: {} } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"command":' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"ls"}' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 1 }),
  sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }),
  sse('message_stop', { type: 'message_stop' }),
];
const toolCall = { id: 'call_cp1', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } };
const gptWhole = { id: 'chatcmpl-cp', object: 'chat.completion', created: 1, model: 'gpt-5-mini', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [toolCall] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35 } };
const chunk = (delta: object, finish: string | null = null, usage?: object) => `data: ${JSON.stringify({ id: 'chatcmpl-cp', object: 'chat.completion.chunk', created: 1, model: 'gpt-5-mini', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
const gptStream = [
  chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_cp1', type: 'function', function: { name: 'Bash', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"command":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }),
  chunk({}, 'tool_calls', { prompt_tokens: 30, completion_tokens: 5, total_tokens: 35 }),
  'data: [DONE]\n\n',
];

function copilotAnswer(req: SeenRequest) {
  const streamed = (req.body as { stream?: unknown }).stream === true;
  if (req.url.startsWith('/v1/messages')) return streamed ? { kind: 'sse' as const, chunks: claudeStream } : { kind: 'json' as const, body: claudeWhole };
  return streamed ? { kind: 'sse' as const, chunks: gptStream } : { kind: 'json' as const, body: gptWhole };
}

describe('@anthropic-ai/sdk through a Copilot account', () => {
  for (const model of ['claude-sonnet-4.5', 'gpt-5-mini']) {
    it(`${model}: whole and streaming, tool_use input, usage and stop reason parsed`, async () => {
      const whole = await anthropic.messages.create({ ...firstTurn(model), max_tokens: 4096 });
      const stream = anthropic.messages.stream(firstTurn(model));
      const streamed = await stream.finalMessage();
      for (const message of [whole, streamed]) {
        expect(message.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'Bash', input: { command: 'ls' } });
        expect(message.stop_reason).toBe('tool_use');
        expect(message.usage.output_tokens).toBeGreaterThan(0);
      }
      if (model.startsWith('claude')) expect(streamed.content[0]).toMatchObject({ type: 'thinking', signature: 'EqQBsig' });
      expect(copilot.api.seen.map((r) => r.url.split('?')[0])).toEqual(model.startsWith('claude') ? ['/v1/messages', '/v1/messages'] : ['/chat/completions', '/chat/completions']);
    });
  }
});

describe('openai client through a Copilot account', () => {
  it('gpt-5-mini: chat completions whole and streaming with tools', async () => {
    const whole = await openai.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'ls' }], tools: [bashFn] });
    const streamed = await openai.chat.completions.stream({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'ls' }], tools: [bashFn], stream_options: { include_usage: true } }).finalChatCompletion();
    for (const completion of [whole, streamed]) {
      const choice = completion.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      const call = choice.message.tool_calls![0]!;
      expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ command: 'ls' });
      expect(completion.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 5 });
    }
  });
});
