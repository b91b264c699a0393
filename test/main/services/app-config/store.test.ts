import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppConfigStore, ConfigFileError } from '../../../../main/services/app-config/store.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
let file: string;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir('switchboard-store-'));
  file = path.join(dir, 'config.yaml');
});
afterEach(() => cleanup());

describe('AppConfigStore errors name the file and the line', () => {
  it('reports a YAML syntax error with line and column, without the source excerpt', async () => {
    await fs.writeFile(file, 'usage:\n  timezone: UTC\ncursor: [\n  a: b: c\n');
    const err = await new AppConfigStore(file).read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 4, column \\d+: `));
    expect((err as Error).message).not.toContain('\n');
  });

  it('reports a schema error with the line of the offending key', async () => {
    await fs.writeFile(file, '# comment\nusage:\n  timezone: UTC\ncursor:\n  enabled: false\n  port: "abc"\n');
    const err = await new AppConfigStore(file).read().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect((err as Error).message).toBe(`${file} line 6: cursor.port: Invalid input: expected number, received string`);
  });

  it('refuses a top level that is not a mapping', async () => {
    await fs.writeFile(file, '- a\n- b\n');
    await expect(new AppConfigStore(file).read()).rejects.toThrow(`${file}: the top level must be a mapping`);
  });

  it('turns an unreadable path into a ConfigFileError', async () => {
    await fs.mkdir(file);
    await expect(new AppConfigStore(file).read()).rejects.toBeInstanceOf(ConfigFileError);
  });
});

describe('AppConfigStore.update', () => {
  it('does not rewrite a file the mutation left unchanged', async () => {
    await fs.writeFile(file, 'usage:\n  timezone: UTC\n');
    const before = (await fs.stat(file)).mtimeMs;
    let replaced = false;
    const { snapshot } = await new AppConfigStore(file).update(() => undefined, { onReplace: async () => void (replaced = true) });
    expect((await fs.stat(file)).mtimeMs).toBe(before);
    expect(snapshot.mtime).toBe(Math.floor(before));
    expect(replaced).toBe(false);
  });

  it('calls onReplace with the old text before replacing, and gives a later mtime', async () => {
    await fs.writeFile(file, 'usage:\n  timezone: UTC\n');
    const oldMtime = Math.floor((await fs.stat(file)).mtimeMs);
    const seen: string[] = [];
    const { snapshot } = await new AppConfigStore(file).update((doc) => doc.setIn(['usage', 'timezone'], 'Asia/Tokyo'), {
      onReplace: async (previous) => void seen.push(previous),
    });
    expect(seen).toEqual(['usage:\n  timezone: UTC\n']);
    expect(snapshot.mtime).toBeGreaterThan(oldMtime);
    expect(snapshot.config.usage.timezone).toBe('Asia/Tokyo');
  });

  it('creates a missing file without calling onReplace', async () => {
    let replaced = false;
    await new AppConfigStore(file).update((doc) => doc.setIn(['usage', 'timezone'], 'UTC'), { onReplace: async () => void (replaced = true) });
    expect(await fs.readFile(file, 'utf8')).toBe('usage:\n  timezone: UTC\n');
    expect(replaced).toBe(false);
  });
});
