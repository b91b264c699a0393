import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SETTLE_LIMITS } from '../../../../main/infra/settled-read.js';
import { AppConfigStore, ConfigFileError } from '../../../../main/services/app-config/store.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

// An editor saves config.yaml in place (truncate, then write); the write lands from the store's
// wait hook, i.e. only after the store read the empty or partial file.

let file: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = await makeTempDir('switchboard-config-in-place-'));
  file = path.join(dir, 'config.yaml');
});
afterEach(() => cleanup());

const saved = '# mine\ncursor:\n  enabled: false\n  port: 4321\n';

function storeWithWriter(between: () => Promise<void>): { store: AppConfigStore; waits: number[] } {
  const waits: number[] = [];
  const store = new AppConfigStore(file, { wait: async (ms) => void (waits.push(ms) === 1 && (await between())) });
  return { store, waits };
}

describe('AppConfigStore while an editor saves config.yaml in place', () => {
  it('answers the saved config, not the defaults of an empty file, when the read lands between the truncate and the write', async () => {
    await fs.writeFile(file, 'cursor:\n  port: 1111\n');
    await fs.truncate(file, 0);
    const { store, waits } = storeWithWriter(() => fs.writeFile(file, saved));
    expect((await store.read()).config.cursor.port).toBe(4321);
    expect(waits).toHaveLength(1);
  });

  it('keeps the saved file whole when an update lands between the truncate and the write', async () => {
    await fs.writeFile(file, saved);
    await fs.truncate(file, 0);
    const { store } = storeWithWriter(() => fs.writeFile(file, saved));
    await store.update((doc) => doc.setIn(['cursor', 'enabled'], true));
    expect(await fs.readFile(file, 'utf8')).toBe('# mine\ncursor:\n  enabled: true\n  port: 4321\n');
  });

  it('answers a partial save that does not parse, once completed, with the completed config', async () => {
    await fs.writeFile(file, saved.slice(0, 'cursor:\n  enabled: false\n  port'.length + 7));
    const { store } = storeWithWriter(() => fs.writeFile(file, saved));
    expect((await store.read()).config.cursor.port).toBe(4321);
  });
});

describe('AppConfigStore with a config.yaml that stays as it is', () => {
  it('still answers a broken file as ConfigFileError with the same message, after at most the bound', async () => {
    await fs.writeFile(file, '- a\n- b\n');
    const { store, waits } = storeWithWriter(async () => {});
    await expect(store.read()).rejects.toThrow(new ConfigFileError(`${file}: the top level must be a mapping`));
    expect(waits).toHaveLength(SETTLE_LIMITS.tries - 1);
  });

  it('still reads an empty file nobody is writing as the defaults, at once', async () => {
    await fs.writeFile(file, '');
    // A whole second: utimes takes seconds as a float, so some milliseconds come back one less.
    const old = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await fs.utimes(file, old, old);
    const { store, waits } = storeWithWriter(async () => {});
    const defaults = (await new AppConfigStore(path.join(path.dirname(file), 'missing.yaml')).read()).config;
    expect(await store.read()).toEqual({ config: defaults, mtime: old.getTime() });
    expect(waits).toEqual([]);
  });

  it('reads a valid file once, however recent', async () => {
    await fs.writeFile(file, saved);
    const { store, waits } = storeWithWriter(async () => {});
    expect((await store.read()).config.cursor.port).toBe(4321);
    expect(waits).toEqual([]);
  });
});
