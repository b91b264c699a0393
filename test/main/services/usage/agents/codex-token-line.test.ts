import { describe, expect, it } from 'vitest';
import { readCodex } from '../../../../../main/services/usage/agents/codex.js';
import { canonicalTokenCount, tokenCountOf } from '../../../../../main/services/usage/agents/codex-token-line.js';
import { isObject, parseJson } from '../../../../../main/services/usage/agents/fields.js';

/** A small seeded generator, so a failure names a line that comes back on the next run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const USAGE_KEYS = ['input_tokens', 'cached_input_tokens', 'output_tokens', 'reasoning_output_tokens', 'total_tokens'];
/** Number texts JSON allows or not: the fast path must take only exact integers and leave the rest. */
const NUMBERS = ['0', '7', '20437', '999999999999999', '1000000000000000', '9007199254740993', '123456789012345678901', '12.5', '12.0', '-3', '-0', '1e3', '1E+2', '012', '00', '"12"', 'null', 'true', '{}', '1.', '.5', '+4', '0x10', 'NaN', 'Infinity'];
const TIMESTAMPS = ['2026-02-06T18:49:13.429Z', '2026-02-06T18:49:13Z', '2026-02-06 18:49:13', '', 'not a time', '2026-02-06T18:49:13.429+02:00', '2026-02-06T18:49:13.429Z\\u0000', '2026\\/02\\/06', '2026-02-06T18:49:13\\"Z', '2026-02-06\tT18:49', '1770403753429'];

/** `q` scales how often each departure happens: 0 gives Codex's exact shape. */
function usageText(rand: () => number, q: number): string {
  const keys = USAGE_KEYS.filter(() => rand() >= 0.1 * q);
  if (rand() < 0.1 * q) keys.reverse();
  if (rand() < 0.1 * q) keys.push('cached_tokens');
  if (rand() < 0.05 * q) keys.push('input_tokens'); // a duplicate key: JSON.parse keeps the last
  const pick = () => (rand() >= 0.3 * q ? String(Math.floor(rand() * 10 ** Math.floor(rand() * 16))) : NUMBERS[Math.floor(rand() * NUMBERS.length)]!);
  const colon = rand() < 0.05 * q ? ': ' : ':';
  return `{${keys.map((k) => `"${k}"${colon}${pick()}`).join(rand() < 0.05 * q ? ', ' : ',')}}`;
}

/** A token_count line: canonical when `q` is 0, else with random departures from Codex's shape. */
function tokenLine(rand: () => number, q: number): string {
  const ts = rand() >= q / 2 ? TIMESTAMPS[Math.floor(rand() * 2)]! : TIMESTAMPS[Math.floor(rand() * TIMESTAMPS.length)]!;
  const total = usageText(rand, q);
  const last = rand() < 0.2 * q ? 'null' : rand() < 0.8 ? usageText(rand, q) : null;
  const infoParts = [`"total_token_usage":${total}`];
  if (last !== null) infoParts.push(`"last_token_usage":${last}`);
  if (rand() < 0.1 * q) infoParts.reverse();
  if (rand() < 0.1 * q) infoParts.push('"model":"gpt-5.5"');
  let payload = `{"type":"token_count","info":{${infoParts.join(',')}}}`;
  if (rand() < 0.1 * q) payload = payload.replace(/\}$/, ',"rate_limits":{"primary":{"used_percent":12}}}');
  if (rand() < 0.05 * q) payload = payload.replace('"type":"token_count",', '"model":"o3","type":"token_count",');
  let line = `{"timestamp":"${ts}","type":"event_msg","payload":${payload}}`;
  if (q === 0) return line;
  const damage = rand() / q;
  if (damage < 0.05) line = line.slice(0, Math.floor(rand() * line.length)); // truncated
  else if (damage < 0.08) line += '}';
  else if (damage < 0.11) line = line.replace('"type":"event_msg",', '"type":"event_msg", ');
  else if (damage < 0.14) line = line.replace('{"timestamp":', '{"type":"event_msg","timestamp":');
  else if (damage < 0.17) line = line.replace('"event_msg"', '"event_msg2"');
  else if (damage < 0.2) line = line.replace('"token_count"', '"token_count2"');
  else if (damage < 0.23) line = line.replace('"info":{', '"info": {');
  else if (damage < 0.26) line = line.replace('"timestamp":"', '"timestamp":"\\u0032');
  return line;
}

/** What the reader knows of a line the slow way: JSON.parse, then the event of the parsed object. */
function slowly(line: string) {
  const o = parseJson(line);
  return isObject(o) ? tokenCountOf(o) : null;
}

