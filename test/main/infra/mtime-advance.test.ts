import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statMtime } from '../../../main/infra/file-stat.js';
import { advanceMtime } from '../../../main/infra/mtime-advance.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-mtime-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('advanceMtime', () => {
  it('moves a write that kept the previous whole-ms mtime past it', async () => {
    const file = path.join(dir, 'same.json');
    await fs.writeFile(file, 'v1');
    const previous = (await statMtime(file))!;
    await fs.writeFile(file, 'v2');
    const sameMs = (previous + 0.5) / 1000; // the coarse clock gave the second write the same ms
    await fs.utimes(file, sameMs, sameMs);
    expect(await statMtime(file)).toBe(previous);

    const next = await advanceMtime(file, previous);
    expect(next).toBeGreaterThan(previous);
    expect(await statMtime(file)).toBe(next);
  });

  it('leaves an mtime that already moved alone', async () => {
    const file = path.join(dir, 'moved.json');
    await fs.writeFile(file, 'v');
    const when = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    await fs.utimes(file, when, when);
    expect(await advanceMtime(file, when.getTime() - 10)).toBe(when.getTime());
    expect(await advanceMtime(file, null)).toBe(when.getTime());
  });

  it('moves an mtime that went backwards (clock set back) past the previous one', async () => {
    const file = path.join(dir, 'back.json');
    await fs.writeFile(file, 'v');
    const previous = Date.now() + 60_000;
    expect(await advanceMtime(file, previous)).toBe(previous + 1);
  });
});
