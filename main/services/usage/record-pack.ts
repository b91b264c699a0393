import type { UsageRecord } from './types.js';

/**
 * Records as a few typed arrays, one string of keys and a string table: how they cross from scan
 * workers (the buffers are transferred, not cloned) and how the disk cache stores them (the same
 * arrays written raw and read back as views). Far cheaper to move than an object per record.
 */
export interface PackedRecords {
  count: number;
  /** NUM per record: timestamp, input, output, cache write 5m, cache write 1h, cache read, offset, flags, cost, logged cost (NaN: none), extra tokens, priced-only tokens. */
  numbers: Float64Array;
  /** REF per record: file, model, session, project path, version, agent; indexes into `strings`, -1 for null. */
  refs: Int32Array;
  /** Every de-duplication key, end to end; `keyLengths[i]` is -1 for a record without one. */
  keyText: string;
  keyLengths: Int32Array;
  strings: string[];
}

export const NUM = 12;
export const REF = 6;
const SIDECHAIN = 1;
const FAST = 2;

/** Room a packer keeps between take()s: 65 536 records, 8 MiB. */
const KEPT_ROOM = 1 << 16;

/**
 * Fills packed arrays record by record (growing them past `capacity`), for one set of records with
 * one string table: a worker's reply, or a segment the disk cache packs. take() ends a set; the
 * packer then starts the next in the same arrays, so a worker's packer grows to its batches' size
 * once rather than for every batch.
 */
export class RecordPacker {
  private numberArray: Float64Array;
  private refArray: Int32Array;
  private keyLengthArray: Int32Array;
  private capacity: number;
  private keys: string[] = [];
  private count = 0;
  private strings: string[] = [];
  private index = new Map<string, number>();
  // Neighbouring records nearly always share file, model, session, path and version: remember
  // the last string per column and skip the map for it.
  private readonly lastText: Array<string | null> = [null, null, null, null, null, null];
  private readonly lastRef = [-1, -1, -1, -1, -1, -1];

  constructor(capacity: number) {
    this.capacity = capacity;
    this.numberArray = new Float64Array(capacity * NUM);
    this.refArray = new Int32Array(capacity * REF);
    this.keyLengthArray = new Int32Array(capacity);
  }

  add(r: UsageRecord): void {
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    const n = i * NUM;
    const numbers = this.numberArray;
    numbers[n] = r.timestamp;
    numbers[n + 1] = r.inputTokens;
    numbers[n + 2] = r.outputTokens;
    numbers[n + 3] = r.cacheWrite5mTokens;
    numbers[n + 4] = r.cacheWrite1hTokens;
    numbers[n + 5] = r.cacheReadTokens;
    numbers[n + 6] = r.offset;
    numbers[n + 7] = (r.sidechain ? SIDECHAIN : 0) | (r.fast ? FAST : 0);
    numbers[n + 8] = r.cost;
    numbers[n + 9] = r.loggedCost ?? NaN;
    numbers[n + 10] = r.extraTokens;
    numbers[n + 11] = r.pricedOnlyTokens;
    const f = i * REF;
    const refs = this.refArray;
    refs[f] = this.ref(0, r.file);
    refs[f + 1] = this.ref(1, r.model);
    refs[f + 2] = this.ref(2, r.sessionId);
    refs[f + 3] = this.ref(3, r.projectPath);
    refs[f + 4] = this.ref(4, r.version);
    refs[f + 5] = this.ref(5, r.agent);
    this.keyLengthArray[i] = r.key === null ? -1 : r.key.length;
    if (r.key !== null) this.keys.push(r.key);
  }

  /** Room for twice as many records, the ones so far copied over. */
  private grow(): void {
    this.resize(Math.max(16, this.capacity * 2), true);
  }

  private resize(capacity: number, keep: boolean): void {
    const numbers = new Float64Array(capacity * NUM);
    const refs = new Int32Array(capacity * REF);
    const keyLengths = new Int32Array(capacity);
    if (keep) {
      numbers.set(this.numberArray);
      refs.set(this.refArray);
      keyLengths.set(this.keyLengthArray);
    }
    [this.numberArray, this.refArray, this.keyLengthArray, this.capacity] = [numbers, refs, keyLengths, capacity];
  }

