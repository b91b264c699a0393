import type { UsageSlice } from './slice.js';
import { projectOf } from './sessions.js';
import { byName, listedModel, tableCost } from './totals.js';
import type { UsageRecord } from './types.js';

export interface ProjectEntry {
  /** The `cwd` the requests were made in (the transcript's project folder when a line names none). */
  projectPath: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  totalTokens: number;
  cost: number;
  /** Sessions with a request in this project. */
  sessions: number;
  lastActivity: string;
  /** The model with the highest cost here (most tokens when nothing costs anything); null without one. */
  topModel: string | null;
  /** The coding agent with the most cost (then tokens) in the project (decisions §5.1). */
  agent: string;
}

interface Building {
  entry: ProjectEntry;
  last: number;
  sessions: Set<string>;
  models: Map<string, { cost: number; tokens: number }>;
  agents: Map<string, { cost: number; tokens: number }>;
}

/** Per project (`cwd`) in the slice, by cost, descending (then by path). */
export function projectEntries(slice: UsageSlice, costOf: (r: UsageRecord) => number = tableCost): ProjectEntry[] {
  const projects = new Map<string, Building>();
  for (const r of slice.records) {
    const projectPath = projectOf(r);
    let p = projects.get(projectPath);
    if (!p) {
      const entry: ProjectEntry = {
        projectPath,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        totalTokens: 0,
        cost: 0,
        sessions: 0,
        lastActivity: '',
        topModel: null,
        agent: r.agent,
      };
      projects.set(projectPath, (p = { entry, last: -Infinity, sessions: new Set(), models: new Map(), agents: new Map() }));
    }
    const cost = costOf(r);
    const tokens = r.inputTokens + r.outputTokens + r.cacheReadTokens + r.cacheWrite5mTokens + r.cacheWrite1hTokens;
    const e = p.entry;
    e.inputTokens += r.inputTokens;
    e.outputTokens += r.outputTokens;
    e.cacheReadTokens += r.cacheReadTokens;
    e.cacheWriteTokens += r.cacheWrite5mTokens + r.cacheWrite1hTokens;
    e.totalTokens += tokens;
    e.cost += cost;
    p.sessions.add(r.sessionId);
    if (r.timestamp > p.last) p.last = r.timestamp;
    const model = listedModel(r);
    if (model !== null) addTo(p.models, model, cost, tokens);
    addTo(p.agents, r.agent, cost, tokens);
  }
  const list = [...projects.values()].map((p) => ({
    ...p.entry,
    sessions: p.sessions.size,
    lastActivity: new Date(p.last).toISOString(),
    topModel: topOf(p.models),
    agent: topOf(p.agents) ?? p.entry.agent,
  }));
  return list.sort((a, b) => b.cost - a.cost || byName(a.projectPath, b.projectPath));
}

function addTo(into: Map<string, { cost: number; tokens: number }>, name: string, cost: number, tokens: number): void {
  let m = into.get(name);
  if (!m) into.set(name, (m = { cost: 0, tokens: 0 }));
  m.cost += cost;
  m.tokens += tokens;
}

function topOf(models: ReadonlyMap<string, { cost: number; tokens: number }>): string | null {
  let best: string | null = null;
  let bestOf = { cost: -1, tokens: -1 };
  for (const [name, m] of models) {
    const better = m.cost > bestOf.cost || (m.cost === bestOf.cost && (m.tokens > bestOf.tokens || (m.tokens === bestOf.tokens && best !== null && name < best)));
    if (better) {
      best = name;
      bestOf = m;
    }
  }
  return best;
}
