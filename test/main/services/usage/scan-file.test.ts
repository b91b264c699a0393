import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newScratch, readTranscript, type FileRead } from '../../../../main/services/usage/scan-file.js';
import { UsageLoader } from '../../../../main/services/usage/usage-loader.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { silentLogger } from '../../../../main/infra/logger.js';
import { assistantLine } from '../../../fixtures/usage/lines.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'switchboard-scan-'));
});
afterEach(() => fs.rm(dir, { recursive: true, force: true }));

const pricing = new Pricing();
const read = (file: string, start = 0, scratch = newScratch(256)): FileRead => readTranscript({ path: file, start }, scratch, pricing);
const outputs = (r: FileRead) => r.records.map((x) => x.outputTokens);

describe('readTranscript', () => {
  it('prices requests and keeps one per key within the file', async () => {
    const file = path.join(dir, 's.jsonl');
    await fs.writeFile(
      file,
      [assistantLine({ msg: 'm', req: 'r', output: 1 }), assistantLine({ msg: 'm', req: 'r', output: 1000, model: 'claude-opus-4-5' })].join('\n') + '\n',
    );
    const r = read(file);
    expect(r.records).toHaveLength(1);
    expect(r.records[0]!.outputTokens).toBe(1000);
    expect(r.records[0]!.cost).toBeCloseTo((10 * 5 + 1000 * 25) / 1e6, 15);
  });

  it('parses usage lines, skips the rest, counts damaged lines and records byte offsets', async () => {
    const lines = [
      assistantLine({ msg: 'a', output: 1 }),
      '{"type":"user","message":{"role":"user","content":"' + 'x'.repeat(1000) + '"}}',
      '',
      assistantLine({ msg: 'b', output: 2 }).slice(0, 80),
      'null',
      '{"type":"assistant","message":{"usage":{"input_tokens":12,',
      assistantLine({ msg: 'c', output: 3, cwd: '/home/josé/app', model: 'claude-opus-4-1' }),
    ];
    const file = path.join(dir, 's.jsonl');
    await fs.writeFile(file, lines.join('\n') + '\n');
    const r = read(file);
    expect(outputs(r)).toEqual([1, 3]);
    expect(r.malformed).toBe(3);
    expect(r.records[1]!.projectPath).toBe('/home/josé/app');
    const text = await fs.readFile(file);
    expect(r.records[1]!.offset).toBe(text.indexOf(Buffer.from(lines[6]!)));
    expect(r.offset).toBe(text.length);
  });

  it('grows its buffer for a line longer than it', async () => {
    const file = path.join(dir, 's.jsonl');
    const long = assistantLine({ msg: 'a', output: 7 }).replace('"text":"hi"', `"text":"${'y'.repeat(5000)}"`);
    await fs.writeFile(file, `${long}\n${assistantLine({ msg: 'b', output: 8 })}\n`);
    expect(outputs(read(file))).toEqual([7, 8]);
  });

  it('reads an unterminated last line as the tail and resumes before it', async () => {
    const file = path.join(dir, 's.jsonl');
    await fs.writeFile(file, `${assistantLine({ msg: 'a', output: 1 })}\n${assistantLine({ msg: 'b', output: 2 })}`);
    const first = read(file);
    expect(outputs(first)).toEqual([1]);
    expect(first.tail.map((x) => x.outputTokens)).toEqual([2]);
    await fs.appendFile(file, `\n${assistantLine({ msg: 'c', output: 3 })}\n`);
    const next = read(file, first.offset);
    expect(next.start).toBe(first.offset);
    expect(outputs(next)).toEqual([2, 3]);
    expect(next.tail).toEqual([]);
  });

  it('counts a truncated tail as malformed until it is completed', async () => {
    const file = path.join(dir, 's.jsonl');
    const line = assistantLine({ msg: 'a', output: 4 });
    await fs.writeFile(file, line.slice(0, 50));
    const first = read(file);
    expect([first.records.length, first.tail.length, first.tailMalformed, first.offset]).toEqual([0, 0, 1, 0]);
    await fs.appendFile(file, `${line.slice(50)}\n`);
    expect(outputs(read(file, first.offset))).toEqual([4]);
  });
});