  /**
   * Everything added since the last take(), as PackedRecords in arrays of exactly their size: these
   * arrays when full (the packer gets new ones), else copies (a grown packer's spare room is not
   * carried along). Room beyond KEPT_ROOM is let go.
   */
  take(): PackedRecords {
    const count = this.count;
    const full = count === this.capacity;
    const packed: PackedRecords = {
      count,
      numbers: full ? this.numberArray : this.numberArray.slice(0, count * NUM),
      refs: full ? this.refArray : this.refArray.slice(0, count * REF),
      keyLengths: full ? this.keyLengthArray : this.keyLengthArray.slice(0, count),
      keyText: this.keys.join(''),
      strings: this.strings,
    };
    if (full || this.capacity > KEPT_ROOM) this.resize(Math.min(this.capacity, KEPT_ROOM), false);
    this.count = 0;
    this.keys = [];
    this.strings = [];
    this.index = new Map();
    this.lastText.fill(null);
    this.lastRef.fill(-1);
    return packed;
  }

  /** Records added so far. */
  get size(): number {
    return this.count;
  }

  private ref(column: number, s: string | null): number {
    if (s === null) return -1;
    if (s === this.lastText[column]) return this.lastRef[column]!;
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.index.set(s, i);
    }
    this.lastText[column] = s;
    this.lastRef[column] = i;
    return i;
  }
}

export function packRecords(records: readonly UsageRecord[]): PackedRecords {
  const packer = new RecordPacker(records.length);
  for (const r of records) packer.add(r);
  return packer.take();
}

/**
 * Reads packed records back in order, one object per record built in one place (one hidden
 * class), keys as slices of the one key string. Throws on arrays that do not fit together or a
 * reference outside its string table: the disk cache treats that as damage.
 */
export class RecordReader {
  private at = 0;
  private keyAt = 0;
  // Own fields rather than reads through the packed object: a cloned reply need not have a fast shape.
  private readonly count: number;
  private readonly numbers: Float64Array;
  private readonly refs: Int32Array;
  private readonly keyLengths: Int32Array;
  private readonly keyText: string;

  constructor(p: Omit<PackedRecords, 'strings'>) {
    const { count, numbers, refs, keyLengths, keyText } = p;
    if (numbers.length !== count * NUM || refs.length !== count * REF || keyLengths.length !== count) {
      throw new Error('packed records do not fit together');
    }
    let chars = 0;
    for (let i = 0; i < count; i++) chars += Math.max(keyLengths[i]!, 0);
    if (chars !== keyText.length) throw new Error('packed keys do not fit their lengths');
    this.count = count;
    this.numbers = numbers;
    this.refs = refs;
    this.keyLengths = keyLengths;
    this.keyText = keyText;
  }

  get done(): boolean {
    return this.at === this.count;
  }

  /** Moves to record `i` (a file's run in a disk cache segment); forward moves only sum the key lengths skipped. */
  seek(i: number): void {
    if (i < 0 || i > this.count) throw new Error('a run outside its packed records');
    if (i < this.at) this.at = this.keyAt = 0;
    for (; this.at < i; this.at++) this.keyAt += Math.max(this.keyLengths[this.at]!, 0);
  }

  /** The string table index in `column` (REF order: file first) of the record `next` returns. */
  refOfNext(column: number): number {
    if (this.at >= this.count) throw new Error('fewer packed records than claimed');
    return this.refs[this.at * REF + column]!;
  }

  next(strings: readonly string[]): UsageRecord {
    const i = this.at++;
    if (i >= this.count) throw new Error('fewer packed records than claimed');
    const length = this.keyLengths[i]!;
    let key: string | null = null;
    if (length >= 0) {
      key = this.keyText.slice(this.keyAt, this.keyAt + length);
      this.keyAt += length;
    }
    return recordAt(this.numbers, this.refs, i, key, strings);
  }
}

