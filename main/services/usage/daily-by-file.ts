import { addToDays, entriesOf, mergeDays, type DailyEntry, type DayBucket } from './daily.js';
import { costIn, type CostMode } from './cost-mode.js';
import type { DayWindow } from './slice.js';
import type { UsageRecord } from './types.js';
import type { ZoneCalendar } from './zone-calendar.js';

type FileDays = Map<number, DayBucket>;

/** Windows remembered per file; more than this and the file's are dropped (one refresh rebuilds them). */
const MAX_WINDOWS_PER_FILE = 8;

/**
 * Daily rows summed per file first, then across files in file order. A file's sums are kept for
 * as long as the store keeps the same kept list for it (the store replaces a file's list only when
 * an append changes it), so after a 1 MiB append only that file is added up again instead of every
 * request of gigabytes of logs. Token counts are integers and exact either way; costs are summed
 * per file, then across files, so they can differ from a request-by-request sum in the last bits.
 */
export class DailyByFile {
  private readonly byList = new WeakMap<readonly UsageRecord[], Map<string, FileDays>>();

  daily(groups: readonly (readonly UsageRecord[])[], calendar: ZoneCalendar, window: DayWindow, mode: CostMode = 'calculate'): DailyEntry[] {
    const key = `${calendar.zone}|${window.since}|${window.until}|${mode}`;
    const costOf = costIn(mode);
    const since = window.since ?? -Infinity;
    const until = window.until ?? Infinity;
    const byDay: FileDays = new Map();
    for (const records of groups) {
      let windows = this.byList.get(records);
      if (!windows) this.byList.set(records, (windows = new Map()));
      let days = windows.get(key);
      if (!days) {
        if (windows.size >= MAX_WINDOWS_PER_FILE) windows.clear();
        days = new Map();
        for (const r of records) {
          const day = calendar.dayOf(r.timestamp);
          if (day >= since && day <= until) addToDays(days, day, r, costOf(r));
        }
        windows.set(key, days);
      }
      mergeDays(byDay, days);
    }
    return entriesOf(byDay);
  }
}
