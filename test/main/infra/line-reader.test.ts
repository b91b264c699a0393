import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachLine } from '../../../main/infra/line-reader.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'line-reader-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

async function lines(text: string, maxLine: number, range?: { from: number; to?: number; skipFirst?: boolean }) {
  const file = path.join(dir, 'f.txt');
  await fs.writeFile(file, text);
  const handle = await fs.open(file, 'r');
  const out: Array<[string, boolean]> = [];
  try {
    const to = range?.to ?? Buffer.byteLength(text);
    await forEachLine(handle, { from: range?.from ?? 0, to, skipFirst: range?.skipFirst }, maxLine, (l, cut) => out.push([l, cut]));
  } finally {
    await handle.close();
  }
  return out;
}

describe('forEachLine', () => {
  it.each([
    ['plain lines', 'a\nbb\n', 10, undefined, [['a', false], ['bb', false]]],
    ['CRLF and an unterminated last line', 'a\r\nb', 10, undefined, [['a', false], ['b', false]]],
    ['blank lines kept', 'a\n\nb\n', 10, undefined, [['a', false], ['', false], ['b', false]]],
    ['a long line cut to its head', `${'x'.repeat(50)}\nok\n`, 8, undefined, [['x'.repeat(8), true], ['ok', false]]],
    ['starting mid-line drops the partial line', 'abc\ndef\n', 10, { from: 1, skipFirst: true }, [['def', false]]],
    ['starting at a line start with skipFirst still drops it (caller starts mid-file)', 'abc\ndef\n', 10, { from: 4, skipFirst: true }, []],
  ])('%s', async (_name, text, max, range, expected) => {
    expect(await lines(text, max, range)).toEqual(expected);
  });

  it('a line far longer than the chunk size is never held whole', async () => {
    const out = await lines(`${'y'.repeat(300_000)}\nend\n`, 1000);
    expect(out).toEqual([['y'.repeat(1000), true], ['end', false]]);
  });
});
