import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failedMidStream, startFakeChatGptBackend, textAnswer, toolCallAnswer, usageLimitAnswer, type FakeChatGptBackend } from '../../../../fixtures/fake-chatgpt-backend.js';
import { startEngineProcess, type EngineProcess } from '../../../../fixtures/proxy-engine-process.js';
import { makeTempDir } from '../../../../helpers/temp-dir.js';

const KEY = 'sk-sb-proxy-client-key-0123456789';
const SECRET = 'engine-management-secret-0123456789';
const SESSION = '7d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09';

let dir: string;
let cleanup: () => Promise<void>;
let backend: FakeChatGptBackend;
let engine: EngineProcess;

/** An auth file as the accounts service writes it (CLIProxyAPI's codex format, reference §4). */
function codexFile(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'codex',
    id_token: 'eyJhbGciOiJub25lIn0.eyJlbWFpbCI6Im5vbmUifQ.sig',
    access_token: `at-${name}`,
    refresh_token: `rt-${name}`,
    account_id: `acct-${name}`,
    email: `${name}@example.com`,
    last_refresh: '2026-11-26T00:00:00Z',
    expired: '2026-12-31T00:00:00Z',
    ...extra,
  });
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('sb-codex-exec-'));
  backend = await startFakeChatGptBackend();
  await fs.mkdir(path.join(dir, 'auth'), { mode: 0o700 });
  await fs.writeFile(path.join(dir, 'auth', 'codex-aaaa1111-alice@example.com-plus.json'), codexFile('alice'));
  await fs.writeFile(path.join(dir, 'auth', 'codex-bbbb2222-bob@example.com-plus.json'), codexFile('bob'));
  await fs.writeFile(path.join(dir, 'auth', 'codex-cccc3333-carol@example.com-plus.json'), codexFile('carol', { disabled: true }));
  await fs.writeFile(path.join(dir, 'auth', 'github-copilot-dave.json'), JSON.stringify({ type: 'github-copilot', access_token: 'gho_x' }));
  await fs.writeFile(path.join(dir, 'auth', 'broken.json'), '{ not json');
  engine = await startEngineProcess(
    dir,
    `
server: { port: {{PORT}}, host: 127.0.0.1 }
auth: { api_key: ${KEY}, management_secret: ${SECRET} }
routing: { cooldown_seconds: 30, first_byte_timeout_seconds: 10 }
`,
    dir,
    { SWITCHBOARD_ORIGIN_OVERRIDES: JSON.stringify({ 'https://chatgpt.com': backend.origin }) },
  );
});

afterAll(async () => {
  await engine?.stop();
  await backend?.close();
  await cleanup?.();
});

beforeEach(() => {
  backend.seen.length = 0;
  backend.respond = () => textAnswer('Hello from codex');
});

