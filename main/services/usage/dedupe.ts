import { tokenTotal } from './record.js';
import type { UsageRecord } from './types.js';

/**
 * True when `a` should be kept instead of `b` (same key): a non-sidechain line beats a sidechain
 * one, then the larger token total wins (Claude Code first writes partial usage), then the larger
 * cost, then the line seen first (path order, then byte offset). A total order, so the winner of
 * a set does not depend on the order records arrive in, and per-file winners can be merged.
 */
export function isPreferred(a: UsageRecord, b: UsageRecord): boolean {
  if (a.sidechain !== b.sidechain) return !a.sidechain;
  const ta = tokenTotal(a);
  const tb = tokenTotal(b);
  if (ta !== tb) return ta > tb;
  if (a.cost !== b.cost) return a.cost > b.cost;
  if (a.file !== b.file) return a.file < b.file;
  return a.offset < b.offset;
}

/** Keeps one record per key; records without a key are always kept. */
export class DedupIndex {
  private readonly byKey = new Map<string, UsageRecord>();
  private readonly unkeyed: UsageRecord[] = [];

  /** Returns the earlier winner `record` displaced, if any (its file's kept list changes). */
  add(record: UsageRecord): UsageRecord | null {
    if (record.key === null) {
      this.unkeyed.push(record);
      return null;
    }
    const current = this.byKey.get(record.key);
    if (current !== undefined && !isPreferred(record, current)) return null;
    this.byKey.set(record.key, record);
    return current ?? null;
  }

  /**
   * add(), answering with the request that is not kept now because of it: `record` itself when an
   * earlier one of its key wins, the earlier winner it displaced, or null (a new or unkeyed one).
   */
  offer(record: UsageRecord): UsageRecord | null {
    if (record.key === null) {
      this.unkeyed.push(record);
      return null;
    }
    const current = this.byKey.get(record.key);
    if (current !== undefined && !isPreferred(record, current)) return record;
    this.byKey.set(record.key, record);
    return current ?? null;
  }

  addAll(records: Iterable<UsageRecord>): void {
    for (const r of records) this.add(r);
  }

  /** True when `record` is what this index keeps for its key (always for unkeyed records). */
  keeps(record: UsageRecord): boolean {
    return record.key === null || this.byKey.get(record.key) === record;
  }

  get size(): number {
    return this.byKey.size + this.unkeyed.length;
  }

  /** The kept records: keyed winners in first-insertion order, then the unkeyed ones. */
  records(): UsageRecord[] {
    return [...this.byKey.values(), ...this.unkeyed];
  }
}

/** Drops requests another line of the same file beats: they can never win globally. */
export function fileWinners(records: readonly UsageRecord[]): UsageRecord[] {
  const best = new Map<string, UsageRecord>();
  const out: UsageRecord[] = [];
  for (const r of records) {
    if (r.key === null) {
      out.push(r);
      continue;
    }
    const current = best.get(r.key);
    if (current === undefined || isPreferred(r, current)) best.set(r.key, r);
  }
  for (const r of best.values()) out.push(r); // not push(...): a store file can hold 250 000+
  return out;
}

export function dedupe(records: Iterable<UsageRecord>): UsageRecord[] {
  const index = new DedupIndex();
  index.addAll(records);
  return index.records();
}
