import { describe, expect, it } from 'vitest';
import { ColdStage } from '../../../../main/services/usage/cold-stage.js';
import { parseUsageLine } from '../../../../main/services/usage/parse-line.js';
import { Pricing } from '../../../../main/services/usage/pricing.js';
import { toUsageRecord } from '../../../../main/services/usage/record.js';
import type { FileRead } from '../../../../main/services/usage/scan-file.js';
import type { ParsedUsage } from '../../../../main/services/usage/types.js';
import { UsageStore } from '../../../../main/services/usage/usage-store.js';
import { assistantLine, type LineOptions } from '../../../fixtures/usage/lines.js';

/** A read of `lines` from `start` (0 = the whole file), as the scanner reports it; `tail` lines as an unterminated last line. */
function read(file: string, lines: LineOptions[], start = 0, tail: LineOptions[] = []): FileRead {
  let offset = start;
  const recordsOf = (list: LineOptions[]) =>
    list.map((o) => {
      const text = assistantLine(o);
      const record = toUsageRecord(parseUsageLine(text) as ParsedUsage, file, offset);
      offset += text.length + 1;
      return record;
    });
  const records = recordsOf(lines);
  return { path: file, size: offset, mtimeMs: offset, ino: 1, dev: 1, nlink: 1, start, offset, records, tail: recordsOf(tail), malformed: 0, tailMalformed: 0, oversized: 0, fingerprint: '' };
}

const names = (reads: Iterable<FileRead>) => [...reads].map((r) => r.path).sort();
const lists = (store: UsageStore) => store.keptGroups().map((l) => l.map((r) => `${r.file}@${r.offset}`));

/** Reads in path order, staged in another order (as the workers answer). */
function reads() {
  return {
    unkeyed: read('/a-unkeyed.jsonl', [{ msg: null, req: null, output: 1 }, { msg: null, req: null, output: 2 }]),
    winners: read('/b-winners.jsonl', [{ msg: 'b1', req: 'r', output: 5 }, { msg: 'b2', req: 'r', output: 5 }]),
    beatenLater: read('/c-beaten.jsonl', [{ msg: 'c1', req: 'r', output: 1 }, { msg: 'c2', req: 'r', output: 1 }]),
    beats: read('/d-beats.jsonl', [{ msg: 'c1', req: 'r', output: 9 }, { msg: 'e1', req: 'r', output: 9 }, { msg: 'e2', req: 'r', output: 9 }]),
    losesAll: read('/e-loses.jsonl', [{ msg: 'e1', req: 'r', output: 3 }, { msg: 'e2', req: 'r', output: 3 }]),
    tail: read('/f-tail.jsonl', [{ msg: 'f1', req: 'r', output: 1 }], 0, [{ msg: 'f2', req: 'r', output: 1 }]),
  };
}

describe('a cold scan staged as the workers answer', () => {
  it('knows which reads keep all their requests and which keep none, whatever order they came in', () => {
    const r = reads();
    expect(r.unkeyed.records.every((x) => x.key === null)).toBe(true);
    for (const order of [
      [r.unkeyed, r.winners, r.beatenLater, r.beats, r.losesAll, r.tail],
      [r.tail, r.losesAll, r.beats, r.beatenLater, r.winners, r.unkeyed],
      [r.beats, r.tail, r.losesAll, r.unkeyed, r.beatenLater, r.winners],
    ]) {
      const stage = new ColdStage();
      for (const x of order) stage.add([x]);
      expect(names(stage.keepsAll)).toEqual(['/a-unkeyed.jsonl', '/b-winners.jsonl', '/d-beats.jsonl']);
      expect(names(stage.keepsNone)).toEqual(['/e-loses.jsonl']);
    }
  });

  it('is adopted with the kept lists apply() gives the same reads, and appends and removals after it stay right', () => {
    const r = reads();
    const inOrder = Object.values(r);
    const stage = new ColdStage();
    stage.add([r.losesAll, r.tail, r.beats]);
    stage.add([r.winners, r.unkeyed, r.beatenLater]);
    const adopted = new UsageStore(new Pricing());
    adopted.adopt(inOrder, stage.index, stage.keepsAll, stage.keepsNone);
    const applied = new UsageStore(new Pricing());
    applied.apply(inOrder, []);
    expect(lists(adopted)).toEqual(lists(applied));
    expect(adopted.keptGroups()[0]).toBe(r.unkeyed.records); // kept as they are, not copied
    expect(lists(adopted)[4]).toEqual([]);
    expect([...adopted.files.values()].map((f) => f.flagsKey)).toEqual(inOrder.map(() => '')); // a state's flags key is a string

    // an append to the file that lost all: its new request wins; another beats one of b's
    const grown = read('/e-loses.jsonl', [{ msg: 'e3', req: 'r', output: 1 }, { msg: 'b1', req: 'r', output: 50 }], r.losesAll.offset);
    for (const s of [adopted, applied]) s.apply([grown], []);
    expect(lists(adopted)).toEqual(lists(applied));
    expect(lists(adopted)[1]).toEqual(['/b-winners.jsonl@' + r.winners.records[1]!.offset]);
    // a file removed and a new one
    const added = read('/g-new.jsonl', [{ msg: 'c2', req: 'r', output: 7 }]);
    for (const s of [adopted, applied]) s.apply([added], ['/d-beats.jsonl']);
    expect(lists(adopted)).toEqual(lists(applied));
    expect(adopted.kept().map((x) => `${x.file}@${x.offset}`)).toEqual(applied.kept().map((x) => `${x.file}@${x.offset}`));
  });

  it('does not trust "keeps none" when reads were dropped from the stage (what beat them may be gone)', () => {
    const r = reads();
    const stage = new ColdStage();
    stage.add([r.beats, r.losesAll]);
    expect(names(stage.keepsNone)).toEqual(['/e-loses.jsonl']);
    const store = new UsageStore(new Pricing());
    store.adopt([r.losesAll], null, stage.keepsAll, stage.keepsNone); // d dropped (a second path, say)
    expect(lists(store)).toEqual([r.losesAll.records.map((x) => `${x.file}@${x.offset}`)]);
  });

  it('a path staged again makes none sure to keep none', () => {
    const r = reads();
    const stage = new ColdStage();
    stage.add([r.beats, r.losesAll]);
    stage.add([read('/d-beats.jsonl', [{ msg: 'x', req: 'r', output: 1 }])]);
    expect(stage.keepsNone.size).toBe(0);
  });
});
