import { describe, expect, it } from 'vitest';
import { LONG_STRING } from '../../../../../main/engines/proxy-engine/traffic/body-scan.js';
import { ClientBody, type ToolsMapping } from '../../../../../main/engines/proxy-engine/traffic/client-body.js';
import { ToolsMemo } from '../../../../../main/engines/proxy-engine/traffic/tools-memo.js';
import { anthropicRequestToOpenAI, anthropicToolsToOpenAI, type AnthropicRequest, type AnthropicTool, type OpenAITool } from '../../../../../main/engines/translate/index.js';

const long = (tag: string) => `${tag} ${'quote " backslash \\ café ’ 😀 \u0001 '.repeat(Math.ceil(LONG_STRING / 30))}`;
const tool = (name: string, description = `Runs ${name}.`): AnthropicTool => ({
  name,
  description,
  input_schema: { type: 'object', properties: { command: { type: 'string', description: long(`${name} schema`) }, n: { type: 'integer', minimum: 0 } }, required: ['command'] },
});
const request = (tools: unknown, over: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ model: 'claude', max_tokens: 100, system: long('system'), messages: [{ role: 'user', content: long('question') }], tools, tool_choice: { type: 'any' }, stream: true, ...over }));

/** The engine's mapping with a memo of its own, and a count of how often it really mapped. */
function mapping(): ToolsMapping & { mapped: number } {
  const m = { mapped: 0, memo: new ToolsMemo(), map: (t: unknown) => (m.mapped++, anthropicToolsToOpenAI(t as AnthropicTool[])) };
  return m;
}
const build = (b: Record<string, unknown>, tools?: unknown[]) => anthropicRequestToOpenAI(b as unknown as AnthropicRequest, { model: 'gpt-4o', mappedTools: tools as OpenAITool[] | undefined });
/** What a full parse and translation would send. */
const reference = (raw: Buffer) => JSON.parse(JSON.stringify(anthropicRequestToOpenAI(JSON.parse(raw.toString('utf8')) as AnthropicRequest, { model: 'gpt-4o' })));
const encode = (raw: Buffer, m: ToolsMapping) => ClientBody.of(raw)!.encode(build, m);

describe('ClientBody.encode with the tools mapped apart', () => {
  it('sends what the full translation sends, mapping the same tools once', () => {
    const m = mapping();
    const tools = [tool('Bash', long('Bash description')), tool('Read'), { type: 'web_search_20250305', name: 'web_search' }];
    const first = encode(request(tools), m);
    expect(JSON.parse(first.toString())).toEqual(reference(request(tools)));
    // The next turn: other messages, the same tools; the kept mapping gives the same bytes.
    const next = request(tools, { messages: [{ role: 'user', content: 'and now?' }] });
    expect(JSON.parse(encode(next, m).toString())).toEqual(reference(next));
    expect(m.mapped).toBe(1);
    expect(encode(request(tools), m).equals(first)).toBe(true);
    expect(m.mapped).toBe(1);
  });

  it('maps again when a byte of the tools differs, and keeps the client’s escapes', () => {
    const m = mapping();
    const a = request([tool('Bash')]);
    const b = Buffer.from(a.toString().replace('Runs Bash.', 'Runs bash.'));
    // Inside a long string (a schema description), the client's own escape is what goes upstream.
    const escaped = Buffer.from(a.toString().replace('Bash schema', 'B\\u0061sh schema'));
    for (const raw of [a, b, escaped, a]) expect(JSON.parse(encode(raw, m).toString())).toEqual(reference(raw));
    expect(m.mapped).toBe(3);
    expect(encode(escaped, m).includes('B\\u0061sh')).toBe(true);
  });

  it('leaves tools out, tool_choice with them, when no tool is one the upstream can take', () => {
    const m = mapping();
    const raw = request([{ type: 'web_search_20250305', name: 'web_search' }]);
    const out = JSON.parse(encode(raw, m).toString()) as Record<string, unknown>;
    expect(out).toEqual(reference(raw));
    expect(out.tools).toBeUndefined();
    expect(out.tool_choice).toBeUndefined();
    expect(JSON.parse(encode(request([]), m).toString())).toEqual(reference(request([])));
  });

  it('gives the translator’s error for tools of a bad shape, and keeps nothing for them', () => {
    const m = mapping();
    for (const tools of [{ not: 'a list' }, [null], 'Bash']) {
      const raw = request(tools);
      let expected: unknown;
      try {
        reference(raw);
      } catch (err) {
        expected = (err as Error).message;
      }
      if (expected === undefined) expect(JSON.parse(encode(raw, m).toString())).toEqual(reference(raw));
      else expect(() => encode(raw, m)).toThrow(expected as string);
    }
    // Broken deep inside (the scan only vouches for the top level): the full parse's SyntaxError, not a translation.
    const broken = Buffer.from(request([tool('Bash')]).toString().replace('"minimum":0', '"minimum":0x'));
    expect(() => encode(broken, m)).toThrow(SyntaxError);
    expect(() => encode(broken, m)).toThrow(SyntaxError);
  });
});

describe('ToolsMemo', () => {
  const bytes = (text: string) => Buffer.from(`{"tools":${text}}`);
  const span = (raw: Buffer): [number, number] => [9, raw.length - 1];

  it('answers only for the same bytes, newest kept, up to its capacity', () => {
    const memo = new ToolsMemo(2);
    const [a, b, c] = ['[1]', '[2]', '[3]'].map(bytes);
    memo.set(a!, ...span(a!), Buffer.from('A'));
    memo.set(b!, ...span(b!), null);
    expect(memo.get(bytes('[1]'), ...span(a!))?.toString()).toBe('A');
    expect(memo.get(bytes('[2]'), ...span(b!))).toBeNull();
    expect(memo.get(bytes('[4]'), ...span(a!))).toBeUndefined();
    // [2] was asked last; [3] pushes out the least recently used, [1].
    memo.set(c!, ...span(c!), Buffer.from('C'));
    expect(memo.get(a!, ...span(a!))).toBeUndefined();
    expect(memo.get(b!, ...span(b!))).toBeNull();
  });

  it('keeps a copy of the bytes, and nothing beyond its size limit', () => {
    const memo = new ToolsMemo(4, 8);
    const raw = bytes('[1,2]');
    memo.set(raw, ...span(raw), Buffer.from('X'));
    raw[10] = 0x39; // the request's buffer is reused: the memo must not follow it
    expect(memo.get(raw, ...span(raw))).toBeUndefined();
    expect(memo.get(bytes('[1,2]'), ...span(raw))?.toString()).toBe('X');
    const big = bytes(`[${'1,'.repeat(10)}1]`);
    memo.set(big, ...span(big), Buffer.from('Y'));
    expect(memo.get(big, ...span(big))).toBeUndefined();
  });
});
