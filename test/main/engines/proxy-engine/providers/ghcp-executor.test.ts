import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeCopilot, type FakeCopilot } from '../../../../fixtures/fake-copilot.js';
import { startEngineProcess, type EngineProcess } from '../../../../fixtures/proxy-engine-process.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';

const KEY = 'sk-sb-proxy-client-key-0123456789';
const SECRET = 'engine-management-secret-0123456789';

let dir: string;
let cleanup: () => Promise<void>;
let copilot: FakeCopilot;
let engine: EngineProcess;

const anthropicStream = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_cp","type":"message","role":"assistant","model":"claude-sonnet-4.5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think."}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBanthropicSig"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hello from Copilot Claude"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":1}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

const chatStream = [
  'data: {"id":"chatcmpl-cp","object":"chat.completion.chunk","created":1,"model":"gpt-5-mini","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n',
  'data: {"id":"chatcmpl-cp","object":"chat.completion.chunk","created":1,"model":"gpt-5-mini","choices":[{"index":0,"delta":{"content":"Hello from Copilot GPT"},"finish_reason":null}]}\n\n',
  'data: {"id":"chatcmpl-cp","object":"chat.completion.chunk","created":1,"model":"gpt-5-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":5,"total_tokens":35}}\n\n',
  'data: [DONE]\n\n',
];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('sb-ghcp-exec-'));
  copilot = await startFakeCopilot();
  copilot.subscribed.add('gho_subscribed');
  await fs.mkdir(path.join(dir, 'auth'));
  await fs.writeFile(path.join(dir, 'auth', 'github-copilot-octo.json'), JSON.stringify({ type: 'github-copilot', username: 'octo', email: 'octo@example.com', access_token: 'gho_subscribed', token_type: 'bearer', scope: 'read:user', timestamp: 1 }));
  engine = await startEngineProcess(dir, `server: { port: {{PORT}}, host: 127.0.0.1 }\nauth: { api_key: ${KEY}, management_secret: ${SECRET} }\n`, dir, {
    SWITCHBOARD_ORIGIN_OVERRIDES: JSON.stringify({ 'https://api.github.com': copilot.github.origin }),
  });
});

afterAll(async () => {
  await engine?.stop();
  await copilot?.close();
  await cleanup?.();
});

beforeEach(() => {
  copilot.api.seen.length = 0;
  copilot.respond = (req) => (req.url.startsWith('/v1/messages') ? { kind: 'sse', chunks: anthropicStream } : { kind: 'sse', chunks: chatStream });
});

function post(pathname: string, body: unknown): Promise<Response> {
  return fetch(engine.base + pathname, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14' }, body: JSON.stringify(body) });
}

describe('Copilot accounts in the built-in engine', () => {
  it('sends Claude models to Copilot’s Anthropic endpoint untranslated, thinking signatures intact', async () => {
    const res = await post('/v1/messages?beta=true', { model: 'claude-sonnet-4.5', max_tokens: 1000, stream: true, thinking: { type: 'enabled', budget_tokens: 4000 }, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"signature":"EqQBanthropicSig"');
    expect(text).toContain('Hello from Copilot Claude');
    const seen = copilot.api.seen.at(-1)!;
    expect(seen.url).toBe('/v1/messages?beta=true');
    expect(seen.headers.authorization).toMatch(/^Bearer tid=copilot-gho_subscribed-\d+;/);
    expect(seen.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(seen.headers['x-initiator']).toBe('user');
    expect(seen.headers['editor-version']).toBe('vscode/1.107.0');
    expect(seen.headers['x-api-key']).toBeUndefined();
  });

  it('translates other models to chat completions, marks tool-loop turns as agent-initiated, and reuses the Copilot token', async () => {
    const before = copilot.exchanges();
    const res = await post('/v1/messages', {
      model: 'gpt-5-mini',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'read it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'A' }] },
      ],
      tools: [{ name: 'Read', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
      stream: true,
    });
    const text = await res.text();
    expect(text).toContain('Hello from Copilot GPT');
    const seen = copilot.api.seen.at(-1)!;
    expect(seen.url).toBe('/chat/completions');
    expect(seen.headers['x-initiator']).toBe('agent');
    expect((seen.body as { messages: Array<{ role: string }> }).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(copilot.exchanges()).toBe(before); // the token from the first request is still fresh
  });

  it('lists Copilot models under ghcp', async () => {
    const list = (await (await fetch(`${engine.base}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { data: Array<{ id: string; owned_by: string }> };
    const ghcp = list.data.filter((m) => m.owned_by === 'ghcp').map((m) => m.id);
    expect(ghcp).toContain('claude-sonnet-4.5');
    expect(ghcp).toContain('gpt-5-mini');
  });

  it('an account without a Copilot subscription is refused with words that say so', async () => {
    copilot.subscribed.delete('gho_subscribed');
    copilot.subscribed.add('gho_other');
    await fs.writeFile(path.join(dir, 'auth', 'github-copilot-octo.json'), JSON.stringify({ type: 'github-copilot', username: 'octo', email: 'octo@example.com', access_token: 'gho_unsubscribed' }));
    // The engine looks at the auth files again within a second.
    let res: Response | undefined;
    for (const started = Date.now(); Date.now() - started < 10_000; ) {
      res = await post('/v1/messages', { model: 'claude-sonnet-4.5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      if (res.status !== 200) break;
      await res.text();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(res!.status).toBe(403);
    expect(((await res!.json()) as { error: { message: string } }).error.message).toBe('ghcp account octo@example.com: GitHub gave no Copilot token (404): this account has no active Copilot subscription');
  });
});