function post(pathname: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(engine.base + pathname, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01', ...headers }, body: JSON.stringify(body) });
}

/** A Claude Code–shaped request: system blocks, tools, thinking, its session in metadata.user_id. */
function claudeCodeRequest(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'gpt-5.4',
    max_tokens: 32000,
    stream: true,
    system: [{ type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." }],
    thinking: { type: 'enabled', budget_tokens: 31999 },
    metadata: { user_id: JSON.stringify({ device_id: 'dev', account_uuid: '', session_id: SESSION }) },
    tools: [{ name: 'Bash', description: 'Runs a command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'List the files' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
    ...extra,
  };
}

/** The events of an Anthropic SSE answer, parsed. */
function events(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .split('\n\n')
    .filter((b) => b.startsWith('event: '))
    .map((b) => {
      const [first, second] = b.split('\n');
      return { event: first!.slice(7), data: JSON.parse(second!.slice(6)) as Record<string, unknown> };
    });
}

async function requestLog(): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${engine.base}/v0/management/requests?limit=50`, { headers: { authorization: `Bearer ${SECRET}` } });
  return ((await res.json()) as { requests: Array<Record<string, unknown>> }).requests;
}

describe('codex accounts in the built-in engine', () => {
  it('lists the codex models of signed-in accounts, owned by the provider', async () => {
    const res = await fetch(`${engine.base}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } });
    const list = (await res.json()) as { data: Array<{ id: string; owned_by: string }> };
    expect(list.data.filter((m) => m.owned_by === 'codex').map((m) => m.id)).toContain('gpt-5.4');
    expect(list.data.some((m) => m.owned_by === 'github-copilot')).toBe(false);
  });

  it('runs a Claude Code–shaped streaming request with tools on an account, as the backend expects it', async () => {
    backend.respond = () => toolCallAnswer('Bash', { command: 'ls -la' });
    const res = await post('/v1/messages?beta=true', claudeCodeRequest());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const got = events(await res.text());
    expect(got.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(got[1]!.data.content_block).toEqual({ type: 'tool_use', id: 'call_fake1', name: 'Bash', input: {} });
    const json = got.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { partial_json: string }).partial_json).join('');
    expect(JSON.parse(json)).toEqual({ command: 'ls -la' });
    expect((got[5]!.data.delta as { stop_reason: string }).stop_reason).toBe('tool_use');
    expect(got[5]!.data.usage).toEqual({ input_tokens: 200, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000 });

    const seen = backend.seen.at(-1)!;
    expect(seen.url).toBe('/backend-api/codex/responses');
    expect(seen.headers.authorization).toMatch(/^Bearer at-(alice|bob)$/);
    expect(seen.headers['chatgpt-account-id']).toBe(`acct-${seen.headers.authorization!.slice(10)}`);
    expect(seen.headers.originator).toBe('codex-tui');
    expect(seen.headers.session_id).toBe(SESSION);
    expect(seen.headers['x-api-key']).toBeUndefined();
    const body = seen.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'gpt-5.4', stream: true, store: false, reasoning: { effort: 'high', summary: 'auto' }, prompt_cache_key: SESSION });
    expect(body.tools).toEqual([{ type: 'function', name: 'Bash', description: 'Runs a command', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }, strict: false }]);
    expect((body.input as Array<{ content: Array<{ type: string }> }>)[0]!.content.map((c) => c.type)).toEqual(['input_text', 'input_image']);
  });

  it('hands the backend its own reasoning back on the next turn of the agent loop', async () => {
    const first = events(await (await post('/v1/messages', claudeCodeRequest())).text());
    const signature = first.find((e) => (e.data.delta as { type?: string } | undefined)?.type === 'signature_delta')!.data.delta as { signature: string };
    expect(signature.signature).toBe('gAAAAABfakeEncrypted');
    await post('/v1/messages', claudeCodeRequest({
      messages: [
        { role: 'user', content: 'List the files' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Thinking it over.', signature: signature.signature }, { type: 'tool_use', id: 'call_fake1', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_fake1', content: 'a.txt\nb.txt' }] },
      ],
    })).then((r) => r.text());
    const input = (backend.seen.at(-1)!.body as { input: Array<Record<string, unknown>> }).input;
    expect(input.map((i) => i.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    expect(input[1]).toEqual({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking it over.' }], encrypted_content: 'gAAAAABfakeEncrypted' });
  });

  it('gathers the always-streamed answer for a client that asked for a whole one', async () => {
    const res = await post('/v1/messages', claudeCodeRequest({ stream: false }));
    expect(res.status).toBe(200);
    const message = (await res.json()) as { content: Array<Record<string, unknown>>; stop_reason: string; model: string };
    expect(message.model).toBe('gpt-5.4');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Thinking it over.', signature: 'gAAAAABfakeEncrypted' },
      { type: 'text', text: 'Hello from codex' },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect((backend.seen.at(-1)!.body as { stream: boolean }).stream).toBe(true);
  });

  it('serves OpenAI chat clients too, streaming', async () => {
    const res = await fetch(`${engine.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'gpt-5.4', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    expect(text).toContain('"content":"H"');
    expect(text).toContain('"content":"ello from codex"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('shares traffic between the active accounts and never uses a paused one', async () => {
    // Four sessions: one session would stay on its account (session affinity).
    for (let i = 0; i < 4; i++) await (await post('/v1/messages', claudeCodeRequest({ stream: false, metadata: { user_id: `share-${i}` } }))).json();
    const tokens = backend.seen.map((r) => r.headers.authorization);
    expect(new Set(tokens)).toEqual(new Set(['Bearer at-alice', 'Bearer at-bob']));
    expect(tokens.filter((t) => t === 'Bearer at-alice')).toHaveLength(2);
  });

  it('cools an account down on its quota answer until the reset, and the request moves to the next account', async () => {
    backend.respond = (req) => (req.headers.authorization === 'Bearer at-alice' ? usageLimitAnswer(3600) : textAnswer('served by bob'));
    for (let i = 0; i < 3; i++) {
      const res = await post('/v1/messages', claudeCodeRequest({ stream: false }));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { content: Array<{ text?: string }> }).content[1]!.text).toBe('served by bob');
    }
    // alice was asked once, then left alone while she cools.
    expect(backend.seen.filter((r) => r.headers.authorization === 'Bearer at-alice')).toHaveLength(1);
    const log = await requestLog();
    expect(log[0]).toMatchObject({ upstream: 'codex', account: 'bob@example.com', status: 200 });
    expect(log[0]!.tokens).toEqual({ input: 200, output: 40, cacheRead: 1000, cacheWrite: 0 });
  });

  it('tells the client what to do when every account is out of quota', async () => {
    backend.respond = () => usageLimitAnswer(600);
    const res = await post('/v1/messages', claudeCodeRequest({ stream: false, model: 'gpt-5.4-mini' }));
    expect(res.status).toBe(429);
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.error.message).toMatch(/^codex account (alice|bob)@example\.com: quota exhausted until \d{4}-\d\d-\d\dT/);
  });
});

describe('codex account failures', () => {
  let failDir: string;
  let failCleanup: () => Promise<void>;
  let failEngine: EngineProcess;

  beforeAll(async () => {
    ({ dir: failDir, cleanup: failCleanup } = await makeTempDir('sb-codex-fail-'));
    await fs.mkdir(path.join(failDir, 'auth'));
    await fs.writeFile(path.join(failDir, 'auth', 'codex-dddd4444-erin@example.com.json'), codexFile('erin'));
    failEngine = await startEngineProcess(failDir, `server: { port: {{PORT}}, host: 127.0.0.1 }\nauth: { api_key: ${KEY}, management_secret: ${SECRET} }\n`, failDir, {
      SWITCHBOARD_ORIGIN_OVERRIDES: JSON.stringify({ 'https://chatgpt.com': backend.origin }),
    });
  });

  afterAll(async () => {
    await failEngine?.stop();
    await failCleanup?.();
  });

  const postFail = (body: unknown) => fetch(`${failEngine.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, body: JSON.stringify(body) });

  it('a mid-stream failure reaches the client as an error event and the request log as a stream error', async () => {
    backend.respond = () => failedMidStream('server_error', 'An error occurred while processing your request.');
    const got = events(await (await postFail(claudeCodeRequest())).text());
    expect(got.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'An error occurred while processing your request.' } } });
    const log = (await (await fetch(`${failEngine.base}/v0/management/requests?limit=1`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as { requests: Array<Record<string, unknown>> };
    expect(log.requests[0]).toMatchObject({ outcome: 'stream_error', status: 500, account: 'erin@example.com' });
  });

  it('a prompt too long for the model is the client’s 400, in words Claude Code compacts on', async () => {
    backend.respond = () => failedMidStream('context_length_exceeded', 'Your input exceeds the context window of this model.');
    const res = await postFail(claudeCodeRequest({ stream: false }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('prompt is too long: Your input exceeds the context window of this model.');
  });

  it('an account the provider signed out says to sign in again', async () => {
    backend.respond = () => ({ kind: 'json', status: 401, body: { error: { message: 'Your authentication token has expired.', code: 'token_expired' } } });
    const res = await postFail(claudeCodeRequest({ stream: false }));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('codex account erin@example.com was signed out by the provider: sign in again (switchboard login codex)');
  });
});
