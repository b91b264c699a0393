import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientBody } from '../../../../../main/engines/proxy-engine/traffic/client-body.js';
import { scanBody } from '../../../../../main/engines/proxy-engine/traffic/body-scan.js';
import { allThinkingSigned, ThinkingObjectTracker } from '../../../../../main/engines/proxy-engine/traffic/thinking-blocks.js';
import type { AnthropicRequest } from '../../../../../main/engines/translate/anthropic-types.js';
import { stripUnsignedThinking } from '../../../../../main/engines/translate/sanitize.js';

const objectsOf = (text: string) => {
  const spans = scanBody(Buffer.from(text))?.thinkingObjects;
  if (!spans) return spans;
  const out: unknown[] = [];
  for (let k = 0; k < spans.length; k += 2) out.push(JSON.parse(Buffer.from(text).toString('utf8', spans[k], spans[k + 1])));
  return out;
};

describe('the scan notes the innermost objects holding a thinking token', () => {
  it('notes each thinking block once, and only the block, however deep the message', () => {
    const signed = { type: 'thinking', thinking: 'thinking about it', signature: 'EqQBCkYI' };
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [signed, { type: 'text', text: 'b' }] }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 's2' }] }] });
    expect(objectsOf(body)).toEqual([signed, { type: 'thinking', thinking: 'x', signature: 's2' }]);
  });

  it('a bare word in a message notes the message object; escapes spell it too', () => {
    expect(objectsOf('{"model":"m","messages":[{"role":"user","content":"thinking"}]}')).toEqual([{ role: 'user', content: 'thinking' }]);
    expect(objectsOf('{"model":"m","messages":[{"role":"assistant","content":[{"type":"thin\\u006bing","thinking":"t","signature":"s"}]}]}')).toEqual([{ type: 'thinking', thinking: 't', signature: 's' }]);
  });

  it('gives no spans (parse the whole body) when a token sits outside any object', () => {
    expect(scanBody(Buffer.from('{"model":"m","messages":["thinking"]}'))).toMatchObject({ mayHoldThinking: true });
    expect(scanBody(Buffer.from('{"model":"m","messages":["thinking"]}'))?.thinkingObjects).toBeUndefined();
    expect(scanBody(Buffer.from('{"model":"m","messages":"thinking"}'))?.thinkingObjects).toBeUndefined();
  });

  it('notes nothing without a thinking token', () => {
    expect(scanBody(Buffer.from('{"model":"m","messages":[{"role":"user","content":"hi"}]}'))?.thinkingObjects).toBeUndefined();
  });
});

describe('ThinkingObjectTracker', () => {
  it('keeps the marked objects in the order they closed', () => {
    const t = new ThinkingObjectTracker();
    t.open(0);
    t.open(5);
    t.mark();
    t.close(9);
    t.mark();
    t.close(20);
    expect(t.spans()).toEqual([5, 10, 0, 21]);
  });

  it.each([
    ['a mark outside any object', (t: ThinkingObjectTracker) => t.mark()],
    ['a close without an open', (t: ThinkingObjectTracker) => t.close(3)],
    ['an object left open', (t: ThinkingObjectTracker) => t.open(0)],
  ])('is lost after %s', (_what, act) => {
    const t = new ThinkingObjectTracker();
    act(t);
    expect(t.spans()).toBeUndefined();
  });

  it('gives up past 4096 marked objects', () => {
    const t = new ThinkingObjectTracker();
    for (let i = 0; i < 4097; i++) {
      t.open(i * 2);
      t.mark();
      t.close(i * 2 + 1);
    }
    expect(t.spans()).toBeUndefined();
  });
});

describe('allThinkingSigned', () => {
  const check = (...objects: unknown[]) => {
    let text = '';
    const spans: number[] = [];
    for (const o of objects) {
      const json = typeof o === 'string' ? o : JSON.stringify(o);
      spans.push(text.length, text.length + json.length);
      text += json;
    }
    return allThinkingSigned(Buffer.from(text), spans);
  };

  it('signed blocks and other objects pass', () => {
    expect(check({ type: 'thinking', thinking: 't', signature: 'sig' }, { role: 'user', content: 'thinking' }, { type: 'text', text: 'thinking' })).toBe(true);
  });

  it.each([
    ['an empty signature', { type: 'thinking', thinking: 't', signature: '' }],
    ['no signature', { type: 'thinking', thinking: 't' }],
    ['a null signature', { type: 'thinking', thinking: 't', signature: null }],
  ])('%s fails', (_what, block) => {
    expect(check({ type: 'thinking', thinking: 'ok', signature: 's' }, block)).toBe(false);
  });

  it('an object that does not parse fails (the whole body decides)', () => {
    expect(check('{"type":"thinking",}')).toBe(false);
  });
});

describe('ClientBody.thinkingSigned agrees with stripUnsignedThinking', () => {
  const text = fc.constantFrom('thinking', 'I was thinking', '"thinking"', 'thinkinG', 'a', '');
  const signature = fc.constantFrom<unknown>(undefined, '', 'EqQBCkYI', null, 0, 'sig');
  const block = fc.oneof(
    fc.record({ type: fc.constant('thinking'), thinking: text, signature }, { requiredKeys: ['type', 'thinking'] }),
    fc.record({ type: fc.constant('text'), text }),
    fc.record({ type: fc.constant('tool_use'), id: fc.constant('toolu_1'), name: fc.constant('Read'), input: fc.record({ note: text, nested: fc.option(fc.record({ type: fc.constant('thinking'), thinking: text })) }) }),
  );
  const message = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(text, fc.array(block, { maxLength: 4 })) });
  const request = fc.record({ model: fc.constant('claude-sonnet-4-5'), max_tokens: fc.constant(5), messages: fc.array(message, { maxLength: 6 }) });

  it('never lets a body through that stripping would change, and lets signed conversations through unparsed', () => {
    fc.assert(
      fc.property(request, fc.boolean(), (req, spaced) => {
        const raw = Buffer.from(JSON.stringify(req, null, spaced ? 1 : undefined));
        const parsed = JSON.parse(raw.toString()) as AnthropicRequest;
        const stripWouldChange = stripUnsignedThinking(parsed) !== parsed;
        const body = ClientBody.of(raw)!;
        // Sound: a body let through as it is never holds a block stripping would remove.
        if (stripWouldChange) expect(body.thinkingSigned()).toBe(false);
        // Useful: a conversation whose thinking objects are all signed blocks needs no whole parse.
        const blocks = req.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
        const allSigned = blocks.every((b) => b.type !== 'thinking' || Boolean((b as { signature?: unknown }).signature));
        const nestedUnsigned = blocks.some((b) => b.type === 'tool_use' && (b as { input: { nested: unknown } }).input.nested !== null);
        if (allSigned && !nestedUnsigned) expect(body.thinkingSigned()).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
