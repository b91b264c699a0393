import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLE_LIMITS } from '../../../../main/infra/settled-read.js';
import { PresetsService } from '../../../../main/services/settings/presets-service.js';
import { SettingsStore } from '../../../../main/services/settings/settings-store.js';
import { tempContext, type TempContext } from '../../../helpers/temp-context.js';

// Another program (an editor, `claude`, a script) rewrites a settings file in place: truncate,
// then write. These tests put the reader between the two, deterministically: the file is
// truncated before the read, and the write lands from the store's wait hook, i.e. only once the
// reader has seen the empty file and decided to read again.

let t: TempContext;
let file: string;
beforeEach(async () => {
  t = await tempContext();
  file = path.join(t.home, 'work.settings.json');
});
afterEach(() => t.cleanup());

const whole = { env: { A: '2' }, presets: [{ name: 'fast', default: 'haiku-4' }] };
const wholeText = `${JSON.stringify(whole, null, 2)}\n`;

/** Truncates `file` in place (same inode), as an in-place writer's first step. */
async function truncateInPlace(): Promise<void> {
  await fs.writeFile(file, '{"env":{"A":"1"}}');
  await fs.truncate(file, 0);
}

/** A store whose wait between reads runs `between` once (the writer's second step), then nothing. */
function storeWithWriter(between: () => Promise<void>): { store: SettingsStore; waits: number[] } {
  const waits: number[] = [];
  const store = new SettingsStore({
    paths: t.ctx.paths,
    clock: t.clock,
    settle: {
      wait: async (ms) => {
        waits.push(ms);
        if (waits.length === 1) await between();
      },
    },
  });
  return { store, waits };
}

/** The text JSON.parse gives for `text`, as read-failed quotes it. */
function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${text} parses`);
}

describe('SettingsStore reading a file another program rewrites in place', () => {
  it('answers the new content, not read-failed, when the read lands between the truncate and the write', async () => {
    await truncateInPlace();
    const { store, waits } = storeWithWriter(() => fs.writeFile(file, wholeText));
    const snapshot = await store.readValid('work');
    expect(snapshot?.data).toEqual(whole);
    expect(snapshot?.text).toBe(wholeText);
    expect(waits).toHaveLength(1);
  });

  it('gives the presets list the new content', async () => {
    await truncateInPlace();
    const { store } = storeWithWriter(() => fs.writeFile(file, wholeText));
    expect(await new PresetsService(store).list('work')).toEqual(whole.presets);
  });

  it('gives an update (a profile edit, its conflict check) the new content and mtime', async () => {
    await truncateInPlace();
    let written = 0;
    const { store } = storeWithWriter(async () => {
      await fs.writeFile(file, wholeText);
      written = Math.floor((await fs.stat(file)).mtimeMs);
    });
    const { result } = await store.update('work', (current) => ({ next: { ...current?.data, extra: 1 }, result: current }));
    expect(result?.data).toEqual(whole);
    expect(result?.mtime).toBe(written);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ ...whole, extra: 1 });
    // The backup holds the whole file the writer wrote, not the empty one it passed through.
    const [backup] = await fs.readdir(path.join(t.home, 'backups'));
    expect(await fs.readFile(path.join(t.home, 'backups', backup!), 'utf8')).toBe(wholeText);
  });

  it('answers a partial write completed meanwhile with the completed content', async () => {
    await fs.writeFile(file, wholeText.slice(0, 10));
    const { store } = storeWithWriter(() => fs.appendFile(file, wholeText.slice(10)));
    expect((await store.readValid('work'))?.data).toEqual(whole);
  });
});

describe('SettingsStore reading a file that stays invalid', () => {
  it('answers read-failed at once, with the same text as before, for a broken file nobody is writing', async () => {
    await fs.writeFile(file, '{"env":');
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(file, old, old);
    const { store, waits } = storeWithWriter(async () => {});
    await expect(store.readValid('work')).rejects.toMatchObject({
      kind: 'read-failed',
      message: `work.settings.json is not a valid settings file: ${parseMessage('{"env":')}`,
    });
    expect(waits).toEqual([]);
  });

  it('answers read-failed, with the same text as before, for a just-written broken file once the bound is spent', async () => {
    await fs.writeFile(file, '{"env":');
    const { store, waits } = storeWithWriter(async () => {});
    await expect(store.readValid('work')).rejects.toMatchObject({
      kind: 'read-failed',
      message: `work.settings.json is not a valid settings file: ${parseMessage('{"env":')}`,
    });
    expect(waits).toHaveLength(SETTLE_LIMITS.tries - 1);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(SETTLE_LIMITS.totalMs);
  });

  it('answers an empty file that stays empty as today (read-failed) within the bound, waiting in real time', async () => {
    await truncateInPlace();
    const store = new SettingsStore({ paths: t.ctx.paths, clock: t.clock });
    const started = Date.now();
    await expect(store.readValid('work')).rejects.toMatchObject({
      kind: 'read-failed',
      message: `work.settings.json is not a valid settings file: ${parseMessage('')}`,
    });
    // The bound plus the reads themselves; generous for a loaded machine, far below a hang.
    expect(Date.now() - started).toBeLessThan(SETTLE_LIMITS.totalMs + 2_000);
  });

  it('still answers a missing file as null without waiting', async () => {
    const { store, waits } = storeWithWriter(async () => {});
    expect(await store.read('work')).toBeNull();
    expect(waits).toEqual([]);
  });
});
