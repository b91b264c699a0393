import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLE_LIMITS } from '../../../../main/infra/settled-read.js';
import { readSettingsFile } from '../../../../main/services/agent-tool/settings-file.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

// The agent tool rewrites its settings file in place (truncate, then write); the write lands from
// the reader's wait hook, i.e. only after the reader saw the empty file.

let file: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = await makeTempDir('switchboard-agent-tool-file-'));
  file = path.join(dir, 'settings.json');
});
afterEach(() => cleanup());

function waitHook(between: () => Promise<void>): { wait: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, wait: async (ms) => void (waits.push(ms) === 1 && (await between())) };
}

describe('readSettingsFile while the agent rewrites its file in place', () => {
  it('answers the rewritten settings with no parse error when the read lands between the truncate and the write', async () => {
    const whole = { model: 'opus', env: { A: '1' } };
    await fs.writeFile(file, '{}');
    await fs.truncate(file, 0);
    const hook = waitHook(() => fs.writeFile(file, JSON.stringify(whole)));
    const state = await readSettingsFile(file, { wait: hook.wait });
    expect(state).toMatchObject({ settings: whole, parseError: null, content: JSON.stringify(whole), sizeBytes: JSON.stringify(whole).length });
  });

  it('still reports a file that stays broken, with its parse error, after at most the bound', async () => {
    await fs.writeFile(file, '{"model":');
    const hook = waitHook(async () => {});
    const state = await readSettingsFile(file, { wait: hook.wait });
    expect(state.settings).toBeNull();
    expect(state.parseError).toMatch(/JSON/);
    expect(hook.waits).toHaveLength(SETTLE_LIMITS.tries - 1);
  });
});
