import { addAgentShare, breakdownOf, mergeAgentShares, type AgentBreakdown, type AgentShare } from './agent-shares.js';
import type { UsageSlice } from './slice.js';
import { addRecord, addTotals, emptyTotals, listedModel, sortedNames, tableCost } from './totals.js';
import type { Totals, UsageRecord } from './types.js';
import { dayLabel } from './zone-calendar.js';

export interface ModelShare {
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

/** Per period, the agents with usage there and their parts (the API shows the parts on `by=agent`). */
export interface AgentParts {
  agents: string[];
  agentBreakdown: AgentBreakdown;
}

export interface DailyEntry extends Totals, AgentParts {
  date: string;
  modelsUsed: string[];
  modelBreakdown: Record<string, ModelShare>;
}

export interface MonthlyEntry extends Totals, AgentParts {
  month: string;
}

/** One local day's sums while they are being added up. */
export interface DayBucket {
  totals: Totals;
  models: Map<string, ModelShare>;
  agents: Map<string, AgentShare>;
}

function emptyBucket(): DayBucket {
  return { totals: emptyTotals(), models: new Map(), agents: new Map() };
}

/** One row per local day that has a request (zero-token days too, as ccusage lists them), ascending. */
export function dailyEntries(slice: UsageSlice, costOf: (r: UsageRecord) => number = tableCost): DailyEntry[] {
  const byDay = new Map<number, DayBucket>();
  slice.records.forEach((r, i) => addToDays(byDay, slice.days[i]!, r, costOf(r)));
  return entriesOf(byDay);
}

export function addToDays(byDay: Map<number, DayBucket>, day: number, r: UsageRecord, cost: number): void {
  let bucket = byDay.get(day);
  if (!bucket) byDay.set(day, (bucket = emptyBucket()));
  addRecord(bucket.totals, r, cost);
  addAgentShare(bucket.agents, r, cost);
  const model = listedModel(r);
  if (model === null) return;
  let share = bucket.models.get(model);
  if (!share) bucket.models.set(model, (share = { inputTokens: 0, outputTokens: 0, cost: 0 }));
  share.inputTokens += r.inputTokens;
  share.outputTokens += r.outputTokens;
  share.cost += cost;
}

/** Adds `from`'s days into `into` (fresh objects: `from` stays as it was). */
export function mergeDays(into: Map<number, DayBucket>, from: ReadonlyMap<number, DayBucket>): void {
  for (const [day, b] of from) {
    let bucket = into.get(day);
    if (!bucket) into.set(day, (bucket = emptyBucket()));
    addTotals(bucket.totals, b.totals);
    mergeAgentShares(bucket.agents, b.agents);
    for (const [model, s] of b.models) {
      let share = bucket.models.get(model);
      if (!share) bucket.models.set(model, (share = { inputTokens: 0, outputTokens: 0, cost: 0 }));
      share.inputTokens += s.inputTokens;
      share.outputTokens += s.outputTokens;
      share.cost += s.cost;
    }
  }
}

export function entriesOf(byDay: ReadonlyMap<number, DayBucket>): DailyEntry[] {
  return [...byDay.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([day, { totals, models, agents }]) => {
      const modelsUsed = sortedNames(models.keys());
      const modelBreakdown: Record<string, ModelShare> = {};
      for (const m of modelsUsed) modelBreakdown[m] = models.get(m)!;
      return { date: dayLabel(day), ...totals, modelsUsed, modelBreakdown, ...breakdownOf(agents) };
    });
}

export function monthlyEntries(daily: readonly DailyEntry[]): MonthlyEntry[] {
  const months = new Map<string, { totals: Totals; agents: Map<string, AgentShare> }>();
  for (const d of daily) {
    const month = d.date.slice(0, 7);
    let m = months.get(month);
    if (!m) months.set(month, (m = { totals: emptyTotals(), agents: new Map() }));
    addTotals(m.totals, d);
    mergeAgentShares(m.agents, Object.entries(d.agentBreakdown));
  }
  return [...months.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([month, m]) => ({ month, ...m.totals, ...breakdownOf(m.agents) }));
}
