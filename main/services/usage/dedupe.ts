import { tokenTotal } from './record.js';
import type { UsageRecord } from './types.js';

/**
 * True when `a` should be kept instead of `b` (same key): a non-sidechain line beats a sidechain
 * one, then the larger token total wins (Claude Code first writes partial usage), then the larger
 * cost, then the line seen first (path order, then byte offset). A total order, so the winner of
 * a set does not depend on the order records arrive in, and per-file winners can be merged.
 * Some agents' copies of one request go by ccusage's own rule first (COPY_RULES).
 */
export function isPreferred(a: UsageRecord, b: UsageRecord): boolean {
  const own = a.agent === b.agent ? COPY_RULES[a.agent]?.(a, b) : undefined;
  if (own !== undefined && own !== null) return own;
  if (a.sidechain !== b.sidechain) return !a.sidechain;
  const ta = tokenTotal(a);
  const tb = tokenTotal(b);
  if (ta !== tb) return ta > tb;
  if (a.cost !== b.cost) return a.cost > b.cost;
  if (a.file !== b.file) return a.file < b.file;
  return a.offset < b.offset;
}

/** True when `a` wins over `b` by the rule; null when the rule cannot tell them apart (the general rule decides). */
type CopyRule = (a: UsageRecord, b: UsageRecord) => boolean | null;

/** The copy of the dir named first: the precedence the loader put in `offset` (agents/root-order.ts). */
const firstDir: CopyRule = (a, b) => (a.offset !== b.offset ? a.offset < b.offset : null);
const laterPath: CopyRule = (a, b) => (a.file !== b.file ? a.file > b.file : null);

/**
 * The copy ccusage 20.0.24 keeps of a request found in several files (observed on hand-made
 * folders, cross-check-first-copy.test.ts): OpenCode's first root's (a root's database row before
 * its files; two files of one root, not something OpenCode writes, by the general rule), Hermes's
 * first home's, Kilo's first root's (in a store, its first row), Codebuff's in the later path,
 * and Droid's newest session total (its time), then the later path.
 */
const COPY_RULES: Readonly<Record<string, CopyRule>> = {
  opencode: firstDir,
  hermes: firstDir,
  kilo: firstDir,
  codebuff: laterPath,
  droid: (a, b) => (a.timestamp !== b.timestamp ? a.timestamp > b.timestamp : laterPath(a, b)),
};

/** Keeps one record per key; records without a key are always kept. */
export class DedupIndex {
  private readonly byKey = new Map<string, UsageRecord>();
  private readonly unkeyed: UsageRecord[] = [];

  /** Returns the earlier winner `record` displaced, if any (its file's kept list changes). */
  add(record: UsageRecord): UsageRecord | null {
    const lost = this.offer(record);
    return lost === record ? null : lost;
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
