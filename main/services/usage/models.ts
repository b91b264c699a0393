import type { UsageSlice } from './slice.js';
import { addRecord, byName, emptyTotals, listedModel, round2, tableCost } from './totals.js';
import type { Totals, UsageRecord } from './types.js';

export interface ModelEntry extends Totals {
  model: string;
  /** Share of the total cost, 0–100, two decimals. */
  percentage: number;
  /** input / output, two decimals; null when there is no output. */
  ioRatio: number | null;
}

export function modelEntries(slice: UsageSlice, costOf: (r: UsageRecord) => number = tableCost): { models: ModelEntry[]; totalCost: number } {
  const byModel = new Map<string, Totals>();
  let totalCost = 0;
  for (const r of slice.records) {
    const cost = costOf(r);
    totalCost += cost;
    const model = listedModel(r);
    if (model === null) continue;
    let totals = byModel.get(model);
    if (!totals) byModel.set(model, (totals = emptyTotals()));
    addRecord(totals, r, cost);
  }
  const models = [...byModel.entries()].map(([model, t]) => ({
    model,
    ...t,
    percentage: totalCost > 0 ? round2((t.cost / totalCost) * 100) : 0,
    ioRatio: t.outputTokens > 0 ? round2(t.inputTokens / t.outputTokens) : null,
  }));
  models.sort((a, b) => b.cost - a.cost || byName(a.model, b.model));
  return { models, totalCost };
}
