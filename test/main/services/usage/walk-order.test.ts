import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTranscripts, UNSIZED } from '../../../../main/services/usage/discover.js';
import { joinInPathOrder } from '../../../../main/services/usage/path-order.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-walk-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('the walk lists files in path order without sorting the list', () => {
  it('orders a folder before names that sort after `name/` and after those before it, links included', async () => {
    const files = ['a.jsonl', 'a-b/x.jsonl', 'a/x.jsonl', 'a/y/z.jsonl', 'a0.jsonl', 'a.b/c.jsonl', 'B.jsonl', 'é.jsonl', 'ab/k.jsonl', 'a b.jsonl'];
    for (let i = 0; i < 60; i++) files.push(`many/${((i * 37) % 60).toString(36)}${i % 3 === 0 ? '/deep' : ''}.jsonl`);
    for (const f of files) {
      await fs.mkdir(path.join(dir, 'r', path.dirname(f)), { recursive: true });
      await fs.writeFile(path.join(dir, 'r', f), '{}\n');
    }
    await fs.symlink(path.join(dir, 'r', 'a'), path.join(dir, 'r', 'l')); // a folder by a link: sorts as `l/`
    await fs.symlink(path.join(dir, 'r', 'a'), path.join(dir, 'r', 'a-')); // the same folder again: walked once
    const found = await findTranscripts([path.join(dir, 'r')]);
    const paths = found.map((f) => f.path);
    expect(paths).toEqual([...paths].sort(byPath));
    expect(paths).toHaveLength(files.length);
    expect(paths).toContain(path.join(dir, 'r', 'a-', 'x.jsonl')); // `a-/` < `a-b/` < `a.jsonl` < `a/`: the link is met first
  });

  it('without a stat (`sized` false) gives the same paths, UNSIZED', async () => {
    for (const f of ['b.jsonl', 'a/c.jsonl', 'a.jsonl']) {
      await fs.mkdir(path.join(dir, path.dirname(f)), { recursive: true });
      await fs.writeFile(path.join(dir, f), '{}\n');
    }
    const found = await findTranscripts([dir], undefined, undefined, false, () => false);
    expect(found.map((f) => path.relative(dir, f.path))).toEqual(['a.jsonl', 'a/c.jsonl', 'b.jsonl']);
    expect(found.every((f) => f.size === UNSIZED && f.ino === UNSIZED)).toBe(true);
  });
});

describe('joinInPathOrder', () => {
  const run = (...paths: string[]) => paths.map((p) => ({ path: p }));
  it('joins runs in folders of their own, and merges one that falls between (stores beside folders)', () => {
    expect(joinInPathOrder([run('/c/1', '/c/2'), run('/a/1'), run(), run('/b/1', '/b/2')]).map((f) => f.path)).toEqual(['/a/1', '/b/1', '/b/2', '/c/1', '/c/2']);
    const walked = run('/o/a/storage/1', '/o/a/storage/2', '/o/b/storage/1');
    const stores = run('/o/a/opencode.db', '/o/b/opencode.db', '/o/z.db');
    expect(joinInPathOrder([walked, stores]).map((f) => f.path)).toEqual(['/o/a/opencode.db', '/o/a/storage/1', '/o/a/storage/2', '/o/b/opencode.db', '/o/b/storage/1', '/o/z.db']);
  });

  it('merges long interleaved runs as a sort would', () => {
    const name = (i: number) => `/r/${String(i).padStart(4, '0')}`;
    const evens = run(...Array.from({ length: 300 }, (_, i) => name(2 * i)));
    const odds = run(...Array.from({ length: 200 }, (_, i) => name(2 * i + 1)));
    const joined = joinInPathOrder([odds, evens]).map((f) => f.path);
    expect(joined).toEqual([...evens, ...odds].map((f) => f.path).sort(byPath));
  });
});
