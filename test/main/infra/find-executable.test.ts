import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '../../../main/infra/find-executable.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-exe-'));
  await fs.mkdir(path.join(dir, 'a'));
  await fs.mkdir(path.join(dir, 'b'));
  await fs.writeFile(path.join(dir, 'a', 'tool'), 'not executable', { mode: 0o644 });
  await fs.writeFile(path.join(dir, 'b', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  await fs.mkdir(path.join(dir, 'a', 'dir-tool'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('findExecutable (POSIX)', () => {
  const env = () => ({ PATH: [path.join(dir, 'a'), path.join(dir, 'b')].join(path.delimiter) });

  it('finds a bare name on PATH, skipping entries that are not executable files', async () => {
    expect(await findExecutable('tool', env())).toBe(path.join(dir, 'b', 'tool'));
  });

  it('returns null for a name on no PATH entry, or a directory', async () => {
    expect(await findExecutable('missing', env())).toBeNull();
    expect(await findExecutable('dir-tool', env())).toBeNull();
    expect(await findExecutable('tool', {})).toBeNull();
  });

  it('takes an absolute path as is, when executable', async () => {
    expect(await findExecutable(path.join(dir, 'b', 'tool'), {})).toBe(path.join(dir, 'b', 'tool'));
    expect(await findExecutable(path.join(dir, 'a', 'tool'), {})).toBeNull();
  });

  it('refuses relative paths with a separator and empty or NUL names', async () => {
    expect(await findExecutable('b/tool', env())).toBeNull();
    expect(await findExecutable('', env())).toBeNull();
    expect(await findExecutable('to\0ol', env())).toBeNull();
  });
});