/** Record `i` of packed arrays, with its key (read from the key text by the caller), as an object: built in this one place (one hidden class). */
export function recordAt(numbers: Float64Array, refs: Int32Array, i: number, key: string | null, strings: readonly string[]): UsageRecord {
  const n = i * NUM;
  const f = i * REF;
  const flags = numbers[n + 7]!;
  return {
    agent: required(strings, refs[f + 5]!),
    extraTokens: small(numbers[n + 10]!),
    pricedOnlyTokens: small(numbers[n + 11]!),
    key,
    timestamp: numbers[n]!,
    model: text(strings, refs[f + 1]!),
    inputTokens: small(numbers[n + 1]!),
    outputTokens: small(numbers[n + 2]!),
    cacheWrite5mTokens: small(numbers[n + 3]!),
    cacheWrite1hTokens: small(numbers[n + 4]!),
    cacheReadTokens: small(numbers[n + 5]!),
    sidechain: (flags & SIDECHAIN) !== 0,
    fast: (flags & FAST) !== 0,
    sessionId: required(strings, refs[f + 2]!),
    projectPath: text(strings, refs[f + 3]!),
    version: text(strings, refs[f + 4]!),
    file: required(strings, refs[f]!),
    offset: small(numbers[n + 6]!),
    cost: numbers[n + 8]!,
    loggedCost: Number.isNaN(numbers[n + 9]!) ? null : numbers[n + 9]!,
  };
}

/** Sets every field of `into` (a record made by recordAt) to record `i`'s, its key null: one object read as many records. */
export function refillRecord(into: UsageRecord, numbers: Float64Array, refs: Int32Array, i: number, strings: readonly string[]): void {
  const n = i * NUM;
  const f = i * REF;
  const flags = numbers[n + 7]!;
  into.agent = required(strings, refs[f + 5]!);
  into.extraTokens = small(numbers[n + 10]!);
  into.pricedOnlyTokens = small(numbers[n + 11]!);
  into.key = null;
  into.timestamp = numbers[n]!;
  into.model = text(strings, refs[f + 1]!);
  into.inputTokens = small(numbers[n + 1]!);
  into.outputTokens = small(numbers[n + 2]!);
  into.cacheWrite5mTokens = small(numbers[n + 3]!);
  into.cacheWrite1hTokens = small(numbers[n + 4]!);
  into.cacheReadTokens = small(numbers[n + 5]!);
  into.sidechain = (flags & SIDECHAIN) !== 0;
  into.fast = (flags & FAST) !== 0;
  into.sessionId = required(strings, refs[f + 2]!);
  into.projectPath = text(strings, refs[f + 3]!);
  into.version = text(strings, refs[f + 4]!);
  into.file = required(strings, refs[f]!);
  into.offset = small(numbers[n + 6]!);
  into.cost = numbers[n + 8]!;
  into.loggedCost = Number.isNaN(numbers[n + 9]!) ? null : numbers[n + 9]!;
}

/** Every record of a worker's reply, in order. */
export function unpackRecords(p: PackedRecords): UsageRecord[] {
  const reader = new RecordReader(p);
  const records: UsageRecord[] = [];
  for (let i = 0; i < p.count; i++) records.push(reader.next(p.strings));
  return records;
}

/**
 * A Float64Array read yields a heap number even for 5. Stored as such, every count of every
 * record would be a separate heap object (and the records' shared field layout would box counts
 * parsed from lines too); as a small integer it is stored in the record itself.
 */
function small(x: number): number {
  const i = x | 0;
  return i === x ? i : x;
}

function text(strings: readonly string[], i: number): string | null {
  if (i === -1) return null;
  const s = strings[i];
  if (s === undefined) throw new Error('packed record points outside its string table');
  return s;
}

function required(strings: readonly string[], i: number): string {
  const s = text(strings, i);
  if (s === null) throw new Error('packed record without file, session or agent');
  return s;
}
