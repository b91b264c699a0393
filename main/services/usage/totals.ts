import { SYNTHETIC_MODEL, type Totals, type UsageRecord } from './types.js';

export function emptyTotals(): Totals {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cost: 0 };
}

/** `cost` is the record's cost in the answer's cost mode (cost-mode.ts). */
export function addRecord(t: Totals, r: UsageRecord, cost: number): void {
  t.inputTokens += r.inputTokens;
  t.outputTokens += r.outputTokens;
  t.cacheReadTokens += r.cacheReadTokens;
  t.cacheWriteTokens += r.cacheWrite5mTokens + r.cacheWrite1hTokens;
  t.cost += cost;
}

/** The record's own cost from the price table: the default of the pure aggregates. */
export const tableCost = (r: UsageRecord): number => r.cost;

export function addTotals(t: Totals, other: Totals): void {
  t.inputTokens += other.inputTokens;
  t.outputTokens += other.outputTokens;
  t.cacheReadTokens += other.cacheReadTokens;
  t.cacheWriteTokens += other.cacheWriteTokens;
  t.cost += other.cost;
}

/**
 * The name to list for a record: `<synthetic>` (API error placeholders) and missing models are not
 * models. Fast-mode requests (`usage.speed: "fast"`) are listed as `<model>-fast`, as ccusage does,
 * so per-model rows line up with its reports (they bill a multiple of the list price).
 */
export function listedModel(r: UsageRecord): string | null {
  if (r.model === null || r.model === SYNTHETIC_MODEL) return null;
  // Codex's fast tier is a setting of the whole home, and ccusage lists those models by their own name.
  return r.fast && r.agent === 'claude' ? `${r.model}-fast` : r.model;
}

/** Plain code-unit order: what "sorted by name" means everywhere in the API. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort(byName);
}

/** Two decimals, half away from zero, without 1.005 → 1.00 binary surprises. */
export function round2(value: number): number {
  return Math.round((value + Math.sign(value) * Number.EPSILON) * 100) / 100;
}