describe('codex token_count fast path: the same event as JSON.parse, or no answer', () => {
  it('reads canonical lines without JSON.parse and agrees with it on each', () => {
    const rand = random(7);
    for (let i = 0; i < 3000; i++) {
      const line = tokenLine(rand, 0);
      const quick = canonicalTokenCount(line);
      expect(quick, line).not.toBeNull();
      expect(quick, line).toEqual(slowly(line));
    }
  });

  it('on thousands of variants (key order, spaces, escapes, missing and extra fields, huge, fractional, negative numbers, damage) answers only when JSON.parse agrees', () => {
    const rand = random(42);
    let taken = 0;
    let left = 0;
    for (let i = 0; i < 20000; i++) {
      const line = tokenLine(rand, rand() < 0.5 ? 0.1 : 1);
      const quick = canonicalTokenCount(line);
      if (quick === null) {
        left++;
        continue;
      }
      taken++;
      expect(quick, line).toEqual(slowly(line));
    }
    // Both kinds occur, so neither half of the check is empty.
    expect(taken).toBeGreaterThan(500);
    expect(left).toBeGreaterThan(5000);
  });

  it.each([
    ['a raw tab in the timestamp (JSON.parse rejects it)', '{"timestamp":"2026-02-06\tT1","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2}}}}'],
    ['an escaped quote in the timestamp', '{"timestamp":"2026\\"x","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2}}}}'],
    ['a 16-digit count', '{"timestamp":"2026-02-06T18:49:13.429Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":9007199254740993,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2}}}}'],
    ['a leading zero in the ignored total', '{"timestamp":"2026-02-06T18:49:13.429Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":02}}}}'],
    ['a trailing space', '{"timestamp":"2026-02-06T18:49:13.429Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2}}}} '],
  ])('leaves %s to JSON.parse', (_name, line) => {
    expect(canonicalTokenCount(line)).toBeNull();
  });
});

describe('readCodex: fast path and marker search change nothing', () => {
  const noise = [
    '{"timestamp":"2026-02-06T18:49:06.429Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"step 0"}]}}',
    '  {"type":"response_item"}  ',
    '{"type":"response_item"}\r',
    '\t{"type":"response_item","payload":"x"}\u00a0',
    'garbage',
    '{"a":1',
    '"a":1}',
    '   ',
    '',
    '\ufeff{"type":"x"}',
    '{"timestamp":"2026-02-06T18:49:06.429Z","type":"turn_context","payload":{"cwd":"/w/api","model":"gpt-5.5"}}',
    '{"timestamp":"2026-02-06T18:46:40.184Z","type":"session_meta","payload":{"cwd":"/w/b"}}',
    '{"timestamp":"2026-02-06T18:49:13.431Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":12}}}}',
    '{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":2}}',
    '{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":2}',
  ];

  /** Today's rule for damaged lines, written out in full: every trimmed non-blank line is checked. */
  function malformedByRule(textIn: string): number {
    let n = 0;
    for (const raw of textIn.split('\n')) {
      const line = raw.trim();
      if (line.length === 0) continue;
      if (!['"token_count"', '"turn_context"', '"session_meta"', '"usage":'].some((m) => line.includes(m))) {
        if (!(line.startsWith('{') && line.endsWith('}'))) n++;
      } else if (!isObject(parseJson(line))) n++;
    }
    return n;
  }

  it('a file read with canonical lines equals the same file with each forced through JSON.parse; damaged lines count as before', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = random(seed);
      const lines: string[] = [];
      for (let i = 0; i < 200; i++) {
        const r = rand();
        lines.push(r < 0.5 ? tokenLine(rand, 0) : r < 0.7 ? tokenLine(rand, rand() < 0.5 ? 0.1 : 1) : noise[Math.floor(rand() * noise.length)]!);
      }
      // The twin: a space after the first key's colon is the same JSON, never the canonical shape.
      const twin = lines.map((l) => (canonicalTokenCount(l.trim()) !== null ? l.replace('"timestamp":', '"timestamp": ') : l));
      const file = { path: '/h/.codex/sessions/2026/02/06/rollout-x.jsonl', mtimeMs: Date.parse('2026-02-07T00:00:00Z'), flags: '' };
      const quick = readCodex({ ...file, text: lines.join('\n') });
      const slow = readCodex({ ...file, text: twin.join('\n') });
      const strip = (rs: typeof quick.records) => rs.map(({ offset: _offset, ...r }) => r);
      expect(strip(quick.records)).toEqual(strip(slow.records));
      expect(quick.records.length).toBeGreaterThan(0);
      expect(quick.malformed).toBe(slow.malformed);
      expect(quick.malformed).toBe(malformedByRule(lines.join('\n')));
    }
  });

  it('keeps each record at its line start', () => {
    const line = tokenLine(random(3), 0);
    const textIn = `garbage\n{"type":"turn_context","payload":{"model":"gpt-5.5"}}\n  ${line}\n`;
    const found = readCodex({ path: '/h/.codex/sessions/a.jsonl', text: textIn, mtimeMs: 0, flags: '' });
    expect(found.records.map((r) => r.offset)).toEqual([textIn.indexOf('  {"timestamp"')]);
    expect(found.malformed).toBe(1);
  });
});