describe('UsageLoader incremental scans', () => {
  const setup = async () => {
    const agentDir = path.join(dir, 'agent');
    await fs.mkdir(path.join(agentDir, 'projects', 'p'), { recursive: true });
    const store = new UsageStore(pricing);
    const loader = new UsageLoader({ agentDir, instancesDir: path.join(dir, 'instances'), store, pricing, logger: silentLogger, pool: null, workerThresholdBytes: Infinity });
    return { file: path.join(agentDir, 'projects', 'p', 's.jsonl'), store, loader };
  };
  const kept = (store: UsageStore) => store.kept().map((r) => r.outputTokens).sort((a, b) => a - b);

  it('does not open an unchanged file, reads an append from its offset, and merges partial lines across reads', async () => {
    const { file, store, loader } = await setup();
    await fs.writeFile(file, `${assistantLine({ msg: 'm', req: 'r', output: 2 })}\n`);
    expect(await loader.scan()).toMatchObject({ files: 1, filesRead: 1 });
    expect(await loader.scan()).toMatchObject({ files: 1, filesRead: 0, bytesRead: 0 });
    const before = (await fs.stat(file)).size;
    // the rest of the same message, then a new one: the append is read alone
    await fs.appendFile(file, `${assistantLine({ msg: 'm', req: 'r', output: 90 })}\n${assistantLine({ msg: 'n', req: 'r2', output: 5 })}\n`);
    const report = await loader.scan();
    expect(report.bytesRead).toBe((await fs.stat(file)).size - before);
    expect(kept(store)).toEqual([5, 90]);
    expect(store.files.get(file)!.records).toHaveLength(2);
  });

  it('reads a truncated or replaced file whole', async () => {
    const { file, store, loader } = await setup();
    await fs.writeFile(file, `${assistantLine({ msg: 'a', output: 1 })}\n${assistantLine({ msg: 'b', output: 2 })}\n`);
    await loader.scan();
    await fs.writeFile(file, `${assistantLine({ msg: 'c', output: 3 })}\n`);
    expect((await loader.scan()).bytesRead).toBe((await fs.stat(file)).size);
    expect(kept(store)).toEqual([3]);
    // same size, other bytes before the old offset: not an append
    const replaced = assistantLine({ msg: 'd', output: 4 });
    await fs.writeFile(file, `${replaced}\n${assistantLine({ msg: 'e', output: 6 })}\n`);
    await loader.scan();
    expect(kept(store)).toEqual([4, 6]);
  });

  it('forgets a deleted file and follows symlinks without looping', async () => {
    const { file, store, loader } = await setup();
    await fs.writeFile(file, `${assistantLine({ msg: 'a', output: 1 })}\n`);
    const other = path.join(dir, 'elsewhere');
    await fs.mkdir(other);
    await fs.writeFile(path.join(other, 'x.jsonl'), `${assistantLine({ msg: 'b', output: 2 })}\n`);
    await fs.symlink(other, path.join(path.dirname(file), 'linked'));
    await fs.symlink(path.dirname(file), path.join(other, 'loop'));
    await loader.scan();
    expect(kept(store)).toEqual([1, 2]);
    await fs.rm(file);
    await loader.scan();
    expect(kept(store)).toEqual([2]);
  });
});

describe('readTranscript: lines over the bound', () => {
  const small = (file: string, start = 0, scratch = newScratch(256)) => readTranscript({ path: file, start }, scratch, pricing, 4096);

  it('skips a line over the bound between normal lines, counts it, and never grows the buffer past the bound', async () => {
    const file = path.join(dir, 's.jsonl');
    // The oversize line holds the usage marker too: it must not be parsed (or held) for it.
    const huge = assistantLine({ msg: 'huge', output: 99 }).replace('"content":', `"pad":"${'x'.repeat(200_000)}","content":`);
    await fs.writeFile(file, [assistantLine({ msg: 'a', output: 1 }), huge, assistantLine({ msg: 'b', output: 2 })].join('\n') + '\n');
    const scratch = newScratch(256);
    const r = small(file, 0, scratch);
    expect(outputs(r)).toEqual([1, 2]);
    expect(r.oversized).toBe(1);
    expect(r.malformed).toBe(0);
    expect(r.offset).toBe((await fs.stat(file)).size);
    expect(scratch.buffer.length).toBeLessThanOrEqual(4096);
  });

  it('a line that fits the bound with its newline is still read; an unfinished oversize last line is left for later', async () => {
    const file = path.join(dir, 's.jsonl');
    const line = assistantLine({ msg: 'a', output: 1 });
    const fitted = line.replace('"content":', `"pad":"${'x'.repeat(4095 - line.length - 9)}","content":`);
    expect(Buffer.byteLength(`${fitted}\n`)).toBe(4096);
    await fs.writeFile(file, `${fitted}\n${'y'.repeat(10_000)}`);
    const r = small(file);
    expect(outputs(r)).toEqual([1]);
    expect(r.oversized).toBe(0);
    expect(r.tailMalformed).toBe(0);
    expect(r.offset).toBe(4096);
    await fs.appendFile(file, `\n${assistantLine({ msg: 'b', output: 2 })}\n`);
    const next = small(file, r.offset);
    expect(outputs(next)).toEqual([2]);
    expect(next.oversized).toBe(1);
  });
});
