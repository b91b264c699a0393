import { sortedNames } from './totals.js';
import type { Totals, UsageRecord } from './types.js';

/**
 * One agent's part of a period (decisions §5.1 `agentBreakdown`). `totalTokens` is ccusage's total
 * for that agent: the four kinds plus the extra tokens it counts (reasoning, thoughts).
 */
export interface AgentShare extends Totals {
  totalTokens: number;
}

export type AgentBreakdown = Record<string, AgentShare>;

export function addAgentShare(shares: Map<string, AgentShare>, r: UsageRecord, cost: number): void {
  let s = shares.get(r.agent);
  if (!s) shares.set(r.agent, (s = emptyShare()));
  const write = r.cacheWrite5mTokens + r.cacheWrite1hTokens;
  s.inputTokens += r.inputTokens;
  s.outputTokens += r.outputTokens;
  s.cacheReadTokens += r.cacheReadTokens;
  s.cacheWriteTokens += write;
  s.totalTokens += r.inputTokens + r.outputTokens + r.cacheReadTokens + write + r.extraTokens;
  s.cost += cost;
}

/** Adds `from` into `into` (fresh objects in `into`: `from` stays as it was). */
export function mergeAgentShares(into: Map<string, AgentShare>, from: Iterable<[string, AgentShare]>): void {
  for (const [agent, f] of from) {
    let s = into.get(agent);
    if (!s) into.set(agent, (s = emptyShare()));
    s.inputTokens += f.inputTokens;
    s.outputTokens += f.outputTokens;
    s.cacheReadTokens += f.cacheReadTokens;
    s.cacheWriteTokens += f.cacheWriteTokens;
    s.totalTokens += f.totalTokens;
    s.cost += f.cost;
  }
}

/** Agent ids in name order, with their shares (copies). */
export function breakdownOf(shares: ReadonlyMap<string, AgentShare>): { agents: string[]; agentBreakdown: AgentBreakdown } {
  const agents = sortedNames(shares.keys());
  const agentBreakdown: AgentBreakdown = {};
  for (const a of agents) agentBreakdown[a] = { ...shares.get(a)! };
  return { agents, agentBreakdown };
}

function emptyShare(): AgentShare {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0, cost: 0 };
}
