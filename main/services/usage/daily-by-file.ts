import { addToDays, entriesOf, mergeDays, type DailyEntry, type DayBucket } from './daily.js';
import { costIn, type CostMode } from './cost-mode.js';
import type { DayWindow } from './slice.js';
import type { UsageRecord } from './types.js';
import { viewKept, keptCount, type KeptList } from './packed-read.js';
import type { ZoneCalendar } from './zone-calendar.js';

type FileDays = Map<number, DayBucket>;

/** Windows remembered per file; more than this and the file's are dropped (one refresh rebuilds them). */
const MAX_WINDOWS_PER_FILE = 8;

/** Files per block of sums (below, "blocks"). */
const BLOCK_FILES = 512;

interface Block {
  lists: readonly KeptList[];
  days: FileDays;
}

/**
 * Daily rows summed per file first, then per block of BLOCK_FILES files, then across blocks, in
 * file order. A file's sums are kept for as long as the store keeps the same kept list for it
 * (the store replaces a file's list only when an append changes it), and a block's sums for as
 * long as its files' lists are the same arrays, so after an append only that file and its block
 * are added up again: with 140 000 files (OpenCode writes one per message) merging every file's
 * sums was most of a refresh. Token counts are integers and exact either way; costs are summed per
 * file, per block, then across blocks, so they can differ from a request-by-request sum in the
 * last bits (up to BLOCK_FILES files, one block: the order of the files themselves).
 *
 * A file of one request (most OpenCode message files) has no sums of its own: its request is
 * added straight into its block. That is the same to the bit as merging its sums (0 + x is x),
 * and spares a map and its buckets per file; a block summed again adds it again, one request.
 */
export class DailyByFile {
  private readonly byList = new WeakMap<KeptList, Map<string, FileDays>>();
  /** Per window key, the blocks of the last answer. */
  private readonly blocks = new Map<string, Block[]>();

  daily(groups: readonly KeptList[], calendar: ZoneCalendar, window: DayWindow, mode: CostMode = 'calculate'): DailyEntry[] {
    const key = `${calendar.zone}|${window.since}|${window.until}|${mode}`;
    const costOf = costIn(mode);
    const since = window.since ?? -Infinity;
    const until = window.until ?? Infinity;
    const add = (days: FileDays, r: UsageRecord): void => {
      const day = calendar.dayOf(r.timestamp);
      if (day >= since && day <= until) addToDays(days, day, r, costOf(r));
    };
    const fileDays = (records: KeptList): FileDays => {
      let windows = this.byList.get(records);
      if (!windows) this.byList.set(records, (windows = new Map()));
      let days = windows.get(key);
      if (!days) {
        if (windows.size >= MAX_WINDOWS_PER_FILE) windows.clear();
        const into: FileDays = (days = new Map());
        viewKept(records, (r) => add(into, r));
        windows.set(key, days);
      }
      return days;
    };
    const blockDays = (lists: readonly KeptList[]): FileDays => {
      const days: FileDays = new Map();
      for (const records of lists) {
        const count = keptCount(records);
        if (count > 1) mergeDays(days, fileDays(records));
        else if (count === 1) viewKept(records, (r) => add(days, r));
      }
      return days;
    };
    const before = this.blocks.get(key) ?? [];
    const blocks: Block[] = [];
    const byDay: FileDays = new Map();
    for (let at = 0, b = 0; at < groups.length; at += BLOCK_FILES, b++) {
      const lists = groups.slice(at, at + BLOCK_FILES);
      const old = before[b];
      let block = old;
      if (old === undefined || old.lists.length !== lists.length || old.lists.some((l, i) => l !== lists[i])) block = { lists, days: blockDays(lists) };
      blocks.push(block!);
      mergeDays(byDay, block!.days);
    }
    if (!this.blocks.has(key) && this.blocks.size >= MAX_WINDOWS_PER_FILE) this.blocks.clear();
    this.blocks.set(key, blocks);
    return entriesOf(byDay);
  }
}
