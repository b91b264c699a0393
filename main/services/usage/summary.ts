import { breakdownOf, mergeAgentShares, type AgentShare } from './agent-shares.js';
import type { AgentParts, DailyEntry } from './daily.js';
import type { Pricing } from './pricing.js';
import { addTotals, emptyTotals, sortedNames } from './totals.js';

export interface UsageSummary extends AgentParts {
  totalTokens: number;
  totalCost: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  dailyAverage: { tokens: number; cost: number };
  dateRange: { from: string | null; to: string | null };
  modelsUsed: string[];
  /** Models the price table does not know: counted at cost 0, never silently priced. */
  unpricedModels: string[];
}

/** totalTokens = input + output + cache read + cache write; the average divides by days with data. */
export function summarize(daily: readonly DailyEntry[], pricing: Pricing): UsageSummary {
  const totals = emptyTotals();
  const models = new Set<string>();
  const agents = new Map<string, AgentShare>();
  for (const d of daily) {
    addTotals(totals, d);
    mergeAgentShares(agents, Object.entries(d.agentBreakdown));
    for (const m of d.modelsUsed) models.add(m);
  }
  const totalTokens = totals.inputTokens + totals.outputTokens + totals.cacheReadTokens + totals.cacheWriteTokens;
  const days = daily.length;
  const modelsUsed = sortedNames(models);
  return {
    totalTokens,
    totalCost: totals.cost,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    cacheReadTokens: totals.cacheReadTokens,
    cacheWriteTokens: totals.cacheWriteTokens,
    dailyAverage: { tokens: days ? Math.round(totalTokens / days) : 0, cost: days ? totals.cost / days : 0 },
    dateRange: { from: daily[0]?.date ?? null, to: daily[days - 1]?.date ?? null },
    modelsUsed,
    unpricedModels: modelsUsed.filter((m) => !pricing.isPriced(m)),
    ...breakdownOf(agents),
  };
}
