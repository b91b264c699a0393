import { REF, recordAt, refillRecord } from './record-pack.js';
import type { PackedBatch, PackedRun } from './packed-batch.js';
import type { FileRead } from './scan-file.js';
import type { UsageRecord } from './types.js';

/** A read's fields besides its requests, as a scan worker's reply gives them (read-pack.ts). */
export type ReadFields = Omit<FileRead, 'records' | 'tail' | 'packed' | 'flagsKey'>;

/**
 * A file as a scan worker read it, its requests in the worker's batch. One whose requests have no
 * de-duplication key and which has no tail (most agents' files: codex, gemini, amp…) leaves them
 * there until something asks for them (`onlyPacked`): every one is kept, so a cold scan's daily
 * answer (summed through one object refilled per request) and its disk cache write (the batch's
 * bytes as they are, the kept bits as one range) need none of them as objects held. At 1 GiB of
 * logs, ~860 000 request objects that all outlived the scan were copied by scavenges and marked
 * again by every full collection. The others get theirs as objects at once (the index needs them).
 * Every read of a reply is of this one class, so the code that walks 140 000 of them sees one shape.
 *
 * `records` makes them on first use (any other reader: sessions, projects, an index rebuild); from
 * then on they are this file's array as for any other read. A new array set in their place ends
 * the packed run (the disk cache packs the file afresh).
 */
export class PackedRead implements FileRead {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly dev: number;
  readonly nlink: number;
  readonly start: number;
  readonly offset: number;
  readonly malformed: number;
  readonly tailMalformed: number;
  readonly oversized: number;
  readonly fingerprint: string;
  tail: UsageRecord[];
  flagsKey?: string;
  packed?: PackedRun;
  /** The batch its requests are read from while only packed; let go once they are made. */
  private source: PackedBatch | null;

  /**
   * `records` null: the run of `count` requests from `first` stays packed (no keys, no tail);
   * else the requests and tail as objects, which that run holds.
   */
  constructor(
    fields: ReadFields,
    batch: PackedBatch,
    private readonly first: number,
    /** Its requests (tail excluded). */
    readonly count: number,
    private made: UsageRecord[] | null,
    tail: UsageRecord[],
  ) {
    this.path = fields.path;
    this.size = fields.size;
    this.mtimeMs = fields.mtimeMs;
    this.ino = fields.ino;
    this.dev = fields.dev;
    this.nlink = fields.nlink;
    this.start = fields.start;
    this.offset = fields.offset;
    this.malformed = fields.malformed;
    this.tailMalformed = fields.tailMalformed;
    this.oversized = fields.oversized;
    this.fingerprint = fields.fingerprint;
    this.tail = tail;
    this.flagsKey = undefined;
    this.source = made === null ? batch : null;
    this.packed = made === null ? { batch, first, records: count, tail: 0 } : { batch, first, records: count, tail: tail.length, lists: [made, tail] };
  }

  get records(): UsageRecord[] {
    if (this.made === null) {
      const { numbers, refs, strings } = this.source!;
      const made: UsageRecord[] = [];
      for (let i = this.first; i < this.first + this.count; i++) made.push(recordAt(numbers, refs, i, null, strings));
      this.made = made;
      this.source = null; // the disk cache may still write it through `packed` until releasePacks()
    }
    return this.made;
  }

  set records(records: UsageRecord[]) {
    this.made = records;
    this.packed = undefined;
    this.source = null;
  }

  /** True while its requests are only in the batch (`records` never asked for). */
  get onlyPacked(): boolean {
    return this.made === null;
  }

  /**
   * Calls `fn` with each request in order, to be read during the call only (sums): the file's own
   * objects once made, else one object refilled for each request, so summing them makes none.
   */
  forEachView(fn: (r: UsageRecord) => void): void {
    if (this.made !== null) {
      for (const r of this.made) fn(r);
      return;
    }
    const { numbers, refs, strings } = this.source!;
    const view = recordAt(numbers, refs, this.first, null, strings);
    fn(view);
    for (let i = this.first + 1; i < this.first + this.count; i++) {
      refillRecord(view, numbers, refs, i, strings);
      fn(view);
    }
  }

  /** The agent of its requests (all of one file are one agent's). */
  get agent(): string | undefined {
    if (this.source === null) return this.made![0]?.agent;
    const s = this.source.strings[this.source.refs[this.first * REF + 5]!];
    if (s === undefined) throw new Error('packed record points outside its string table');
    return s;
  }
}

/**
 * A file's kept requests as the store hands them to the daily sums and the disk cache: an array,
 * or the file itself while it is a PackedRead whose requests are all kept and only packed.
 */
export type KeptList = UsageRecord[] | PackedRead;

export function keptCount(list: KeptList): number {
  return list instanceof PackedRead ? list.count : list.length;
}

/** Calls `fn` with each request of the list, to be read during the call only (PackedRead.forEachView). */
export function viewKept(list: KeptList, fn: (r: UsageRecord) => void): void {
  if (list instanceof PackedRead) list.forEachView(fn);
  else for (const r of list) fn(r);
}

/** The agent of a non-empty list's requests. */
export function agentOfKept(list: KeptList): string | undefined {
  return list instanceof PackedRead ? list.agent : list[0]?.agent;
}

/** The list as an array (a PackedRead's requests are made then, once). */
export function keptRecords(list: KeptList): UsageRecord[] {
  return list instanceof PackedRead ? list.records : list;
}
