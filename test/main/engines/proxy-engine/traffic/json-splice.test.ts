import { describe, expect, it } from 'vitest';
import { ClientBody } from '../../../../../main/engines/proxy-engine/traffic/client-body.js';
import { LONG_STRING } from '../../../../../main/engines/proxy-engine/traffic/body-scan.js';
import { anthropicRequestToOpenAI, stripUnsignedThinking, type AnthropicRequest } from '../../../../../main/engines/translate/index.js';

/** Long text with everything JSON escapes, non-ASCII and an astral character. */
const long = (tag: string) => `${tag} ${'quote " backslash \\ slash / tab \t newline \n café ’ 😀 \u0001 '.repeat(Math.ceil(LONG_STRING / 40))}`;
const pixel = 'iVBORw0KGgo'.repeat(60);

const request = (over: Partial<AnthropicRequest> = {}): AnthropicRequest =>
  ({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    system: [
      { type: 'text', text: long('system one') },
      { type: 'text', text: long('system two'), cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: long('question') }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: long('thought'), signature: long('sig') },
          { type: 'text', text: long('answer') },
          { type: 'tool_use', id: 'toolu_1', name: 'Write', input: { path: 'a.ts', content: long('file body') } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: long('tool output') },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: long('part') }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pixel } }] },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pixel } },
        ],
      },
      { role: 'user', content: long('plain string content') },
    ],
    tools: [{ name: 'Write', description: long('tool description'), input_schema: { type: 'object', properties: { content: { type: 'string', description: long('schema text') } } } }],
    metadata: { user_id: 'user_1' },
    stream: true,
    ...over,
  }) as AnthropicRequest;

/** What the engine sent before splicing: the whole body parsed, built, stringified. */
function reference(raw: Buffer, build: (b: Record<string, unknown>) => unknown): unknown {
  return JSON.parse(JSON.stringify(build(JSON.parse(raw.toString('utf8')) as Record<string, unknown>)));
}

function encoded(raw: Buffer, build: (b: Record<string, unknown>) => unknown): { bytes: Buffer; value: unknown } {
  const bytes = ClientBody.of(raw)!.encode(build);
  return { bytes, value: JSON.parse(bytes.toString('utf8')) };
}

const toOpenAI = (b: Record<string, unknown>) => anthropicRequestToOpenAI(b as unknown as AnthropicRequest, { model: 'glm-4.6' });

describe('ClientBody.encode (long strings spliced as the client sent them)', () => {
  it('translates a Claude Code request to the same OpenAI request as a full parse would', () => {
    const raw = Buffer.from(JSON.stringify(request()));
    expect(ClientBody.of(raw)!.facts.longStrings.length).toBeGreaterThan(10);
    expect(encoded(raw, toOpenAI).value).toEqual(reference(raw, toOpenAI));
  });

  it('keeps the client’s own bytes for a long string: nothing decoded and encoded again', () => {
    // JSON.stringify would write é and ’ as themselves; this client escaped them, and that stays.
    const ascii = JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: long('escaped') }] }).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const raw = Buffer.from(ascii);
    const { bytes, value } = encoded(raw, toOpenAI);
    expect(bytes.includes('\\u00e9')).toBe(true);
    expect(bytes.includes('\\ud83d\\ude00')).toBe(true);
    expect(value).toEqual(reference(raw, toOpenAI));
  });

  it('splices into joined strings, data URLs and tool arguments (JSON inside a string)', () => {
    const raw = Buffer.from(JSON.stringify(request()));
    const out = encoded(raw, toOpenAI).value as { messages: Array<{ role: string; content: unknown; tool_calls?: Array<{ function: { arguments: string } }> }> };
    expect(out.messages[0]!.content).toBe(`${long('system one')}\n\n${long('system two')}`);
    const args = JSON.parse(out.messages.find((m) => m.tool_calls)!.tool_calls![0]!.function.arguments) as { content: string };
    expect(args.content).toBe(long('file body'));
    expect(JSON.stringify(out)).toContain(`data:image/png;base64,${pixel}`);
  });

  it('re-aliases a passthrough body and strips unsigned thinking the same way', () => {
    const unsigned = request();
    (unsigned.messages[1]!.content as Array<{ type: string; signature?: string }>)[0]!.signature = undefined;
    for (const body of [request(), unsigned]) {
      const raw = Buffer.from(JSON.stringify(body));
      const alias = (b: Record<string, unknown>) => ({ ...stripUnsignedThinking(b as unknown as AnthropicRequest), model: 'upstream-id' });
      expect(encoded(raw, alias).value).toEqual(reference(raw, alias));
    }
  });

  it('falls back to the parsed body when a marker would be cut or nested deeper than once', () => {
    const raw = Buffer.from(JSON.stringify(request()));
    const cut = (b: Record<string, unknown>) => ({ first: String((b.messages as Array<{ content: unknown }>)[3]!.content).slice(0, 20) });
    expect(encoded(raw, cut).value).toEqual({ first: long('plain string content').slice(0, 20) });
    // Cut down to its first character, a marker is still noticed.
    const stub = (b: Record<string, unknown>) => ({ first: String((b.messages as Array<{ content: unknown }>)[3]!.content).slice(0, 1) });
    expect(encoded(raw, stub).value).toEqual({ first: long('plain string content').slice(0, 1) });
    const twice = (b: Record<string, unknown>) => ({ deep: JSON.stringify(JSON.stringify(b.tools)) });
    expect(encoded(raw, twice).value).toEqual(reference(raw, twice));
  });

  it('gives the translator’s error for a bad shape, as the full parse does', () => {
    const raw = Buffer.from(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: long('x') }, null] }] }));
    let expected: unknown;
    try {
      toOpenAI(JSON.parse(raw.toString()) as Record<string, unknown>);
    } catch (err) {
      expected = (err as Error).message;
    }
    expect(expected).toBeDefined();
    expect(() => ClientBody.of(raw)!.encode(toOpenAI)).toThrow(expected as string);
  });

  it('encodes bodies without long strings by the plain path', () => {
    const raw = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}');
    expect(ClientBody.of(raw)!.facts.longStrings).toEqual([]);
    expect(encoded(raw, toOpenAI).value).toEqual(reference(raw, toOpenAI));
  });
});
