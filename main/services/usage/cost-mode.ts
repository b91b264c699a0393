import type { UsageRecord } from './types.js';

/** ccusage's `--mode` (decisions §5): which cost a request counts with. */
export const COST_MODES = ['auto', 'calculate', 'display'] as const;
export type CostMode = (typeof COST_MODES)[number];
export const DEFAULT_COST_MODE: CostMode = 'auto';

export type CostOf = (r: UsageRecord) => number;

const costs: Record<CostMode, CostOf> = {
  // The cost the agent logged (older Claude Code versions wrote `costUSD`), else the price table's.
  auto: (r) => r.loggedCost ?? r.cost,
  calculate: (r) => r.cost,
  display: (r) => r.loggedCost ?? 0,
};

export function costIn(mode: CostMode): CostOf {
  return costs[mode];
}

export function isCostMode(value: unknown): value is CostMode {
  return typeof value === 'string' && (COST_MODES as readonly string[]).includes(value);
}
