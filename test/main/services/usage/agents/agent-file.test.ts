import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAgentFile } from '../../../../../main/services/usage/agents/agent-file.js';
import { Pricing } from '../../../../../main/services/usage/pricing.js';
import { newScratch } from '../../../../../main/services/usage/scan-file.js';

const pricing = new Pricing();
let dir: string;

/** An OpenCode message whose `path.cwd` carries the given bytes, so the decoded text shows in the record. */
function message(cwd: Buffer, bom = false): Buffer {
  const [head, tail] = JSON.stringify({ id: 'msg_1', sessionID: 'ses_a', modelID: 'gpt-5', providerID: 'openai', time: { created: 1767312000000 }, tokens: { input: 10, output: 5 }, path: { cwd: '@CWD@' } }).split('@CWD@');
  return Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(head!), cwd, Buffer.from(tail!)]);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-agent-file-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('readAgentFile: the read into the scratch buffer gives the text readFileSync gives', () => {
  it.each([
    ['plain ASCII', message(Buffer.from('/w/api'))],
    ['multi-byte UTF-8', message(Buffer.from('/w/ünïcødé/日本/😀'))],
    ['invalid UTF-8 (a lone continuation byte, a cut sequence, an overlong form)', message(Buffer.from([0x2f, 0x80, 0x41, 0xe6, 0x97, 0x2f, 0xc0, 0xaf]))],
    ['a byte-order mark (not valid JSON either way)', message(Buffer.from('/w/api'), true)],
    ['damaged JSON', Buffer.from('{"id":"msg_1","tokens":')],
    ['an empty file', Buffer.alloc(0)],
  ])('%s', (_name, bytes) => {
    const file = path.join(dir, `msg_${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, bytes);
    const viaScratch = readAgentFile({ path: file, agent: 'opencode' }, pricing, newScratch(1 << 16));
    const viaReadFile = readAgentFile({ path: file, agent: 'opencode' }, pricing);
    expect(viaScratch).toEqual(viaReadFile);
    expect(viaScratch.size).toBe(bytes.length);
    const expected = bytes.toString('utf8');
    if (viaScratch.records.length > 0) expect(expected).toContain(viaScratch.records[0]!.projectPath);
  });

  it('a file larger than the scratch buffer is read whole all the same (a codex log of 2 000 lines)', () => {
    const line = (i: number) =>
      `{"timestamp":"2026-01-02T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":${(i + 1) * 10},"cached_input_tokens":0,"output_tokens":${i + 1},"reasoning_output_tokens":0,"total_tokens":${(i + 1) * 11}}}}}`;
    const file = path.join(dir, 'sessions', 'rollout-big.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Array.from({ length: 2000 }, (_, i) => line(i)).join('\n') + '\n');
    const small = newScratch(4096);
    const viaScratch = readAgentFile({ path: file, agent: 'codex' }, pricing, small);
    expect(viaScratch).toEqual(readAgentFile({ path: file, agent: 'codex' }, pricing));
    expect(viaScratch.records).toHaveLength(2000);
  });
});
