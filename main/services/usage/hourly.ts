import { addAgentShare, breakdownOf, type AgentShare } from './agent-shares.js';
import type { AgentParts } from './daily.js';
import { addRecord, emptyTotals, listedModel, sortedNames, tableCost } from './totals.js';
import type { Totals, UsageRecord } from './types.js';
import { hourLabel, type ZoneCalendar } from './zone-calendar.js';

export interface HourlyEntry extends Totals, AgentParts {
  hour: string;
  modelsUsed: string[];
}

/**
 * One entry for every local wall-clock hour from `first` to `last` (local hour numbers),
 * quiet hours filled with zeros. On a DST change the repeated hour is one slot and the
 * skipped hour is an empty slot, so every day has 24 entries.
 */
export function hourlyEntries(
  records: readonly UsageRecord[],
  calendar: ZoneCalendar,
  first: number,
  last: number,
  costOf: (r: UsageRecord) => number = tableCost,
): HourlyEntry[] {
  const slots = new Map<number, { totals: Totals; models: Set<string>; agents: Map<string, AgentShare> }>();
  for (const r of records) {
    const hour = calendar.hourOf(r.timestamp);
    if (hour < first || hour > last) continue;
    let slot = slots.get(hour);
    if (!slot) slots.set(hour, (slot = { totals: emptyTotals(), models: new Set(), agents: new Map() }));
    const cost = costOf(r);
    addRecord(slot.totals, r, cost);
    addAgentShare(slot.agents, r, cost);
    const model = listedModel(r);
    if (model !== null) slot.models.add(model);
  }
  const entries: HourlyEntry[] = [];
  for (let hour = first; hour <= last; hour++) {
    const slot = slots.get(hour);
    entries.push({ hour: hourLabel(hour), ...(slot?.totals ?? emptyTotals()), modelsUsed: slot ? sortedNames(slot.models) : [], ...breakdownOf(slot?.agents ?? new Map()) });
  }
  return entries;
}
