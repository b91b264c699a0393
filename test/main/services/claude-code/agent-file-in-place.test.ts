import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLE_LIMITS } from '../../../../main/infra/settled-read.js';
import { parseAgentSettings, readAgentFile } from '../../../../main/services/claude-code/agent-file.js';

// Claude Code and editors may rewrite {agent_dir}/settings.json in place: truncate, then write.
// The write lands from the reader's wait hook, i.e. only after the reader saw the empty file.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-agent-file-'));
  file = path.join(dir, 'settings.json');
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const whole = { env: { ANTHROPIC_MODEL: 'm' }, theme: 'dark' };

function waitHook(between: () => Promise<void>): { wait: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, wait: async (ms) => void (waits.push(ms) === 1 && (await between())) };
}

describe('readAgentFile while another program rewrites the file in place', () => {
  it('answers the rewritten content, which parses, when the read lands between the truncate and the write', async () => {
    await fs.writeFile(file, '{"env":{}}');
    await fs.truncate(file, 0);
    const hook = waitHook(() => fs.writeFile(file, JSON.stringify(whole)));
    const read = await readAgentFile(file, { wait: hook.wait });
    expect(parseAgentSettings(read!.bytes, file)).toEqual(whole);
    expect(hook.waits).toHaveLength(1);
  });

  it('answers a file that stays broken as broken (invalid-json), after at most the bound', async () => {
    await fs.writeFile(file, '{"env":');
    const hook = waitHook(async () => {});
    const read = await readAgentFile(file, { wait: hook.wait });
    expect(() => parseAgentSettings(read!.bytes, file)).toThrow(expect.objectContaining({ kind: 'invalid-json' }));
    expect(hook.waits).toHaveLength(SETTLE_LIMITS.tries - 1);
  });

  it('reads a broken file nobody is writing once', async () => {
    await fs.writeFile(file, '{"env":');
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(file, old, old);
    const hook = waitHook(async () => {});
    expect((await readAgentFile(file, { wait: hook.wait }))!.bytes.toString()).toBe('{"env":');
    expect(hook.waits).toEqual([]);
  });
});
